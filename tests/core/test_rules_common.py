"""RULES.md section 2: rules common to every rule set.

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython.
"""

from jarmo import Game, IllegalMove
from jarmo.board import LINES
from jarmo.match import Match
from tests.core.positions import (
    NORTH_CAMP,
    SOUTH_CAMP,
    board,
    game,
    moves_from,
    play,
    public_state,
    raises,
)

RULE_SETS = ("classic", "standard", "legendary", "jasyr")


def test_each_side_starts_with_five_pieces_on_its_own_camp():
    for rules in RULE_SETS:
        g = Game(rules)
        expected = {}
        for p in SOUTH_CAMP:
            expected[p] = "Sa"
        for p in NORTH_CAMP:
            expected[p] = "Na"
        assert board(g) == expected, rules
        for side in ("south", "north"):
            assert (g.held(side), g.captured(side), g.out(side)) == (0, 0, 0)
        assert g.result() is None


def test_south_moves_first():
    for rules in RULE_SETS:
        g = Game(rules)
        assert g.turn == "south"
        for action in g.legal():
            assert action[0:2] in SOUTH_CAMP
        g.play("a1-c2")
        assert g.turn == "north"


def test_in_a_match_the_players_swap_sides_after_every_game():
    m = Match("standard", 4, ply_limit=1)
    for number in (1, 2, 3, 4):
        assert m.number == number
        first = "south" if number % 2 == 1 else "north"
        second = "north" if first == "south" else "south"
        assert m.side_of("first") == first
        assert m.side_of("second") == second
        assert m.game.turn == "south"     # South always moves first
        m.game.play("a1-c2")
        if number < 4:
            m.next_game()


def test_a_move_takes_one_own_piece_along_one_line_to_a_connected_point():
    lines = LINES.split()
    g = Game("standard")
    for action in g.legal():
        a, b = action.split("-")
        assert a + "-" + b in lines or b + "-" + a in lines
    for bad in ("a1-a2", "a1-c3", "c1-c2", "a5-b3", "c3-d4"):
        before = public_state(g)
        raises(IllegalMove, g.play, bad)
        assert public_state(g) == before
    g.play("c1-d3")
    assert g.piece("c1") is None and g.piece("d3") == "Sa"


def test_a_move_may_not_land_on_an_own_piece():
    g = game("standard", "a1-c2 a5-b3")
    # e1 is joined to c2, where a South piece now stands
    assert "e1-c2" not in g.legal()
    raises(IllegalMove, g.play, "e1-c2")
    assert g.piece("c2") == "Sa" and g.piece("e1") == "Sa"
    # no action at all lands on an own piece
    own = set(p for p, t in board(g).items() if t[0] == "S")
    for action in g.legal():
        assert action[3:5] not in own


def test_landing_on_an_enemy_piece_captures_it_and_it_leaves_the_board_at_once():
    g = game("standard", "d1-c3 c5-a4 a1-c2")
    assert g.piece("c3") == "Sa"
    g.play("a4-c3")
    assert g.piece("c3")[0] == "N"
    assert g.piece("a4") is None
    assert g.captured("south") == 1
    assert sum(1 for t in board(g).values() if t[0] == "S") == 4
    g = game("classic", "d1-c3 c5-a4 a1-c2 a4-c3")
    assert g.piece("c3")[0] == "N" and g.captured("south") == 1


def test_captures_are_never_compulsory():
    for rules in RULE_SETS:
        g = game(rules, "d1-c3 c5-a4")
        assert "c3-a4" in g.legal()          # a capture is available ...
        g.play("a1-c2")                      # ... and another move is allowed
        assert g.piece("a4") == "Na"
        assert g.turn == "north"


def test_a_piece_standing_on_the_enemy_camp_is_frozen():
    for rules in ("classic", "standard", "legendary"):
        g = game(rules, "e1-d3 a5-c4 d3-e5 b5-a3")
        assert g.piece("e5")[0] == "S"
        assert moves_from(g, "e5") == []
        raises(IllegalMove, g.play, "e5-d3")
        raises(IllegalMove, g.play, "e5-c4")
        assert g.piece("e5")[0] == "S"


def test_a_frozen_piece_can_still_be_captured_where_the_rule_set_allows_it():
    for rules in ("classic", "standard"):
        g = game(rules, "e1-d3 a5-c4 d3-e5")
        assert "c4-e5" in g.legal()
        g.play("c4-e5")
        assert g.piece("e5")[0] == "N"
        assert g.captured("south") == 1


def test_moving_backwards_into_the_own_camp_is_allowed():
    for rules in ("classic", "standard", "legendary"):
        g = game(rules, "a1-c2 a5-b3")
        assert "c2-a1" in g.legal()
        g.play("c2-a1")
        assert g.piece("a1") == "Sa"
        g.play("b3-a5")
        assert g.piece("a5") == "Na"


def test_a_side_with_no_legal_action_ends_the_game_and_it_is_scored():
    # standard + heroes: South's last piece is a hostage under North's piece
    # on e1, so South cannot act at the start of its turn.
    g = game("standard", "c1-d3 e5-d3 d1-c3 d3-e1 c3-a4 c5-a4 a1-b3 a5-b3 b1-d2 b3-d2",
             ("heroes",))
    assert g.piece("e1") == "Na/SA"
    r = g.result()
    assert r is not None and r.reason == "stuck"
    assert g.legal() == []
    # tally: South 1 (the hostage), North 2 (e1) + 1 (b5, d5, a4, d2)
    assert r.points == (1, 6)
    assert r.winner == "north"
    # classic: scored the same way
    g = game("classic", "c1-d3 a5-b3 d3-e5 b5-a3 d1-b2 b3-d2 b1-a3 c5-b3 a1-b3 d2-c2 b2-c2 "
                        "d5-e3 b3-a1 e3-d5 a3-b1 d5-e3 b1-d2 e3-d5 e1-d3 d5-b4 d3-b4")
    r = g.result()
    assert g.turn == "north" and r.reason == "stuck"
    assert r.points == (6, 0) and r.winner == "south"


def test_a_side_with_no_legal_action_is_a_draw_in_rule_sets_without_points():
    g = game("legendary", "a1-b3 c5-b3 e1-c2 e5-d3 c2-d2 d3-c1 b1-a3 b3-d2 a3-b5 d2-b3 "
                          "d1-b2 b3-b2")
    assert g.turn == "south"
    assert g.result() is not None
    assert (g.result().winner, g.result().points, g.result().reason) == (None, None, "stuck")
    g = game("jasyr", "b1-a3 b5-c3 a1-b3 c3-d1 c1-d3 c5-a4 d3-d4 e5-d3 b3-c5 d3-e1 d4-b5 d5-b4")
    assert g.turn == "south"
    assert (g.result().winner, g.result().points, g.result().reason) == (None, None, "stuck")


def test_the_ply_limit_is_off_by_default():
    g = Game("standard")
    assert g.ply_limit is None
    for i in range(20):
        play(g, "a1-c2 a5-b3 c2-a1 b3-a5" if i % 2 == 0 else "b1-d2 b5-d4 d2-b1 d4-b5")
        assert g.result() is None


def test_the_ply_limit_ends_the_game_after_that_many_completed_turns_and_it_is_scored():
    g = game("standard", "a1-c2 a5-b3", ply_limit=3)
    assert g.result() is None
    g.play("c2-a1")
    assert g.result() is not None
    assert (g.result().winner, g.result().points, g.result().reason) == (None, (5, 5), "limit")
    g = game("standard", "d1-b2 e5-c4 c1-d3 c4-b2", ply_limit=5)
    assert g.result() is None
    g.play("d3-e5")
    assert (g.result().winner, g.result().points, g.result().reason) == ("south", (5, 5), "limit")
    g = game("legendary", "a1-c2 a5-b3", ply_limit=3)
    g.play("c2-a1")
    assert (g.result().winner, g.result().points, g.result().reason) == (None, None, "limit")


def test_the_ply_limit_counts_completed_turns_not_actions():
    # South's fifth turn is a move that recovers a piece, then a placement.
    g = game("standard", "e1-d3 e5-d3 c1-d3 a5-c4 d3-e5", ply_limit=5)
    assert g.open_turn() and g.turn == "south"
    assert g.result() is None            # the turn is not completed yet
    g.play("@c1")
    assert g.result() is not None and g.result().reason == "limit"
    # a placement before the move does not complete a turn either
    g = game("standard", "c1-d3 e5-d3 e1-d3 b5-d4 d3-e5 done", ply_limit=7)
    g.play("d4-c4")                      # North: 6 turns completed
    g.play("@c1")
    assert g.result() is None and g.turn == "south"
    g.play("a1-c2")
    assert g.result() is not None and g.result().reason == "limit"


def test_end_checks_wipeout_comes_before_camp():
    # South's last move takes North's last piece while entering the enemy
    # camp: South is both all on the enemy camp and the wiper-out.
    g = game("standard", "b1-d2 b5-d4 a1-b3 a5-b3 d2-d3 e5-d3 e1-d3 d4-d3 c1-d3 d5-b4 "
                         "d3-b4 b3-a5 d1-c3 a5-b3 b4-b3 c5-b3 c3-e4 b3-c5")
    assert g.result() is None
    g.play("e4-c5")
    assert board(g) == {"c5": "Sa"}
    r = g.result()
    assert (r.winner, r.points, r.reason) == ("south", (2, 0), "wipeout")


def test_end_checks_camp_comes_before_the_ply_limit():
    seq = "a1-b3 c5-b3 c1-d3 e5-d3 b1-a3 d3-e1 d1-b2 b3-b2 a3-b5"
    g = game("standard", seq, ply_limit=9)
    assert (g.result().winner, g.result().points, g.result().reason) == ("north", (2, 5), "camp")


def test_end_checks_repetition_comes_before_the_ply_limit():
    seq = "a1-c2 a5-b3 c2-a1 b3-a5 a1-c2 a5-b3 c2-a1 b3-a5"
    g = game("standard", seq, ply_limit=8)
    assert (g.result().winner, g.result().points, g.result().reason) == (None, (5, 5), "repetition")


def test_move_history_done_enters_nothing():
    # South holds a piece, so every South move leaves the turn open and South
    # says done; both sides still go back and forth twice: repetition.
    g = game("standard", "e1-d3 e5-d3 c1-d3 a5-c4 d3-e5 done")
    play(g, "b5-a3 a1-c2 done a3-b5 c2-a1 done b5-a3 a1-c2 done a3-b5")
    assert g.result() is None
    g.play("c2-a1")
    assert g.open_turn()
    g.play("done")
    assert g.result() is not None and g.result().reason == "repetition"


def test_move_history_a_placement_is_a_break():
    g = game("standard", "e1-d3 e5-d3 c1-d3 a5-c4 d3-e5 done")
    play(g, "b5-a3 a1-c2 done a3-b5 c2-a1 done b5-a3 a1-c2 @e1 a3-b5 c2-a1")
    # South's own last four: c2-a1, (placement), a1-c2, c2-a1: no pattern
    assert g.result() is None
    assert g.turn == "north"
