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

from tests.hardware.ptyrun import LEAVE_ALT, SHOW_CURSOR, PtyProcess, first_screen, strip_ansi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

AI_TIMEOUT = 10          # seconds the greedy AI may take to answer on a busy machine
RUN_TIMEOUT = 30         # a whole subprocess run (--script) of the simulator
MOVE = r"[a-e][1-5][-x][a-e][1-5]\S*"


def _env(tmp_path):
    env = dict(os.environ)
    env.update({"PYTHONPATH": ROOT, "TERM": "xterm-256color", "BLINKA_OS_AGNOSTIC": "1"})
    return env


@pytest.fixture
def sim(tmp_path):
    """start(*args): the simulator on a pty, saving into tmp_path (--data)."""
    started = []

    def start(*args, rows=40, cols=120):
        argv = [sys.executable, "-m", "hardware.sim", "--data", str(tmp_path)] + list(args)
        p = PtyProcess(argv, ROOT, _env(tmp_path), rows, cols)
        started.append(p)
        return p

    yield start
    for p in started:
        p.close()


def _quit(p):
    """q: the simulator ends with status 0 and leaves the terminal as it found it."""
    p.send(b"q")
    assert p.wait() == 0, p.screen()
    assert p.restored() is None, p.restored()
    tail = p.raw[-100:]
    assert tail.endswith(LEAVE_ALT) and SHOW_CURSOR in tail, tail


def _play_a1_c2_and_get_the_answer(p):
    """Select the archer on a1, move it to c2; the AI's answer, once South is to move again."""
    p.expect_screen(r"South \(you\) to move")   # keys typed before the sim is up are dropped
    mark = len(p.raw)
    p.send(b"\r")                                              # select the piece on a1
    p.expect_screen(r"a1 > c2 b3", since=mark)
    mark = len(p.raw)
    p.send(b"\r")                                              # move it to c2
    m = p.expect_screen(r"South \(you\) to move.*last (%s)" % MOVE, timeout=AI_TIMEOUT,
                        since=mark)
    answer = m.group(1)
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
    assert "South (you) to move" in screen, screen             # a game against the computer
    assert "New game" not in screen and "Resume" not in screen  # not the menu
    assert "Keys:" in screen and "Enter select" in screen      # the legend
    assert "+-----------------------+" in screen                # the display
    assert "lines a1: c2 b3" in screen                          # the cursor point's lines
    for name in ("a1", "e1", "a5", "e5", "c3"):                  # every point in the grid
        assert name in screen
    assert p.modes() == (False, False, False)                    # raw keys while it runs
    _play_a1_c2_and_get_the_answer(p)                             # the AI answered
    mark = len(p.raw)
    p.send(b"m")                                                 # the menu
    p.expect_screen(r">Resume.*New game.*Rules: standard", since=mark)
    mark = len(p.raw)
    p.send(b"\t" * 5)                                            # down to Opponent
    p.expect_screen(r">Opponent: AI greedy", since=mark)         # the default opponent
    mark = len(p.raw)
    p.send(b"m")                                                 # menu again: back to the game
    p.expect_screen(r"South \(you\) to move", since=mark)
    _quit(p)


def test_a_saved_game_opens_on_resume(sim, tmp_path):
    p = sim()
    answer = _play_a1_c2_and_get_the_answer(p)
    _quit(p)
    assert (tmp_path / "game").exists()
    p = sim()                                                   # the same --data
    p.expect_screen(r">Resume")
    screen = first_screen(p.raw)
    assert ">Resume" in screen and "to move" not in screen, screen
    mark = len(p.raw)
    p.send(b"\r")                                               # Resume
    p.expect_screen(r"South \(you\) to move.*last %s" % re.escape(answer), since=mark)
    _quit(p)


def test_true_colour_cells_come_from_the_pixel_buffer(sim):
    p = sim()
    p.expect_screen(r"South.* to move")
    # South archers at brightness 128: 0x401C00 scaled -> 32;14;0, a 24-bit background cell
    p.expect_raw(b"\x1b[48;2;32;14;0m")
    _quit(p)


def test_resize_redraws(sim):
    p = sim(rows=40, cols=120)
    p.expect_screen(r"to move")
    for rows, cols, narrow in ((30, 60, True), (40, 120, False)):
        mark = len(p.raw)
        p.resize(rows, cols)            # SIGWINCH; narrow: the display goes below the board
        start = p.expect_raw(b"\x1b[2J", since=mark)    # a full redraw follows
        end = p.expect_raw(b"\x1b[J", since=start)       # the end of that screen
        screen = strip_ansi(p.raw[start:end].decode("utf-8", "replace"))
        assert "to move" in screen
        assert all(len(line) < cols for line in screen.splitlines()), screen
        lines = screen.splitlines()
        beside = any("5   a5" in line and "+---" in line for line in lines)
        assert beside != narrow, screen
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
    """Issue 5: the status text (whose turn, the menus) is always on the screen."""
    p = sim(rows=rows, cols=cols)
    p.expect_screen(r"South \(you\) to move")
    lines = first_screen(p.raw).splitlines()
    _fits(lines, rows, cols)
    screen = "\n".join(lines)
    for name in ("a1", "e1", "a5", "e5", "c3"):                  # every point in the grid
        assert name in screen, screen
    assert "lines a1: c2 b3" in screen, screen
    assert "q quit" in screen or rows < 15, screen               # a legend where it fits
    p.expect_raw(b"\x1b[48;2;32;14;0m")                         # cells from the pixel buffer
    mark = len(p.raw)
    p.send(b"\r")                                                # select the archer on a1
    p.expect_screen(r"a1 > c2 b3", since=mark)
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
    assert any("5   a5" in line and "+---" in line for line in lines), screen
    assert "Keys: arrows up/down/left/right" in screen, screen
    _fits(lines, 40, 100)
    _quit(p)


def _screen_in_process(tmp_path, profile_name, menu=False):
    """A Screen on the real app and LEDs (no terminal), and its clean-up."""
    from hardware import host, profiles, sim as S
    from hardware.display import TextDisplay
    from hardware.leds import make_leds
    from jarmo import buttons as codes
    profile = profiles.get(profile_name)
    leds = make_leds(dict(profile, pixel_pin="NEOPIXEL"), -1, host.capturing_neopixel())
    has_display = profile["display"] is not None or profile is profiles.HOST
    text = TextDisplay() if has_display else None
    app = S.make_app(profile, S.parse_args(["--data", str(tmp_path)]), str(tmp_path))
    if menu:
        app.press(codes.MENU, 0)
    leds.update(app)
    if text is not None:
        text.update(app)
    return S.Screen(app, leds, text, profile, None, colour=True), leds


@pytest.mark.parametrize("profile, menu", [("host", False), ("host", True),
                                           ("qtpy_bff", False), ("tabletop", True)])
def test_every_terminal_size_gets_a_screen_that_fits(tmp_path, profile, menu):
    """Never a row too many or a character too wide: no scrolling, no wrapped lines."""
    import io
    from hardware import sim as S
    screen, leds = _screen_in_process(tmp_path, profile, menu)
    try:
        for cols in (1, 2, 10, 20, 29, 30, 31, 40, 49, 50, 53, 54, 60, 76, 77, 80, 100, 130):
            for rows in (1, 2, 8, 11, 12, 13, 15, 16, 20, 23, 24, 25, 30, 40, 50):
                out = io.StringIO()
                screen.out = out
                screen.size = lambda: os.terminal_size((cols, rows))
                screen.resized = True
                screen.draw()
                raw = out.getvalue()
                assert raw.startswith("\x1b[2J\x1b[H") and raw.endswith("\x1b[J"), raw
                lines = strip_ansi(raw).split("\n")
                where = "%dx%d:\n%s" % (cols, rows, "\n".join(lines))
                assert len(lines) <= rows, where
                assert all(len(line) <= max(0, cols - 1) for line in lines), where
                text = "\n".join(lines)
                if cols < S.MIN_COLS or rows < S.MIN_ROWS:
                    if cols >= 20 and rows >= 3:
                        assert "too small" in text and "30x12" in text, where
                    continue
                assert "too small" not in text, where
                assert all(n in text for n in ("a1", "c3", "e5")), where
                assert "\x1b[48;2;" in raw, where                  # true-colour cells
                status = ">Resume" if menu else "to move"
                if screen.text_display is not None:                 # else "(no display)"
                    assert status in text, where
    finally:
        leds.pixels.deinit()


def test_profile_buttons_short_and_long(sim):
    p = sim("--profile", "feather_oled")
    p.expect_screen(r"b select \(B: menu\)")                   # the profile's legend
    mark = len(p.raw)
    p.send(b"b")                                               # B short: select a1
    p.expect_screen(r"a1 > c2 b3", since=mark)
    mark = len(p.raw)
    p.send(b"B")                                               # B held: menu
    p.expect_screen(r">Resume", since=mark)
    _quit(p)


def test_sigterm_restores_the_terminal():
    from tests.hardware.ptyrun import set_size
    master, slave = os.openpty()
    set_size(slave, 40, 120)
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "hardware.sim"], cwd=ROOT,
                            env=_env(None), stdin=slave, stdout=slave, stderr=slave,
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
    from hardware.sim import Terminal
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
def test_not_a_tty_says_so_and_fails(stdin):
    # CI runs `python3 run.py play` with stdin at /dev/null, or with no stdin at all
    kw = {"stdin": subprocess.DEVNULL} if stdin == "devnull" else {"preexec_fn": lambda: os.close(0)}
    proc = subprocess.run([sys.executable, "-m", "hardware.sim"], cwd=ROOT, env=_env(None),
                          capture_output=True, text=True, timeout=RUN_TIMEOUT, **kw)
    assert proc.returncode == 2, proc.stderr
    assert "needs a terminal" in proc.stderr and "--script" in proc.stderr
    assert "Traceback" not in proc.stderr


SCRIPT = """\
select      # a1
select      # to c2
wait 3000   # the AI answers
quit
"""


def test_script_mode_for_ci(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hardware.sim", "--script", "-",
                           "--data", str(tmp_path)], cwd=ROOT, env=_env(tmp_path),
                          input=SCRIPT, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\x1b" not in out                                   # plain text for logs
    screens = out.split("-- screen ")[1:]
    assert "South (you) to move" in screens[0] and "Resume" not in screens[0]  # in a game
    assert "lines a1: c2 b3" in screens[0]
    assert any("last a1-c2" in s for s in screens)
    last = screens[-1]
    assert "South (you) to move" in last
    assert re.search(r"last (?!a1-c2)%s" % MOVE, last), last    # the AI answered
    assert "200e00" in last                                    # a South archer, in hex


def test_script_with_start_options(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hardware.sim", "--script", "-", "--rules",
                           "classic", "--opponent", "greedy", "--side", "north",
                           "--data", str(tmp_path)], cwd=ROOT, env=_env(tmp_path),
                          input="wait 3000\nquit\n", capture_output=True, text=True,
                          timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "classic" in out
    assert "North (you) to move" in out.split("-- screen ")[-1]   # the AI (South) moved first


def test_bad_start_option(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hardware.sim", "--script", "-", "--rules",
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
    proc = subprocess.run([sys.executable, "-m", "hardware.sim", "--replay", str(saved),
                           "--script", "-"], cwd=ROOT, env=_env(tmp_path),
                          input="prev\nprev\nprev\nnext\nquit\n", capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    screens = proc.stdout.split("-- screen ")[1:]
    titles = [next(line for line in s.splitlines() if "Replay" in line) for s in screens]
    assert [t.split("Replay ")[1].split()[0] for t in titles] == ["3/3", "2/3", "1/3", "0/3", "1/3"]
    assert "last: a1-c2" in screens[-1]


def test_replay_in_the_terminal(sim, tmp_path):
    from jarmo import Game
    g = Game("standard")
    g.play("a1-c2")
    saved = tmp_path / "game.txt"
    saved.write_text(g.dump())
    p = sim("--replay", str(saved))
    p.expect_screen(r"Replay 1/1")
    assert "previous" in p.screen()
    mark = len(p.raw)
    p.send(b"\x1b[D")                       # left arrow: one action back
    p.expect_screen(r"Replay 0/1", since=mark)
    _quit(p)


def test_start_options_with_a_saved_game(tmp_path):
    run = lambda args, events: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "hardware.sim", "--script", "-", "--data", str(tmp_path)] + args,
        cwd=ROOT, env=_env(tmp_path), input=events, capture_output=True, text=True,
        timeout=RUN_TIMEOUT)
    first = run([], SCRIPT)
    assert first.returncode == 0 and (tmp_path / "game").exists()
    proc = run(["--rules", "jasyr"], "wait 100\nquit\n")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.split("-- screen ")[-1]
    assert "jasyr" in last and "last " not in last and re.search(r"South.* to move", last)


def test_script_with_a_saved_game_opens_on_resume(tmp_path):
    run = lambda events: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "hardware.sim", "--script", "-", "--data", str(tmp_path)],
        cwd=ROOT, env=_env(tmp_path), input=events, capture_output=True, text=True,
        timeout=RUN_TIMEOUT)
    assert run(SCRIPT).returncode == 0
    proc = run("select\nwait 100\nquit\n")                    # Resume
    assert proc.returncode == 0, proc.stderr
    screens = proc.stdout.split("-- screen ")[1:]
    assert ">Resume" in screens[0]
    assert "South (you) to move" in screens[-1] and "last " in screens[-1]
