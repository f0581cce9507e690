"""RULES.md section 9: notation.

Every position is reached by playing actions through the public API; the
expected values follow RULES.md. Plain functions and asserts: runs under
pytest and MicroPython.
"""

from jarmo import Game, IllegalMove
from tests.core.positions import POINTS, game, public_state, raises

# classic: South's marked archer on c5 may recall to a1
RECALL = "a1-b3 e5-d3 b3-c5 d3-c1"
# standard: South's guard enters North's camp and recovers: open turn
OPEN = "e1-d3 e5-d3 c1-d3 a5-c4 d3-e5"
# legendary: North's guard on c1 may be turned, e5 is empty
FLIP = "e1-d3 e5-d3 a1-b3 d3-c1 b3-a5"
# standard + challenges: South's pieces on both markers, one captured
MARKERS = "c1-d3 e5-d3 e1-d3 a5-b3 a1-b3"

# Long games that pass through every kind of action (for the "each once" and
# "exactly these forms" checks).
GAMES = (
    ("classic", (), RECALL + " c5@a1 b5-a3 a1-c2"),
    ("standard", (), "c1-e2 b5-a3 e1-c2 e5-c4 a1-b3 a3-b5 d1-c3 b5-a3 c3-e4 a3-b1 e4-c5 "
                     "a5-b3 c2-e1 b3-a1 @a5 e2-d4 c4-e5 e1-c2 a5-c4 c2-e1 d5-e3 d4-d3 "
                     "e3-c2 d3-d4 c2-b2 e1-d3 c4-a5 d3-c1 e5-d3 c1-a2"),
    ("standard", (), OPEN + " done b5-a3 @c1 a1-c2"),
    ("legendary", (), FLIP + " c1* b1-a3 @e5 b5-d4"),
    ("jasyr", (), "c1-e2 b5-a3 e1-c2 a3-b1 a1-b3 e5-c4 d1-c3 c5-a4 c3-b5 a4-c3 b3-b4 "
                  "c4-b4 c2-b2 c3-a2 e2-d4 b4-c4 b2-c2 c4-b2 c2-b2 d5-b4 d4-c4 a2-c1 "
                  "c4-a5 b4-b3 b2-c2 @e5 c2-e3 e5-c4 e3-d5"),
    ("standard", ("heroes", "challenges"), MARKERS + " r@a1 b5-a3 a1-c2"),
)


def _is_point(text):
    return text in POINTS


def _well_formed(action):
    """True when action has one of the forms of RULES.md 9's table."""
    if action == "done":
        return True
    if len(action) == 3 and action[0] == "@":
        return _is_point(action[1:])
    if len(action) == 4 and action[:2] == "r@":
        return _is_point(action[2:])
    if len(action) == 3 and action[2] == "*":
        return _is_point(action[:2])
    if len(action) == 6 and action[2:4] == "*@":
        return _is_point(action[:2]) and _is_point(action[4:])
    if len(action) == 5 and action[2] in "-@":
        return _is_point(action[:2]) and _is_point(action[3:])
    return False


def _refused_unchanged(g, text):
    before = public_state(g)
    e = raises(IllegalMove, g.play, text)
    assert public_state(g) == before, text
    message = str(e)
    assert message, text
    return message


def test_a_move_or_capture_is_from_dash_to():
    g = Game("standard")
    assert "b1-d2" in g.legal()
    g.play("b1-d2")
    assert g.piece("d2") == "Sa"
    g = game("standard", "d1-c3 c5-a4")
    g.play("c3-a4")                      # a capture has the same form
    assert g.piece("a4") == "Sg"


def test_an_x_is_accepted_for_the_dash_on_input():
    g = Game("standard")
    g.play("b1xd2")
    assert g.piece("d2") == "Sa"
    assert g.history() == ["b1-d2"]
    g = game("standard", "d1-c3 c5-a4")
    g.play("c3xa4")
    assert g.piece("a4") == "Sg"


def test_a_classic_recall_is_source_at_target():
    g = game("classic", RECALL)
    assert "c5@a1" in g.legal()
    g.play("c5@a1")
    assert g.piece("a1") == "Sa" and g.piece("c5") == "Sa"


def test_placing_a_held_piece_is_at_point():
    g = game("standard", OPEN)
    assert "@c1" in g.legal()
    g.play("@c1")
    assert g.piece("c1") == "Sa"


def test_ending_an_open_turn_without_placing_is_done():
    g = game("standard", OPEN)
    assert "done" in g.legal()
    g.play("done")
    assert g.turn == "north"


def test_a_legendary_flip_is_point_star_and_with_placement_point_star_at_point():
    g = game("legendary", FLIP)
    assert "c1*" in g.legal() and "c1*@e5" in g.legal()
    g.play("c1*")
    assert g.piece("c1") == "Na" and g.held("north") == 1
    g = game("legendary", FLIP)
    g.play("c1*@e5")
    assert g.piece("c1") == "Na" and g.piece("e5") == "Na"


def test_a_remote_camp_redeploy_is_r_at_point():
    g = game("standard", MARKERS, ("challenges",))
    assert "r@a1" in g.legal()
    g.play("r@a1")
    assert g.piece("a1") == "Sa"


def test_legal_lists_every_action_exactly_once_in_the_notation():
    for rules, expansions, actions in GAMES:
        g = Game(rules, expansions)
        for action in actions.split():
            legal = g.legal()
            assert len(legal) == len(set(legal)), legal
            for item in legal:
                assert _well_formed(item), item
            assert action in legal, action
            g.play(action)


def test_input_is_case_insensitive():
    g = Game("standard")
    g.play("B1-D2")
    assert g.piece("d2") == "Sa"
    g.play("A5-b3")
    assert g.piece("b3") == "Na"
    g = Game("standard")
    g.play("B1XD2")
    assert g.piece("d2") == "Sa"
    g = game("classic", RECALL)
    g.play("C5@A1")
    assert g.piece("a1") == "Sa"
    g = game("standard", OPEN)
    g.play("@C1")
    assert g.piece("c1") == "Sa"
    g = game("standard", OPEN)
    g.play("DONE")
    assert g.turn == "north"
    g = game("legendary", FLIP)
    g.play("C1*@E5")
    assert g.piece("e5") == "Na"
    g = game("legendary", FLIP)
    g.play("C1*")
    assert g.held("north") == 1
    g = game("standard", MARKERS, ("challenges",))
    g.play("R@A1")
    assert g.piece("a1") == "Sa"


def test_input_tolerates_surrounding_spaces():
    g = Game("standard")
    g.play("  b1-d2 ")
    assert g.piece("d2") == "Sa"
    g.play("\ta5-b3\n")
    assert g.piece("b3") == "Na"
    g = game("standard", OPEN)
    g.play(" Done ")
    assert g.turn == "north"
    g = game("standard", MARKERS, ("challenges",))
    g.play(" r@a1  ")
    assert g.piece("a1") == "Sa"


def test_garbled_input_is_refused_with_a_message_and_the_game_is_unchanged():
    garbled = ("", "   ", "b1d2", "b1-d", "b1-d6", "f1-a2", "b1--d2", "b1 - d2", "b1- d2",
               "b1-d2 c1-d3", "b1-d2x", "@", "@a", "@f1", "@ a1", "r@", "r@z1", "rr@a1",
               "c5**", "c5@", "c5*@", "donee", "do ne", "b1_d2", "b1=d2", "1b-2d", "pass")
    for rules, actions in (("standard", ""), ("standard", OPEN), ("classic", RECALL),
                           ("legendary", FLIP)):
        g = game(rules, actions)
        for text in garbled:
            message = _refused_unchanged(g, text)
            if text.strip():
                assert text.strip() in message, (text, message)


def test_a_non_string_action_is_refused_and_the_game_is_unchanged():
    g = Game("standard")
    for value in (None, 12, ("b1", "d2"), b"b1-d2"):
        _refused_unchanged(g, value)


def test_a_well_formed_action_that_is_not_legal_is_refused_with_a_reason_and_the_game_is_unchanged():
    g = Game("standard")
    for text in ("a1-a2", "b5-d4", "c3-d1", "@a1", "done", "r@a1", "c5*", "c5@a1", "c5*@a1"):
        _refused_unchanged(g, text)
    g = game("standard", OPEN)
    for text in ("a1-c2", "@e5", "@d1", "r@c1", "c1*"):
        _refused_unchanged(g, text)
    message = _refused_unchanged(Game("standard"), "a1-a2")
    assert "a1-a2" in message
