"""Helpers for tests that run the device's own code.py on the host.

code.py runs in a subprocess under CPython + Blinka (BLINKA_OS_AGNOSTIC=1)
with the host profile: JARMO_EVENTS is a file of button events, JARMO_DATA
the folder for saves, and every frame is printed as 25 hex colours (rank 5
on top) with the display's lines (hardware/README.md).

- run_code(data, events): one power-up of the device, until the events run out
- frames(out) / blocks(out): the printed frames, parsed
- scaled(colour): a frame colour as the LEDs show it (menu brightness, host cap)
- board_colours(game): the LEDs of a position on a plain board (menu, result)
- Thumb: which buttons a player presses to play a chosen action
- delivery_times(lines): when (virtual ms) each button of a script is pressed
- CUT_PRELUDE: runs code.py with its file system calls counted, for power cuts
"""

import os
import subprocess
import sys

from hardware.leds import scale_level
from jarmo import Game
from jarmo import app_menu as M
from jarmo import app_view as V
from jarmo.board import NAMES, point

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_CODE = "import runpy; runpy.run_path('code.py', run_name='__main__')"


def events_path(data):
    """Where run_code keeps the events of a data folder: beside it, not in it."""
    return str(data).rstrip("/") + ".events.txt"


def code_env(data, frames="all", extra_env=None):
    env = dict(os.environ)
    env.update({"JARMO_PROFILE": "host", "JARMO_DATA": str(data), "JARMO_FRAMES": frames,
                "JARMO_SEED": "1", "PYTHONPATH": ROOT, "BLINKA_OS_AGNOSTIC": "1"})
    env.update(extra_env or {})
    return env


def code_command(prelude=""):
    return [sys.executable, "-c", prelude + RUN_CODE]


def write_events(data, events):
    """events: text, or a list of lines."""
    if not isinstance(events, str):
        events = "\n".join(events) + "\n"
    path = events_path(data)
    with open(path, "w") as f:
        f.write(events)
    return path


def run_code(data, events, frames="all", extra_env=None, stdin=None, prelude="", timeout=60):
    """Power the device up once with data as JARMO_DATA; events are text, a list of
    lines, or None (then extra_env says where they come from)."""
    os.makedirs(str(data), exist_ok=True)
    env = code_env(data, frames, extra_env)
    if events is not None:
        env["JARMO_EVENTS"] = write_events(data, events)
    return subprocess.run(code_command(prelude), cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


class Frame:
    """One printed block: number, time (virtual ms), colours by point name
    (empty while the end-of-game animation runs: then celebrate is its colour),
    and the display's lines."""

    def __init__(self, number, time, colours, celebrate, text):
        self.number = number
        self.time = time
        self.colours = colours
        self.celebrate = celebrate
        self.text = text

    def __repr__(self):
        return "Frame(%d at %d ms, %r)" % (self.number, self.time, self.text)


def frames(out):
    """Printed blocks -> list of Frame."""
    result = []
    for chunk in out.split("-- frame ")[1:]:
        lines = chunk.splitlines()
        head = lines[0].split()          # "N at T ms"
        colours = {}
        celebrate = None
        text = []
        for line in lines[1:]:
            parts = line.split()
            if len(parts) == 6 and parts[0] in "12345":
                for f, hexc in zip("abcde", parts[1:]):
                    colours[f + parts[0]] = int(hexc, 16)
            elif line.startswith("celebrate "):
                celebrate = int(parts[1], 16)
            elif line.startswith("| "):
                text.append(line[2:])
        result.append(Frame(int(head[0]), int(head[2]), colours, celebrate, text))
    return result


def blocks(out):
    """Printed blocks -> list of (colours by point name, text lines)."""
    return [(f.colours, f.text) for f in frames(out)]


def scaled(c, brightness=M.BRIGHTNESS[5], cap=255):
    """A frame colour as transmitted at a menu brightness under the profile's cap."""
    k = scale_level(cap, brightness) + 1
    return (((c >> 16) * k >> 8) << 16) | ((((c >> 8) & 255) * k >> 8) << 8) | ((c & 255) * k >> 8)


def board_colours(game, trail=False):
    """The LEDs of a position on a plain board (no cursor): pieces,
    remote-camp markers, dark points (standard pieces: no breathing, no
    hostages); with trail, the point the last move came from in dim grey
    (as the result shows the final position)."""
    markers = set(game.markers())
    last = game.history()[-1] if game.history() else ""
    came_from = last[:2] if trail and len(last) == 5 and last[2] in "-x" else None
    out = {}
    for name in NAMES:
        face = game.piece(name)
        if face:
            out[name] = scaled(V.PIECE[V.KIND[V.cell_of(face[:2]) >> 1]])
        elif name == came_from:
            out[name] = scaled(V.TRAIL)
        elif name in markers:
            out[name] = scaled(V.MARKER)
        else:
            out[name] = 0
    return out


# --------------------------------------------------------------- scripts

def delivery_times(lines):
    """The virtual time at which code.py delivers each line of a script
    (one event a line: a button, or wait N); None for the waits.

    Uses the host's own EventSource and VirtualClock, which depend only on
    the script, not on the game."""
    from host import blinka
    events = blinka.parse_events("\n".join(lines))
    assert len(events) == len(lines), "one event a line, please"
    presses = []
    src = blinka.EventSource(events)
    clock = blinka.VirtualClock()
    while True:
        now = clock()
        if not src.poll(now, lambda button, seat, now=now: presses.append(now)):
            break
    times = iter(presses)
    return [None if kind == "wait" else next(times) for kind, _, _ in events]


def cut_at_time(lines, t):
    """The script up to and including the last button pressed at or before t."""
    times = delivery_times(lines)
    last = max(i for i, when in enumerate(times) if when is not None and when <= t)
    return lines[:last + 1]


# --------------------------------------------------------------- picking actions

DONE = 25
REDEPLOY = 26
MENU = 27


def picks(action, placements):
    """(first, second) choices that play an action (docs/APP.md, "Picking
    actions"); second is None for a one-pick action. Choices are points 0..24
    (a1 = 0), then done, redeploy, menu."""
    if action == "done":
        return DONE, None
    if action[0] == "@":
        return point(action[1:3]), None
    if action[0] == "r":
        p = point(action[2:4])
        return (REDEPLOY, p) if p in placements else (p, None)
    a = point(action[:2])
    if len(action) == 3:            # c5*: the guard twice
        return a, a
    return a, point(action[-2:])    # b4-c5, c5@a1, c5*@a1


def _after(seq, c):
    """The element of a sorted list after c, wrapping (NEXT)."""
    for x in seq:
        if x > c:
            return x
    return seq[0]


class Thumb:
    """The buttons a player presses (NEXT and SELECT only) to play chosen
    actions in a game on the device, keeping track of the cursor.

    The cursor (the app's behaviour, docs/APP.md): NEXT steps through the
    choices in order (the points a1..e5 that can act, then done, redeploy,
    menu); SELECT picks; after a piece is picked the cursor is on its first
    target after it, and NEXT steps through its targets. When a turn starts
    the cursor stays where the last pick left it if that point can act, else
    it goes to the first choice. A new game (or a resumed one) starts with
    the cursor at a1.
    """

    def __init__(self, rules="standard", game=None):
        self.game = game if game is not None else Game(rules)
        self.cursor = 0

    def _choices(self):
        legal = self.game.legal()
        placements = {point(a[1:3]) for a in legal if a[0] == "@"}
        firsts = {}
        for a in legal:
            f, s = picks(a, placements)
            firsts.setdefault(f, []).append((s, a))
        return firsts, placements

    def _start(self, firsts):
        order = sorted(firsts) + [MENU]
        points = [c for c in order if c < 25]
        if self.cursor not in points:
            self.cursor = (points or order)[0]
        return order

    def cursor_name(self):
        """Where the cursor is when the player's turn starts ("a1"), or None (off the board)."""
        firsts, _ = self._choices()
        self._start(firsts)
        return NAMES[self.cursor] if self.cursor < 25 else None

    def offered(self):
        """The action that SELECT, SELECT plays now: what the cursor offers."""
        firsts, _ = self._choices()
        self._start(firsts)
        f = self.cursor
        seconds = firsts[f]
        for s, a in seconds:
            if s is None:
                return a
        t = _after(sorted({s for s, _ in seconds}), f)
        return [a for s, a in seconds if s == t][0]

    def play(self, action):
        """Event lines that play action (NEXT to it, SELECT ...); plays it on self.game."""
        firsts, placements = self._choices()
        order = self._start(firsts)
        f, s = picks(action, placements)
        seconds = firsts[f]
        single = any(x is None for x, _ in seconds)
        lines = []
        lines += ["next"] * ((order.index(f) - order.index(self.cursor)) % len(order))
        lines.append("select")
        if s is None:
            assert single, action
            self.cursor = f
        else:
            assert not single, "%s cannot be picked: %s is a one-pick choice" % (action, f)
            targets = sorted({x for x, _ in seconds})
            c = _after(targets, f)
            lines += ["next"] * ((targets.index(s) - targets.index(c)) % len(targets))
            lines.append("select")
            self.cursor = s
        mover = self.game.turn
        self.game.play(action)
        r = self.game.result()
        if r is not None and r.winner != mover:
            lines.append("select")  # it ends the game against its player: asked, yes
        return lines

    def play_out(self, south, north, wait=50, limit=400):
        """Event lines of a whole game: south(game, thumb) and north(...) choose."""
        lines = []
        while self.game.result() is None:
            assert self.game.plies < limit, "the scripted game does not end"
            policy = south if self.game.turn == "south" else north
            lines += self.play(policy(self.game, self))
            lines.append("wait %d" % wait)
        return lines


# Simple ways to choose a move (policies for Thumb.play_out).

def first_legal(game, thumb):
    return game.legal()[0]


def offered(game, thumb):
    """Whatever SELECT, SELECT gives: the player just presses SELECT."""
    return thumb.offered()


def advance(game, thumb):
    """A capture if any, else the move that goes furthest forward."""
    side = game.turn

    def score(a):
        if len(a) == 5 and a[2] == "-":
            rank = int(a[4])
            return (game.piece(a[3:]) is not None, rank if side == "south" else 6 - rank,
                    -ord(a[3]))
        return (False, 0, 0)
    return max(game.legal(), key=score)


# --------------------------------------------------------------- power cuts

# Put before RUN_CODE: counts the calls that change files under JARMO_DATA
# (open for writing, seek, write, flush, close, os.remove, os.rename,
# os.sync), each one a *step*. CUT_AT=n kills the process (SIGKILL, as a power cut) just
# before step n; at a write step it first writes half the text and flushes it
# (a torn file). CUT_LOG=path logs every step as "n op path" (writes: their text
# as JSON; seeks: the position). CUT_SLOW=seconds sleeps before each step (slow flash).
CUT_PRELUDE = r'''
import builtins, json, os, signal, time
def _cut_setup():
    root = os.path.abspath(os.environ["JARMO_DATA"]) + os.sep
    cut = int(os.environ.get("CUT_AT", "0"))
    log = os.environ.get("CUT_LOG")
    slow = float(os.environ.get("CUT_SLOW", "0"))
    real_open, real_remove, real_rename, real_sync = builtins.open, os.remove, os.rename, os.sync
    count = [0]
    def step(op, path, text=None):
        count[0] += 1
        if log:
            with real_open(log, "a") as f:
                if isinstance(text, (bytes, bytearray)):
                    text = bytes(text).decode("latin-1")
                f.write("%d %s %s%s\n" % (count[0], op, os.path.basename(str(path)),
                                          "" if text is None else " " + json.dumps(text)))
        if slow:
            time.sleep(slow)
        return count[0] == cut
    def die():
        os.kill(os.getpid(), signal.SIGKILL)
    class File:
        def __init__(self, f, path):
            self.f, self.path = f, path
        def write(self, s):
            if step("write", self.path, s):
                self.f.write(s[:len(s) // 2])
                self.f.flush()
                die()
            return self.f.write(s)
        def flush(self):
            if step("flush", self.path):
                die()
            self.f.flush()
        def seek(self, pos, whence=0):
            if step("seek", self.path, str(pos)):
                die()
            return self.f.seek(pos, whence)
        def close(self):
            if step("close", self.path):
                die()
            self.f.close()
        def __getattr__(self, name):
            return getattr(self.f, name)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self.close()
    def ours(path):
        return isinstance(path, str) and os.path.abspath(path).startswith(root)
    def open_(path, mode="r", *a, **k):
        if ours(path) and ("w" in mode or "a" in mode or "+" in mode):
            if step("open", path):
                die()
            return File(real_open(path, mode, *a, **k), path)
        return real_open(path, mode, *a, **k)
    def remove(path):
        if ours(path) and step("remove", path):
            die()
        return real_remove(path)
    def rename(a, b):
        if ours(a) and step("rename", a):
            die()
        return real_rename(a, b)
    def sync():
        if step("sync", ""):
            die()
        return real_sync()
    builtins.open, os.remove, os.rename, os.sync = open_, remove, rename, sync
_cut_setup()
'''


def read_cut_log(path):
    """CUT_LOG lines -> list of (step, op, file, text or None)."""
    import json
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 3)
            n, op = int(parts[0]), parts[1]
            name = parts[2] if len(parts) > 2 else ""
            text = json.loads(parts[3]) if len(parts) > 3 else None
            out.append((n, op, name, text))
    return out
