"""The benchmarks' "3-legacy" opponent (host/opponents.py) plays the very
turns the AI's level 5 played when it shipped in jarmo/ai.py: level 2's
search 4 turns deep on 3,000 nodes, no history, no transposition table."""

import pytest

from host.opponents import LegacyPlayer, check_level, make_player
from jarmo import Game
from jarmo.ai import Player

# The first 6 turns against level 2 (seeds 5 and 6): (turn, nodes), recorded
# from jarmo/ai.py's level 5 before it moved here.
LINES = {
    "classic": [([3360], 1391), ([4512], 57), ([6248], 1179), ([6280], 45), ([1560], 87), ([4280], 18)],
    "jasyr": [([3360], 855), ([2992], 55), ([4200], 627), ([3520], 64), ([3096], 110), ([3768], 24)],
}


@pytest.mark.parametrize("rules", sorted(LINES))
def test_the_legacy_opponent_plays_the_turns_of_the_former_level_5(rules):
    g = Game(rules, (), 6)
    players = (make_player("3-legacy", 5), make_player(2, 6))
    line = []
    while g.result() is None:
        p = players[g.mover]
        turn = p.choose(g)
        line.append((turn, p.nodes))
        for code in turn:
            g.play_code(code)
    assert line == LINES[rules]


def test_the_legacy_opponent_keeps_to_its_node_budget_even_with_a_clock():
    p = make_player(" 3-Legacy ", 1)
    assert isinstance(p, LegacyPlayer) and p.depth == 4
    g = Game("standard")
    p.start(g, 0)
    turn = p.step(10 ** 6)                     # a clock far past any time budget
    while turn is None:
        turn = p.step(10 ** 6)
    assert p.nodes <= 3000 and p.completed_depth >= 2


def test_make_player_takes_every_shipped_level_and_the_legacy_one():
    assert type(make_player("greedy")) is Player and make_player(4).level == 4
    for level in ("random", "greedy", "2", 3, "3-legacy"):
        check_level(level)
    with pytest.raises(ValueError):
        check_level("5")
