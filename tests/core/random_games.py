"""Seeded random games that play the same on every interpreter.

The games draw from jarmo.rng (not `random`, which differs between CPython
and MicroPython) and mix in undo and dump/load, so a digest of their
histories and results compares the whole engine across interpreters.
"""

from jarmo import Game
from jarmo.checksum import checksum
from jarmo.rng import Rng

MIXES = (
    ("classic", ()),
    ("standard", ()), ("standard", ("heroes",)), ("standard", ("challenges",)),
    ("standard", ("heroes", "challenges")),
    ("legendary", ()), ("legendary", ("heroes",)), ("legendary", ("challenges",)),
    ("legendary", ("heroes", "challenges")),
    ("jasyr", ()), ("jasyr", ("heroes",)), ("jasyr", ("challenges",)),
    ("jasyr", ("heroes", "challenges")),
)


def play_random_game(rules, expansions, seed, ply_limit=150):
    """One game of random actions, with undos and a save/load round trip."""
    rng = Rng(seed)
    game = Game(rules, expansions, ply_limit)
    while game.result() is None:
        legal = game.legal()
        game.play(legal[rng.below(len(legal))])
        roll = rng.below(20)
        if roll == 0:
            last = game.history()[-1]
            before = game.snapshot()
            game.undo()
            game.play(last)
            assert game.snapshot() == before, "undo and replay give the same position"
        elif roll == 1:
            game = Game.load(game.dump())
    return game


def summary(game):
    """One line with everything a game's end shows."""
    result = game.result()
    return "%s|%s|%s|%s|%d%d%d%d%d%d" % (
        " ".join(game.history()), result.winner, result.points, result.reason,
        game.held("south"), game.held("north"), game.captured("south"),
        game.captured("north"), game.out("south"), game.out("north"))


def digest(games_per_mix=3, first_seed=0):
    """A checksum over seeded random games of every mix."""
    lines = []
    for rules, expansions in MIXES:
        for seed in range(first_seed, first_seed + games_per_mix):
            lines.append(summary(play_random_game(rules, expansions, seed)))
    return checksum("\n".join(lines))
