"""RULES.md section 3: the rule set `classic`.

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython.
"""

from jarmo import Game, IllegalMove
from tests.core.positions import board, game, play, public_state, raises

# South: a marked archer on c5, one archer captured, a1 empty.
RECALL = "a1-b3 e5-d3 b3-c5 d3-c1"
# South: marked archers on a5 and e5, one archer captured, a1 and c1 empty.
TWO_MARKED = "c1-d3 b5-a3 d3-e5 c5-a4 a1-b3 a3-b1 b3-a5 d5-e3"
BACK_AND_FORTH = "a1-c2 a5-b3 c2-a1 b3-a5 a1-c2 a5-b3 c2-a1 b3-a5"


def _recalls(g):
    return sorted(a for a in g.legal() if "@" in a)


def test_pieces_are_archers():
    g = Game("classic")
    for text in board(g).values():
        assert text in ("Sa", "Na")
    # capturing never makes a guard in classic
    g = game("classic", "d1-c3 c5-a4 c3-a4")
    assert g.piece("a4") == "Sm"


def test_an_archer_that_has_captured_is_marked():
    g = game("classic", "d1-c3 c5-a4")
    assert g.piece("c3") == "Sa"
    g.play("c3-a4")
    assert g.piece("a4") == "Sm"
    assert g.captured("north") == 1


def test_an_archer_stays_marked_when_it_moves_on():
    g = game("classic", "d1-c3 c5-a4 c3-a4 b5-a3 a4-c3")
    assert g.piece("c3") == "Sm"
    assert g.piece("a4") is None


def test_an_archer_that_has_not_captured_is_not_marked():
    g = game("classic", "d1-c3 c5-a4 a1-c2")
    assert g.piece("c3") == "Sa" and g.piece("c2") == "Sa"


def test_recall_puts_a_captured_archer_back_on_the_own_camp_as_the_whole_move():
    g = game("classic", RECALL)
    assert g.piece("c5") == "Sm"
    assert g.captured("south") == 1
    assert _recalls(g) == ["c5@a1"]      # a1 is the only empty point of South's camp
    g.play("c5@a1")
    assert g.piece("a1") == "Sa"
    assert g.captured("south") == 0
    assert g.turn == "north"             # the recall was the whole move
    assert g.result() is None


def test_the_marked_archer_used_for_a_recall_loses_its_mark():
    g = game("classic", RECALL + " c5@a1")
    assert g.piece("c5") == "Sa"


def test_with_several_marked_archers_on_the_enemy_camp_the_player_names_the_one_used():
    g = game("classic", TWO_MARKED)
    assert g.piece("a5") == "Sm" and g.piece("e5") == "Sm"
    assert _recalls(g) == ["a5@a1", "a5@c1", "e5@a1", "e5@c1"]
    g.play("e5@c1")
    assert g.piece("e5") == "Sa"         # the named archer loses its mark
    assert g.piece("a5") == "Sm"         # the other keeps it
    assert g.piece("c1") == "Sa"


def test_no_recall_without_a_captured_own_archer():
    g = game("classic", "a1-b3 e5-d3 b3-c5 a5-c4")
    assert g.piece("c5") == "Sm" and g.captured("south") == 0
    assert _recalls(g) == []
    raises(IllegalMove, g.play, "c5@a1")


def test_no_recall_with_a_marked_archer_that_is_not_on_the_enemy_camp():
    g = game("classic", "c1-d3 e5-d3 e1-d3 b5-a3")
    assert g.piece("d3") == "Sm" and g.captured("south") == 1
    assert _recalls(g) == []


def test_no_recall_with_an_unmarked_archer_on_the_enemy_camp():
    g = game("classic", "e1-d3 e5-c4 d1-b2 b5-a3 d3-e5 c4-b2")
    assert g.piece("e5") == "Sa" and g.captured("south") == 1
    assert g.piece("d1") is None and g.piece("e1") is None
    assert _recalls(g) == []
    raises(IllegalMove, g.play, "e5@d1")


def test_no_recall_without_an_empty_point_on_the_own_camp():
    g = game("classic", "e1-d3 a5-c4 d3-e1 b5-a3 b1-d2 c5-b3 d2-d3 a3-b1 d3-e5 b3-a1")
    assert g.piece("e5") == "Sm" and g.captured("south") == 1
    for p in ("a1", "b1", "c1", "d1", "e1"):
        assert g.piece(p) is not None
    assert _recalls(g) == []


def test_no_move_back_and_forth_a_third_time():
    g = game("classic", BACK_AND_FORTH)
    # South's own last four moves: a1-c2, c2-a1, a1-c2, c2-a1
    assert "a1-c2" not in g.legal()
    assert "a1-b3" in g.legal()
    before = public_state(g)
    e = raises(IllegalMove, g.play, "a1-c2")
    assert str(e)
    assert public_state(g) == before


def test_back_and_forth_twice_is_still_allowed():
    g = game("classic", "a1-c2 a5-b3 c2-a1 b3-a5 a1-c2 a5-b3")
    assert "c2-a1" in g.legal()           # only three moves of the pattern so far


def test_the_back_and_forth_ban_applies_to_north_too():
    g = game("classic", BACK_AND_FORTH + " b1-d2")
    assert "a5-b3" not in g.legal()
    assert "a5-c4" in g.legal()


def test_any_other_move_breaks_the_back_and_forth_pattern():
    g = game("classic", BACK_AND_FORTH + " b1-d2 c5-e4")
    assert "a1-c2" in g.legal()
    g.play("a1-c2")
    assert g.piece("c2") == "Sa"


def test_a_recall_breaks_the_back_and_forth_pattern():
    g = game("classic", RECALL)
    play(g, "b1-d2 a5-c4 d2-b1 c4-a5 b1-d2 a5-c4 d2-b1 c4-a5")
    assert "b1-d2" not in g.legal()
    g.play("c5@a1")
    g.play("b5-a3")
    assert "b1-d2" in g.legal()


def test_the_game_ends_when_the_mover_has_all_its_archers_on_the_enemy_camp():
    g = game("classic", "c1-d3 e5-d3 d1-b2 d3-e1 a1-b3 c5-b3 b1-a3 b3-b2")
    assert g.result() is None
    g.play("a3-b5")                      # South's last archer enters North's camp
    r = g.result()
    assert r is not None and r.reason == "camp"
    # South: b5 on the enemy camp (2); North: e1 on the enemy camp (2) + a5, b2, d5
    assert r.points == (2, 5)
    assert r.winner == "north"


def test_the_game_ends_when_the_other_side_is_left_with_all_its_archers_on_the_enemy_camp():
    g = game("classic", "d1-b2 a5-c4 e1-c2 c4-b2 b1-a3 b2-c2 a3-b5 c2-a1 c1-d3")
    assert g.result() is None
    g.play("e5-d3")                      # North takes South's last archer off its camp
    r = g.result()
    assert r is not None and r.reason == "camp"
    assert board(g)["b5"] == "Sm"
    assert r.points == (2, 5) and r.winner == "north"


def test_a_side_with_no_legal_action_ends_the_game():
    g = game("classic", "c1-d3 a5-b3 d3-e5 b5-a3 d1-b2 b3-d2 b1-a3 c5-b3 a1-b3 d2-c2 b2-c2 "
                        "d5-e3 b3-a1 e3-d5 a3-b1 d5-e3 b1-d2 e3-d5 e1-d3 d5-b4 d3-b4")
    assert g.turn == "north" and g.legal() == []
    r = g.result()
    assert r.reason == "stuck" and r.winner == "south" and r.points == (6, 0)


def test_score_is_2_for_each_archer_on_the_enemy_camp_and_1_for_each_other_archer():
    g = game("classic", "e1-d3 e5-c4 a1-b3 a5-b3 d3-e5", ply_limit=5)
    # South: e5 (2) + b1, c1, d1; North: b5, c5, d5, c4, b3
    assert g.result().points == (5, 5)
    g = game("classic", "c1-d3 a5-c4 d3-e5 b5-a3", ply_limit=4)
    # South: e5 (2) + a1, b1, d1, e1; North: c4, a3, c5, d5
    assert g.result().points == (6, 4)
    assert g.result().winner == "south"


def test_equal_points_is_a_draw_even_with_more_archers_on_the_enemy_camp():
    g = game("classic", "e1-d3 e5-c4 a1-b3 a5-b3 d3-e5", ply_limit=5)
    assert g.piece("e5") == "Sa"          # South has one archer on the enemy camp, North none
    r = g.result()
    assert (r.winner, r.points, r.reason) == (None, (5, 5), "limit")


def test_going_back_and_forth_does_not_end_a_classic_game():
    g = game("classic", BACK_AND_FORTH)
    assert g.result() is None
