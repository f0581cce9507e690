"""Smoke tests: the reference implementation follows RULES.md on hand-played
positions, and random play keeps every invariant."""

import random

import pytest

from .reference_rules import LINES, POINTS, SIDES, RefGame


def play_all(g, actions):
    for a in actions:
        g.play(a)


# ---------------------------------------------------------------------------
# Construction and input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, expansions",
    [
        ("classic", ("heroes",)),
        ("classic", ("challenges",)),
        ("chess", ()),
        ("standard", ("dragons",)),
    ],
)
def test_invalid_combinations(ruleset, expansions):
    with pytest.raises(ValueError):
        RefGame(ruleset, expansions)


def test_initial_position_and_classic_south_moves():
    g = RefGame("classic")
    assert g.turn == "south"
    for f in "abcde":
        assert g.piece(f + "1") == "Sa"
        assert g.piece(f + "5") == "Na"
    # R1: every line with a rank-1 end, read off the line list by hand.
    expected = {
        "a1-c2", "a1-b3", "b1-d2", "b1-a3", "c1-a2", "c1-e2", "c1-d3",
        "d1-b2", "d1-c3", "e1-c2", "e1-d3",
    }
    assert sorted(g.legal()) == sorted(expected)
    assert len(LINES) == 38


def test_input_normalisation_and_refusal():
    g = RefGame("classic")
    before = g.snapshot()
    for bad in ("b1-b2", "zz", "b1 - d2", "@a1", "done", "a5-b3", ""):
        with pytest.raises(ValueError):
            g.play(bad)
        assert g.snapshot() == before
    g.play("  B1xD2 ")
    assert g.piece("d2") == "Sa" and g.piece("b1") is None
    assert g.turn == "north"


# ---------------------------------------------------------------------------
# Classic
# ---------------------------------------------------------------------------


def test_classic_capture_marks():
    g = RefGame("classic")
    play_all(g, ["c1-d3", "e5xd3"])
    assert g.piece("d3") == "Nm"
    assert g.piece("c1") is None and g.piece("e5") is None
    assert g.captured("south") == 1 and g.out("south") == 0


def test_classic_freeze_and_recall():
    g = RefGame("classic")
    play_all(g, ["d1-c3", "e5-d3", "c3-a4", "d3xc1", "a4xc5", "a5-c4"])
    # South archer on c5 (enemy camp) is frozen and marked; North's on c1 too.
    assert g.piece("c5") == "Sm" and g.piece("c1") == "Nm"
    legal = g.legal()
    assert not any(a.startswith("c5-") for a in legal)
    # Recall: marked archer on the enemy camp, one captured, empty own camp d1.
    assert "c5@d1" in legal
    assert [a for a in legal if "@" in a] == ["c5@d1"]
    g.play("c5@d1")
    assert g.piece("d1") == "Sa" and g.piece("c5") == "Sa"
    assert g.captured("south") == 0
    assert g.turn == "north"
    # North's archer on c1 is frozen as well.
    assert not any(a.startswith("c1-") for a in g.legal())


def test_classic_triple_back_and_forth_ban():
    g = RefGame("classic")
    play_all(g, ["a1-c2", "a5-c4", "c2-a1", "c4-a5", "a1-c2", "a5-c4", "c2-a1", "c4-a5"])
    assert "a1-c2" not in g.legal()
    assert "a1-b3" in g.legal()
    before = g.snapshot()
    with pytest.raises(ValueError):
        g.play("a1-c2")
    assert g.snapshot() == before
    g.play("e1-c2")  # another move breaks South's pattern for later
    assert "a5-c4" not in g.legal()
    g.play("a5-b3")
    assert g.result() is None  # classic has no repetition end


def test_standard_repetition_end_is_tally_draw():
    g = RefGame("standard")
    play_all(g, ["a1-c2", "a5-c4", "c2-a1", "c4-a5", "a1-c2", "a5-c4", "c2-a1"])
    assert g.result() is None
    g.play("c4-a5")
    r = g.result()
    assert r.reason == "repetition" and r.winner is None and r.points == (5, 5)
    assert g.legal() == []
    with pytest.raises(ValueError):
        g.play("a1-c2")


def test_classic_ply_limit_scores():
    g = RefGame("classic", ply_limit=2)
    play_all(g, ["c1-d3", "e5xd3"])
    r = g.result()
    assert r.reason == "limit" and r.points == (4, 5) and r.winner == "north"


# ---------------------------------------------------------------------------
# Standard
# ---------------------------------------------------------------------------


def test_standard_promotion_and_guard_entering_camp_recovers():
    g = RefGame("standard")
    play_all(g, ["c1-d3", "e5xd3"])
    assert g.piece("d3") == "Ng"  # archer captured outside the enemy's camp -> guard
    g.play("e1xd3")
    assert g.piece("d3") == "Sg"
    assert g.captured("north") == 1 and g.captured("south") == 1
    g.play("a5-c4")
    g.play("d3-e5")  # guard enters the enemy camp
    assert g.piece("e5") == "Sa"  # turns back into an archer
    assert g.held("south") == 1 and g.captured("south") == 0
    assert g.turn == "south"  # turn stays open: holds a piece, camp has room
    assert sorted(g.legal()) == ["@c1", "@e1", "done"]
    g.play("@c1")
    assert g.piece("c1") == "Sa" and g.held("south") == 0
    assert g.turn == "north"


def test_standard_capture_entering_enemy_camp_stays_archer():
    g = RefGame("standard")
    play_all(g, ["d1-c3", "e5-d3", "c3-a4", "d3-d4", "a4xc5"])
    assert g.piece("c5") == "Sa"
    assert g.captured("north") == 1
    g.play("d4-c4")
    assert not any(a.startswith("c5-") for a in g.legal())


def test_standard_place_before_move_then_move_compulsory():
    g = RefGame("standard")
    play_all(g, ["c1-d3", "e5xd3", "e1xd3", "a5-c4", "d3-e5", "done"])
    assert g.held("south") == 1 and g.turn == "north"
    g.play("c4-b4")
    assert "@c1" in g.legal()
    g.play("@c1")  # placing before the move
    assert g.turn == "south"
    assert "done" not in g.legal()
    assert "@e1" not in g.legal()  # nothing left to place
    g.play("c1-e2")
    assert g.turn == "north"


# ---------------------------------------------------------------------------
# Heroes
# ---------------------------------------------------------------------------


def test_heroes_hostage_and_rescue():
    g = RefGame("standard", ("heroes",))
    assert g.piece("e1") == "SG" and g.piece("a5") == "NG"
    play_all(g, ["b1-a3", "e5-d3", "a3-b1", "d3xe1"])
    # Golden guard captured: stays, turns archer, capturer on top.
    assert g.piece("e1") == "Na/SA"
    assert g.captured("south") == 0 and g.out("south") == 0
    assert not any(a.startswith("e1-") for a in g.legal())
    play_all(g, ["c1-d3", "b5-a3", "d3xe1"])
    # Rescue: South's archer captured outside North's own camp -> guard.
    assert g.piece("e1") == "Sg/SA"
    assert g.captured("north") == 1
    play_all(g, ["a3-b5", "e1-c2"])
    assert g.piece("e1") == "SA" and g.piece("c2") == "Sg"
    g.play("b5-a3")
    assert "e1-d3" in g.legal()


def test_heroes_hostage_taken_from_top_of_own_golden():
    g = RefGame("standard", ("heroes",))
    play_all(g, ["b1-a3", "e5-d3", "a3-b1", "d3xe1", "c1-d3", "b5-a3", "d3xe1"])
    assert g.piece("e1") == "Sg/SA"
    # North brings a piece to c2 and captures the top of the stack.
    play_all(g, ["d5-e3", "a1-b3", "e3-c2", "b3-a1", "c2xe1"])
    # Only the top piece is captured; the golden is the capturer's hostage
    # again.  No promotion: the captured piece stood on its own camp.
    assert g.piece("e1") == "Na/SA"
    assert g.captured("south") == 1 and g.out("south") == 0


def test_heroes_jasyr_hostage_takes_precedence_over_return():
    g = RefGame("jasyr", ("heroes",))
    play_all(g, ["c1-a2", "e5-d3", "b1-a3", "d3xe1"])
    assert g.piece("e1") == "Na/SA"
    assert g.held("south") == 0 and g.out("south") == 0


# ---------------------------------------------------------------------------
# Jasyr
# ---------------------------------------------------------------------------


def test_jasyr_forward_only_and_dotted_line():
    g = RefGame("jasyr")
    play_all(g, ["d1-c3", "a5-c4"])
    legal = g.legal()
    assert "c3-b5" in legal  # dotted line, forward
    assert "c3-d1" not in legal and "c3-a2" not in legal  # backwards
    with pytest.raises(ValueError, match="backwards"):
        g.play("c3-d1")
    g.play("c3-a4")
    north = g.legal()
    assert "c4-b2" in north and "c4-b4" in north and "c4-d4" in north
    assert "c4-a5" not in north and "c4-e5" not in north
    # Standard has no dotted line.
    s = RefGame("standard")
    play_all(s, ["d1-c3", "a5-c4"])
    assert "c3-b5" not in s.legal() and "c3-d1" in s.legal()


def test_jasyr_archer_out_guard_held_placement_whole_turn():
    g = RefGame("jasyr")
    play_all(g, ["d1-c3", "e5-d3", "b1-d2", "d3xd2"])
    assert g.piece("d2") == "Ng"
    assert g.out("south") == 1 and g.captured("south") == 0
    play_all(g, ["a1-c2", "a5-b3", "c2xd2"])  # sideways capture of a guard
    assert g.piece("d2") == "Sg"
    assert g.held("north") == 1 and g.out("north") == 0 and g.captured("north") == 0
    assert g.turn == "north"
    assert "@e5" in g.legal() and "@a5" in g.legal()
    g.play("@e5")
    assert g.piece("e5") == "Na" and g.turn == "south"


# ---------------------------------------------------------------------------
# Legendary
# ---------------------------------------------------------------------------


def test_legendary_guard_in_camp_and_flip():
    g = RefGame("legendary")
    play_all(g, ["c1-d3", "e5xd3", "e1xd3", "a5-c4", "d3-e5"])
    assert g.piece("e5") == "Sg"  # stays a guard, recovers nothing now
    assert g.held("south") == 0 and g.captured("south") == 1
    assert g.turn == "north"
    g.play("c4-a5")
    legal = g.legal()
    assert "e5*" in legal and "e5*@c1" in legal and "e5*@e1" in legal
    g.play("e5*@c1")
    assert g.piece("e5") == "Sa" and g.piece("c1") == "Sa"
    assert g.captured("south") == 0 and g.turn == "north"


def test_legendary_no_flip_without_captured_piece_and_camp_uncapturable():
    g = RefGame("legendary")
    play_all(g, ["d1-c3", "c5-e4", "c3xe4", "a5-b3", "e4-c5"])
    assert g.piece("c5") == "Sg" and g.captured("south") == 0
    # North cannot capture the South guard standing on North's camp.
    assert "b3-c5" not in g.legal()
    g.play("b3-a5")
    assert not any("*" in a for a in g.legal())


# ---------------------------------------------------------------------------
# Challenges
# ---------------------------------------------------------------------------


def test_challenges_redeploy():
    g = RefGame("standard", ("challenges",))
    play_all(g, ["c1-d3", "e5xd3", "e1xd3", "a5-c4", "a1-b3"])
    assert g.turn == "south"
    assert sorted(g.legal()) == ["done", "r@a1", "r@c1", "r@e1"]
    g.play("r@c1")
    assert g.piece("c1") == "Sa" and g.captured("south") == 0
    assert g.turn == "north"
    assert g.markers_present is False


def test_challenges_done_keeps_markers():
    g = RefGame("standard", ("challenges",))
    play_all(g, ["c1-d3", "e5xd3", "e1xd3", "a5-c4", "a1-b3", "done", "c4-a5", "d1-c3"])
    assert g.markers_present
    assert "r@c1" in g.legal()


# ---------------------------------------------------------------------------
# Random play
# ---------------------------------------------------------------------------

MIXES = [("classic", ())] + [
    (r, e)
    for r in ("standard", "legendary", "jasyr")
    for e in ((), ("heroes",), ("challenges",), ("heroes", "challenges"))
]
FULL_CHECK_GAMES = 100  # games in which every legal action is tried at every step


def check_accounting(g):
    """Every piece is somewhere, once: on the board (read through piece()), held, captured or out."""
    for side in SIDES:
        on_board = 0
        for p in POINTS:
            code = g.piece(p)
            if code:
                on_board += sum(1 for part in code.split("/") if part[0] == side[0].upper())
        _check_total(g, side, on_board)


def check_accounting_fast(g):
    """The same count, from the board's stacks directly (the positions one action ahead of
    every step of the first games: thousands of them)."""
    on_board = dict.fromkeys(SIDES, 0)
    for stack in g.board.values():
        for piece in stack:
            on_board[piece.owner] += 1
    for side in SIDES:
        _check_total(g, side, on_board[side])


def _check_total(g, side, on_board):
    total = on_board + g.held(side) + g.captured(side) + g.out(side)
    assert total == 5, (side, on_board, g.held(side), g.captured(side), g.out(side))
    assert on_board <= 5


def random_play(ruleset, expansions, seeds):
    for seed in seeds:
        rng = random.Random(f"{ruleset}{expansions}{seed}")
        g = RefGame(ruleset, expansions, ply_limit=200)
        steps = 0
        while g.result() is None:
            legal = g.legal()
            assert legal, "a running game always has a legal action"
            assert len(legal) == len(set(legal)), legal
            if seed < FULL_CHECK_GAMES:
                for a in legal:
                    c = g.clone()
                    c.play(a)
                    check_accounting_fast(c)
            action = rng.choice(legal)
            g.play(action.upper() if rng.random() < 0.1 else action)
            check_accounting(g)
            steps += 1
            assert steps < 2000
        r = g.result()
        assert r.reason in ("camp", "wipeout", "repetition", "stuck", "limit")
        assert r.winner in ("south", "north", None)
        if ruleset in ("classic", "standard"):
            assert isinstance(r.points, tuple) and len(r.points) == 2
        else:
            assert r.points is None
        assert g.completed_turns <= 200
        assert g.legal() == []
        if ruleset == "classic":
            assert g.out("south") == 0 and g.out("north") == 0


@pytest.mark.parametrize("ruleset, expansions", MIXES, ids=lambda v: str(v))
def test_random_play(ruleset, expansions):
    random_play(ruleset, expansions, range(5))


@pytest.mark.full
@pytest.mark.parametrize("ruleset, expansions", MIXES, ids=lambda v: str(v))
def test_a_thousand_random_games(ruleset, expansions):
    random_play(ruleset, expansions, range(5, 1000))
