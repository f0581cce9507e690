"""Helpers for the rule tests (tests/core/test_rules_*.py).

Plain Python that runs on CPython and on MicroPython 1.27: positions are
reached only by playing actions through the public API of jarmo.Game.
"""

from jarmo import Game

FILES = "abcde"
POINTS = tuple(f + r for r in "12345" for f in FILES)
SOUTH_CAMP = ("a1", "b1", "c1", "d1", "e1")
NORTH_CAMP = ("a5", "b5", "c5", "d5", "e5")


def game(rules, actions="", expansions=(), ply_limit=None):
    """A new game with the space-separated actions played in order."""
    g = Game(rules, expansions, ply_limit)
    play(g, actions)
    return g


def play(g, actions):
    """Play space-separated actions (or a list of them) on g; return g."""
    if isinstance(actions, str):
        actions = actions.split()
    for action in actions:
        g.play(action)
    return g


def raises(exc_type, fn, *args):
    """Call fn(*args); assert it raises exc_type and return the exception."""
    try:
        fn(*args)
    except exc_type as exc:
        return exc
    raise AssertionError("%r did not raise %s" % (args, exc_type.__name__))


def board(g):
    """{point: piece text} of every occupied point."""
    found = {}
    for p in POINTS:
        text = g.piece(p)
        if text is not None:
            found[p] = text
    return found


def pieces_of(g, side):
    """Pieces of a side on the board, hostages under a stack included."""
    mark = "S" if side == "south" else "N"
    count = 0
    for text in board(g).values():
        for part in text.split("/"):
            if part[0] == mark:
                count += 1
    return count


def moves_from(g, point):
    """The sorted move/capture actions in g.legal() that start on point."""
    return sorted(a for a in g.legal() if a[:3] == point + "-")


def public_state(g):
    """Everything the public API shows about a game, to compare before/after
    (Game.snapshot() holds the position; this adds the history and what the
    text queries show)."""
    return (g.snapshot(), g.history(), g.plies, g.turn, sorted(g.legal()), board(g),
            g.held("south"), g.held("north"), g.captured("south"), g.captured("north"),
            g.out("south"), g.out("north"), repr(g.result()))
