"""jarmo.app_turn: how actions map to picks."""

from jarmo.app_turn import (
    NONE,
    PICK_DONE,
    PICK_MENU,
    PICK_REDEPLOY,
    Choices,
    bits,
    choice_name,
    cycle,
    encode,
    step,
)
from jarmo.board import point
from jarmo.notation import action_text, parse_action


def codes(*actions):
    return [parse_action(a) for a in actions]


def names(ch, *picks):
    """The action Choices.action picks, in notation ("" for none)."""
    code = ch.action(*picks)
    return action_text(code) if code >= 0 else ""


def test_encode_every_action_shape():
    p = point
    a = parse_action
    assert encode(a("b4-c5"), 0) == (p("b4"), p("c5"))
    assert encode(a("c5@a1"), 0) == (p("c5"), p("a1"))
    assert encode(a("c5*"), 0) == (p("c5"), p("c5"))
    assert encode(a("c5*@a1"), 0) == (p("c5"), p("a1"))
    assert encode(a("@a1"), 0) == (p("a1"), NONE)
    assert encode(a("r@a1"), 0) == (p("a1"), NONE)
    assert encode(a("r@a1"), 1 << p("a1")) == (PICK_REDEPLOY, p("a1"))
    assert encode(a("done"), 0) == (PICK_DONE, NONE)


def test_choices_masks_and_lookup():
    ch = Choices()
    ch.build(codes("a1-c2", "a1-b3", "b1-d2", "@c1", "r@c1", "r@d1", "done"))
    for name in ("a1", "b1", "c1", "d1"):
        assert ch.firsts >> point(name) & 1
    assert ch.firsts >> PICK_DONE & 1 and ch.firsts >> PICK_REDEPLOY & 1 and ch.firsts >> PICK_MENU & 1
    assert bits(ch.targets(point("a1"))) == "c2 b3"
    assert names(ch, point("a1"), point("b3")) == "a1-b3"
    assert names(ch, point("c1")) == "@c1"
    assert names(ch, PICK_REDEPLOY, point("c1")) == "r@c1"
    assert names(ch, point("d1")) == "r@d1"       # not ambiguous: one pick
    assert names(ch, PICK_DONE) == "done"
    assert ch.action(point("a1")) == -1           # a piece: a second pick is due
    assert bits(ch.placements()) == "c1 d1"
    assert ch.can_redeploy()


def test_every_action_reachable_exactly_once():
    ch = Choices()
    legal = ["c5*", "c5*@a1", "c5*@b1", "@a1", "@b1", "r@a1", "d4-e5", "done"]
    ch.build(codes(*legal))
    seen = []
    for f in range(28):
        if not ch.firsts >> f & 1:
            continue
        a = names(ch, f)
        if a:
            seen.append(a)
        t = ch.targets(f)
        for s in range(28):
            if t >> s & 1:
                seen.append(names(ch, f, s))
    assert sorted(seen) == sorted(legal)
    assert not Choices().can_redeploy()


def test_cycle_wraps_and_skips():
    m = 1 << 3 | 1 << 10 | 1 << PICK_MENU
    assert cycle(m, 3) == 10
    assert cycle(m, 10) == PICK_MENU
    assert cycle(m, PICK_MENU) == 3
    assert cycle(m, 3, -1) == PICK_MENU
    assert cycle(0, 5) == -1
    assert choice_name(PICK_DONE) == "done" and choice_name(0) == "a1"


def test_joystick_steps_and_pseudo_row():
    pseudo = 1 << PICK_DONE | 1 << PICK_MENU
    c3 = point("c3")
    assert step(c3, 1, 0, pseudo) == point("d3")
    assert step(point("e3"), 1, 0, pseudo) == point("a3")     # wraps
    assert step(c3, 0, 1, pseudo) == point("c4")
    assert step(point("c5"), 0, 1, pseudo) == PICK_DONE            # off the top
    assert step(PICK_DONE, 1, 0, pseudo) == PICK_MENU
    assert step(PICK_MENU, 1, 0, pseudo) == PICK_DONE
    assert step(PICK_DONE, 0, 1, pseudo) == point("c1")
    assert step(PICK_DONE, 0, -1, pseudo) == point("c5")
    assert step(point("a1"), 0, -1, 1 << PICK_MENU) == PICK_MENU
