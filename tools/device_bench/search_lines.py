"""The AI's answers on the device (runs as code.py on CircuitPython; also on a PC).

tests/device/test_native_search.py copies this file as code.py with a
positions.txt of lines

    P classic - a1-c2 b5-a3 ...    one position: rules, expansions (+ or -), history

and compares what it prints with the same search run on CPython: for every
position and level 2, 3 and 4 (no clock: each level's node budget, so the
answer depends on nothing but the position and the seed)

    @@S index level nodes completed_depth code code ...
    @@T index level ms                (how long that search took: tools/bench_native.py)

First `@@NATIVE ai evaluation game`: how many functions of each module
are native code (tools/firmware.py stages them so; 0 where they are not).
"""

import time

import jarmo.ai as ai
import jarmo.evaluation as evaluation
import jarmo.game as game
from jarmo.ai import Player
from jarmo.game import Game

LEVELS = (2, 3, 4)


def positions(name="positions.txt"):
    with open(name) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "P":
                expansions = () if parts[2] == "-" else tuple(parts[2].split("+"))
                yield parts[1], expansions, parts[3:]


def answers(rules, expansions, history, index, out):
    g = Game(rules, expansions, 300)
    for action in history:
        g.play(action)
    ai.prepare_tables(rules)
    for level in LEVELS:
        p = Player(level, 7 + index)
        t0 = time.monotonic_ns()
        turn = p.choose(g)
        took = time.monotonic_ns() - t0
        out("@@S %d %d %d %d %s" % (index, level, p.nodes, p.completed_depth,
                                   " ".join(str(code) for code in turn)))
        out("@@T %d %d %.1f" % (index, level, took / 1000000))


def main(out=print):
    out("@@NATIVE %d %d %d" % tuple(getattr(m, "NATIVE_CODE", 0) for m in (ai, evaluation, game)))
    for index, (rules, expansions, history) in enumerate(positions()):
        answers(rules, expansions, history, index, out)
    out("@@END")


if __name__ == "__main__":
    main()
