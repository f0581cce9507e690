"""The terminal simulator, driven through a pseudo-terminal like a person would."""

import os
import signal
import subprocess
import sys
import termios

import pytest

from tests.hardware.ptyrun import PtyProcess, strip_ansi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _env(tmp_path):
    env = dict(os.environ)
    env.update({"PYTHONPATH": ROOT, "TERM": "xterm-256color", "BLINKA_OS_AGNOSTIC": "1"})
    return env


@pytest.fixture
def sim(tmp_path):
    started = []

    def start(*args, rows=40, cols=120):
        argv = [sys.executable, "-m", "hardware.sim", "--data", str(tmp_path)] + list(args)
        p = PtyProcess(argv, ROOT, _env(tmp_path), rows, cols)
        started.append(p)
        return p

    yield start
    for p in started:
        p.close()


def test_play_a_move_watch_the_ai_open_the_menu_and_quit(sim):
    p = sim("--opponent", "random", "--rules", "standard")
    p.expect(r"South \(you\) to move")
    screen = p.text
    assert "Keys:" in screen and "Enter select" in screen      # the legend
    assert "+-----------------------+" in screen                # the display
    assert "lines a1: c2 b3" in screen                          # the cursor point's lines
    for name in ("a1", "e1", "a5", "e5", "c3"):                  # every point in the grid
        assert name in screen
    mark = len(p.raw)
    p.send(b"\r")                                              # select the piece on a1
    p.expect(r"a1 > c2 b3", since=mark)
    mark = len(p.raw)
    p.send(b"\r")                                              # move it to c2
    p.expect(r"last (?!a1-c2)[a-e][1-5][-x@][a-e][1-5]", timeout=20, since=mark)  # the AI answered
    p.expect(r"South \(you\) to move", since=mark)
    mark = len(p.raw)
    p.send(b"m")
    p.expect(r"New game", since=mark)
    assert "Resume" in p.screen_since(mark)
    p.send(b"q")
    assert p.wait() == 0
    tail = p.raw[-200:]
    assert b"\x1b[?1049l" in tail and b"\x1b[?25h" in tail       # screen and cursor restored


def test_true_colour_cells_come_from_the_pixel_buffer(sim):
    p = sim()
    p.expect(r"New game")
    # the menu screen: a1 is dark, drawn as a 24-bit background cell
    assert b"\x1b[48;2;" in p.raw
    p.send(b"\r")                                                # New game: pieces appear
    mark = len(p.raw)
    p.expect(r"South to move", since=mark)
    # South archers at brightness 128: 0x401C00 scaled -> 32;14;0
    p.expect_raw(b"\x1b[48;2;32;14;0m", since=mark)
    p.send(b"q")
    assert p.wait() == 0


def test_resize_redraws(sim):
    p = sim(rows=40, cols=120)
    p.expect(r"New game")
    mark = len(p.raw)
    p.resize(30, 60)                 # SIGWINCH; narrow: the display goes below the board
    start = p.expect_raw(b"\x1b[2J", since=mark)   # a full redraw follows
    end = p.expect_raw(b"\x1b[J", since=start)      # the end of that screen
    screen = strip_ansi(p.raw[start:end].decode("utf-8", "replace"))
    assert "New game" in screen
    assert all(len(line) <= 60 for line in screen.splitlines())
    p.send(b"q")
    assert p.wait() == 0


def test_profile_buttons_short_and_long(sim):
    p = sim("--profile", "feather_oled")
    p.expect(r"b select \(B: menu\)")                         # the profile's legend
    mark = len(p.raw)
    p.send(b"b")                                               # B short: select New game
    p.expect(r"South to move", since=mark)
    mark = len(p.raw)
    p.send(b"B")                                               # B held: menu
    p.expect(r"Resume", since=mark, timeout=5)
    p.send(b"q")
    assert p.wait() == 0


def test_sigterm_restores_the_terminal():
    from tests.hardware.ptyrun import set_size
    master, slave = os.openpty()
    set_size(slave, 40, 120)
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "hardware.sim"], cwd=ROOT,
                            env=_env(None), stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    try:
        import select
        out = b""
        while b"New game" not in out:
            ready, _, _ = select.select([master], [], [], 10)
            assert ready, out[-500:]
            out += os.read(master, 65536)
        assert termios.tcgetattr(slave) != before              # cbreak while running
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 128 + signal.SIGTERM
        ready, _, _ = select.select([master], [], [], 1)
        out += os.read(master, 65536) if ready else b""
        assert b"\x1b[?1049l" in out
        assert termios.tcgetattr(slave) == before              # restored
    finally:
        if proc.poll() is None:
            proc.kill()
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


def test_not_a_tty_says_so_and_fails():
    proc = subprocess.run([sys.executable, "-m", "hardware.sim"], cwd=ROOT, env=_env(None),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "needs a terminal" in proc.stderr and "--script" in proc.stderr


SCRIPT = """\
select      # New game
select      # a1
select      # to c2
wait 500
quit
"""


def test_script_mode_for_ci(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hardware.sim", "--script", "-",
                           "--data", str(tmp_path)], cwd=ROOT, env=_env(tmp_path),
                          input=SCRIPT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\x1b" not in out                                   # plain text for logs
    assert "-- screen 1" in out and "| Jarmo" in out
    assert "lines a1: c2 b3" in out
    last = out.split("-- screen ")[-1]
    assert "last a1-c2" in last
    assert "200e00" in last                                    # a South archer, in hex


def test_script_with_start_options(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hardware.sim", "--script", "-", "--rules",
                           "classic", "--opponent", "greedy", "--side", "north",
                           "--data", str(tmp_path)], cwd=ROOT, env=_env(tmp_path),
                          input="wait 3000\nquit\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "classic" in out
    assert "North (you) to move" in out.split("-- screen ")[-1]   # the AI (South) moved first


def test_bad_start_option(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hardware.sim", "--script", "-", "--rules",
                           "chess"], cwd=ROOT, env=_env(tmp_path), input="quit\n",
                          capture_output=True, text=True, timeout=60)
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
                          text=True, timeout=60)
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
    p.expect(r"Replay 1/1")
    assert "previous" in strip_ansi(p.text)
    mark = len(p.raw)
    p.send(b"\x1b[D")                       # left arrow: one action back
    p.expect(r"Replay 0/1", since=mark)
    p.send(b"q")
    assert p.wait() == 0


def test_start_options_with_a_saved_game(tmp_path):
    run = lambda args, events: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "hardware.sim", "--script", "-", "--data", str(tmp_path)] + args,
        cwd=ROOT, env=_env(tmp_path), input=events, capture_output=True, text=True, timeout=60)
    first = run([], SCRIPT)
    assert first.returncode == 0 and (tmp_path / "game").exists()
    proc = run(["--rules", "jasyr"], "wait 100\nquit\n")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.split("-- screen ")[-1]
    assert "jasyr" in last and "South to move" in last
