"""RULES.md section 7: the expansion `heroes` (Golden Soldiers).

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython. Piece texts: "SG"/"SA" South's Golden Soldier as
guard/archer; "top/bottom" for a stack.
"""

from jarmo import Game, IllegalMove
from tests.core.positions import board, game, moves_from, raises

H = ("heroes",)
# South's Golden Soldier (guard) goes to d3 and is captured there.
HOSTAGE = "e1-d3 e5-d3"
# ... and South's archer from c1 rescues it.
RESCUE = HOSTAGE + " c1-d3"
# North's Golden Soldier is taken hostage on b3, North rescues it, South
# takes North's rescuer off the top again.
RECAPTURE = "b1-d2 a5-b3 d2-b3 c5-b3 a1-b3"
# North's Golden Soldier (guard) stands on top of South's hostage on b2 and
# is captured there by the South archer from d1.
GOLD_ON_TOP = "e1-c2 a5-c4 c2-b2 c4-b2 d1-b2"


def _result(g):
    r = g.result()
    assert r is not None
    return (r.winner, r.points, r.reason)


def test_each_sides_right_hand_corner_piece_starts_as_its_golden_soldier_guard_up():
    for rules in ("standard", "legendary", "jasyr"):
        g = Game(rules, H)
        assert g.piece("e1") == "SG"
        assert g.piece("a5") == "NG"
        for p in ("a1", "b1", "c1", "d1"):
            assert g.piece(p) == "Sa"
        for p in ("b5", "c5", "d5", "e5"):
            assert g.piece(p) == "Na"


def test_heroes_does_not_go_with_classic():
    raises(ValueError, Game, "classic", H)


def test_a_golden_soldier_captured_while_an_archer_is_out_of_the_game_for_good():
    g = game("standard", "e1-d3 a5-c4 d3-e5", H)
    assert g.piece("e5") == "SA"         # the guard turned archer entering the camp
    g.play("c4-e5")
    assert g.out("south") == 1
    assert g.captured("south") == 0 and g.held("south") == 0
    assert g.piece("e5")[0] == "N" and "/" not in g.piece("e5")


def test_a_golden_soldier_captured_while_a_guard_becomes_a_hostage_under_the_capturer():
    g = game("standard", "e1-d3", H)
    assert g.piece("d3") == "SG"
    g.play("e5-d3")
    assert g.piece("d3") == "Ng/SA"      # capturer on top, hostage archer face up
    assert (g.captured("south"), g.out("south"), g.held("south")) == (0, 0, 0)


def test_a_hostage_cannot_move_while_a_piece_stands_on_it():
    g = game("standard", HOSTAGE, H)
    assert g.turn == "south"
    assert moves_from(g, "d3") == []
    for move in ("d3-c1", "d3-e1", "d3-d2", "d3-b4"):
        raises(IllegalMove, g.play, move)
    assert g.piece("d3") == "Ng/SA"


def test_the_top_piece_of_a_stack_is_the_one_that_moves():
    g = game("standard", HOSTAGE + " a1-c2", H)
    assert "d3-b4" in g.legal()
    g.play("d3-b4")
    assert g.piece("b4") == "Ng"
    assert g.piece("d3") == "SA"         # the Golden Soldier is left behind, on top


def test_the_top_piece_of_a_stack_is_the_one_that_captures():
    g = game("standard", RESCUE + " d5-b4", H)
    assert g.piece("d3") == "Sg/SA"
    g.play("d3-b4")
    assert g.piece("b4") == "Sg"
    assert g.piece("d3") == "SA"
    assert g.captured("north") == 2


def test_capturing_the_piece_on_top_of_your_own_hostage_rescues_it():
    g = game("standard", HOSTAGE, H)
    g.play("c1-d3")
    assert g.piece("d3") == "Sg/SA"      # the rescuer now stands on top
    assert g.captured("north") == 1
    assert g.turn == "north"


def test_once_the_rescuer_moves_away_the_golden_soldier_moves_freely_again():
    g = game("standard", RESCUE + " a5-c4", H)
    # the rescuer's moves: every line from d3 (c1 and e1 are empty)
    assert moves_from(g, "d3") == ["d3-b4", "d3-c1", "d3-d2", "d3-d4", "d3-e1", "d3-e5"]
    g.play("d3-b4")
    assert g.piece("d3") == "SA"
    g.play("c4-a5")
    assert moves_from(g, "d3") == ["d3-c1", "d3-d2", "d3-d4", "d3-e1", "d3-e5"]


def test_capturing_a_piece_standing_on_its_own_golden_soldier_captures_only_the_top_piece():
    g = game("standard", RECAPTURE[:-6], H)
    assert g.piece("b3") == "Ng/NA"      # North's rescuer on North's Golden Soldier
    captured = g.captured("north")
    g.play("a1-b3")
    assert g.piece("b3") == "Sg/NA"      # the Golden Soldier is South's hostage now
    assert g.captured("north") == captured + 1
    assert g.out("north") == 0


def test_a_golden_soldier_that_became_an_archer_never_becomes_a_guard_again():
    # the hostage on d3 is an archer; its captor moves away (capturing d2)
    g = game("standard", HOSTAGE + " b1-d2 d3-d2", H)
    assert g.piece("d3") == "SA"
    g.play("d3-d2")                      # it captures outside the enemy camp
    assert g.piece("d2") == "SA"         # and stays an archer
    assert g.captured("north") == 1


def test_a_hostage_counts_for_its_owner_in_the_tally():
    # South's only piece on the board is its hostage on e1 (South's camp)
    g = game("standard", "c1-d3 e5-d3 d1-c3 d3-e1 c3-a4 c5-a4 a1-b3 a5-b3 b1-d2 b3-d2", H)
    assert g.piece("e1") == "Na/SA"
    assert g.captured("south") == 4
    r = g.result()
    assert r.points[0] == 1              # the hostage: 1 point for South
    assert _result(g) == ("north", (1, 6), "stuck")


def test_a_hostage_keeps_its_owner_in_the_game():
    # as above: South has four pieces captured and one hostage, so it is
    # not wiped out (end condition 2 does not apply)
    g = game("standard", "c1-d3 e5-d3 d1-c3 d3-e1 c3-a4 c5-a4 a1-b3 a5-b3 b1-d2 b3-d2", H)
    assert g.result().reason != "wipeout"


def test_a_hostage_counts_for_its_owner_in_end_condition_1():
    # North's only top piece (b1) stands on South's camp, but North's
    # Golden Soldier is a hostage on a5: not all North's pieces are there.
    g = game("standard", "e1-d3 e5-d3 c1-d3 d5-b4 d3-b4 c5-b3 a1-b3 b5-a3 d3-c1 a3-b1 b3-a5",
             H)
    assert g.piece("a5") == "Sa/NA"
    north_tops = [p for p, t in board(g).items() if t[0] == "N"]
    assert north_tops == ["b1"]
    g.play("done")
    # The turn ended: had the hostage not counted, end condition 1 (camp)
    # would end the game. It counts, so the game goes on to North's turn,
    # where North cannot act (b1 is frozen, a5 a hostage): a tally in which
    # the hostage scores 1 for North (b1: 2).
    assert _result(g) == ("south", (5, 3), "stuck")


def test_a_golden_soldier_captured_as_a_guard_on_top_of_a_stack_is_captured_like_an_ordinary_piece():
    g = game("standard", GOLD_ON_TOP[:-6], H)
    assert g.piece("b2") == "NG/SA"
    g.play("d1-b2")
    assert g.piece("b2") == "Sg/SA"      # South's archer rescued its own Golden Soldier
    assert g.captured("north") == 1      # North's Golden Soldier: captured, recoverable
    assert g.out("north") == 0


def test_a_golden_soldier_captured_on_top_of_a_stack_comes_back_as_an_archer():
    g = game("standard", GOLD_ON_TOP + " d5-b4 c1-d3 b4-d3 a1-c2", H)
    g.play("d3-e1")                      # a North guard enters South's camp and recovers it
    assert g.held("north") == 1 and g.captured("north") == 0
    g.play("@a5")
    assert g.piece("a5") == "NA"


def test_in_jasyr_the_hostage_rule_takes_precedence_over_the_return_of_captured_guards():
    g = game("jasyr", HOSTAGE, H)
    assert g.piece("d3") == "Ng/SA"
    assert (g.held("south"), g.captured("south"), g.out("south")) == (0, 0, 0)


def test_in_jasyr_a_golden_guard_captured_on_top_of_a_stack_returns_like_any_guard():
    g = game("jasyr", GOLD_ON_TOP, H)
    assert g.piece("b2") == "Sg/SA"
    assert g.held("north") == 1 and g.out("north") == 0
    g.play("@a5")
    assert g.piece("a5") == "NA"         # it comes back as an archer


def test_in_legendary_a_golden_soldier_can_be_taken_hostage():
    g = game("legendary", HOSTAGE, H)
    assert g.piece("d3") == "Ng/SA"
    assert (g.held("south"), g.captured("south"), g.out("south")) == (0, 0, 0)
