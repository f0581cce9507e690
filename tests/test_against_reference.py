"""The engine agrees with an independent implementation of RULES.md.

tests/reference/reference_rules.py was written from RULES.md alone, without
reading jarmo/, as plain readable Python. Seeded random games of every rule
set and expansion mix are played on both side by side, comparing legal(),
every point's piece(), the counts, the turn and the result at every step.
"""

import random

import pytest

from jarmo import Game, IllegalMove
from jarmo.board import NAMES
from tests.reference.reference_rules import RefGame
from tests.test_properties import MIX_IDS, MIXES

SIDES = ("south", "north")


def state(game):
    result = game.result()
    return {
        "legal": sorted(game.legal()),
        "pieces": [game.piece(name) for name in NAMES],
        "counts": [(game.held(s), game.captured(s), game.out(s)) for s in SIDES],
        "turn": game.turn if result is None or result.reason == "stuck" else None,
        "result": None if result is None else (result.winner, result.points, result.reason),
    }


def agree_at_every_step(rules, expansions, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        engine = Game(rules, expansions, ply_limit=150)
        reference = RefGame(rules, expansions, ply_limit=150)
        while True:
            mine, theirs = state(engine), state(reference)
            assert mine == theirs, (seed, engine.history())
            if engine.result() is not None:
                break
            action = rng.choice(mine["legal"])
            engine.play(action)
            reference.play(action)


@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_engine_and_reference_agree_at_every_step(rules, expansions):
    agree_at_every_step(rules, expansions, range(15))


@pytest.mark.full
@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_engine_and_reference_agree_over_many_games(rules, expansions):
    agree_at_every_step(rules, expansions, range(15, 150))


def test_both_refuse_the_same_garbled_and_illegal_input():
    engine, reference = Game("standard"), RefGame("standard")
    for text in ("b1-b2", "a1-c3", "zz", "done", "@a1", "e5-d3", "b1 - d2"):
        with pytest.raises(IllegalMove):
            engine.play(text)
        with pytest.raises(ValueError):
            reference.play(text)
