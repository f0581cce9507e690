"""Text captures of the simulator's screens, as a terminal shows them.

    python3 tools/screens.py [--out docs/screens]

Runs `python3 run.py play` on a pseudo-terminal of 40 x 110 (with the
standard library's pty, through tests/hardware/ptyrun.py) and saves the
last screen drawn, as plain text, at: the start (start.txt, and
start-ascii.txt with --drawing ascii), a game against the AI after three
turns with a piece selected (mid-game.txt), the end of a two-player game on
a terminal without colours (end.txt) and the first steps of First game
with --color none (lesson.txt).
"""

import argparse
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "hardware"))
from ptyrun import PtyProcess  # noqa: E402

WIPEOUT = "e1-d3 b5-a3 b1-a3 e5-d3 c1-d3 a5-b3 a1-b3 d5-b4 b3-c5 @c1 b4-d3 c1-d3"
ARROWS = {"up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D"}


def start(args, env=None):
    home = tempfile.mkdtemp()
    e = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8",
             PYTHONPATH=ROOT, BLINKA_OS_AGNOSTIC="1", HOME=home)
    e.pop("NO_COLOR", None)
    e.pop("XDG_DATA_HOME", None)
    e.update(env or {})
    python = os.path.join(ROOT, ".venv", "bin", "python")
    return PtyProcess([python, "-P", "-m", "host.sim", "--seed", "7"] + args, ROOT, e, 40, 110)


def cursor(p):
    """The point under the cursor, from the footer "lines c3: ..." of the last screen."""
    return re.findall(r"^lines ([a-e][1-5]):", p.screen(), re.M)[-1]


def key_to(p, name):
    """Move the cursor to a point with the arrow keys, as a person would."""
    for _ in range(10):
        here = cursor(p)
        if here == name:
            return
        df, dr = ord(name[0]) - ord(here[0]), int(name[1]) - int(here[1])
        key = ARROWS["right" if df > 0 else "left"] if df else ARROWS["up" if dr > 0 else "down"]
        mark = len(p.raw)
        p.send(key)
        p.expect_screen(r"lines (?!%s:)[a-e][1-5]:" % here, since=mark)
    raise AssertionError("the cursor never reached %s:\n%s" % (name, p.screen()))


def play(p, action):
    """Play one action (notation) with the arrows and Enter."""
    for point in ([action[:2], action[3:5]] if action[2] == "-" else [action[1:3]]):
        key_to(p, point)
        mark = len(p.raw)
        p.send(b"\r")
        p.expect_screen(r"\| (North|South)", since=mark)


def tab_until(p, text, limit=10):
    """Press Tab (NEXT) until the last screen shows text."""
    for _ in range(limit):
        if text in p.screen():
            return
        mark = len(p.raw)
        p.send(b"\t")
        p.expect_screen(r"\| \S", since=mark)
    raise AssertionError("Tab never brought %r:\n%s" % (text, p.screen()))


def open_first_game(p):
    """From a game: the menu, then First game."""
    p.send(b"m")
    p.expect_screen(r">Resume")
    tab_until(p, ">First game")
    mark = len(p.raw)
    p.send(b"\r")
    p.expect_screen(r"First game 1/7", since=mark)


def save(out, name, p):
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write(p.screen().rstrip() + "\n")
    print("wrote", os.path.join(out, name))


def quit_(p):
    p.send(b"q")
    p.wait(10)
    p.close()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 tools/screens.py", description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "screens"))
    out = ap.parse_args(argv).out
    os.makedirs(out, exist_ok=True)

    p = start([])
    p.expect_screen(r"South \(you\) to move")
    save(out, "start.txt", p)
    for action in ("a1-c2", "b1-d2", "c2-e3"):
        mark = len(p.raw)
        play(p, action)
        p.expect_screen(r"South \(you\) to move", timeout=15, since=mark)
    mark = len(p.raw)
    p.send(b"\r")                          # the piece under the cursor: its targets
    p.expect_screen(r" to ", since=mark)
    save(out, "mid-game.txt", p)
    quit_(p)

    p = start(["--opponent", "human"], {"TERM": "xterm", "COLORTERM": ""})
    p.expect_screen(r"South to move")
    for action in WIPEOUT.split():
        play(p, action)
    p.expect_screen(r"\| North's pieces are")     # on the display, not only in the log
    save(out, "end.txt", p)
    quit_(p)

    p = start(["--color", "none"])
    p.expect_screen(r"South \(you\) to move")
    open_first_game(p)
    save(out, "lesson.txt", p)
    quit_(p)

    p = start(["--drawing", "ascii"])
    p.expect_screen(r"South \(you\) to move")
    save(out, "start-ascii.txt", p)
    quit_(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
