# Rule sets: one row each, everything in which the rule sets differ.
#
# A rule set is a name, its features (the rules of RULES.md that not every
# rule set has, one bit each) and the AI's tuning for it. jarmo.game plays a
# game by its features, jarmo.ai searches by its tuning, the menu lists the
# rows in order (a saved setting is a row's number: new rows go at the end)
# and How to play has a page per name (jarmo/app_help.py; a test ties them).
# A new variant is its row here, the logic of any new feature in
# jarmo/game.py, its pages (How to play, docs/RULES.md) and its tests.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# The features (RULES.md; "all others" = the rule sets without the bit).
SCORED = const(1)           # points decide the end (a tally); else only outright wins
MARKS = const(2)            # a capture marks the taker, and a marked archer on the
                            # enemy camp may be recalled (classic); else an archer
                            # that captures outside the enemy camp becomes a guard
BAN = const(4)              # the triple back-and-forth ban replaces the repetition
                            # draw, and there is no wipe-out (classic)
TIES_STAND = const(8)       # equal points are a draw; else more pieces in camp win
CAMP_SAFE = const(16)       # a piece on its enemy camp cannot be captured
GUARDS_STAY = const(32)     # a guard entering the enemy camp stays a guard and
                            # recovers nothing; it may flip to bring a piece back
FORWARD = const(64)         # no move goes back: only forward or sideways (jasyr's lines)
TAKEN_HELD = const(128)     # a captured guard goes back to its owner's hand, a
                            # captured archer out of the game
ONE_ACTION = const(256)     # a turn is one action: a move or a placement, never both
NO_EXPANSIONS = const(512)  # the expansions (heroes, challenges) do not apply

# The rows: name, features, and the AI's tuning (jarmo/ai.py): the node at
# whose k-th action late-move reductions begin (99: none), level 3's thinking
# time in ms, and the node budgets of levels 3 and 4 on the Pico (what it
# applies in those times: docs/AI.md), with stock CircuitPython and with
# Jarmo's firmware (native code and C kernels).  Level 3 is the same opponent
# on both: its budget there is stock's, and it stops at it within its time.
# Last, what the scored evaluation (jarmo/evaluation.py) gives a piece on
# the enemy camp, in 1/100 points: fitted to self-play in standard
# (docs/AI.md, "Tuned weights"); the race rule sets do not read it.
ROWS = (
    ("classic", SCORED | MARKS | BAN | TIES_STAND | NO_EXPANSIONS, 99, 650, 510, 1950, 510, 6900, 200),
    ("standard", SCORED, 1, 900, 660, 2000, 660, 6300, 187),
    ("legendary", CAMP_SAFE | GUARDS_STAY, 3, 900, 570, 1710, 570, 5390, 200),
    ("jasyr", CAMP_SAFE | FORWARD | TAKEN_HELD | ONE_ACTION, 99, 900, 520, 1560, 520, 6400, 200),
)
NAME = const(0)             # the fields of a row
FEATURES = const(1)
AI_LMR = const(2)
AI_TIME3 = const(3)
AI_NODES3 = const(4)
AI_NODES4 = const(5)
AI_FROZEN3 = const(6)       # ... on Jarmo's firmware
AI_FROZEN4 = const(7)
AI_CAMP = const(8)

RULE_SETS = tuple(row[NAME] for row in ROWS)


def row(rules):
    """The row of a rule set given by name; ValueError naming the known ones."""
    for r in ROWS:
        if r[NAME] == rules:
            return r
    raise ValueError("unknown rule set %r: expected one of %s" % (rules, ", ".join(RULE_SETS)))
