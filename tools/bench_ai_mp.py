"""AI cost on the interpreter that runs this file (MicroPython 1.27 or CPython).

    python tools/bench_ai_mp.py                              # CPython
    node tests/micropython/run.mjs tools/bench_ai_mp.py      # MicroPython

tools/bench_ai.py runs it both ways (and measures the import heap in
separate runPython calls first).  The positions are the same on both: they
come from seeded greedy self-play, which is deterministic across
interpreters (the line "positions" prints a checksum of them to compare).
For each rule set: the mean time per greedy and per level-2 turn over the
positions, the nodes (actions applied) used, and the bytes allocated per
greedy turn (gc disabled, so gc.mem_alloc() growth is exactly the
allocation), both for a warmed-up Player.
"""

import gc
import sys
import time

try:
    sys.path.insert(0, __file__.rsplit("/", 2)[0] if "/" in __file__ else ".")
except NameError:          # MicroPython runPython: no __file__; the runner set the path
    pass

from jarmo.ai import Player
from jarmo.game import RULE_SETS, Game

MP = sys.implementation.name == "micropython"
HAS_ALLOC = hasattr(gc, "mem_alloc")      # MicroPython only
PLIES = (4, 10, 16, 22)


def now_us():
    if MP:
        return time.ticks_us()
    return int(time.perf_counter() * 1000000)


def elapsed_us(start):
    if MP:
        return time.ticks_diff(time.ticks_us(), start)
    return now_us() - start


def positions(rules):
    """Games at PLIES turns of a seeded greedy-v-greedy game (skipping ended ones)."""
    found = []
    for seed in (1, 2, 3):
        g = Game(rules, (), 300)
        players = (Player("greedy", seed * 2 + 1), Player("greedy", seed * 2 + 2))
        while g.result() is None and g.plies < PLIES[-1]:
            for code in players[g.mover].choose(g):
                g.play_code(code)
            if g.plies in PLIES and g.result() is None:
                found.append(Game.load(g.dump()))
    return found


def checksum(games):
    h = 0
    for g in games:
        for a in g.history():
            for ch in a:
                h = (h * 31 + ord(ch)) & 0xFFFFFF
    return h


REPEAT = 3      # timed passes over the positions (this port's ticks_us has 1 ms steps)


def warm_player(level, games):
    p = Player(level, 7)
    p.choose(games[0])          # buffers and tables are allocated on first use
    return p


def measure(level, games, alloc=False):
    """(mean us per turn, mean nodes, most nodes, most bytes allocated per turn, us per node).

    Times whole passes over the positions, so a coarse clock still gives
    a fair mean."""
    most_alloc = 0
    if alloc and HAS_ALLOC:
        for g in games:
            p = warm_player(level, games)
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
            p.choose(g)
            grown = gc.mem_alloc() - before
            gc.enable()
            if grown > most_alloc:
                most_alloc = grown
    p = warm_player(level, games)
    nodes = most_nodes = turns = 0
    gc.collect()
    start = now_us()
    for _ in range(REPEAT):
        for g in games:
            p.choose(g)
            nodes += p.nodes
            turns += 1
            if p.nodes > most_nodes:
                most_nodes = p.nodes
    took = elapsed_us(start)
    return took // turns, nodes // turns, most_nodes, most_alloc, took * 10 // nodes


def slices(level, games):
    """(mean us per step() at the default slice size, longest seen, steps per turn)."""
    p = warm_player(level, games)
    steps = turns = longest = 0
    gc.collect()
    start = now_us()
    for _ in range(REPEAT):
        for g in games:
            p.start(g)
            turns += 1
            while True:
                t0 = now_us()
                answer = p.step()
                took = elapsed_us(t0)
                if took > longest:
                    longest = took
                steps += 1
                if answer is not None:
                    break
    total = elapsed_us(start)
    return total // steps, longest, steps // turns


def main():
    name = "MicroPython" if MP else "CPython"
    keep = Player(2)            # its node budget bounds every level-2 turn below
    print("  %s:" % name)
    print("  (ms per turn, mean over the positions; nodes = actions applied; bytes = most allocated"
          " by one turn, gc disabled)")
    for rules in RULE_SETS:
        games = positions(rules)
        g_us, g_nodes, g_max, g_alloc, g_pn = measure("greedy", games, alloc=True)
        l_us, l_nodes, l_max, l_alloc, l_pn = measure(2, games, alloc=True)
        assert l_max <= keep.budget          # level 2 stays within its node budget
        t_us, t_nodes, t_max, _, t_pn = measure(3, games)
        f_us, f_nodes, f_max, _, f_pn = measure(4, games)
        step_us, longest, per_turn = slices(2, games)
        print("  %-9s %2d positions (checksum %06x)" % (rules, len(games), checksum(games)))
        print("    greedy  %7.1f ms %5d nodes (max %4d) %6s bytes, %.2f ms a node"
              % (g_us / 1000.0, g_nodes, g_max, g_alloc if HAS_ALLOC else "-", g_pn / 10000.0))
        print("    level 2 %7.1f ms %5d nodes (max %4d, budget %d) %6s bytes, %.2f ms a node"
              % (l_us / 1000.0, l_nodes, l_max, keep.budget, l_alloc if HAS_ALLOC else "-",
                 l_pn / 10000.0))
        print("    level 3 %7.1f ms %5d nodes (max %4d), %.2f ms a node"
              % (t_us / 1000.0, t_nodes, t_max, t_pn / 10000.0))
        print("    level 4 %7.1f ms %5d nodes (max %4d), %.2f ms a node"
              % (f_us / 1000.0, f_nodes, f_max, f_pn / 10000.0))
        print("    level-2 step() of %d nodes: %.2f ms mean, %.1f ms longest seen, %d steps a turn"
              % (keep.slice_nodes, step_us / 1000.0, longest / 1000.0, per_turn))


main()
