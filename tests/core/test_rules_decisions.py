"""Our decisions where RULES.md is silent (docs/RULES-DECISIONS.md).

Decision 1 (legendary camp win at the end of the winner's own turn) is
test_all_pieces_on_the_enemy_camp_after_the_other_sides_turn_is_not_a_win_then
in test_rules_legendary.py.
"""

from jarmo import Game
from jarmo.game import Result
from jarmo.match import Match
from tests.core.positions import play


def test_decision_2_classic_has_no_wipeout_a_side_without_archers_is_stuck():
    game = play(Game("classic"), "d1-b2 e5-d3 c1-d3 b5-a3 b1-a3 c5-b3 a1-b3 a5-b3 b2-b3 d5-b4 b3-b4")
    result = game.result()
    assert (result.winner, result.points, result.reason) == ("south", (4, 0), "stuck")
    assert game.turn == "north" and game.legal() == []


def test_decision_3_an_earned_redeploy_stays_on_offer_after_placing_a_held_piece():
    game = play(Game("standard", ("challenges",)),
                "c1-e2 d5-b4 e1-d3 b4-d3 d1-b2 d3-d2 b1-d2 c5-a4 e2-c1 a5-c4 b2-c4 e5-d3 "
                "c1-d3 b5-a3 d2-b1 a3-b1 c4-e5 done a4-c5 a1-b3")
    legal = game.legal()
    assert "r@a1" in legal and "@a1" in legal and "done" in legal
    game.play("@a1")
    assert game.legal() == ["r@c1", "r@d1", "r@e1", "done"]
    game.play("r@c1")
    assert game.markers() == () and game.turn == "north"


def test_decision_4_a_legendary_flip_needs_a_captured_piece():
    game = play(Game("legendary"), "e1-d3 e5-d3 d1-c3 d3-c1 c3-e4")
    assert game.piece("c1") == "Ng" and game.captured("north") == 0
    assert not [a for a in game.legal() if "*" in a]


def test_decision_5_ordinary_pieces_come_back_before_the_golden_soldier():
    game = play(Game("standard", ("heroes",)),
                "e1-c2 c5-b3 a1-b3 a5-b3 c2-d2 b3-d2 b1-d2 b5-d4 c1-d3 d4-d3 d2-c2 d3-c1")
    # North's guard entered South's camp with an archer and its Golden
    # Soldier captured: the archer is recovered, the Golden Soldier waits.
    assert game.held("north") == 1 and game.captured("north") == 1
    game.play("@a5")
    assert game.piece("a5") == "Na"


def test_decision_9_after_the_end_nothing_is_legal():
    game = play(Game("classic"), "d1-b2 e5-d3 c1-d3 b5-a3 b1-a3 c5-b3 a1-b3 a5-b3 b2-b3 d5-b4 b3-b4")
    assert game.legal() == []
    try:
        game.play("a3-b5")
    except ValueError as error:
        assert "over" in str(error)
    else:
        raise AssertionError("a move after the end was accepted")


def test_decision_10_a_won_legendary_game_counts_one_point_in_a_match():
    match = Match("legendary", games=2)
    assert match.game_points(Result("south", None, "camp"), 1) == (1, 0)
    assert match.game_points(Result("south", None, "camp"), 2) == (0, 1)
    assert match.game_points(Result(None, None, "stuck"), 1) == (0, 0)
