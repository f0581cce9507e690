"""Properties that must hold over seeded random games of every mix.

- legal() agrees exactly with what play() accepts (garbled strings refused
  with a message, the game unchanged);
- undo restores the exact position (Game.snapshot()) and history;
  load(dump()) round-trips;
- piece accounting: board + held + captured + out == 5 for each side;
- frozen pieces never move; every game ends under a ply limit.

Each property runs on a few seeds per mix by default; `--full`
(python3 run.py test --full) adds the volume: thousands of games.
"""

import random

import pytest

from jarmo import Game, IllegalMove
from jarmo.board import NAMES
from jarmo.codes import NORTH
from tests.core.random_games import MIXES

MIX_IDS = ["%s+%s" % (r, "+".join(e) or "none") for r, e in MIXES]

# Every string the notation can spell: the universe legal() is a subset of.
ALL_ACTIONS = (
    [a + "-" + b for a in NAMES for b in NAMES]
    + [a + "@" + b for a in NAMES for b in NAMES]
    + ["@" + b for b in NAMES] + ["r@" + b for b in NAMES]
    + [a + "*" for a in NAMES] + [a + "*@" + b for a in NAMES for b in NAMES]
    + ["done"]
)
GARBLED = ["", " ", "b1", "b1-", "b1-z9", "f1-a2", "a0-a1", "b1--d2", "@", "@a6",
           "r@", "r@f1", "c5**", "c5*@", "don", "done!", "a1-b2-c3", "x", "1a-2b",
           "\x00", "b1\nd2", "@@a1", "r@a1@", "*", "a1*a2", "pass"]


def board_count(game, side):
    """Pieces of `side` on the board, hostages too, read point by point (piece_at, under_at:
    the piece bytes whose text piece() shows, tests/core/test_rules_notation.py)."""
    north = NORTH if side == "north" else 0
    count = 0
    for p in range(25):
        for byte in (game.piece_at(p), game.under_at(p)):
            count += bool(byte) and byte & NORTH == north
    return count


def check_accounting(game):
    for side in ("south", "north"):
        total = board_count(game, side) + game.held(side) + game.captured(side) + game.out(side)
        assert total == 5, (side, game.history())


def frozen_points(game):
    """Points holding a piece on its enemy camp: it must never move again."""
    frozen = []
    for name in NAMES:
        text = game.piece(name)
        if text and ((text[0] == "S" and name[1] == "5") or (text[0] == "N" and name[1] == "1")):
            frozen.append(name)
    return frozen


def position(game):
    """What must come back after an undo or a refused action: the position and
    the history, as action codes (cheap to compare, unlike dump(); the codes
    and their notation are one to one: tests/core/test_rules_int_api.py)."""
    return game.snapshot(), game.history_codes()


def random_game(rules, expansions, seed, on_ply):
    rng = random.Random(seed)
    game = Game(rules, expansions, ply_limit=120)
    while game.result() is None:
        legal = game.legal()
        on_ply(game, legal, rng)
        game.play(rng.choice(legal))
    assert game.legal() == []
    return game


def keep_every_invariant(rules, expansions, seeds):
    def on_ply(game, legal, rng):
        assert legal, "a running game always offers an action"
        assert len(set(legal)) == len(legal), legal
        check_accounting(game)
        before = position(game)
        action = rng.choice(legal)
        frozen = frozen_points(game)
        game.play(action)
        for name in frozen:
            # A frozen piece only ever leaves its point by being captured.
            assert not action.startswith(name + "-"), "a frozen piece moved"
            assert game.piece(name) is not None
        game.undo()
        assert position(game) == before
        if rng.random() < 0.1:
            text = game.dump()
            copy = Game.load(text)
            assert position(copy) == before and copy.dump() == text

    for seed in seeds:
        random_game(rules, expansions, seed, on_ply)


@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_random_games_keep_every_invariant(rules, expansions):
    keep_every_invariant(rules, expansions, range(20))


@pytest.mark.full
@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_hundreds_of_random_games_keep_every_invariant(rules, expansions):
    keep_every_invariant(rules, expansions, range(20, 300))


def legal_agrees_with_play(rules, expansions, seeds):
    def on_ply(game, legal, rng):
        before = position(game)
        legal_set = set(legal)
        # Every few plies, try the whole notation universe; else a sample.
        pool = ALL_ACTIONS if rng.random() < 0.05 else rng.sample(ALL_ACTIONS, 60)
        for text in pool + GARBLED:
            try:
                game.play(text)
            except IllegalMove as error:
                assert text not in legal_set, (text, str(error))
                assert str(error), "a refusal says why"
                assert position(game) == before, "a refusal leaves the game unchanged"
            else:
                assert text in legal_set, (text, legal)
                game.undo()
        for text in legal:   # input is case-insensitive and tolerates spaces
            game.play("  " + text.upper() + " ")
            game.undo()
            if "-" in text:
                game.play(text.replace("-", "x"))
                game.undo()
        assert position(game) == before

    for seed in seeds:
        random_game(rules, expansions, 1000 + seed, on_ply)


@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_legal_agrees_exactly_with_what_play_accepts(rules, expansions):
    legal_agrees_with_play(rules, expansions, range(3))


@pytest.mark.full
@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_legal_agrees_exactly_with_what_play_accepts_in_more_games(rules, expansions):
    legal_agrees_with_play(rules, expansions, range(3, 30))


def games_end_and_round_trip(rules, expansions, seeds):
    reasons = set()
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(rules, expansions, ply_limit=200)
        while game.result() is None:
            game.play(rng.choice(game.legal()))
        check_accounting(game)
        reasons.add(game.result().reason)
        if seed % 50 == 0:
            copy = Game.load(game.dump())
            assert copy.result() == game.result() and copy.dump() == game.dump()
    return reasons


@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_games_end_and_round_trip(rules, expansions):
    assert "camp" in games_end_and_round_trip(rules, expansions, range(100))


@pytest.mark.full
@pytest.mark.parametrize("rules,expansions", MIXES, ids=MIX_IDS)
def test_thousands_of_games_end_and_round_trip(rules, expansions):
    assert "camp" in games_end_and_round_trip(rules, expansions, range(2000))


def test_undo_any_number_of_actions_back_to_the_start():
    rng = random.Random(7)
    game = Game("standard", ("heroes", "challenges"))
    start = position(game)
    positions = []
    while game.result() is None:
        positions.append(position(game))
        game.play(rng.choice(game.legal()))
    while positions:
        game.undo()
        assert position(game) == positions.pop()
    assert position(game) == start
    with pytest.raises(IllegalMove):
        game.undo()
