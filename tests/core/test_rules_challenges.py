"""RULES.md section 8: the expansion `challenges` (remote camps).

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython.
"""

from jarmo import Game, IllegalMove
from tests.core.positions import game, pieces_of, raises

C = ("challenges",)
# South's move a1-b3 leaves South pieces on both markers (b3, d3); South has
# one piece captured.
ON_MARKERS = "c1-d3 e5-d3 e1-d3 a5-b3 a1-b3"
# South holds a piece and its move onto the markers also allows a redeploy.
HOLDS_AND_MARKERS = ("b1-a3 b5-a3 d1-b2 e5-d3 b2-b3 d5-b4 e1-d3 done b4-d3 b3-b2 c5-a4 c1-d3 "
                     "a5-c4 b2-c4 a4-c5 c4-e5 done c5-b3 a1-b3")


def _redeploys(g):
    return sorted(a for a in g.legal() if a.startswith("r@"))


def test_two_remote_camp_markers_stand_on_b3_and_d3():
    for rules in ("standard", "legendary", "jasyr"):
        assert Game(rules, C).markers() == ("b3", "d3")
        assert Game(rules).markers() == ()


def test_challenges_does_not_go_with_classic():
    raises(ValueError, Game, "classic", C)


def test_a_move_that_leaves_the_movers_pieces_on_both_markers_allows_a_redeploy():
    g = game("standard", ON_MARKERS, C)
    assert g.piece("b3")[0] == "S" and g.piece("d3")[0] == "S"
    assert g.captured("south") == 1
    assert _redeploys(g) == ["r@a1", "r@c1", "r@e1"]    # empty points of South's camp


def test_while_a_redeploy_is_possible_the_turn_stays_open():
    g = game("standard", ON_MARKERS, C)
    assert g.turn == "south" and g.open_turn()
    assert sorted(g.legal()) == ["done", "r@a1", "r@c1", "r@e1"]   # no second move


def test_a_redeploy_puts_a_captured_piece_back_archer_face_up_and_both_markers_leave_the_game():
    g = game("standard", ON_MARKERS, C)
    g.play("r@a1")
    assert g.piece("a1") == "Sa"
    assert g.captured("south") == 0
    assert g.markers() == ()
    assert g.turn == "north"


def test_if_the_side_does_not_redeploy_the_markers_stay():
    g = game("standard", ON_MARKERS, C)
    g.play("done")
    assert g.turn == "north"
    assert g.markers() == ("b3", "d3")
    assert g.captured("south") == 1


def test_any_move_that_leaves_pieces_on_both_markers_allows_a_redeploy():
    # South's pieces already stand on both markers; b1-a3 moves another piece
    g = game("standard", ON_MARKERS + " done d5-e3", C)
    g.play("b1-a3")
    assert g.open_turn()
    assert _redeploys(g) == ["r@a1", "r@b1", "r@c1", "r@e1"]


def test_no_redeploy_without_a_captured_piece():
    g = game("standard", "e1-d3 a5-c4 a1-b3", C)
    assert g.piece("b3") == "Sa" and g.piece("d3") == "Sa"
    assert g.captured("south") == 0
    assert g.turn == "north" and not g.open_turn()
    assert _redeploys(g) == []


def test_a_redeploy_is_only_possible_right_after_the_move():
    g = game("standard", ON_MARKERS + " done d5-e3", C)
    assert g.turn == "south" and not g.open_turn()
    assert _redeploys(g) == []
    e = raises(IllegalMove, g.play, "r@a1")
    assert str(e)


def test_the_open_turn_offers_redeploy_placing_held_pieces_and_done():
    g = game("standard", HOLDS_AND_MARKERS, C)
    assert g.held("south") == 1 and g.captured("south") == 1
    legal = g.legal()
    assert "r@a1" in legal and "@a1" in legal and "done" in legal
    assert not [a for a in legal if a[2:3] == "-"]


def test_a_redeploy_works_in_legendary_too():
    g = game("legendary", ON_MARKERS, C)
    assert _redeploys(g) == ["r@a1", "r@c1", "r@e1"]
    g.play("r@c1")
    assert g.piece("c1") == "Sa" and g.markers() == ()


def test_a_redeploy_breaks_the_move_history():
    base = ON_MARKERS + " done c5-e4 d1-b2 done e4-c5 b2-d1 done c5-e4 d1-b2"
    g = game("standard", base + " done e4-c5 b2-d1 done", C)
    assert g.result() is not None and g.result().reason == "repetition"
    g = game("standard", base + " r@a1 e4-c5 b2-d1", C)
    # South's own history: d1-b2, b2-d1, d1-b2, (redeploy), b2-d1: broken
    assert g.result() is None


def test_the_5_pieces_on_the_board_limit_holds_with_redeploys():
    g = Game("standard", C)
    for action in (HOLDS_AND_MARKERS + " r@b1 @a1").split():
        g.play(action)
        for side in ("south", "north"):
            on_board = pieces_of(g, side)
            assert on_board <= 5
            assert on_board + g.held(side) + g.captured(side) + g.out(side) == 5
