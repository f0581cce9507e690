"""The search's quiet-move fast path plays exactly as Game.do_code: over
positions from many games of every rule set (with each expansion where it
applies), a search with the fast path and one without it choose the same
turn with the same value, apply the same number of actions and finish the
same depth, and leave the game as they found it."""

import pytest

from jarmo import rulesets as R
from jarmo.ai import Player
from jarmo.codes import action, kind, source, target
from jarmo.game import EXPANSIONS, Game

VARIANTS = tuple((rules, exps) for rules in R.RULE_SETS
                 for exps in ((),) + (() if R.row(rules)[R.FEATURES] & R.NO_EXPANSIONS
                                       else tuple((e,) for e in EXPANSIONS) + (EXPANSIONS,)))


def shuffle(g):
    """The mover's turn that takes back its own last move, if that was a
    whole turn and is legal now (None otherwise): two such players walk
    into the back-and-forth repetition."""
    log = g.history_codes()
    if len(log) >= 2:
        last = log[-2]
        back = action(kind(last), target(last), source(last))
        if back in g.legal_codes():
            return [back]
    return None


def positions(rules, exps, games, every=2):
    """Seeded games (a wide spread of positions: early, middle, late,
    captures), one position every few turns, as played games (not copies):
    a random and a greedy player, who from time to time both take back
    their last move (repetitions within the search's reach), under a ply
    limit the searches reach in the last turns."""
    for seed in range(games):
        g = Game(rules, exps, 40 + 10 * seed)
        players = (Player("random", seed), Player("greedy", seed + 100))
        turn = 0
        while g.result() is None:
            if turn % every == every - 1:
                yield g
            codes = shuffle(g) if turn % 12 >= 6 else None
            for code in codes or players[(turn + seed) % 2].choose(g):
                g.play_code(code)
            turn += 1


def search(game, level, fast):
    p = Player(level, seed=7)
    p.fast_path = fast
    p.node_budget = 1500
    before = game.snapshot(), game.ply_count, len(game.history())
    turn = p.choose(game)
    assert (game.snapshot(), game.ply_count, len(game.history())) == before
    return turn, p.nodes, p.completed_depth


def check(rules, exps, games, levels):
    compared = 0
    for g in positions(rules, exps, games):
        for level in levels:
            assert search(g, level, True) == search(g, level, False), (rules, exps, g.history())
            compared += 1
    assert compared >= games


@pytest.mark.parametrize("rules", R.RULE_SETS)
def test_the_fast_path_plays_as_do_code(rules):
    check(rules, (), 1, (2, 3))


@pytest.mark.full
@pytest.mark.parametrize("rules,exps", VARIANTS)
def test_the_fast_path_plays_as_do_code_over_many_games(rules, exps):
    check(rules, exps, 6, (2, 3, 4))


def test_the_variants_are_every_rule_set():
    assert sorted({rules for rules, _ in VARIANTS}) == sorted(R.RULE_SETS)
