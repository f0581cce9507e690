"""The device's code on a PC (CPython + Adafruit Blinka): event files, a
virtual clock, captured NeoPixel frames, colours as a terminal shows them,
data folders and game files.

Host only (host/ never goes on the board).  Importing this module sets BLINKA_OS_AGNOSTIC
so that `import board` gives Blinka's simulated board on any PC.

Event files (JARMO_EVENTS, `python3 run.py play --script`), one event a line:

    select              a button of jarmo/buttons.py, pressed by player 1 (seat 0)
    p2 select           the same button pressed by player 2 (seat 1; tabletop)
    next 3              the button three times
    wait 500            let 500 ms pass
    # comment           blank lines and comments are skipped

The first pass draws the start screen; then each button event is
delivered in its own main-loop pass, one clock step after the previous
one; `wait` adds time.  After the last event the loop
runs one more pass and stops.
"""

import os
import sys

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from adafruit_ticks import ticks_add, ticks_diff  # noqa: E402

from jarmo import buttons as codes  # noqa: E402

STEP_MS = 10  # virtual time of one main-loop pass on the host


def parse_events(text, extra=()):
    """Event lines -> list of (kind, value, seat): ("press", code, seat) or ("wait", ms, 0).

    extra: further words accepted as ("word", word, 0) (the simulator's "quit").
    ValueError names the line that is wrong.
    """
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        words = line.split()
        try:
            seat = 0
            if words[0] in ("p1", "p2"):
                seat = 1 if words[0] == "p2" else 0
                words = words[1:]
            if words[0] == "wait":
                if len(words) != 2:
                    raise ValueError("wait takes one number of milliseconds")
                out.append(("wait", int(words[1]), 0))
                continue
            if words[0] in extra:
                out.append(("word", words[0], seat))
                continue
            count = int(words[1]) if len(words) == 2 else 1
            if len(words) > 2 or count < 1:
                raise ValueError("expected a button name and an optional count")
            code = codes.code(words[0])
            for _ in range(count):
                out.append(("press", code, seat))
        except (ValueError, IndexError) as err:
            raise ValueError("event line %d %r: %s" % (number, raw.strip(), err)) from err
    return out


class EventSource:
    """Feeds parsed events to the main loop; poll() is False once they are used up."""

    def __init__(self, events, gap_ms=0):
        self.events = list(events)
        self.pos = 0
        self.gap_ms = gap_ms
        self.due = None          # virtual time the next event is due
        self.finished = False
        self.words = []          # ("word", ...) events met, for the caller

    @classmethod
    def from_file(cls, path, **kw):
        with open(path) as f:
            return cls(parse_events(f.read()), **kw)

    def poll(self, now, press):
        if self.due is None:
            self.due = now
            return True      # the first pass only draws the start screen
        while self.pos < len(self.events):
            kind, value, seat = self.events[self.pos]
            if kind == "wait":
                self.due += value
                self.pos += 1
                continue
            if ticks_diff(now, self.due) < 0:
                return True
            self.pos += 1
            self.due = now + self.gap_ms
            if kind == "word":
                self.words.append(value)
                if value == "quit":
                    self.finished = True
                    return False
                continue
            press(value, seat)
            return True
        if ticks_diff(now, self.due) < 0:
            return True      # a trailing wait still runs
        if self.finished:
            return False
        self.finished = True  # one more pass after the last event
        return True


class VirtualClock:
    """A clock that advances STEP_MS per call: fast, repeatable host runs."""

    def __init__(self, start=0, step=STEP_MS):
        self.now = start - step
        self.step = step

    def __call__(self):
        self.now = ticks_add(self.now, self.step)
        return self.now


def capturing_neopixel():
    """A neopixel.NeoPixel subclass that keeps the bytes each show() transmits."""
    import neopixel

    class CapturingNeoPixel(neopixel.NeoPixel):
        sent = b""
        shows = 0

        def _transmit(self, buffer):
            self.sent = bytes(buffer)
            self.shows += 1
            super()._transmit(buffer)

    return CapturingNeoPixel


def sent_colours(pixels, pixel_map, order="GRB"):
    """The 25 point colours (0xRRGGBB, a1 first) in the last transmitted buffer."""
    buf = pixels.sent
    ri, gi, bi = order.index("R"), order.index("G"), order.index("B")
    bpp = len(order)
    out = []
    for p in range(25):
        i = pixel_map[p] * bpp
        if i + bpp > len(buf):
            out.append(0)
            continue
        out.append((buf[i + ri] << 16) | (buf[i + gi] << 8) | buf[i + bi])
    return out


def frame_text(colours):
    """Five lines of hex colours, rank 5 on top, files a..e left to right."""
    lines = []
    for rank in range(5, 0, -1):
        row = colours[(rank - 1) * 5:rank * 5]
        lines.append("%d  %s" % (rank, " ".join("%06x" % c for c in row)))
    lines.append("   " + " ".join("%-6s" % f for f in "abcde").rstrip())
    return lines


class FramePrinter:
    """on_show callback for code.py on the host: prints frames and status text.

    mode "all": a block each time the LEDs or the text change; "last": only
    the final block (call finish()); "none": nothing.
    """

    def __init__(self, leds, screen, profile, mode="all", out=None, app=None):
        self.leds = leds
        self.screen = screen
        self.order = profile["pixel_order"]
        self.mode = mode
        self.out = out or sys.stdout
        self.app = app
        self.count = 0
        self.last = None
        self.celebrated = None

    def block(self, now):
        colours = sent_colours(self.leds.pixels, self.leds.map, self.order)
        lines = ["-- frame %d at %d ms" % (self.count, now)]
        celebrate = self.leds.celebrating
        if celebrate is not None:
            lines.append("celebrate %06x" % celebrate)
        else:
            lines.extend(frame_text(colours))
        if self.screen is not None:
            text = self.screen.lines()
        elif self.app is not None:
            text = self.app.text
        else:
            text = ()
        for t in text:
            if t:
                lines.append("| " + t)
        return "\n".join(lines)

    def __call__(self, now, drawn, texted):
        if self.leds.celebrating is not None and not texted:
            # animation steps depend on the wall clock: print the start only
            if self.celebrated == self.leds.celebrating:
                return
        self.celebrated = self.leds.celebrating
        self.count += 1
        self.last = self.block(now)
        if self.mode == "all":
            print(self.last, file=self.out)

    def finish(self):
        if self.mode == "last" and self.last is not None:
            print(self.last, file=self.out)


# ---------------------------------------------------------------- colours as the eye sees them

GAMMA = 2.2    # the eye / an sRGB screen: shown value = light ** (1 / GAMMA)


def _unscale(v, k):
    """The frame byte (0..255) that Leds.show() turned into v = (f * k) >> 8:
    the middle of the range of f that gives v (0 stays 0: the LED is off).
    (A piece too dim for its level is sent as 1 in its strongest channel:
    that reads as the middle of the range that gives 1.)"""
    if v <= 0 or k >= 256:
        return v
    lo = -(-v * 256 // k)                          # ceil(v * 256 / k)
    hi = min(255, -(-(v + 1) * 256 // k) - 1)
    return (lo + max(lo, hi)) / 2


def perceived(colour, level=255, gamma=GAMMA):
    """The 0xRRGGBB a terminal shows for an LED sent `colour` at drawing level
    `level` (0..255, hardware.leds.scale_level of the profile's cap and the
    menu brightness: the bytes are colour * (level + 1) >> 8).

    First the dimming is undone (the eye adapts to the LEDs' brightness, so a
    capped or dimmed grid looks the same, only darker); then the brightest
    channel is lifted from LED light to screen value (light ** (1 / gamma)),
    and the other channels scaled with it, so the hue stays: a dim archer
    (0x401C00) shows as a clear vermillion-brown 0x883C00, not near-black.
    """
    k = level + 1
    r = _unscale((colour >> 16) & 255, k)
    g = _unscale((colour >> 8) & 255, k)
    b = _unscale(colour & 255, k)
    top = max(r, g, b)
    if top <= 0:
        return 0
    top = min(top, 255)
    scale = 255 * (top / 255) ** (1 / gamma) / max(r, g, b)
    r, g, b = (min(255, int(round(c * scale))) for c in (r, g, b))
    return (r << 16) | (g << 8) | b


COLOUR_MODES = ("truecolor", "256", "none")


def colour_mode(option="auto", env=None):
    """The colour rendering for a terminal: "truecolor", "256" or "none".

    option: "auto" or one of COLOUR_MODES (a command-line choice overrides
    the environment).  auto: NO_COLOR set to anything non-empty gives
    "none" (https://no-color.org); COLORTERM truecolor or 24bit gives
    "truecolor"; a TERM with 256color gives "256"; anything else (dumb,
    linux, vt100, unset) gives "none": letters only.
    """
    if option != "auto":
        if option not in COLOUR_MODES:
            raise ValueError("--color must be auto, %s" % ", ".join(COLOUR_MODES))
        return option
    env = os.environ if env is None else env
    if env.get("NO_COLOR", ""):
        return "none"
    if env.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return "truecolor"
    if "256color" in env.get("TERM", ""):
        return "256"
    return "none"


_CUBE = (0, 95, 135, 175, 215, 255)   # the xterm 256-colour cube's levels


def xterm256(colour):
    """The nearest of the xterm 256-colour palette's cube and grey ramp (16..255)."""
    rgb = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)

    def near(v):
        return min(range(6), key=lambda i: abs(_CUBE[i] - v))
    idx = [near(v) for v in rgb]
    cube = tuple(_CUBE[i] for i in idx)
    grey_i = max(0, min(23, int(round((sum(rgb) / 3 - 8) / 10))))
    grey = (8 + 10 * grey_i,) * 3

    def dist(c):
        return sum((a - b) ** 2 for a, b in zip(c, rgb))
    if dist(grey) < dist(cube):
        return 232 + grey_i
    return 16 + 36 * idx[0] + 6 * idx[1] + idx[2]


def sgr_colour(colour, mode, background=False):
    """The escape sequence that sets the foreground (or background) colour;
    "" in mode "none"."""
    if mode == "none":
        return ""
    layer = 48 if background else 38
    if mode == "256":
        return "\x1b[%d;5;%dm" % (layer, xterm256(colour))
    return "\x1b[%d;2;%d;%d;%dm" % (layer, (colour >> 16) & 255, (colour >> 8) & 255, colour & 255)


# ---------------------------------------------------------------- files


class FileError(Exception):
    """A file given on the command line that cannot be used: one line that says why."""


def data_folder(path=None, env=None):
    """The folder for saves and statistics, created when missing.

    path: --data; default $XDG_DATA_HOME/jarmo (an absolute XDG_DATA_HOME),
    else ~/.local/share/jarmo.  FileError if it cannot be made or written.
    """
    env = os.environ if env is None else env
    if not path:
        base = env.get("XDG_DATA_HOME", "")
        if not os.path.isabs(base):
            base = os.path.join(os.path.expanduser("~"), ".local", "share")
        path = os.path.join(base, "jarmo")
    path = os.path.abspath(os.path.expanduser(path))
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileError("cannot keep saves in %s: it is a file, not a folder" % path)
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".jarmo-write-test")
        with open(probe, "w") as f:
            f.write("ok")
        os.remove(probe)
    except OSError as err:
        raise FileError("cannot keep saves in %s: %s" % (path, err.strerror or err)) from err
    return path


def read_text(path, what):
    """The text of a file given as `what` (e.g. "--replay"); FileError if it is
    missing, unreadable or not text."""
    try:
        with open(path, "rb") as f:
            data = f.read((1 << 20) + 1)
    except FileNotFoundError:
        raise FileError("%s %s: no such file" % (what, path)) from None
    except IsADirectoryError:
        raise FileError("%s %s: is a folder, not a file" % (what, path)) from None
    except OSError as err:
        raise FileError("%s %s: cannot read it (%s)" % (what, path, err.strerror or err)) from err
    if len(data) > 1 << 20:
        raise FileError("%s %s: too big for a game or event file (over 1 MB)" % (what, path))
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        text = None
    if text is None or "\0" in text:
        raise FileError("%s %s: not a text file" % (what, path))
    return text


def game_from_save(body):
    """The Game in the body of the app's `game` save: JSON with "game" (a
    Game.dump()) or "match" (a Match.dump(): its current game)."""
    import json

    from jarmo import Game
    from jarmo.match import Match
    try:
        d = json.loads(body)
    except ValueError:
        raise ValueError("a Jarmo file, but not a saved game") from None
    if not isinstance(d, dict) or not ("game" in d or "match" in d):
        raise ValueError("a Jarmo file, but not a saved game")
    if "match" in d:
        return Match.load(d["match"]).game
    return Game.load(d["game"])


LOG = "jarmo.nvm"            # the store's log in a data folder (jarmo/storage.py)
_OLD_GAME = ("game", "game.0", "game.1", "game.new")    # older versions' save files


def saved_game_entry(path):
    """The data folder when path names the app's saved game in one: the
    folder itself, its log (jarmo.nvm), or an older version's save files
    (`game`, `game.0`, `game.1`, `game.new`); else None."""
    if os.path.isdir(path):
        folder = path
    else:
        folder, base = os.path.split(os.path.abspath(path))
        if base != LOG and base not in _OLD_GAME:
            return None
    for name in (LOG,) + _OLD_GAME:
        if os.path.isfile(os.path.join(folder, name)):
            return folder
    return None


def load_saved_game(folder):
    """The Game the app saved in a data folder: the game in progress in its
    log, else an older version's save; ValueError saying why not. Nothing in
    the folder is changed."""
    from jarmo.flashfile import Flash
    from jarmo.gamerec import load
    from jarmo.legacy import read_text
    from jarmo.storage import Store
    path = os.path.join(folder, LOG)
    if os.path.isfile(path):
        with open(path, "rb") as f:
            store = Store(Flash(data=f.read()[:4096]))     # a copy: a read writes nothing
        saved = store.game()
        if saved is None:
            raise ValueError("no game in progress in %s%s" % (
                LOG, " (%s)" % "; ".join(store.problems) if store.problems else ""))
        return load(saved[1], saved[2], 255)[0]
    text, found = read_text(folder, "game")
    if text is None:
        raise ValueError("a damaged save" if found else "no saved game there")
    return game_from_save(text)


def load_game_text(text, rules=None, expansions=()):
    """A Game from any of the texts a player has (ValueError saying why not):

    - the app's `game` save in the single-file format (JARMO1 header,
      checksum, JSON with "game" or "match"; a match gives its current game;
      a data folder's log and older slot files are read by load_saved_game);
    - Game.dump() text, or an export of the simulator (# comment lines
      before it);
    - a plain list of actions ("a1-c2 e5-d3 ...", move numbers such as
      "1." and commas allowed), played from the start under `rules`
      (default standard) and `expansions`; lines "rules R" and
      "expansions E ..." at the top choose them too.
    """
    from jarmo import Game, IllegalMove
    from jarmo.legacy import single_body
    from jarmo.match import Match

    if text.startswith("JARMO1 "):              # an older version's single-file save
        try:
            body = single_body(text.encode())
        except ValueError as err:
            raise ValueError("a damaged save (%s)" % err) from err
        return game_from_save(body)
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    if lines and lines[0].startswith("jarmo-game"):
        return Game.load("\n".join(lines) + "\n")
    if lines and lines[0].startswith("jarmo-match"):
        return Match.load("\n".join(lines) + "\n").game
    rules = rules or "standard"
    expansions = tuple(expansions or ())
    actions = []
    for line in lines:
        words = line.replace(",", " ").split()
        if words and words[0] == "rules" and not actions:
            if len(words) != 2:
                raise ValueError("'rules' takes one rule set")
            rules = words[1]
            continue
        if words and words[0] == "expansions" and not actions:
            expansions = tuple(w for w in words[1:] if w != "-")
            continue
        for w in words:
            if w.rstrip(".").isdigit():
                continue       # a move number
            actions.append(w)
    if not actions:
        raise ValueError("no moves in it")
    try:
        game = Game(rules, expansions=expansions)
    except ValueError as err:
        raise ValueError(str(err)) from err
    for i, a in enumerate(actions, 1):
        try:
            game.play(a)
        except IllegalMove as err:
            raise ValueError("action %d %r is not legal in %s rules: %s" % (i, a, rules, err)) from err
    return game
