"""RULES.md section 4: the rule set `standard` (and its match).

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython.
"""

from jarmo import Game, IllegalMove
from jarmo.match import Match
from tests.core.positions import board, game, pieces_of, play, raises

# South's guard enters North's camp on its move and recovers a piece: open turn.
RECOVER = "e1-d3 e5-d3 c1-d3 a5-c4 d3-e5"
# South holds one piece at the start of its turn (it said done earlier).
HOLDS_AT_START = "c1-d3 e5-d3 e1-d3 b5-d4 d3-e5 done d4-c4"
# North's move recovers a second held piece: open turn with two held.
TWO_HELD_AFTER = "b1-d2 a5-b3 c1-d3 e5-d3 d2-b3 c5-b3 a1-c2 d3-e1 done c2-e1 b3-a1"
# South holds two pieces at the start of its turn.
TWO_HELD_AT_START = ("a1-b3 a5-b3 c1-d3 b3-d2 b1-d2 e5-d3 e1-d3 c5-b3 d2-b3 d5-e3 d3-b4 "
                     "e3-d5 b4-d5 done b5-d4 b3-a5 done d4-b5")
BACK_AND_FORTH = "a1-c2 a5-b3 c2-a1 b3-a5 a1-c2 a5-b3 c2-a1 b3-a5"


def _result(g):
    r = g.result()
    assert r is not None
    return (r.winner, r.points, r.reason)


def _moves(g):
    return [a for a in g.legal() if len(a) == 5 and a[2] == "-"]


def test_every_soldier_starts_as_an_archer():
    g = Game("standard")
    assert sorted(board(g).values()) == ["Na"] * 5 + ["Sa"] * 5


def test_an_archer_that_captures_outside_the_enemy_camp_becomes_a_guard():
    g = game("standard", "d1-c3 c5-a4")
    g.play("c3-a4")
    assert g.piece("a4") == "Sg"
    g = game("standard", "c1-d3")
    g.play("e5-d3")
    assert g.piece("d3") == "Ng"


def test_an_archer_that_captures_an_enemy_standing_on_its_enemy_camp_becomes_a_guard():
    # the South archer on e5 stands on its enemy camp, North's own camp:
    # it is not on *its own* camp, so the North archer that takes it is promoted
    g = game("standard", "e1-d3 a5-c4 d3-e5")
    g.play("c4-e5")
    assert g.piece("e5") == "Ng"


def test_an_archer_that_captures_while_entering_the_enemy_camp_stays_an_archer():
    g = game("standard", "c1-d3 a5-b3")
    g.play("d3-e5")                      # the North piece on e5 stands on its own camp
    assert g.piece("e5") == "Sa"
    assert g.captured("north") == 1


def test_a_guard_that_captures_stays_a_guard():
    g = game("standard", "c1-d3 e5-d3 b1-d2")
    assert g.piece("d3") == "Ng"
    g.play("d3-d2")
    assert g.piece("d2") == "Ng"
    assert g.captured("south") == 2


def test_a_piece_entering_the_enemy_camp_freezes():
    g = game("standard", RECOVER + " done b5-a3")
    assert [a for a in g.legal() if a.startswith("e5")] == []


def test_a_guard_entering_the_enemy_camp_turns_archer_and_recovers_one_captured_piece():
    g = game("standard", "e1-d3 e5-d3 c1-d3 a5-c4")
    assert g.piece("d3") == "Sg"
    assert (g.held("south"), g.captured("south")) == (0, 1)
    g.play("d3-e5")
    assert g.piece("e5") == "Sa"
    assert (g.held("south"), g.captured("south")) == (1, 0)


def test_a_guard_entering_the_enemy_camp_with_nothing_captured_recovers_nothing():
    g = game("standard", "d1-c3 c5-a4 c3-a4 b5-a3")
    assert g.piece("a4") == "Sg" and g.captured("south") == 0
    g.play("a4-c5")
    assert g.piece("c5") == "Sa"
    assert g.held("south") == 0
    assert g.turn == "north"


def test_a_guard_capturing_into_the_enemy_camp_turns_archer_and_recovers():
    g = game("standard", "b1-d2 a5-b3 c1-d3 e5-d3 d2-b3 c5-b3 a1-c2 d3-e1 done c2-e1")
    assert g.piece("b3") == "Ng" and g.captured("north") == 1
    g.play("b3-a1")                      # takes the South archer on a1
    assert g.piece("a1") == "Na"
    assert g.held("north") == 2 and g.captured("north") == 0


def test_held_pieces_may_be_placed_before_the_move_and_placing_does_not_end_the_turn():
    g = game("standard", HOLDS_AT_START)
    assert g.turn == "south" and g.held("south") == 1
    assert sorted(a for a in g.legal() if a[0] == "@") == ["@c1", "@e1"]
    g.play("@c1")
    assert g.piece("c1") == "Sa"         # archer face up
    assert g.held("south") == 0
    assert g.turn == "south"             # the move is still due
    assert not g.open_turn()


def test_the_move_is_compulsory_after_placing():
    g = game("standard", HOLDS_AT_START + " @c1")
    assert "done" not in g.legal()
    e = raises(IllegalMove, g.play, "done")
    assert str(e)
    assert g.legal() == _moves(g) and g.legal()
    g.play("a1-c2")
    assert g.turn == "north"


def test_done_is_not_an_action_before_the_move():
    g = game("standard", HOLDS_AT_START)
    assert "done" not in g.legal()
    raises(IllegalMove, g.play, "done")


def test_several_held_pieces_may_be_placed_before_the_move_one_action_each():
    g = game("standard", TWO_HELD_AT_START)
    assert g.held("south") == 2 and g.turn == "south"
    g.play("@a1")
    assert g.held("south") == 1 and g.turn == "south"
    g.play("@b1")
    assert g.held("south") == 0 and g.turn == "south"
    assert g.piece("a1") == "Sa" and g.piece("b1") == "Sa"
    g.play("a1-c2")
    assert g.turn == "north"


def test_after_the_move_a_side_that_holds_pieces_and_has_room_keeps_the_turn_open():
    g = game("standard", RECOVER)
    assert g.turn == "south"
    assert g.open_turn()
    assert sorted(g.legal()) == ["@c1", "@e1", "done"]   # no second move


def test_an_open_turn_ends_when_the_mover_places():
    g = game("standard", RECOVER)
    g.play("@e1")
    assert g.piece("e1") == "Sa" and g.held("south") == 0
    assert g.turn == "north" and not g.open_turn()


def test_an_open_turn_ends_when_the_mover_says_done_and_the_piece_stays_held():
    g = game("standard", RECOVER)
    g.play("done")
    assert g.turn == "north"
    assert g.held("south") == 1
    assert g.piece("c1") is None and g.piece("e1") is None


def test_a_piece_held_from_an_earlier_turn_keeps_the_next_move_open():
    g = game("standard", RECOVER + " done b5-a3")
    g.play("a1-c2")
    assert g.turn == "south" and g.open_turn()
    assert sorted(g.legal()) == ["@a1", "@c1", "@e1", "done"]


def test_a_side_may_place_several_held_pieces_after_its_move():
    g = game("standard", TWO_HELD_AFTER)
    assert g.turn == "north" and g.held("north") == 2 and g.open_turn()
    g.play("@a5")
    assert g.turn == "north" and g.open_turn()       # still holds one, camp has room
    assert sorted(g.legal()) == ["@c5", "@e5", "done"]
    g.play("@c5")
    assert g.turn == "south"
    assert g.piece("a5") == "Na" and g.piece("c5") == "Na"


def test_a_move_that_leaves_the_mover_holding_pieces_with_no_room_on_its_camp_ends_the_turn():
    g = game("standard", "a1-c2 a5-c4 c2-b2 c5-b3 e1-c2 b3-a1 b2-c4 b5-a3 c2-e1 a3-b1")
    assert g.piece("c4") == "Sg" and g.captured("south") == 1
    g.play("c4-e5")                      # the guard enters North's camp and recovers
    assert g.held("south") == 1
    for p in ("a1", "b1", "c1", "d1", "e1"):
        assert g.piece(p) is not None    # South's camp is full
    assert g.turn == "north" and not g.open_turn()


def test_a_move_without_held_pieces_ends_the_turn():
    g = game("standard", "a1-c2")
    assert g.turn == "north" and not g.open_turn()


def test_a_side_never_has_more_than_5_pieces_on_the_board():
    # Each side has five pieces, so the limit holds as long as no piece is
    # ever counted twice: on the board, held, captured and out add up to 5.
    games = (
        TWO_HELD_AT_START + " @a1 @b1 a1-c2",
        TWO_HELD_AFTER + " @a5 @c5",
        "c1-e2 b5-a3 e1-c2 e5-c4 a1-b3 a3-b5 d1-c3 b5-a3 c3-e4 a3-b1 e4-c5 a5-b3 c2-e1 "
        "b3-a1 @a5 e2-d4 c4-e5 e1-c2 a5-c4 c2-e1 d5-e3 d4-d3 e3-c2 d3-d4 c2-b2 e1-d3 "
        "c4-a5 d3-c1 e5-d3 c1-a2",
    )
    for actions in games:
        g = Game("standard")
        for action in actions.split():
            g.play(action)
            for side in ("south", "north"):
                on_board = pieces_of(g, side)
                assert on_board <= 5
                assert on_board + g.held(side) + g.captured(side) + g.out(side) == 5


def test_end_1_a_side_with_all_its_pieces_on_the_enemy_camp_ends_the_game_with_a_tally():
    g = game("standard", "a1-b3 c5-b3 c1-d3 e5-d3 b1-a3 d3-e1 d1-b2 b3-b2")
    assert g.result() is None
    g.play("a3-b5")
    # South: b5 (2); North: e1 on the enemy camp (2) + a5, d5, b2
    assert _result(g) == ("north", (2, 5), "camp")


def test_end_1_also_ends_the_game_when_the_other_side_is_left_all_on_the_enemy_camp():
    g = game("standard", "c1-d3 e5-d3 b1-a3 d3-e1 a3-b5 c5-a4 a1-b3 a5-b3 d1-b2")
    assert g.result() is None
    g.play("b3-b2")                      # North takes South's last piece off its camp
    assert _result(g) == ("north", (2, 5), "camp")


def test_end_2_a_side_with_no_piece_left_loses_outright_and_scores_0():
    g = game("standard", "b1-a3 b5-a3 c1-d3 e5-d3 d1-b2 d3-e1 a1-b3 a5-b3 b2-b3")
    assert g.result() is None
    g.play("c5-b3")
    assert g.captured("south") == 5
    # the winner scores its tally: e1 on the enemy camp (2) + a3, b3, d5
    assert _result(g) == ("north", (0, 5), "wipeout")


def test_end_3_both_sides_going_back_and_forth_twice_ends_the_game_with_a_tally():
    g = game("standard", BACK_AND_FORTH[:-6])
    assert g.result() is None
    g.play("b3-a5")
    assert _result(g) == (None, (5, 5), "repetition")


def test_end_3_needs_both_sides_going_back_and_forth():
    # South goes back and forth twice, North does not
    g = game("standard", "a1-c2 a5-b3 c2-a1 b5-a3 a1-c2 c5-a4 c2-a1 d5-e3")
    assert g.result() is None
    g = game("standard", "a1-c2 a5-b3 c2-a1 b3-a5 a1-c2 a5-b3 c2-a1 b5-d4")
    assert g.result() is None


def test_end_4_the_side_to_move_with_no_legal_action_ends_the_game_with_a_tally():
    # no legal action needs an immobile piece; only a hostage (heroes) is one
    g = game("standard", "c1-d3 e5-d3 d1-c3 d3-e1 c3-a4 c5-a4 a1-b3 a5-b3 b1-d2 b3-d2",
             ("heroes",))
    assert g.turn == "south" and g.legal() == []
    assert _result(g) == ("north", (1, 6), "stuck")


def test_tally_is_2_per_piece_on_the_enemy_camp_1_per_other_piece_and_0_for_held_or_captured():
    g = game("standard", RECOVER + " done", ply_limit=5)
    assert g.held("south") == 1 and g.captured("north") == 1
    # South: e5 (2) + a1, b1, d1 and 0 for the held piece; North: b5, c5, d5, c4
    assert _result(g) == ("south", (5, 4), "limit")
    g = game("standard", RECOVER + " @c1", ply_limit=5)
    assert _result(g) == ("south", (6, 4), "limit")


def test_tally_on_equal_points_the_side_with_more_pieces_on_the_enemy_camp_wins():
    g = game("standard", "d1-b2 e5-c4 c1-d3 c4-b2 d3-e5", ply_limit=5)
    assert g.piece("e5") == "Sa"
    # South: e5 (2) + a1, b1, e1 = 5; North: a5, b5, c5, d5, b2 = 5
    assert _result(g) == ("south", (5, 5), "limit")


def test_tally_on_equal_points_and_equal_pieces_on_the_enemy_camp_is_a_draw():
    g = game("standard", "a1-c2 a5-b3 c2-a1", ply_limit=3)
    assert _result(g) == (None, (5, 5), "limit")


def test_a_match_has_2_4_or_6_games():
    for games in (2, 4, 6):
        m = Match("standard", games)
        assert m.games == games
    for games in (0, 1, 3, 5, 7):
        raises(ValueError, Match, "standard", games)


def test_a_match_swaps_sides_after_every_game_and_adds_up_points():
    m = Match("standard", 2, ply_limit=5)
    assert m.side_of("first") == "south"
    play(m.game, RECOVER + " @c1")
    assert _result(m.game) == ("south", (6, 4), "limit")
    assert m.totals == (6, 4)
    m.next_game()
    assert m.side_of("first") == "north" and m.side_of("second") == "south"
    play(m.game, "d1-b2 e5-c4 c1-d3 c4-b2 d3-e5")
    assert _result(m.game) == ("south", (5, 5), "limit")
    # the first player was North in game 2: 6 + 5 against 4 + 5
    assert m.totals == (11, 9)
    assert m.over()
    assert m.winner() == "first"


def test_a_match_with_equal_totals_is_drawn():
    m = Match("standard", 2, ply_limit=5)
    play(m.game, "d1-b2 e5-c4 c1-d3 c4-b2 d3-e5")    # first player (South) wins 5-5
    m.next_game()
    play(m.game, "d1-b2 e5-c4 c1-d3 c4-b2 d3-e5")    # second player (South) wins 5-5
    assert m.totals == (10, 10)
    assert m.over()
    assert m.winner() is None


def test_a_match_of_4_or_6_games_is_over_only_after_every_game():
    for games in (4, 6):
        m = Match("standard", games, ply_limit=1)
        for number in range(1, games + 1):
            assert not m.over()
            assert m.side_of("first") == ("south" if number % 2 == 1 else "north")
            m.game.play("a1-c2")
            if number < games:
                m.next_game()
        assert m.over()
        assert len(m.results) == games
        assert m.totals == (5 * games, 5 * games)
        assert m.winner() is None
