"""AI turn times on the device (runs as code.py on CircuitPython; also on a PC).

tools/bench_ai_device.py copies this file as code.py next to jarmo/ (as
.mpy files) and a positions.txt:

    L greedy 2 3 4                 the levels to time, in order
    P classic - a1-c2 b5-a3 ...    one position: rules, expansions (+ or -), history
    P standard heroes+challenges ...

For every mix (in the file's order) and level it replays each position,
then times the AI's whole turn (start() and every step()) with
time.monotonic_ns(), passing the clock in ms as the app does, and prints

    @@AI rules+exp level n median_ms max_ms max_slice_ms median_nodes max_nodes

The AI's distance tables are built before a mix's first turn, as code.py
does in the menu before a game (ai.prepare_tables).  Then `@@MEM low ... end ...` (the
least gc.mem_free() after a turn, after gc.collect(), with the player
alive; and at the end) and `@@END`.
"""

import gc
import time

try:
    import supervisor
    _ticks = supervisor.ticks_ms         # a small int, wraps at 2**29
except (ImportError, AttributeError):    # MicroPython, CPython
    supervisor = None

    def _ticks():
        return (time.monotonic_ns() // 1000000) & 0x1FFFFFFF

import jarmo.ai as ai
from jarmo.ai import Player
from jarmo.game import Game

TIMED = hasattr(ai, "TIME_MS")          # the AI takes the clock (start(game, now), step(now))


def load(name="positions.txt"):
    levels = []
    mixes = []                # (label, rules, expansions, [history lists])
    with open(name) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "L":
                levels = parts[1:]
            elif parts[0] == "P":
                rules, exp = parts[1], parts[2]
                label = rules + ("" if exp == "-" else "+" + exp)
                if not mixes or mixes[-1][0] != label:
                    expansions = () if exp == "-" else tuple(exp.split("+"))
                    mixes.append((label, rules, expansions, []))
                mixes[-1][3].append(" ".join(parts[3:]))
    return levels, mixes


def position(rules, expansions, history):
    g = Game(rules, expansions, 300)
    for a in history.split():
        g.play(a)
    return g


def ms(ns):
    return ns / 1000000.0


def time_turn(p, g):
    """(turn ns, longest step() ns) for one whole AI turn."""
    t0 = time.monotonic_ns()
    if TIMED:
        p.start(g, _ticks())
    else:
        p.start(g)
    t1 = time.monotonic_ns()
    longest = t1 - t0
    while True:
        s0 = time.monotonic_ns()
        answer = p.step(_ticks()) if TIMED else p.step()
        s1 = time.monotonic_ns()
        if s1 - s0 > longest:
            longest = s1 - s0
        if answer is not None:
            return s1 - t0, longest


def main():
    levels, mixes = load()
    gc.collect()
    print("@@MEM start %d" % gc.mem_free())
    low = gc.mem_free()
    for label, rules, expansions, histories in mixes:
        if hasattr(ai, "prepare_tables"):
            ai.prepare_tables(rules)      # as the menu does before a game
        for level in levels:
            p = Player(level, 7)
            times = []
            nodes = []
            longest = 0
            for h in histories:
                g = position(rules, expansions, h)
                if g.result() is not None:
                    continue
                gc.collect()
                took, slice_ns = time_turn(p, g)
                gc.collect()              # what the player and the game keep
                free = gc.mem_free()
                if free < low:
                    low = free
                times.append(took)
                nodes.append(p.nodes)
                if slice_ns > longest:
                    longest = slice_ns
                print("@@TURN %s %s %d ms %.1f nodes %d depth %d" % (
                    label, level, g.plies, ms(took), p.nodes, p.completed_depth))
            times.sort()
            nodes.sort()
            n = len(times)
            print("@@AI %s %s %d %.1f %.1f %.1f %d %d" % (
                label, level, n, ms(times[n // 2]), ms(times[-1]), ms(longest),
                nodes[n // 2], nodes[-1]))
    gc.collect()
    print("@@MEM low %d end %d" % (low, gc.mem_free()))
    print("@@END")


main()
