"""The terminal simulator, driven through a pseudo-terminal like a person would.

Every wait is bounded by a few seconds (tests/hardware/ptyrun.py) and a
failure shows the last screen drawn.
"""

import os
import re
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

from jarmo.store_flash import FileNvm
from jarmo.store_log import Store
from tests.hardware.ptyrun import ENTER_ALT, LEAVE_ALT, SHOW_CURSOR, PtyProcess, first_screen, strip_ansi
from tools.screens import WIPEOUT, open_first_game, tab_until
from tools.screens import play as _play_keys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

AI_TIMEOUT = 10          # seconds the greedy AI may take to answer on a busy machine
RUN_TIMEOUT = 30         # a whole subprocess run (--script) of the simulator
MOVE = r"[a-e][1-5][-x][a-e][1-5]\S*"
# A South archer at the host profile's start-up brightness (128): the frame's
# 0x401C00 is sent as 32;14;0 and drawn as the eye sees that LED, 137;60;0.
SOUTH_ARCHER_CELL = b"\x1b[48;2;137;60;0m"


def _env(tmp_path, **extra):
    """A true-colour terminal; saves go to tmp_path (XDG_DATA_HOME), never to ~."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.update({"PYTHONPATH": ROOT, "TERM": "xterm-256color", "COLORTERM": "truecolor",
                "BLINKA_OS_AGNOSTIC": "1",
                "XDG_DATA_HOME": str(tmp_path)})
    env.update(extra)
    return env


@pytest.fixture
def sim(tmp_path):
    """start(*args): the simulator on a pty, saving into tmp_path (--data)."""
    started = []

    def start(*args, rows=40, cols=120):
        argv = [sys.executable, "-m", "host.sim", "--data", str(tmp_path)] + list(args)
        p = PtyProcess(argv, ROOT, _env(tmp_path), rows, cols)
        started.append(p)
        return p

    yield start
    for p in started:
        p.close()


SELECTED_A1 = r"a1 (?:>|to) c2 b3"     # the display once the archer on a1 is selected
# the screen once the AI answered: North's rank 5 is no longer full
AI_ANSWERED = r"^5 (?! a {7}a {7}a {7}a {7}a ).*South \(you\) to move"


def board_of(screen):
    """{point name: letters} of the pieces on the full board in a screen's text."""
    from host import board_text as BT
    from jarmo.board import NAMES
    lines = screen.splitlines()
    out = {}
    for rank in range(1, 6):
        row = next(line for line in lines if line.startswith("%d " % rank))
        for f in range(5):
            p = (rank - 1) * 5 + f
            x = BT.centre(p)[0] - 2
            cell = row[x:x + BT.CELL_W].strip(" []<>(){}*")
            if cell and cell != NAMES[p]:
                out[NAMES[p]] = cell
    return out


def north_move(before, after):
    """The move North made between two boards, as "a5-b3"."""
    gone = [q for q, v in before.items() if v.islower() and after.get(q) != v]
    new = [q for q, v in after.items() if v.islower() and before.get(q) != v]
    assert len(gone) == 1 and len(new) == 1, (before, after)
    return "%s-%s" % (gone[0], new[0])


SAVED_NOTE = (r"Your game \((?P<what>[^)]*), (?P<turns>\d+) turns?\) is saved in (?P<folder>.+): "
              r"the next python3 run\.py play offers it \(Resume\)\.")
NOTHING_SAVED = "Nothing to save: no game in progress."


def _quit(p, saved="any"):
    """q: the simulator ends with status 0, leaves the terminal as it found it
    and then says what became of the game (saved: True the game is saved,
    False nothing was, "any" either; None, a replay: nothing said); the
    note's match (None when nothing was saved)."""
    p.send(b"q")
    assert p.wait() == 0, p.screen()
    assert p.restored() is None, p.restored()
    at = p.raw.rfind(LEAVE_ALT)
    assert at >= 0 and SHOW_CURSOR in p.raw[max(0, at - 100):at], p.raw[-100:]
    after = p.raw[at + len(LEAVE_ALT):].decode("utf-8").replace("\r\n", "\n")
    if saved is None:
        assert after == "", after
        return None
    said = re.fullmatch(SAVED_NOTE + "\n", after)
    assert said or after == NOTHING_SAVED + "\n", after
    assert saved == "any" or bool(said) == saved, after
    return said


def _play_a1_c2_and_get_the_answer(p):
    """Select the archer on a1, move it to c2; the AI's answer, once South is to move again."""
    p.expect_screen(r"South \(you\) to move")   # keys typed before the sim is up are dropped
    before = board_of(p.screen())
    mark = len(p.raw)
    p.send(b"\r")                                              # select the piece on a1
    p.expect_screen(SELECTED_A1, since=mark)
    mark = len(p.raw)
    p.send(b"\r")                                              # move it to c2
    p.expect_screen(AI_ANSWERED, timeout=AI_TIMEOUT, since=mark)
    after = board_of(p.screen())
    assert after["c2"] == "A" and "a1" not in after, p.screen()   # our move, in letters
    answer = north_move(before, after)
    from jarmo import Game
    g = Game("standard")
    g.play("a1-c2")
    assert g.turn == "north" and answer in g.legal(), (answer, p.screen())   # North's reply
    return answer


def test_play_command_opens_a_game_against_the_greedy_ai(sim):
    """The README's `python3 run.py play`: no options, straight into a game."""
    p = sim()
    p.expect_screen(r"to move")
    screen = first_screen(p.raw)
    lines = screen.splitlines()
    assert "South (you) to move" in screen, screen             # a game against the computer
    assert "New game" not in screen and "Resume" not in screen  # not the menu
    assert "Keys:" in screen and "Enter SELECT" in screen      # the legend, by the buttons'
    assert "Esc BACK" in screen and "S-Tab PREV" in screen     # names the help uses
    assert "? how to play" in screen
    assert "+-----------------------+" in screen                # the display
    assert "lines a1: c2 b3" in screen                          # the cursor point's lines
    # the pieces by their letters: North's archers on rank 5, South's on rank 1
    # (the cursor on a1 in brackets), the empty points by name
    assert lines[0].split()[:6] == ["5", "a", "a", "a", "a", "a"], screen
    rank1 = next(line for line in lines if line.startswith("1 "))
    assert rank1.split()[:2] == ["1", "[A]"] and rank1.count(" A ") == 4, screen
    for name in ("a2", "e2", "c3", "a4", "e4"):
        assert name in screen, screen
    assert "Letters: South A, North a" in screen and "A archer" in screen
    assert "celebrating" not in screen
    assert p.modes() == (False, False, False)                    # raw keys while it runs
    _play_a1_c2_and_get_the_answer(p)                             # the AI answered
    mark = len(p.raw)
    p.send(b"m")                                                 # the menu
    p.expect_screen(r">Resume.*New game", since=mark)
    item = re.search(r"\| >(\S[^|]*?)\s*\|", first_screen(p.raw[mark:])).group(1)
    for _ in range(24):                                          # Tab down to Versus
        if item.startswith("Versus: "):
            break
        mark = len(p.raw)
        p.send(b"\t")
        item = p.expect_screen(r"\| >(?!%s)(\S[^|]*?)\s*\|" % re.escape(item), since=mark).group(1)
    assert re.match(r"Versus: AI.*greedy", item), item          # the default opponent
    mark = len(p.raw)
    p.send(b"m")                                                 # menu again: back to the game
    p.expect_screen(r"South \(you\) to move", since=mark)
    _quit(p)


def test_a_saved_game_opens_on_resume(sim, tmp_path):
    p = sim()
    answer = _play_a1_c2_and_get_the_answer(p)
    _quit(p)
    assert _game_in(tmp_path)                                  # the game was saved
    p = sim()                                                   # the same --data
    p.expect_screen(r">Resume")
    screen = first_screen(p.raw)
    assert ">Resume" in screen and "to move" not in screen, screen
    mark = len(p.raw)
    p.send(b"\r")                                               # Resume
    p.expect_screen(r"South \(you\) to move", since=mark)
    board = board_of(p.screen())                                 # the position as it was
    frm, to = answer.split("-")
    assert board["c2"] == "A" and board[to] == "a" and frm not in board, p.screen()
    _quit(p)


def test_true_colour_cells_come_from_the_pixel_buffer(sim):
    p = sim()
    p.expect_screen(r"South.* to move")
    # a South archer on b1: bold, the LED as perceived behind, white ink, its letter
    p.expect_raw(b"\x1b[1m" + SOUTH_ARCHER_CELL + b"\x1b[38;2;255;255;255m A  \x1b[0m")
    _quit(p)


@pytest.mark.parametrize("env, expect, absent", [
    ({"COLORTERM": "", "TERM": "xterm-256color"}, b"\x1b[48;5;", b"\x1b[48;2;"),
    ({"COLORTERM": "", "TERM": "xterm"}, None, b"\x1b[48;"),
    ({"NO_COLOR": "1"}, None, b"\x1b[48;"),
])
def test_colour_follows_the_terminal(tmp_path, env, expect, absent):
    """256 colours on a 256color TERM without COLORTERM; letters only on a
    plain TERM or with NO_COLOR set, and still every piece's letter."""
    argv = [sys.executable, "-m", "host.sim", "--data", str(tmp_path)]
    p = PtyProcess(argv, ROOT, _env(tmp_path, **env), 40, 120)
    try:
        p.expect_screen(r"South \(you\) to move")
        screen = first_screen(p.raw)
        assert screen.splitlines()[0].split()[:6] == ["5", "a", "a", "a", "a", "a"], screen
        if expect:
            p.expect_raw(expect)
        start = p.raw.find(b"\x1b[H")
        assert absent not in p.raw[start:p.raw.find(b"\x1b[J", start)]
        _quit(p)
    finally:
        p.close()


def test_resize_redraws(sim):
    p = sim(rows=40, cols=120)
    p.expect_screen(r"to move")
    for rows, cols, narrow in ((30, 60, True), (40, 120, False)):
        mark = len(p.raw)
        p.resize(rows, cols)            # SIGWINCH; narrow: the compact board, no lines
        start = p.expect_raw(b"\x1b[2J", since=mark)    # a full redraw follows
        end = p.expect_raw(b"\x1b[J", since=start)       # the end of that screen
        screen = strip_ansi(p.raw[start:end].decode("utf-8", "replace"))
        assert "to move" in screen
        assert all(len(line) < cols for line in screen.splitlines()), screen
        lines = screen.splitlines()
        full = any(re.match(r"5  a {7}a ", line) and "+---" in line for line in lines)
        assert full != narrow, screen
        assert len(lines) <= rows, screen        # no newline after the bottom row
    mark = len(p.raw)
    p.resize(30, 60)
    p.send(b"m")                                                 # the menu, small terminal
    p.expect_screen(r"Resume", since=mark)
    _quit(p)


def _drawn_since(p, mark):
    """The text of the first complete screen drawn after byte `mark`, as lines."""
    start = p.expect_raw(b"\x1b[H", since=mark)
    end = p.expect_raw(b"\x1b[J", since=start)
    return strip_ansi(p.raw[start:end].decode("utf-8", "replace")).splitlines()


def _fits(lines, rows, cols):
    assert len(lines) <= rows and all(len(line) < cols for line in lines), "\n".join(lines)


@pytest.mark.parametrize("rows, cols", [(20, 60), (24, 80), (12, 30)])
def test_small_terminal_keeps_the_status_and_the_menus_visible(sim, rows, cols):
    """The status text (whose turn, the menus) is always on the screen."""
    p = sim(rows=rows, cols=cols)
    p.expect_screen(r"South \(you\) to move")
    lines = first_screen(p.raw).splitlines()
    _fits(lines, rows, cols)
    screen = "\n".join(lines)
    assert "[A]" in screen and " a " in screen, screen           # pieces by their letters
    for name in ("a2", "e2", "c3", "a4", "e4"):                  # empty points by name
        assert name in screen, screen
    assert "lines a1: c2 b3" in screen, screen
    assert "q quit" in screen or rows < 15, screen               # a legend where it fits
    p.expect_raw(SOUTH_ARCHER_CELL)                              # cells from the pixel buffer
    mark = len(p.raw)
    p.send(b"\r")                                                # select the archer on a1
    p.expect_screen(SELECTED_A1, since=mark)
    mark = len(p.raw)
    p.send(b"m")                                                 # the menu
    p.expect_screen(r">Resume.*New game", since=mark)
    _fits(p.screen().splitlines(), rows, cols)
    _quit(p)


def test_too_small_terminal_says_so_and_recovers(sim):
    p = sim(rows=8, cols=20)
    p.expect_screen(r"too small.*30x12")
    _fits(first_screen(p.raw).splitlines(), 8, 20)
    mark = len(p.raw)
    p.send(b"m")                                   # the app keeps running: open the menu
    p.expect_screen(r"too small", since=mark)
    for rows, cols in ((11, 40), (12, 29)):        # one short of the minimum either way
        mark = len(p.raw)
        p.resize(rows, cols)
        p.expect_raw(b"\x1b[2J", since=mark)
        lines = _drawn_since(p, mark)
        assert "too small" in " ".join(lines), lines
        _fits(lines, rows, cols)
    mark = len(p.raw)
    p.resize(40, 100)
    start = p.expect_raw(b"\x1b[2J", since=mark)  # a full redraw, the full layout again
    lines = _drawn_since(p, start)
    screen = "\n".join(lines)
    assert "too small" not in screen, screen
    assert ">Resume" in screen and "New game" in screen, screen   # the menu opened above
    assert any(line.startswith("5  a ") and "+---" in line for line in lines), screen
    assert "Keys: arrows UP/DOWN/LEFT/RIGHT" in screen, screen
    _fits(lines, 40, 100)
    _quit(p)


def _screen_in_process(tmp_path, profile_name, menu=False):
    """A Screen on the real app and LEDs (no terminal), and its clean-up."""
    from hardware import profiles
    from hardware.display import TextDisplay
    from hardware.leds import make_leds
    from host import blinka, screen
    from host import sim as S
    from jarmo import app_buttons as codes
    profile = profiles.get(profile_name)
    leds = make_leds(dict(profile, pixel_pin="NEOPIXEL"), -1, blinka.capturing_neopixel())
    has_display = profile["display"] is not None or profile is profiles.HOST
    text = TextDisplay() if has_display else None
    app = S.make_app(profile, S.parse_args(["--data", str(tmp_path)]), str(tmp_path))
    if menu:
        app.press(codes.MENU, 0)
    leds.update(app)
    if text is not None:
        text.update(app)
    return screen.Screen(app, leds, text, profile, None, mode="truecolor"), leds


@pytest.mark.parametrize("profile, menu", [("host", False), ("host", True),
                                           ("qtpy_bff", False), ("tabletop", True)])
def test_every_terminal_size_gets_a_screen_that_fits(tmp_path, profile, menu):
    """Never a row too many or a character too wide: no scrolling, no wrapped lines."""
    import io

    from host import screen as SC
    screen, leds = _screen_in_process(tmp_path, profile, menu)
    try:
        for cols in (1, 2, 10, 20, 29, 30, 31, 40, 49, 50, 53, 54, 60, 76, 77, 80, 100, 130):
            for rows in (1, 2, 8, 11, 12, 13, 15, 16, 20, 23, 24, 25, 30, 40, 50):
                out = io.StringIO()
                screen.out = out
                screen.size = lambda cols=cols, rows=rows: os.terminal_size((cols, rows))
                screen.resized = True
                screen.draw()
                raw = out.getvalue()
                assert raw.startswith("\x1b[2J\x1b[H") and raw.endswith("\x1b[J"), raw
                lines = strip_ansi(raw).split("\n")
                where = "%dx%d:\n%s" % (cols, rows, "\n".join(lines))
                assert len(lines) <= rows, where
                assert all(len(line) <= max(0, cols - 1) for line in lines), where
                text = "\n".join(lines)
                if cols < SC.MIN_COLS or rows < SC.MIN_ROWS:
                    if cols >= 20 and rows >= 3:
                        assert "too small" in text and "30x12" in text, where
                    continue
                assert "too small" not in text, where
                assert all(n in text for n in ("a2", "c3", "e4")), where  # empty points
                if not menu or screen.text_display is not None:          # the board shows
                    assert " A " in text or "[A]" in text, where
                assert "\x1b[48;2;" in raw, where                  # true-colour cells
                status = ">Resume" if menu else "to move"
                if screen.text_display is not None:                 # else "(no display)"
                    assert status in text, where
    finally:
        leds.pixels.deinit()


def test_profile_buttons_short_and_long(sim):
    p = sim("--profile", "feather_oled")
    p.expect_screen(r"b SELECT \(B: MENU\)")                   # the profile's legend
    mark = len(p.raw)
    p.send(b"b")                                               # B short: select a1
    p.expect_screen(SELECTED_A1, since=mark)
    mark = len(p.raw)
    p.send(b"B")                                               # B held: menu
    p.expect_screen(r">Resume", since=mark)
    _quit(p)


def test_sigterm_restores_the_terminal(tmp_path):
    from tests.hardware.ptyrun import set_size
    master, slave = os.openpty()
    set_size(slave, 40, 120)
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "host.sim"], cwd=ROOT,
                            env=_env(tmp_path), stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    try:
        out = b""
        deadline = time.monotonic() + 10
        while b"to move" not in out:
            left = deadline - time.monotonic()
            assert left > 0, strip_ansi(out[-2000:].decode("utf-8", "replace"))
            ready, _, _ = select.select([master], [], [], left)
            if ready:
                out += os.read(master, 65536)
        assert termios.tcgetattr(slave) != before              # cbreak while running
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 128 + signal.SIGTERM
        while True:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                break
            out += os.read(master, 65536)
        assert LEAVE_ALT in out
        assert termios.tcgetattr(slave) == before              # restored
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        os.close(master)
        os.close(slave)


def test_terminal_is_restored_after_an_error():
    from host.terminal import Terminal
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)

    class Out:
        data = ""

        def write(self, s):
            self.data += s

        def flush(self):
            pass
    out = Out()
    try:
        with pytest.raises(RuntimeError):
            with Terminal(slave, out):
                assert termios.tcgetattr(slave) != before
                raise RuntimeError("boom")
        assert termios.tcgetattr(slave) == before
        assert out.data.endswith("\x1b[?1049l")
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("stdin", ["devnull", "closed"])
def test_not_a_tty_says_so_and_fails(stdin, tmp_path):
    # CI runs `python3 run.py play` with stdin at /dev/null, or with no stdin at all
    kw = {"stdin": subprocess.DEVNULL} if stdin == "devnull" else {"preexec_fn": lambda: os.close(0)}
    proc = subprocess.run([sys.executable, "-m", "host.sim"], cwd=ROOT, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=RUN_TIMEOUT, **kw)
    assert proc.returncode == 2, proc.stderr
    assert "needs a terminal" in proc.stderr and "--script" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr     # one line, as every error


SCRIPT = """\
select      # a1
select      # to c2
wait 3000   # the AI answers
quit
"""


def test_script_mode_for_ci(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", "-",
                           "--data", str(tmp_path)], cwd=ROOT, env=_env(tmp_path),
                          input=SCRIPT, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\x1b" not in out                                   # plain text for logs
    screens = out.split("-- screen ")[1:]
    assert "South (you) to move" in screens[0] and "Resume" not in screens[0]  # in a game
    assert "lines a1: c2 b3" in screens[0]
    last = screens[-1]
    assert "South (you) to move" in last
    board = board_of(last)
    assert board["c2"] == "A" and "a1" not in board, last         # our move
    north_move(board_of(screens[0]), board)                       # and the AI's answer
    assert "200e00" in last                                    # a South archer's bytes, in hex
    assert "  A  " in last and "Letters: South A, North a" in last


def test_script_with_start_options(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", "-", "--rules",
                           "classic", "--opponent", "greedy", "--side", "north",
                           "--data", str(tmp_path)], cwd=ROOT, env=_env(tmp_path),
                          input="wait 3000\nquit\n", capture_output=True, text=True,
                          timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "classic" in out
    assert "North (you) to move" in out.split("-- screen ")[-1]   # the AI (South) moved first


def test_bad_start_option(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", "-", "--rules",
                           "chess"], cwd=ROOT, env=_env(tmp_path), input="quit\n",
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode != 0 and "--rules must be one of" in proc.stderr


def test_replay_steps_through_a_saved_game(tmp_path):
    from jarmo import Game
    g = Game("standard")
    for a in ("a1-c2", "a5-b3", "c2-d2"):
        g.play(a)
    saved = tmp_path / "game.txt"
    saved.write_text(g.dump())
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--replay", str(saved),
                           "--script", "-"], cwd=ROOT, env=_env(tmp_path),
                          input="next\nnext\nnext\nprev\nquit\n", capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    screens = proc.stdout.split("-- screen ")[1:]
    titles = [next(line for line in s.splitlines() if "Replay" in line) for s in screens]
    # it opens at the start, as a player expects a replay to
    assert [t.split("Replay ")[1].split()[0] for t in titles] == ["0/3", "1/3", "2/3", "3/3", "2/3"]
    assert "last: start" in screens[0]
    assert "last: a5-b3" in screens[-1]


def test_replay_in_the_terminal(sim, tmp_path):
    from jarmo import Game
    g = Game("standard")
    g.play("a1-c2")
    saved = tmp_path / "game.txt"
    saved.write_text(g.dump())
    p = sim("--replay", str(saved))
    p.expect_screen(r"Replay 0/1")
    assert "previous" in p.screen() and "End last" in p.screen()
    mark = len(p.raw)
    p.send(b"\x1b[C")                       # right arrow: one action on
    p.expect_screen(r"Replay 1/1", since=mark)
    mark = len(p.raw)
    p.send(b"\x1b[D")                       # left arrow: one action back
    p.expect_screen(r"Replay 0/1", since=mark)
    _quit(p, saved=None)


def _game_in(folder):
    """The game in progress in a data folder's log (jarmo/store_log.py), or None."""
    return Store(FileNvm(str(folder / "jarmo.nvm"))).game()


def test_script_with_a_saved_game_opens_on_resume(tmp_path):
    run = lambda events: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "host.sim", "--script", "-", "--data", str(tmp_path)],
        cwd=ROOT, env=_env(tmp_path), input=events, capture_output=True, text=True,
        timeout=RUN_TIMEOUT)
    assert run(SCRIPT).returncode == 0
    proc = run("select\nwait 100\nquit\n")                    # Resume
    assert proc.returncode == 0, proc.stderr
    screens = proc.stdout.split("-- screen ")[1:]
    assert ">Resume" in screens[0]
    assert "South (you) to move" in screens[-1]
    assert board_of(screens[-1])["c2"] == "A", screens[-1]    # the saved position


# ---------------------------------------------------------------- How to play, the rules, export


def test_question_mark_opens_how_to_play_and_r_the_rules(sim):
    """? opens the device's How to play (its pages turn with Tab; Enter
    goes back to the game); r pages docs/RULES.md over the screen, Esc closes."""
    p = sim()
    p.expect_screen(r"South \(you\) to move")
    mark = len(p.raw)
    p.send(b"?")
    p.expect_screen(r"How to play 1/\d", since=mark)
    mark = len(p.raw)
    p.send(b"\t")                                       # next page
    p.expect_screen(r"How to play 2/\d", since=mark)
    mark = len(p.raw)
    p.send(b"\r")                                       # back to the game
    p.expect_screen(r"South \(you\) to move", since=mark)
    mark = len(p.raw)
    p.send(b"r")
    m = p.expect_screen(r"Rules \(docs/RULES\.md\) - page 1/(\d+)", since=mark)
    screen = p.screen()
    assert "Esc or ? close" in screen and "+-----" not in screen, screen   # the pager, not the game
    if int(m.group(1)) > 1:
        mark = len(p.raw)
        p.send(b" ")                                    # space: the next page
        p.expect_screen(r"page 2/", since=mark)
    mark = len(p.raw)
    p.send(b"\x1b")                                     # Esc: back where we were
    p.expect_screen(r"South \(you\) to move", since=mark)
    _quit(p)


def test_x_exports_the_game_and_says_where(sim, tmp_path):
    p = sim()
    _play_a1_c2_and_get_the_answer(p)
    mark = len(p.raw)
    p.send(b"x")
    p.expect_screen(r"game exported as", since=mark)
    files = [f for f in os.listdir(tmp_path) if f.startswith("jarmo-game-")]
    assert len(files) == 1 and re.fullmatch(r"jarmo-game-\d{8}-\d{6}\.txt", files[0]), files
    assert files[0] in p.screen(), p.screen()
    from host import gamefiles
    game = gamefiles.load_game_text((tmp_path / files[0]).read_text())
    assert game.history()[0] == "a1-c2" and len(game.history()) == 2
    mark = len(p.raw)
    p.send(b"m")                                        # the game goes on
    p.expect_screen(r">Resume", since=mark)
    _quit(p)
    # and the export replays
    p = sim("--replay", str(tmp_path / files[0]))
    p.expect_screen(r"Replay 0/2")
    _quit(p, saved=None)


def test_a_bad_replay_on_a_terminal_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "garbled.txt"
    bad.write_bytes(b"\x00\x01 not a game")
    argv = [sys.executable, "-m", "host.sim", "--replay", str(bad), "--data", str(tmp_path)]
    p = PtyProcess(argv, ROOT, _env(tmp_path), 40, 120)
    try:
        assert p.wait() == 2
        text = p.text.strip()
        assert text.splitlines() == ["python3 run.py play: --replay %s: not a text file" % bad], text
        assert ENTER_ALT not in p.raw                     # the terminal was never taken over
    finally:
        p.close()


def test_the_play_modes_open_from_the_simulators_menu(tmp_path):
    # The play modes need no keys of their own: the menu reaches them.
    # A hint for the running game, then the campaign's ladder, then the
    # guided first game; button events only.
    script = ("menu\nnext\nselect\nwait 3000\n"           # Hint: thinks, then shows the turn
              "menu\nnext\nnext\nnext\nselect\nwait 500\n"    # Campaign
              "back\nnext\nnext\nnext\nnext\nselect\nwait 500\nquit\n")   # First game
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", "-", "--color", "none",
                           "--data", str(tmp_path)], cwd=ROOT, env=_env(tmp_path),
                          input=script, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    said = proc.stdout.split("-- screen ")[1:]
    hint = next(i for i, s in enumerate(said) if re.search(r"\| Hint: move [a-e][1-5] to", s))
    campaign = next(i for i, s in enumerate(said) if "Campaign: 0/12 won" in s)
    lesson = next(i for i, s in enumerate(said) if "Pieces move along the" in s)
    assert hint < campaign < lesson
    assert "1: classic South" in said[campaign]
    assert "Move e1 to d3." in said[lesson]


# ---------------------------------------------------------------- plain terminals

# The arrow keys and Enter as a person presses them: tools/screens.py walks
# the same way (key_to, play) to capture the screens.


@pytest.mark.parametrize("env", [{"TERM": "xterm", "COLORTERM": ""}, {"NO_COLOR": "1"}])
def test_the_end_screen_on_a_plain_terminal(sim, tmp_path, env):
    """A whole two-player game played with the arrows and Enter on a terminal
    without colours (TERM=xterm, NO_COLOR): the end screen keeps the final
    position in letters, marks the winning move, and says who won."""
    argv = [sys.executable, "-m", "host.sim", "--data", str(tmp_path), "--opponent", "human",
            "--rules", "standard"]
    p = PtyProcess(argv, ROOT, _env(tmp_path, **env), 40, 120)
    try:
        p.expect_screen(r"South to move")
        from jarmo import Game
        g = Game("standard")
        for action in WIPEOUT.split():
            _play_keys(p, action)
            g.play(action)
        m = p.expect_screen(r"\| North's pieces are")           # on the display, not only in the log
        screen = p.screen()
        assert b"\x1b[48;" not in p.raw                      # no colour was ever sent
        board = board_of(screen)
        expected = {n: v for n, v in ((n, g.piece(n)) for n in ("a1", "b1", "c1", "d1", "e1",
                                                              "a3", "b3", "d3", "c5")) if v}
        assert set(board) == set(expected) and board["d3"] == "G", (board, screen)
        assert "*c1*" in screen and "*c1* *d3* last move" in screen, screen
        assert "Letters: South A, North a" in screen and m
        mark = len(p.raw)
        p.send(b"\r")                                       # on: the result, still the position
        p.expect_screen(r"SELECT: menu|>New game", since=mark)
        _quit(p)
    finally:
        p.close()


def test_the_lesson_on_a_plain_terminal(sim):
    """--color none: First game shows where the cursor is and what to pick,
    in marks and words, as the cursor moves."""
    p = sim("--color", "none")
    p.expect_screen(r"South \(you\) to move")
    open_first_game(p)
    screen = p.screen()
    assert "Cursor a1: go to e1" in screen, screen
    rank1 = next(line for line in screen.splitlines() if line.startswith("1 "))
    assert rank1.startswith("1 [A]") and "{A}" in rank1, screen       # the cursor, the point to pick
    assert "[a1] cursor" in screen and "{e1} hint: pick it" in screen and "lines a1:" in screen
    tab_until(p, "Cursor e1: SELECT")
    screen = p.screen()
    assert "Cursor e1: SELECT" in screen and "lines e1:" in screen, screen
    assert next(line for line in screen.splitlines() if line.startswith("1 ")).rstrip().endswith("[A]")
    assert "\x1b[48" not in p.raw.decode("utf-8", "replace")
    _quit(p)
