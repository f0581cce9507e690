#!/usr/bin/env python3
"""AI strength and cost benchmark.

    python tools/bench_ai.py                    # everything: strength table + MicroPython costs
    python tools/bench_ai.py --games 40         # a quicker strength table
    python tools/bench_ai.py --strength-only | --cost-only
    python tools/bench_ai.py --rules jasyr --pairs 2:greedy
    python tools/bench_ai.py --tables frozen --rules standard --pairs 4:3

Strength: self-play with the sides swapped every game, --games games per
pairing per rule set (default 200), on --jobs processes (default 2), with
the self-play ply limit (300 turns), every player on its node budget (the
deterministic mode; on the device levels 3 and 4 think to a time budget).
Targets (docs/AI.md): greedy beats random in >= 90 % of the decided games,
each higher level beats the one below in >= 65 %, and level 3 wins >= 50 %
against "3-legacy", level 2's search 4 turns deep on 3,000 nodes (a
benchmark opponent on the host only: host/opponents.py).

Tables (--tables): "stock" (default) the AI's tables with its code in RAM
(the .mpy deploy on stock CircuitPython), "frozen" those of Jarmo's
firmware (jarmo.ai.use_tables: TT_STOCK or TT_FROZEN, 57 or 800 hash
numbers); "stock:N3,N4" or "frozen:N3,N4" with N3 and N4 transposition
table entries for levels 3 and 4 ("N3,N4": stock).

Cost: tools/bench_ai_mp.py run under MicroPython 1.27 (Node.js runner) and
under CPython for the same positions: heap added by importing the AI, bytes
allocated per greedy move, time per greedy and level-2 move, nodes used.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host.selfplay import run_games  # noqa: E402
from jarmo.rulesets import RULE_SETS  # noqa: E402

RULES = RULE_SETS
PAIRS = (("greedy", "random", 90.0), ("2", "greedy", 65.0), ("3", "2", 65.0),
         ("3", "3-legacy", 50.0), ("4", "3", 65.0))


def target(a, b):
    """The share of decided games a must win against b (docs/AI.md)."""
    if b == "random":
        return 90.0
    if b == "3-legacy":
        return 50.0       # at least as strong as the benchmark opponent
    return 65.0


def use_tables(which):
    """Size the AI's tables (see the docstring); their text."""
    from jarmo import ai
    kind, _sep, sizes = which.partition(":")
    if kind not in ("stock", "frozen"):
        kind, sizes = "stock", which
    ai.use_tables(kind == "frozen")
    if sizes:
        n3, n4 = (int(n) for n in sizes.split(","))
        ai._TT = (0, 0, 0, n3, n4)
    return "%s: level 3 %d entries, level 4 %d, %d hash numbers" % (
        which, ai._TT[3], ai._TT[4], len(ai._ZOBRIST))


def strength(rules_list, pairs, games, jobs, seed, out, tables="stock"):
    out.write("Strength: %d games per pairing and rule set, sides swapped every game, "
              "ply limit 300, %d jobs; transposition tables %s\n" % (games, jobs, use_tables(tables)))
    out.write("%-10s %-16s %5s %5s %5s %9s %7s %7s %6s\n" % (
        "rules", "pairing", "wins", "draws", "loss", "% decided", "target", "plies", "cpu s"))
    ok = True
    total_cpu = 0.0
    for rules in rules_list:
        for a, b, target in pairs:
            c0 = _cpu()
            records = run_games(rules, games, a, b, seed=seed, jobs=jobs, swap=True)
            cpu = _cpu() - c0
            total_cpu += cpu
            wins = sum(1 for r in records if r["player"] == 0)
            loss = sum(1 for r in records if r["player"] == 1)
            draws = len(records) - wins - loss
            share = 100.0 * wins / (wins + loss) if wins + loss else 0.0
            plies = sum(r["plies"] for r in records) / float(len(records))
            hit = share >= target
            ok = ok and hit
            out.write("%-10s %-16s %5d %5d %5d %8.1f%% %6.0f%% %7.1f %6.1f%s\n" % (
                rules, "%s v %s" % (a, b), wins, draws, loss, share, target, plies, cpu,
                "" if hit else "  MISSED"))
            out.flush()
    out.write("strength: CPU %.0f s in all\n" % total_cpu)
    return ok


def _cpu():
    t = os.times()
    return t[0] + t[1] + t[2] + t[3]


def cost(out):
    script = os.path.join(ROOT, "tools", "bench_ai_mp.py")
    out.write("\nCost (same positions; tools/bench_ai_mp.py):\n")
    out.flush()
    proc = subprocess.run([sys.executable, script], cwd=ROOT, capture_output=True, text=True)
    out.write("CPython 3.11:\n" + proc.stdout + proc.stderr)
    try:
        sys.path.insert(0, os.path.join(ROOT, "tests", "micropython"))
        from mp import run_micropython, unavailable_reason
    except ImportError:
        out.write("MicroPython: tests/micropython/mp.py missing\n")
        return
    reason = unavailable_reason()
    if reason:
        out.write("MicroPython: unavailable (%s)\n" % reason)
        return
    rc, stdout, stderr = run_micropython(_mp_items(script), timeout=1200)
    out.write("MicroPython 1.27 (WebAssembly under Node.js):\n" + stdout + stderr)
    if rc:
        out.write("(exit %d)\n" % rc)


def _mp_items(script):
    # Each item is a separate runPython call: garbage is collected only by a
    # gc.collect() in a later call (two, to be sure nothing stale is counted).
    collect = "import gc; gc.collect()"
    return [collect, "import jarmo.game, jarmo.board, jarmo.rng", collect, collect,
            "import gc; _base = gc.mem_alloc()",
            "import jarmo.ai", collect, collect,
            "import gc; print('  heap added by importing jarmo.ai: %d bytes' % (gc.mem_alloc() - _base));"
            " _base = gc.mem_alloc()",
            "from jarmo.ai import Player; from jarmo.game import Game; _g = Game('standard'); _p = Player(2, 1)",
            collect, collect,
            "import gc; print('  a Game and a level-2 Player: %d bytes' % (gc.mem_alloc() - _base));"
            " _base = gc.mem_alloc()",
            "_t = _p.choose(_g)", collect, collect,
            "import gc; print('  its first turn adds (private game, tables, buffers): %d bytes'"
            " % (gc.mem_alloc() - _base)); del _p, _t; _base = gc.mem_alloc()",
            collect, collect,
            "import gc; _base = gc.mem_alloc(); _p = Player(3, 1); _t = _p.choose(_g)", collect, collect,
            "import gc; print('  a level-3 Player after its first turn (transposition table,"
            " history, stacks, Zobrist keys): %d bytes' % (gc.mem_alloc() - _base)); del _p, _t",
            collect, collect,
            "import gc; _base = gc.mem_alloc(); _p = Player(4, 1); _t = _p.choose(_g)", collect, collect,
            "import gc; print('  a level-4 Player after its first turn: %d bytes'"
            " % (gc.mem_alloc() - _base)); del _g, _p, _t",
            collect,
            script]


def main(argv):
    games = 200
    jobs = 2
    seed = 0
    rules_list = RULES
    pairs = PAIRS
    do_strength = do_cost = True
    tables = "stock"
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--games":
            games = int(argv[i + 1])
            i += 1
        elif arg == "--jobs":
            jobs = int(argv[i + 1])
            i += 1
        elif arg == "--seed":
            seed = int(argv[i + 1])
            i += 1
        elif arg == "--rules":
            rules_list = tuple(argv[i + 1].split(","))
            i += 1
        elif arg == "--pairs":
            chosen = []
            for item in argv[i + 1].split(","):
                a, b = item.split(":")
                chosen.append((a, b, target(a, b)))
            pairs = tuple(chosen)
            i += 1
        elif arg == "--tables":
            tables = argv[i + 1]
            i += 1
        elif arg == "--strength-only":
            do_cost = False
        elif arg == "--cost-only":
            do_strength = False
        else:
            sys.stderr.write(__doc__)
            return 2
        i += 1
    ok = True
    if do_strength:
        ok = strength(rules_list, pairs, games, jobs, seed, sys.stdout, tables)
    if do_cost:
        cost(sys.stdout)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
