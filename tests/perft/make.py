#!/usr/bin/env python3
"""Recompute the perft counts of tests/perft/positions.txt from jarmo/game.py.

    python3 tests/perft/make.py              # rewrite the counts of the file's lines
    python3 tests/perft/make.py --check      # only compare (exit 1 on a difference)
    python3 tests/perft/make.py --reference  # also count on tests/reference's RefGame
    python3 tests/perft/make.py --new        # choose the positions and depths again

The committed counts are what tests/test_perft.py expects of every
implementation: recompute them only for a change of the rules, and say
why.  --reference counts each line on the independent implementation of
RULES.md (tests/reference/reference_rules.py, written without reading
jarmo/), which has no undo: a copy of the game per node, so it takes a
minute.  --new writes the lines from NEW_LINES' recipe: for every rule set
and expansion mix the start, a position of a seeded random game after
MIDDLE actions and one END_GAP actions before that game's end (its ends
within reach of the counts), each at the deepest depth whose count stays
within MOST_LEAVES, plus SPECIAL lines (a repetition, the back-and-forth
ban, the ply limit).
"""

import copy
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from jarmo import rulesets as R  # noqa: E402
from jarmo.game import EXPANSIONS, Game  # noqa: E402
from jarmo.rng import Rng  # noqa: E402
from tests.perft import perft as P  # noqa: E402

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "positions.txt")

HEADER = """\
# Perft counts: the leaves of the legal-action tree of a position to a depth.
#
# One position a line, six fields separated by spaces:
#   rules       a rule set (jarmo/rulesets.py RULE_SETS)
#   expansions  its expansion mix joined by "+" (jarmo/game.py EXPANSIONS), "-" for none
#   ply limit   Game's ply_limit (completed turns), "-" for none
#   position    start              the start of the game
#               random:SEED:N      N actions from the start, each legal_codes()[Rng(SEED).below(count)]
#                                  (jarmo/rng.py: a seeded random game, the same on every interpreter)
#               play:A,B,...       these actions, in notation, from the start
#   depth       actions deep
#   nodes       the count: perft(g, 0) = 1, perft(g, d) = the sum of
#               perft(g after a, d - 1) over every legal action a
# An action is the move generator's unit (Game.gen_into, jarmo/codes.py): a
# move, recall, placement, "done", flip, flip-and-place or redeploy; a turn
# is one or more of them, so the depth counts actions, not turns.  A game
# that has ended has no legal action (its subtree counts 0).
#
# Made by tests/perft/make.py from jarmo/game.py (and checked there against
# tests/reference); tests/test_perft.py checks game.py's generator, the
# search's fast path (jarmo.ai.perft) and the C kernels against these counts.
"""

MIDDLE = 20          # actions into the seeded game for the middle position
END_GAP = 3          # actions before the seeded game's end for the late one
MOST_LEAVES = 6000   # the deepest depth whose count stays within this
SPECIAL = (
    # a back-and-forth two moves from the repetition draw
    ("standard", (), None, "play:a1-c2,e5-c4,c2-a1,c4-e5,a1-c2,e5-c4", 3),
    ("legendary", ("heroes",), None, "play:a1-c2,e5-c4,c2-a1,c4-e5,a1-c2,e5-c4", 3),
    # classic: the third back-and-forth is banned instead
    ("classic", (), None, "play:a1-c2,e5-c4,c2-a1,c4-e5,a1-c2,e5-c4", 3),
    # the ply limit within reach (at plies 30 and 39 of these games)
    ("standard", ("heroes", "challenges"), 32, "random:5:30", 3),
    ("standard", ("heroes", "challenges"), 33, "random:5:30", 4),
    ("standard", (), 42, "random:3:40", 4),
)


def mixes():
    for rules in R.RULE_SETS:
        yield rules, ()
        if not R.row(rules)[R.FEATURES] & R.NO_EXPANSIONS:
            for e in EXPANSIONS:
                yield rules, (e,)
            yield rules, EXPANSIONS


def random_length(rules, expansions, seed):
    """Actions the seeded random game of random:SEED:N plays before it ends."""
    g = Game(rules, expansions)
    rng = Rng(seed)
    while g.result() is None:
        codes = g.legal_codes()
        g.play_code(codes[rng.below(len(codes))])
    return len(g.undo_log)


def deepest(rules, expansions, limit, position, most=MOST_LEAVES, first=2):
    depth = first
    while P.perft(P.game(rules, expansions, limit, position), depth + 1) <= most:
        depth += 1
    return depth


def new_lines():
    lines = []
    for rules, exps in mixes():
        seed = 0
        while random_length(rules, exps, seed) < MIDDLE + 8:     # a game that lasts
            seed += 1
        end = random_length(rules, exps, seed)
        for position in ("start", "random:%d:%d" % (seed, MIDDLE),
                         "random:%d:%d" % (seed, end - END_GAP)):
            lines.append((rules, exps, None, position, deepest(rules, exps, None, position)))
    return lines + list(SPECIAL)


def reference_perft(ref, depth):
    """The count on tests/reference's RefGame (no undo: a copy per action)."""
    if depth == 0:
        return 1
    actions = ref.legal()
    if depth == 1:
        return len(actions)
    total = 0
    for text in actions:
        child = copy.deepcopy(ref)
        child.play(text)
        total += reference_perft(child, depth - 1)
    return total


def reference_count(row):
    from tests.reference.reference_rules import RefGame
    rules, expansions, limit, position, depth, _ = row
    g = P.game(rules, expansions, limit, position)
    ref = RefGame(rules, expansions, limit)
    for text in g.history():
        ref.play(text)
    return reference_perft(ref, depth)


def write(rows, path=FILE):
    with open(path, "w") as f:
        f.write(HEADER)
        f.write("#\n# rules    expansions       limit position     depth nodes\n")
        for row in rows:
            rules, exps, limit, position, depth, nodes = row
            f.write("%-10s %-16s %-5s %-12s %d %d\n" % (
                rules, "+".join(exps) or "-", "-" if limit is None else limit, position, depth, nodes))


def main(argv):
    if "--new" in argv:
        specs = new_lines()
    else:
        specs = [row[:5] for row in P.read(FILE)]
    rows = [spec + (P.perft(P.game(*spec[:4]), spec[4]),) for spec in specs]
    failed = 0
    if "--reference" in argv:
        for row in rows:
            theirs = reference_count(row)
            if theirs != row[5]:
                print("reference differs: %s: game.py %d, reference %d" % (P.label(row), row[5], theirs))
                failed = 1
        print("reference: %d lines compared" % len(rows))
    if "--check" in argv:
        old = P.read(FILE)
        if old != rows:
            print("the counts differ from %s" % FILE)
            for a, b in zip(old, rows):
                if a != b:
                    print("  %s: file %s, game.py %d" % (P.label(a), a[5], b[5]))
            failed = 1
        else:
            print("%d lines agree" % len(rows))
    else:
        write(rows)
        print("wrote %d lines, %d leaves, to %s" % (len(rows), sum(r[5] for r in rows), FILE))
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
