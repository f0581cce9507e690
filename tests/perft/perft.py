"""Perft: the number of leaves of the legal-action tree (tests/perft/positions.txt).

Plain Python for CPython, MicroPython and CircuitPython (tests/test_perft.py
runs it on the first two and, as code.py, on the emulated Pico with Jarmo's
firmware, whose Game runs the C kernels).  A line of positions.txt names a
position and the count expected from it; this module reads a line, reaches
its position through the public API of jarmo.Game, and counts:

    perft(g, 0) = 1
    perft(g, d) = sum of perft(g after a, d - 1) over every a in g.legal_codes()

An action is the move generator's unit (Game.gen_into, jarmo/codes.py): a
move, a recall, a placement, "done", a flip, a flip-and-place or a
redeploy.  A turn is one or more actions (a placement before or after the
move, "done" to end an open turn), so a depth counts actions, not turns.  A
game that has ended has no legal action: its subtree counts 0 below depth 0.
"""

from jarmo.game import Game
from jarmo.rng import Rng

FIELDS = 6     # rules, expansions, ply limit, position, depth, nodes


def parse(line):
    """(rules, expansions, ply_limit, position, depth, nodes) of a line, or
    None for a comment or a blank line (nodes: None when not given)."""
    parts = line.split("#", 1)[0].split()
    if not parts:
        return None
    if len(parts) not in (FIELDS - 1, FIELDS):
        raise ValueError("expected %d fields: %r" % (FIELDS, line))
    rules, exps, limit, position, depth = parts[:5]
    expansions = () if exps == "-" else tuple(exps.split("+"))
    nodes = int(parts[5]) if len(parts) == FIELDS and parts[5] != "?" else None
    return rules, expansions, None if limit == "-" else int(limit), position, int(depth), nodes


def read(path):
    """The parsed lines of a positions file, in order."""
    found = []
    with open(path) as f:
        for line in f:
            row = parse(line)
            if row is not None:
                found.append(row)
    return found


def game(rules, expansions, ply_limit, position):
    """A new game at a line's position:
        start               the start of the game
        random:SEED:N       N actions from the start, each legal_codes()[Rng(SEED).below(count)]
        play:A,B,...        the actions, in notation, from the start"""
    g = Game(rules, expansions, ply_limit)
    if position == "start":
        return g
    kind, _, rest = position.partition(":")
    if kind == "random":
        seed, count = rest.split(":")
        rng = Rng(int(seed))
        for _ in range(int(count)):
            codes = g.legal_codes()
            if not codes:
                raise ValueError("%s: the game ended after %d actions" % (position, len(g.undo_log)))
            g.play_code(codes[rng.below(len(codes))])
    elif kind == "play":
        for text in rest.split(","):
            g.play(text)
    else:
        raise ValueError("unknown position %r: start, random:SEED:N or play:A,B,..." % position)
    return g


def perft(g, depth):
    """The count by Game's own generation, play and undo (do_code, undo_code)."""
    if depth == 0:
        return 1
    codes = g.legal_codes()        # (a new list: the game's buffer is reused below)
    if depth == 1:
        return len(codes)
    total = 0
    for code in codes:
        g.do_code(code)
        total += perft(g, depth - 1)
        g.undo_code()
    return total


def _ms():
    import time
    if hasattr(time, "ticks_ms"):          # MicroPython
        return time.ticks_ms()
    return int(time.monotonic() * 1000)    # CPython, CircuitPython


def label(row):
    rules, expansions, ply_limit, position, depth, _ = row
    return "%s %s %s %s %d" % (rules, "+".join(expansions) or "-",
                              "-" if ply_limit is None else ply_limit, position, depth)


def check(rows, count, out=print):
    """Count every row with count(game, depth); print "@@PERFT ok|DIFF label
    expected counted ms" per row and return the rows that differ."""
    wrong = []
    for row in rows:
        g = game(*row[:4])
        before = g.snapshot(), len(g.undo_log), g.ply_count
        t0 = _ms()
        n = count(g, row[4])
        ms = _ms() - t0
        if (g.snapshot(), len(g.undo_log), g.ply_count) != before:
            n = -1                 # (the count must leave the game as it was)
        ok = n == row[5]
        out("@@PERFT %s %s %s %d %d" % ("ok" if ok else "DIFF", label(row).replace(" ", "/"),
                                        row[5], n, ms))
        if not ok:
            wrong.append((label(row), row[5], n))
    return wrong
