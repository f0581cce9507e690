"""RULES.md section 5: the rule set `legendary` (a variant of `standard`).

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython.
"""

from jarmo import IllegalMove
from tests.core.positions import board, game, play, raises

# North: a guard on c1 (South's camp) that entered there on an earlier turn,
# one North piece captured, e5 the only empty point of North's camp.
FLIP = "e1-d3 e5-d3 a1-b3 d3-c1 b3-a5"
BACK_AND_FORTH = "a1-c2 a5-b3 c2-a1 b3-a5 a1-c2 a5-b3 c2-a1 b3-a5"


def _result(g):
    r = g.result()
    assert r is not None
    return (r.winner, r.points, r.reason)


def test_a_side_wins_when_at_the_end_of_its_turn_all_its_pieces_stand_on_the_enemy_camp():
    g = game("legendary", "e1-d3 e5-d3 d1-b2 d3-c1 a1-b3 a5-b3 b1-a3 b3-b2")
    assert g.result() is None
    g.play("a3-b5")
    assert _result(g) == ("south", None, "camp")


def test_legendary_has_no_points():
    g = game("legendary", "a1-c2 a5-b3 c2-a1", ply_limit=3)
    assert g.result().points is None


def test_a_side_with_no_piece_left_loses():
    g = game("legendary", "b1-a3 b5-a3 c1-d3 e5-d3 d1-b2 d3-e1 a1-b3 a5-b3 b2-b3")
    assert g.result() is None
    g.play("c5-b3")
    assert g.captured("south") == 5 and g.held("south") == 0
    assert _result(g) == ("north", None, "wipeout")


def test_an_end_by_repetition_is_a_draw():
    g = game("legendary", BACK_AND_FORTH)
    assert _result(g) == (None, None, "repetition")


def test_an_end_by_no_legal_action_is_a_draw():
    g = game("legendary", "a1-b3 c5-b3 e1-c2 e5-d3 c2-d2 d3-c1 b1-a3 b3-d2 a3-b5 d2-b3 "
                          "d1-b2 b3-b2")
    assert g.turn == "south" and g.legal() == []
    assert _result(g) == (None, None, "stuck")


def test_all_pieces_on_the_enemy_camp_after_the_other_sides_turn_is_not_a_win_then():
    # RULES.md 5: "A side wins when, at the end of *its* turn, ...". North's
    # move leaves South's only piece (b5) on the enemy camp; South has not won,
    # and as South cannot act on its turn the game is a draw.
    g = game("legendary", "a1-b3 c5-b3 e1-c2 e5-d3 c2-d2 d3-c1 b1-a3 b3-d2 a3-b5 d2-b3 d1-b2")
    assert g.result() is None
    g.play("b3-b2")
    assert board(g)["b5"] == "Sa"
    assert [p for p, t in board(g).items() if t[0] == "S"] == ["b5"]
    assert _result(g) == (None, None, "stuck")


def test_a_piece_standing_on_the_enemy_camp_cannot_be_captured():
    g = game("legendary", "e1-d3 a5-c4 d3-e5")
    assert g.piece("e5") == "Sa"
    assert "c4-e5" not in g.legal()
    e = raises(IllegalMove, g.play, "c4-e5")
    assert str(e)
    assert g.piece("e5") == "Sa"


def test_a_piece_on_its_own_camp_can_still_be_captured():
    g = game("legendary", "c1-d3 a5-b3")
    assert "d3-e5" in g.legal()
    g.play("d3-e5")
    assert g.piece("e5") == "Sa" and g.captured("north") == 1


def test_a_guard_entering_the_enemy_camp_stays_a_guard_and_recovers_nothing():
    g = game("legendary", "e1-d3 e5-d3 c1-d3 a5-c4")
    assert g.piece("d3") == "Sg" and g.captured("south") == 1
    g.play("d3-e5")
    assert g.piece("e5") == "Sg"
    assert (g.held("south"), g.captured("south")) == (0, 1)
    assert g.turn == "north" and not g.open_turn()


def test_on_a_later_turn_the_owner_may_turn_such_a_guard_and_hold_the_recovered_piece():
    g = game("legendary", FLIP)
    assert g.piece("c1") == "Ng" and g.captured("north") == 1
    assert sorted(a for a in g.legal() if "*" in a) == ["c1*", "c1*@e5"]
    g.play("c1*")
    assert g.piece("c1") == "Na"
    assert (g.held("north"), g.captured("north")) == (1, 0)
    assert g.turn == "south"             # the flip was the whole turn
    assert not g.open_turn()


def test_the_recovered_piece_may_be_placed_as_part_of_the_same_turn():
    g = game("legendary", FLIP)
    g.play("c1*@e5")
    assert g.piece("c1") == "Na"
    assert g.piece("e5") == "Na"         # archer face up
    assert (g.held("north"), g.captured("north")) == (0, 0)
    assert g.turn == "south"


def test_placing_the_recovered_piece_at_once_needs_an_empty_point_of_the_own_camp():
    g = game("legendary", FLIP)
    empty = [p for p in ("a5", "b5", "c5", "d5", "e5") if g.piece(p) is None]
    assert empty == ["e5"]
    assert [a for a in g.legal() if a.startswith("c1*@")] == ["c1*@e5"]
    raises(IllegalMove, g.play, "c1*@a5")


def test_a_held_recovered_piece_is_placed_later_like_any_held_piece():
    g = game("legendary", FLIP + " c1* b1-a3")
    assert g.turn == "north" and g.held("north") == 1
    assert "@e5" in g.legal()
    play(g, "@e5 b5-d4")
    assert g.piece("e5") == "Na" and g.held("north") == 0
    assert g.turn == "south"


def test_only_a_guard_on_the_enemy_camp_can_be_turned():
    g = game("legendary", "e1-d3 e5-d3 c1-d3 a5-c4")
    # South has a guard on d3 (not on the enemy camp) and a piece captured
    assert g.piece("d3") == "Sg" and g.captured("south") == 1
    assert [a for a in g.legal() if "*" in a] == []
    raises(IllegalMove, g.play, "d3*")


def test_a_flip_breaks_the_move_history():
    base = FLIP + " d5-e3 d1-b2 e3-d5 b2-d1"
    g = game("legendary", base + " d5-e3 d1-b2 e3-d5 b2-d1")
    assert _result(g) == (None, None, "repetition")
    g = game("legendary", base + " c1* d1-b2 d5-e3 done b2-d1 e3-d5 done")
    # North's own moves: d5-e3, e3-d5, (flip), d5-e3, e3-d5: broken
    assert g.result() is None
