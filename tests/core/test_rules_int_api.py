"""The int API of a Game (jarmo/codes.py is the contract): legal codes, play a
code, a point's piece, the position as bytes, and notation as the text edge.

Plain functions and asserts: runs under pytest and MicroPython.
"""

from jarmo import Game, IllegalMove
from jarmo import codes as C
from jarmo.board import point
from jarmo.notation import action_text, parse_action
from jarmo.rng import Rng
from tests.core.positions import game, play, public_state, raises
from tests.core.random_games import MIXES
from tests.core.test_rules_notation import GAMES

KINDS = (C.MOVE, C.RECALL, C.PLACE, C.DONE, C.FLIP, C.FLIP_PLACE, C.REDEPLOY)


def _positions():
    """Games stopped after every action of the notation games (every kind occurs)."""
    for rules, expansions, actions in GAMES:
        g = Game(rules, expansions)
        yield g
        for action in actions.split():
            g.play(action)
            yield g


def _every_action_code():
    """Every code the notation can write: sources and targets only where a kind has them."""
    for kind in KINDS:
        sources = range(25) if kind in (C.MOVE, C.RECALL, C.FLIP, C.FLIP_PLACE) else (0,)
        targets = range(25) if kind not in (C.DONE, C.FLIP) else (0,)
        for a in sources:
            for b in targets:
                yield C.action(kind, a, b)


def _reason(fn, *args):
    return str(raises(IllegalMove, fn, *args))


# ---- the contract's helpers

def test_an_action_code_packs_kind_source_and_target():
    code = C.action(C.FLIP_PLACE, point("c5"), point("a1"))
    assert C.kind(code) == C.FLIP_PLACE
    assert C.source(code) == point("c5")
    assert C.target(code) == point("a1")
    assert code == 5 | 22 << 3 | 0 << 8
    assert code & ~C.ACTION_BITS == 0


def test_notation_reads_back_every_action_code_it_writes():
    count = 0
    for code in _every_action_code():
        text = action_text(code)
        assert parse_action(text) == code, text
        assert action_text(parse_action(text.upper())) == text
        count += 1
    assert count == 25 * 25 * 3 + 25 * 3 + 1   # two points, one point, none


def test_each_kind_has_its_own_notation():
    a, b = point("c5"), point("a1")
    assert [action_text(C.action(k, a, b)) for k in KINDS] == [
        "c5-a1", "c5@a1", "@a1", "done", "c5*", "c5*@a1", "r@a1"]


def test_a_capture_may_be_written_with_x_and_reads_as_a_move():
    assert parse_action("b1xd2") == parse_action("b1-d2") == C.action(C.MOVE, 1, 8)


# ---- legal codes

def test_legal_codes_are_the_legal_actions_in_the_same_order():
    for g in _positions():
        assert [action_text(c) for c in g.legal_codes()] == g.legal()


def test_legal_codes_follow_random_games_of_every_mix():
    rng = Rng(11)
    for rules, expansions in MIXES:
        g = Game(rules, expansions, 60)
        while g.result() is None:
            codes = g.legal_codes()
            assert [action_text(c) for c in codes] == g.legal()
            g.play_code(codes[rng.below(len(codes))])
        assert g.legal_codes() == []


def test_legal_codes_is_a_new_list_each_time():
    g = Game("standard")
    first = g.legal_codes()
    first.append(12345)
    del first[0]
    assert g.legal_codes() == [parse_action(a) for a in g.legal()]
    assert g.legal_codes() is not g.legal_codes()


# ---- playing a code

def test_playing_a_code_is_playing_its_notation():
    for rules, expansions, actions in GAMES:
        by_text = Game(rules, expansions)
        by_code = Game(rules, expansions)
        for action in actions.split():
            by_text.play(action)
            by_code.play_code(parse_action(action))
            assert by_code.snapshot() == by_text.snapshot()
        assert by_code.history() == by_text.history()


def test_a_refused_code_leaves_the_game_unchanged_with_the_reason_play_gives():
    cases = (
        (game("standard"), "b1-c2"),          # no line
        (game("standard"), "a5-b3"),          # not South's piece
        (game("standard"), "done"),           # nothing played yet
        (game("classic"), "c1*"),             # flips are legendary
        (game("standard", "e1-d3 e5-d3 c1-d3 a5-c4 d3-e5"), "a1-b3"),  # open turn
    )
    for g, text in cases:
        before = public_state(g)
        by_text = _reason(g.play, text)
        assert public_state(g) == before, text
        by_code = _reason(g.play_code, parse_action(text))
        assert public_state(g) == before, text
        assert by_code == by_text, (by_code, by_text)
        assert "is not legal: " in by_code


def test_a_code_refused_after_the_end_says_the_game_is_over():
    g = game("standard", ply_limit=1)
    g.play("a1-b3")
    assert g.result() is not None
    reason = _reason(g.play_code, parse_action("e5-d3"))
    assert reason.endswith("the game is over")


def test_what_is_not_an_action_code_is_refused_as_such():
    g = Game("standard")
    before = public_state(g)
    for value in (7, -1, 1 << 13, C.action(C.MOVE, 25, 0), C.action(C.DONE, 3, 0),
                  C.action(C.PLACE, 4, 1), "a1-b3", None, 1.0):
        reason = _reason(g.play_code, value)
        assert reason.endswith("is not an action code"), reason
    assert public_state(g) == before


# ---- a point's piece

def test_piece_at_gives_the_piece_byte_of_the_contract():
    g = Game("standard", ("heroes",))
    assert g.piece_at(point("a1")) == C.PRESENT
    assert g.piece_at(point("e1")) == C.PRESENT | C.GOLD | C.GUARD
    assert g.piece_at(point("b5")) == C.PRESENT | C.NORTH
    assert g.piece_at(point("a5")) == C.PRESENT | C.NORTH | C.GOLD | C.GUARD
    assert g.piece_at(point("c3")) == 0
    assert g.under_at(point("a1")) == 0


def test_piece_at_and_under_at_show_both_pieces_of_a_stack():
    g = game("standard", "e1-d3 e5-d3", ("heroes",))
    d3 = point("d3")
    assert g.piece("d3") == "Ng/SA"
    assert g.piece_at(d3) == C.PRESENT | C.NORTH | C.GUARD     # the capturer, promoted
    assert g.under_at(d3) == C.PRESENT | C.GOLD                # South's hostage, archer up


def test_a_marked_archer_shows_its_mark():
    g = game("classic", "a1-b3 e5-d3 b3-c5")
    assert g.piece_at(point("c5")) == C.PRESENT | C.MARK


def test_a_point_index_is_0_to_24():
    g = Game("standard")
    for p in (-1, 25):
        raises(ValueError, g.piece_at, p)
        raises(ValueError, g.under_at, p)


# ---- the position as bytes

def test_the_same_position_by_two_move_orders_has_the_same_snapshot():
    one = game("standard", "a1-b3 e5-d3 b1-d2 a5-c4")
    two = game("standard", "b1-d2 e5-d3 a1-b3 a5-c4")
    assert one.history() != two.history()
    assert one.snapshot() == two.snapshot()


def test_a_snapshot_tells_positions_apart():
    g = Game("standard")
    start = g.snapshot()
    g.play("a1-b3")
    assert g.snapshot() != start
    other = game("standard", "b1-d2")
    assert other.snapshot() != g.snapshot()
    assert Game("standard", ("challenges",)).snapshot() != start   # the markers


def test_play_and_undo_give_back_the_snapshot_before():
    for g in _positions():
        before = g.snapshot()
        for code in g.legal_codes():
            g.play_code(code)
            g.undo()
            assert g.snapshot() == before, action_text(code)


def test_the_snapshot_leaves_out_the_history():
    g = game("standard", "a1-b3 e5-d3")
    snap = g.snapshot()
    assert isinstance(snap, bytes)
    play(g, "b3-a1 d3-e5 a1-b3 e5-d3")
    assert g.snapshot() == snap and g.plies == 6
