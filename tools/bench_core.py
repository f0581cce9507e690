"""Memory and speed of the rules core, on MicroPython 1.27 and on CPython.

    python3 tools/bench_core.py          (or: python3 run.py bench)

Memory is measured under real MicroPython (WebAssembly, through
tests/micropython/run.mjs); each measurement runs in its own top-level
runPython call, because that port reclaims garbage only between calls.
Budgets: live heap after importing the rules and creating a game
<= 40 KB; growth after 100 random full games <= 512 bytes; one legal() plus
one play() in a midgame position allocates <= 2 KB.
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

from tests.micropython import mp  # noqa: E402

BUDGET_LIVE = 40 * 1024
BUDGET_GROWTH = 512
BUDGET_PLY_ALLOC = 2 * 1024

# Plays n random games of every mix with jarmo.rng; shared by both interpreters.
PLAYOUT = """
from jarmo import Game
from jarmo import rulesets as R
from jarmo.game import EXPANSIONS
from jarmo.rng import Rng
# every rule set, with both expansions where it takes them
MIXES = tuple((r, () if R.row(r)[R.FEATURES] & R.NO_EXPANSIONS else EXPANSIONS) for r in R.RULE_SETS)
def playouts(n, seed, public=True):
    rng = Rng(seed)
    actions = 0
    buf = [0] * 96
    for i in range(n):
        rules, expansions = MIXES[i % len(MIXES)]
        game = Game(rules, expansions, 200)
        while game.outcome is None:
            if public:
                legal = game.legal()
                game.play(legal[rng.below(len(legal))])
            else:
                count = game.gen_into(buf)
                game.do_code(buf[rng.below(count)])
            actions += 1
    return actions
"""


def micropython_memory():
    """(live bytes after import + Game, growth after 100 games, bytes of legal()+play())."""
    items = [
        # The labels are interned first: a label compiled later could start a
        # new block of the interpreter's string pool (about 2 KB) inside a window.
        "import gc\nlabels = ('base', 'live', 'warm', 'after', 'ply')\ngc.collect()",
        "print('base', gc.mem_alloc())",
        "from jarmo import Game\ngame = Game('standard', ('heroes', 'challenges'))",
        "gc.collect()",
        "print('live', gc.mem_alloc())",
        # A first batch settles one-time allocations (caches, the port's own
        # pools: about 480 bytes, once); growth is measured over the next 100.
        PLAYOUT + "playouts(100, 1)",
        "gc.collect()",
        "print('warm', gc.mem_alloc())",
        "playouts(100, 2)",
        "gc.collect()",
        "print('after', gc.mem_alloc())",
        # A midgame position: 20 random plies of standard with both expansions.
        "mid = Game('standard', ('heroes', 'challenges'))\nr = Rng(5)\n"
        "for i in range(20):\n    l = mid.legal()\n    mid.play(l[r.below(len(l))])\n"
        "l = None\na = b = 0",
        "gc.collect()",
        "gc.disable()\na = gc.mem_alloc()\nl = mid.legal()\nmid.play(l[0])\n"
        "b = gc.mem_alloc()\ngc.enable()\nprint('ply', b - a)",
    ]
    rc, out, err = mp.run_micropython(items)
    if rc:
        raise SystemExit("MicroPython run failed:\n" + err)
    values = dict(line.split() for line in out.split("\n") if line.strip())
    base = int(values["base"])
    return (int(values["live"]) - base, int(values["after"]) - int(values["warm"]),
            int(values["ply"]))


def micropython_speed(n=40):
    """Actions per second of random playouts under MicroPython (public, internal)."""
    items = [PLAYOUT + "import time",
             "t = time.ticks_ms()\na = playouts(%d, 3)\n"
             "print('public', a, time.ticks_diff(time.ticks_ms(), t))" % n,
             "t = time.ticks_ms()\na = playouts(%d, 3, False)\n"
             "print('internal', a, time.ticks_diff(time.ticks_ms(), t))" % n]
    rc, out, err = mp.run_micropython(items)
    if rc:
        raise SystemExit("MicroPython run failed:\n" + err)
    rates = {}
    for line in out.split("\n"):
        if line.strip():
            name, actions, ms = line.split()
            rates[name] = int(actions) * 1000 // max(1, int(ms))
    return rates["public"], rates["internal"]


def cpython_speed(n=200):
    space = {}
    exec(PLAYOUT, space)
    rates = []
    for public in (True, False):
        start = time.perf_counter()
        actions = space["playouts"](n, 3, public)
        rates.append(int(actions / (time.perf_counter() - start)))
    return rates


def main():
    live, growth, ply = micropython_memory()
    mp_public, mp_internal = micropython_speed()
    cp_public, cp_internal = cpython_speed()
    print("Rules core (MicroPython 1.27 WebAssembly under Node.js; CPython %d.%d)"
          % sys.version_info[:2])
    print("  live heap, import + Game('standard', heroes+challenges): %6d bytes (budget %d)"
          % (live, BUDGET_LIVE))
    print("  heap growth after 100 random full games:                 %6d bytes (budget %d)"
          % (growth, BUDGET_GROWTH))
    print("  allocated by one legal() + one play() in midgame:        %6d bytes (budget %d)"
          % (ply, BUDGET_PLY_ALLOC))
    print("  random playouts, legal()+play():  MicroPython %7d actions/s, CPython %7d actions/s"
          % (mp_public, cp_public))
    print("  random playouts, _gen()+_do():    MicroPython %7d actions/s, CPython %7d actions/s"
          % (mp_internal, cp_internal))
    ok = live <= BUDGET_LIVE and growth <= BUDGET_GROWTH and ply <= BUDGET_PLY_ALLOC
    print("  within budget: %s" % ("yes" if ok else "NO"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
