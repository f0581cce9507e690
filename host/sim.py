"""Terminal simulator of the handheld: `python3 run.py play` (python -m host.sim).

Runs the device's own main loop (hardware/mainloop.py) with jarmo.App,
Leds writing into a NeoPixel object and the display's Labels; instead of
buttons it reads the keyboard, and instead of LEDs it draws the bytes that
NeoPixel object last transmitted, as the eye sees the LED, with each
piece's letter from the game on top and the board's 38 lines between.

    python3 run.py play [--rules R] [--expansions E ...]
                        [--opponent human|random|greedy|2|3|4] [--side south|north]
                        [--profile host|feather_oled|qtpy_bff|joystick|tabletop|pico]
                        [--color auto|truecolor|256|none] [--drawing auto|unicode|ascii]
                        [--seed N] [--data DIR] [--replay FILE] [--script FILE|-]
                        [--link [HOST:]PORT]

It needs a terminal that can redraw its screen: with TERM=dumb or no TERM
it says so in one line and exits with status 2 (--script is the plain-text
way to play). On quitting it says whether the game is saved for next time.

This module is the command line; the rest is one concept a module:
host/screen.py (the layout), host/board_text.py (the board and its lines),
host/view.py (what the app shows now), host/legend.py (what it means, the
keys), host/log.py (the log), host/colour.py (colours), host/terminal.py
(the raw terminal and its keys), host/pager.py (the rules, paged),
host/replay.py (--replay), host/script.py (--script), host/export.py (key
x), host/gamefiles.py (the data folder and game files).
"""

import argparse
import os
import re
import signal
import sys

from adafruit_ticks import ticks_ms

from hardware import profiles
from host import blinka  # sets BLINKA_OS_AGNOSTIC before board is imported
from host.colour import MODES, colour_mode
from host.export import home
from host.gamefiles import FileError, data_folder, open_saves, read_replay
from host.link import parse_address
from host.screen import Screen
from host.terminal import ProfileKeys, Terminal, TerminalInput, can_redraw, unicode_ok
from jarmo.game import EXPANSIONS, RULE_SETS, check_mix

COMMAND = "python3 run.py play"   # how players start it: the name in its messages
EXIT_PIPE = 128 + 13              # stdout closed by its reader (`| head`), as SIGPIPE's
KEYS_HELP = ("Keys: arrows UP/DOWN/LEFT/RIGHT, Enter SELECT, Tab NEXT, Shift-Tab PREV, "
             "Esc BACK, m MENU, ? how to play, r rules, x export the game, q quit.")


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=COMMAND,
        description="Play Jarmo in a terminal: the handheld's own code with the keyboard "
                    "for buttons and coloured, lettered cells for LEDs, in a terminal that can "
                    "redraw its screen (not TERM=dumb; --script prints plain text instead). "
                    + KEYS_HELP,
        epilog="--script FILE: one event a line: a button (next prev up down left right "
               "select back menu), optionally a count (next 3) and p2 before it for the "
               "second player; wait MS; quit; export; rules; # comments.")
    ap.add_argument("--rules", default=None,
                    help="%s (default: the app's)" % ", ".join(RULE_SETS))
    ap.add_argument("--expansions", nargs="*", default=None, metavar="E",
                    help=" and/or ".join(EXPANSIONS))
    ap.add_argument("--opponent", default=None,
                    help="%s: the menu's Versus ladder, weakest first (AI random, AI greedy, "
                         "AI level 2, 3, 4)" % ", ".join(opponent_names()))
    ap.add_argument("--side", default=None, choices=("south", "north"),
                    help="the side you play against the computer")
    ap.add_argument("--profile", default="host", choices=sorted(profiles.PROFILES),
                    help="board profile: its buttons, pixel order and brightness")
    ap.add_argument("--color", "--colour", dest="color", default="auto",
                    choices=("auto",) + MODES,
                    help="auto (default: NO_COLOR, COLORTERM and TERM decide), truecolor, "
                         "256 or none (letters and marks only)")
    ap.add_argument("--drawing", default="auto", choices=("auto", "unicode", "ascii"),
                    help="the board's lines: unicode (Braille dots, at their true slope), "
                         "ascii (/ \\ | - _), or auto (unicode on a UTF-8 terminal in a "
                         "UTF-8 locale: LC_ALL, LC_CTYPE or LANG)")
    ap.add_argument("--replay", metavar="FILE",
                    help="step through a game from its start: a data folder (its game in progress) or its "
                         "jarmo.nvm, an export (key x) or a plain list of moves "
                         "(played with --rules/--expansions)")
    ap.add_argument("--script", metavar="FILE",
                    help="events from FILE (- for stdin) instead of the keyboard; "
                         "prints each screen as plain text (no terminal needed)")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of the computer player's dice (default: a new one each "
                         "session)")
    ap.add_argument("--link", default=None, metavar="[HOST:]PORT",
                    help="play the simulator at the other end of a link (another "
                         "simulator with the same --link, or an emulated board): over TCP "
                         "on localhost (or HOST); whichever starts first listens "
                         "(docs/LINK.md)")
    ap.add_argument("--data", default=None, metavar="DIR",
                    help="folder for saves, statistics and exports, made when missing "
                         "(default: $XDG_DATA_HOME/jarmo, else ~/.local/share/jarmo)")
    return ap.parse_args(argv)


def session_seed():
    """A new seed for the AI's dice (24 bits from os.urandom: a small int)."""
    return int.from_bytes(os.urandom(3), "big")


def start_options(args):
    """The start options given on the command line, as a dict (only those given)."""
    opts = {}
    if args.rules is not None:
        opts["rules"] = args.rules
    if args.expansions is not None:
        opts["expansions"] = tuple(args.expansions)
    if args.opponent is not None:
        opts["opponent"] = args.opponent
    if args.side is not None:
        opts["side"] = args.side
    return opts


def opponent_names():
    """--opponent's choices: the menu's Versus ladder (human, then AI random,
    AI greedy, AI level 2 ...) by the last word of each name."""
    from jarmo.app_base import LINKED, NEEDS, OPP, OPPONENTS, opponent
    return tuple(opponent(r).split()[-1] for r in range(len(OPPONENTS) // OPP)
                 if not opponent(r, NEEDS) & LINKED)                # Link: --link


def check_options(opts):
    """ValueError naming a bad start option."""
    if "rules" in opts and opts["rules"] not in RULE_SETS:
        raise ValueError("--rules must be one of %s" % ", ".join(RULE_SETS))
    try:
        check_mix(opts.get("rules", "standard"), tuple(opts.get("expansions", ())))
    except ValueError as err:
        raise ValueError("--expansions: %s" % err) from None
    if "opponent" in opts and opts["opponent"] not in opponent_names():
        raise ValueError("--opponent must be one of %s" % ", ".join(opponent_names()))


def make_app(profile, args, data, seed=None, line=None):
    """The App on a store in the folder `data`, started as the options say;
    line: the link's transport (--link), or None."""
    from jarmo.app import App
    opts = start_options(args)
    check_options(opts)
    if seed is None:
        seed = args.seed if args.seed is not None else session_seed()
    # the log is looked at before anything is written (host/saves.py); a
    # file set aside or left as it was is said once here, on the terminal,
    # and stays on the screen beside the game (main: app.saves_lines)
    saves = open_saves(data)
    for said in saves.lines:
        _say("%s: %s\n" % (COMMAND, said))
    app = App(store=saves.store, has_display=profile["display"] is not None or
              profile is profiles.HOST, tabletop=profile["tabletop"], seed=seed,
              problems=saves.problems, line=line)
    app.saves_lines = saves.lines
    app.saves_in_memory = saves.memory
    if app.game is not None and (opts or line is not None) \
            and not (line is not None and app.linked):
        # A saved game is never replaced unasked: the options become the
        # settings of the menu's New game, and the menu stays on Resume
        # under "Saved game found" (start_note says so).
        if line is not None:
            opts["opponent"] = "link"
        from jarmo import app_start
        from jarmo.unload import forget_module
        forget_module("jarmo.app_start")
        app_start.set_options(app, opts.get("rules"), opts.get("expansions"),
                              opts.get("opponent"), opts.get("side"), None)
        if app.state == "menu":
            app.goto(app.sid)       # the menu again, with the new settings
        return app
    if line is not None:
        # --link: a linked game saved here goes on (App resumed it); else
        # the link's New game: propose, or accept the other end's offer
        if app.game is None:
            opts["opponent"] = "link"
            app.new_game(**opts)
        return app
    # A newcomer lands in a game against the default opponent (the greedy
    # AI); a saved game found in --data waits on the menu's "Resume" (the
    # menu offers Resume exactly when app.game is set), and a notice about
    # a damaged file stays up to be read. Start options start a game when
    # no saved game waits.
    if app.game is None and (opts or app.state == "menu"):
        app.new_game(**opts)
    return app


def start_note(args, app):
    """What the start options do when a saved game waits on the menu (None
    when they started a game or none were given)."""
    given = []
    for name in ("rules", "expansions", "opponent", "side", "link"):
        value = getattr(args, name, None)
        if value is not None:
            given.append("--%s %s" % (name, " ".join(value) if isinstance(value, list) else value))
    if not given or getattr(app, "game", None) is None or app.state not in ("menu", "notice"):
        return None
    return "Saved game found: Resume plays it; New game starts it with " + " ".join(given)


def drawing_for(option, stream):
    """"braille" or "ascii" for --drawing auto|unicode|ascii on this output."""
    if option == "auto":
        return "braille" if unicode_ok(stream) else "ascii"
    return "braille" if option == "unicode" else "ascii"


def main(argv=None):
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader of stdout has gone (`--script F | head`): it has what it
        # wanted; stop quietly, with the status of a tool that SIGPIPE ended
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (AttributeError, OSError, ValueError):
            pass
        return EXIT_PIPE


def _main(argv):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # Everything the command line names is checked before anything starts:
    # one line and status 2 for a bad option or file, never a traceback.
    try:
        check_options(start_options(args))
        address = parse_address(args.link) if args.link is not None else None
        game = read_replay(args.replay, args.rules, args.expansions) if args.replay else None
    except (FileError, ValueError) as err:
        _fail(err)
        return 2
    if args.script is None and not (_isatty(sys.stdin) and _isatty(sys.stdout)):
        _fail("needs a terminal (stdin or stdout is not one); without one, give the button "
              "events as a script: --script events.txt (or --script - to read stdin)")
        return 2
    if args.script is None and not can_redraw():
        # Chosen over a line-by-line mode: the screen changes many times a
        # second (the AI's spinner, the timer), which no plain terminal can
        # follow; --script is the plain-text way, and it exists already.
        _fail("this terminal cannot redraw a screen (%s); play in one that can "
              "(TERM=xterm-256color, say), or give the button events as a script: "
              "--script FILE prints each screen as plain text"
              % ("TERM=" + os.environ["TERM"] if os.environ.get("TERM") else "TERM is not set"))
        return 2
    if args.script == "-" and sys.stdin is None:
        _fail("--script - reads stdin, but there is none")
        return 2
    from host.script import read_script, run_script
    try:
        data = _data_folder(args.data)
        events = read_script(args.script) if args.script is not None else None
    except FileError as err:
        _fail(err)
        return 2

    from hardware.display import TextDisplay
    from hardware.leds import make_leds
    from hardware.mainloop import run

    seed = args.seed if args.seed is not None else session_seed()
    profile = profiles.get(args.profile)
    line = None
    if address is not None:
        from host.link import TcpLine
        line = TcpLine(address[1], address[0])
    # the profile's pixel order, rotation, brightness and buttons; Blinka's
    # simulated board has none of the device's pins, so the LEDs use its NEOPIXEL
    leds = make_leds(dict(profile, pixel_pin="NEOPIXEL"), -1, blinka.capturing_neopixel())
    has_display = profile["display"] is not None or profile is profiles.HOST
    text_display = TextDisplay() if has_display else None
    drawing = drawing_for(args.drawing, sys.stdout)
    notes = ["Saves in " + home(data)]
    try:
        if game is not None:
            from host.replay import Replay
            app = Replay(game)
            if text_display is None:
                text_display = TextDisplay()
        else:
            app = make_app(profile, args, data, seed, line)
            notes[0:0] = app.saves_lines        # where the saves went, if not as usual
        note = start_note(args, app) if game is None else None
        if note:
            notes.insert(0, note)       # before the folder: it must be read
        if events is not None:
            return run_script(args, events, app, leds, text_display, profile, run, data, seed,
                              drawing, notes)
        return _run_terminal(args, app, leds, text_display, profile, run, data, seed, drawing,
                             notes)
    finally:
        leds.pixels.deinit()
        if line is not None:
            line.close()


def _isatty(f):
    """True if f (sys.stdin or sys.stdout, None when the descriptor is closed) is a terminal."""
    try:
        return f is not None and f.isatty()
    except (OSError, ValueError):
        return False


def _say(text):
    if sys.stderr is not None:
        sys.stderr.write(text)
        sys.stderr.flush()


# a quoted value longer than this is shortened where an error quotes it back
QUOTE_MAX = 60
_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.){%d,}'" % QUOTE_MAX + "|" +
                     r'"(?:[^"\\\n]|\\.){%d,}"' % QUOTE_MAX)


def one_line(text):
    """An error's text as one line, each quoted value in it at most QUOTE_MAX
    characters: a file's line may be 100,000 characters long, and the line
    that names it should still fit a terminal."""
    text = re.sub(r"\s*[\r\n]+\s*", " ", str(text).strip())
    return _QUOTED.sub(lambda m: m.group(0)[:QUOTE_MAX - 4] + "..." + m.group(0)[0], text)


def _fail(err):
    """Say what is wrong: one line, naming the command."""
    _say("%s: %s\n" % (COMMAND, one_line(err)))


def _data_folder(path):
    """data_folder(--data), refused with the real problem: a --data that names
    no folder, a folder that exists but takes no files (its error would say
    "No such file or directory" of a folder that is there)."""
    if path is not None and not path.strip():
        raise FileError("--data %r names no folder: give one, or leave --data out for the "
                        "default ($XDG_DATA_HOME/jarmo, else ~/.local/share/jarmo)" % path)
    try:
        return data_folder(path)
    except FileError as err:
        folder = os.path.abspath(os.path.expanduser(path)) if path else None
        cause = err.__cause__
        if folder is None or not os.path.isdir(folder) or not isinstance(cause, OSError):
            raise
        raise FileError("cannot keep saves in %s: it is a folder, but no file can be made in it "
                        "(the system says: %s); give --data a folder of your own"
                        % (folder, cause.strerror or cause)) from cause


def _run_terminal(args, app, leds, text_display, profile, run, data, seed, drawing, notes):
    fd = sys.stdin.fileno()
    out = sys.stdout
    screen = Screen(app, leds, text_display, profile, out, colour_mode(args.color),
                    notes=notes, drawing=drawing)

    def on_winch(signum, frame):
        screen.resized = True

    old_winch = signal.signal(signal.SIGWINCH, on_winch)
    try:
        with Terminal(fd, out):
            if args.replay:
                from host.replay import ReplayKeys
                inputs = ReplayKeys(fd, screen, None, data=data, seed=seed)
            else:
                inputs = TerminalInput(fd, screen, ProfileKeys(profile) if profile["keys"]
                                       else None, data=data, seed=seed)
            run(app, inputs, leds, text_display, ticks_ms, screen)
    finally:
        signal.signal(signal.SIGWINCH, old_winch)
    if not args.replay:
        # the player who quits wants to know whether the game waits for them
        out.write(save_note(data, app) + "\n")
        out.flush()
    return 0


def save_note(data, app=None):
    """What a player who quits is told about the game: saved and offered
    next time, or nothing to save. Read from the data folder as the next
    start will read it (the main loop saved a turn that waited); where the
    saves were kept in memory (host/saves.py: the file could not be used),
    that a game in progress is not kept."""
    if app is not None and getattr(app, "saves_in_memory", False):
        if app.game is not None and app.game.result() is None:
            return ("Your game was kept in memory only (see the line about %s above): it is not "
                    "saved for the next start." % home(data))
        return "Nothing to save: no game in progress."
    from host.gamefiles import load_saved_game
    try:
        game = load_saved_game(data)
    except (ValueError, OSError):
        return "Nothing to save: no game in progress."
    what = game.rules + "".join("+" + e for e in game.expansions)
    turns = game.plies
    return ("Your game (%s, %d turn%s) is saved in %s: the next %s offers it (Resume)."
            % (what, turns, "" if turns == 1 else "s", home(data), COMMAND))


if __name__ == "__main__":
    sys.exit(main())
