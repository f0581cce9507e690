"""RULES.md section 6: the rule set `jasyr` (a variant of `standard`).

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython.
"""

from jarmo import IllegalMove
from tests.core.positions import board, game, moves_from, raises

# North's guard on d3 is captured by South: it goes back to North's hand.
GUARD_TAKEN = "c1-d3 e5-d3 e1-d3"


def _result(g):
    r = g.result()
    assert r is not None
    return (r.winner, r.points, r.reason)


def _forward_or_sideways(side, a, b):
    step = int(b[1]) - int(a[1])
    return step >= 0 if side == "south" else step <= 0


def test_a_side_wins_when_at_the_end_of_its_turn_all_its_pieces_stand_on_the_enemy_camp():
    g = game("jasyr", "a1-b3 c5-b3 d1-b2 b3-b2 e1-d3 e5-d3 b1-a3 d3-c1")
    assert g.result() is None
    g.play("a3-b5")
    assert _result(g) == ("south", None, "camp")


def test_a_side_with_no_piece_left_loses():
    g = game("jasyr", "d1-c3 b5-c3 a1-b3 a5-b3 b1-d2 b3-d2 c1-d3 e5-d3 e1-c2")
    assert g.result() is None
    g.play("d2-c2")
    assert g.out("south") == 5
    assert _result(g) == ("north", None, "wipeout")


def test_a_side_with_no_piece_on_the_board_but_one_held_has_not_lost():
    g = game("jasyr", "c1-d3 e5-d3 b1-a3 d3-e1 d1-b2 b5-a3 b2-b3 c5-b3 a1-b3 a5-b3")
    assert [t for t in board(g).values() if t[0] == "S"] == []
    assert g.held("south") == 1
    assert g.result() is None
    assert sorted(g.legal()) == ["@a1", "@b1", "@c1", "@d1"]


def test_an_end_by_repetition_is_a_draw():
    g = game("jasyr", "a1-c2 a5-c4 c2-b2 c4-b4 b2-c2 b4-c4 c2-b2 c4-b4 b2-c2")
    assert g.result() is None
    g.play("b4-c4")
    assert _result(g) == (None, None, "repetition")


def test_an_end_by_no_legal_action_is_a_draw():
    g = game("jasyr", "b1-a3 b5-c3 a1-b3 c3-d1 c1-d3 c5-a4 d3-d4 e5-d3 b3-c5 d3-e1 d4-b5 d5-b4")
    assert g.turn == "south" and g.legal() == []
    assert _result(g) == (None, None, "stuck")


def test_the_dotted_line_c3_b5_is_usable():
    g = game("jasyr", "a1-c2")
    assert "b5-c3" in g.legal()
    g.play("b5-c3")
    assert g.piece("c3") == "Na"
    g = game("jasyr", "d1-c3 a5-b3")
    assert "c3-b5" in g.legal()
    g.play("c3-b5")                      # a capture along the dotted line
    assert g.piece("b5") == "Sa"


def test_moves_go_forward_or_sideways_never_backwards():
    g = game("jasyr", "a1-c2 a5-b3")
    assert moves_from(g, "c2") == ["c2-b2", "c2-d2", "c2-e3"]
    for back in ("c2-a1", "c2-e1"):
        e = raises(IllegalMove, g.play, back)
        assert str(e)
    g.play("c2-b2")                      # sideways
    assert g.piece("b2") == "Sa"
    assert moves_from(g, "b3") == ["b3-a1", "b3-b2", "b3-d2"]
    raises(IllegalMove, g.play, "b3-b4")
    # along a whole game no offered move goes backwards
    actions = ("c1-e2 b5-a3 e1-c2 a3-b1 a1-b3 e5-c4 d1-c3 c5-a4 c3-b5 a4-c3 b3-b4 "
               "c4-b4 c2-b2 c3-a2 e2-d4 b4-c4 b2-c2 c4-b2 c2-b2 d5-b4 d4-c4 a2-c1 c4-a5 "
               "b4-b3 b2-c2 @e5 c2-e3 e5-c4").split()
    g = game("jasyr")
    for action in actions:
        for move in g.legal():
            if move[2] == "-":
                assert _forward_or_sideways(g.turn, move[:2], move[3:]), move
        g.play(action)


def test_promotion_and_entering_the_enemy_camp_work_as_in_standard():
    g = game("jasyr", "c1-d3 e5-d3")
    assert g.piece("d3") == "Ng"         # an archer capturing outside the enemy camp
    g = game("jasyr", "c1-d3 e5-d3 b1-d2")
    g.play("d3-e1")                      # the guard enters South's camp ...
    assert g.piece("e1") == "Na"         # ... and turns archer
    g = game("jasyr", "c1-d3 a5-b3 d3-e5")
    assert g.piece("e5") == "Sa"         # captured while entering: stays archer


def test_a_captured_archer_is_out_of_the_game_for_good():
    g = game("jasyr", "c1-d3")
    g.play("e5-d3")
    assert g.out("south") == 1
    assert g.captured("south") == 0 and g.held("south") == 0


def test_a_captured_guard_goes_straight_back_to_its_owner_as_a_held_piece():
    g = game("jasyr", "c1-d3 e5-d3")
    assert g.piece("d3") == "Ng"
    g.play("e1-d3")
    assert g.held("north") == 1
    assert g.captured("north") == 0 and g.out("north") == 0


def test_placing_a_held_piece_takes_the_owners_whole_turn():
    g = game("jasyr", GUARD_TAKEN)
    assert g.turn == "north"
    assert "@e5" in g.legal()
    g.play("@e5")
    assert g.piece("e5") == "Na"         # archer face up
    assert g.held("north") == 0
    assert g.turn == "south"             # no move after the placement


def test_held_pieces_never_keep_a_turn_open_after_a_move():
    g = game("jasyr", GUARD_TAKEN)
    g.play("b5-a3")
    assert g.turn == "south" and not g.open_turn()
    assert g.held("north") == 1
    g.play("a1-c2")
    assert "@e5" in g.legal()            # it may be placed on a later turn
