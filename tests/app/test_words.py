"""What the display says during a game: events and refusals in plain words.

Each game below is played through the buttons (NEXT and SELECT) in a
two-player game, up to the action whose words are checked. The scripts were
found by playing seeded random games with the rules core.
"""

from jarmo.app import App
from jarmo.board import point
from jarmo.buttons import SELECT
from tests.app.drive import Clock, goto, joy_to, play


def played(rules, script, expansions=(), opponent="human"):
    app = App(tabletop=True)
    clock = Clock(app)
    app.new_game(rules=rules, expansions=expansions, opponent=opponent, games=1)
    clock.run(50)
    for a in script.split():
        play(clock, a)
    return app, clock


def said(app):
    """The display's lines joined: a sentence wrapped over lines reads whole."""
    return " ".join(app.text)


def fits(app):
    return len(app.text) <= 5 and all(len(line) <= 21 for line in app.text)


def test_a_plain_move_is_told_with_both_points():
    app, _ = played("standard", "b1-d2")
    assert app.text == ("standard", "North to move", "South moved b1 to d2.", "at a5: North archer")


def test_a_capture_names_the_taker_the_piece_and_the_point():
    app, _ = played("standard", "b1-d2 e5-d3 d2-d3")
    assert app.text == ("standard", "North to move", "South took an archer",
                        "on d3. Now a guard.", "at a5: North archer")


def test_a_classic_capture_marks_the_archer():
    app, _ = played("classic", "b1-d2 e5-d3 d2-d3")
    assert "South took an archer on d3. Now marked." in said(app)


def test_a_guard_entering_the_camp_brings_one_back_to_place():
    app, _ = played("standard", "b1-a3 b5-d4 d1-b2 c5-b3 c1-a2 b3-b4 b2-c4 b4-b3 c4-b4 d4-c4 "
                                "a1-b3 a5-b3 b4-b3 e5-d3 b3-c5")
    assert app.text == ("South: place or done", "South moved b3 to c5.", "Guard in camp: 1",
                        "back, place or done.", "at a1: empty")


def test_a_guard_entering_the_camp_with_none_taken_just_turns_archer():
    app, _ = played("standard", "c1-e2 a5-c4 e2-c1 c5-b3 b1-d2 c4-a5 d2-c2 b3-b2 c2-b2 d5-b4 "
                                "a1-b3 a5-c4 b3-b4 c4-d4 c1-a2 d4-e2 b2-c4 b5-a3 d1-c3 a3-b1 b4-d5")
    assert "South moved b4 to d5. Guard in camp, now an archer." in said(app)


def test_a_golden_soldier_taken_as_a_guard_becomes_a_hostage():
    app, _ = played("standard", "b1-a3 b5-d4 d1-b2 c5-b3 c1-a2 b3-b4 b2-c4 b4-b3 c4-b4 d4-c4 "
                                "a1-b3 a5-b3 b4-b3", ("heroes",))
    assert app.text == ("North to move", "South took a Golden", "Soldier hostage on",
                        "b3. Now a guard.", "at c4: North archer")


def test_taking_the_piece_on_your_hostage_frees_it():
    app, clock = played("standard", "a1-b3 e5-c4 e1-c2 c5-a4 b3-d2 a4-c3 d1-b2 c4-b4 c1-d3 b4-d3 "
                                    "d2-d3 b5-d4 d3-e5 @e1 d4-e2 b1-a3 a5-c4 b2-c4 c3-a2 c2-d2 "
                                    "e2-d4 d2-d3 d4-c4", ("heroes",))
    assert "North took a guard on c4. Hostage freed. Now a guard." in said(app)
    joy_to(clock, "c4")
    assert app.text[-1] == "c4: N guard +hostage"


def test_taking_a_piece_that_stands_on_its_golden_soldier_takes_a_hostage():
    app, _ = played("standard", "a1-b3 e5-c4 d1-b2 c5-a4 b3-c5 d5-e3 b2-c2 c4-b2 e1-d3 a4-c3 "
                                "c2-b2 c3-a2 d3-e1 a5-b3 c1-e2 b3-d2 e2-d4 b5-a3 b2-b3 a3-b1 "
                                "e1-c2 e3-c2 b3-d2 c2-d2 c2-d2", ("heroes",))
    assert "Hostage taken." in said(app) and " took " in said(app)


def test_a_jasyr_guard_taken_goes_back_held():
    app, _ = played("jasyr", "b1-a3 a5-b3 d1-c3 e5-c4 c1-d3 b5-c3 e1-c2 c4-b4 a3-b5 d5-e3 "
                             "a1-b3 b4-b3")
    assert "North took a guard on b3. Now a guard. It goes back held." in said(app)


def test_recall_flip_and_redeploy_in_words():
    app, _ = played("classic", "b1-a3 c5-b3 a3-b1 e5-c4 c1-a2 c4-d4 a2-c1 d4-d3 c1-d3 d5-b4 "
                               "e1-c2 b4-d5 d3-d4 b3-a1 d1-b2 d5-b4 d4-d3 a1@c5")
    assert "North recalled an archer to c5." in said(app)
    app, _ = played("legendary", "c1-e2 a5-c4 e2-c1 c5-b3 b1-d2 c4-a5 d2-c2 b3-b2 c2-b2 d5-b4 "
                                 "a1-b3 a5-c4 b3-b4 c4-d4 c1-a2 d4-e2 b2-c4 b5-a3 d1-c3 a3-b1 "
                                 "b4-d5 e2-d4 c3-e4 d4-d3 e4-c3 d3-e1 d5*")
    assert "South flipped the guard on d5: 1 piece back, held." in said(app)
    app, _ = played("legendary", "b1-a3 c5-b3 a3-b1 e5-c4 c1-a2 c4-d4 a2-c1 d4-d3 c1-d3 d5-b4 "
                                 "e1-c2 b4-d5 d3-d4 b3-a1 b1-a3 d5-b4 d1-c3 b4-d3 d4-c4 a5-c4 "
                                 "c2-d2 c4-b2 a3-b5 d3-b4 d2-c2 b4-b3 c3-a4 b2-c2 a4-c3 c2-e1 "
                                 "c3-d1 e1*@a5")
    assert "North flipped the guard on e1: 1 piece back on a5." in said(app)
    app, _ = played("standard", "e1-d3 b5-a3 c1-e2 a3-b1 a1-b3 r@e1", ("challenges",))
    assert "South redeployed a piece to e1. Markers gone." in said(app)


def test_against_the_ai_you_and_ai_are_named():
    # a game against the greedy AI in which the human takes whenever it can:
    # both sides' captures are told from the human's side
    app = App(seed=1)
    app.ai_steps = 50
    clock = Clock(app)
    app.new_game(rules="standard", opponent="greedy", side="south", games=1)
    seen = set()
    for _ in range(400):
        if app.state == "play":
            if said(app).startswith("standard South (you) to move AI took your "):
                seen.add("ai")
            legal = app.game.legal()
            takes = [a for a in legal if "-" in a and app.game.piece(a[3:])]
            play(clock, (takes or legal)[0])
            if takes and app.state == "ai":
                assert "You took " in said(app) and app.text[1].startswith("North (AI)")
                seen.add("you")
        elif app.state == "ai":
            clock.run(64)
        else:
            break
        assert fits(app)
        if seen == {"ai", "you"}:
            break
    assert seen == {"ai", "you"}, seen


def test_a_refusal_says_why_in_words_and_keeps_the_cursor_named():
    app, clock = played("standard", "")
    goto(clock, point("a1"))
    clock.press(SELECT)                     # a1 picked
    joy_to(clock, "c3")
    clock.press(SELECT)                     # a1 to c3: no line
    assert app.text == ("standard", "South to move", "No: no line joins a1", "and c3",
                        "at c3: empty")
    assert "@" not in said(app)


def test_refusals_for_a_frozen_piece_an_enemy_piece_and_done():
    app, clock = played("standard", "b1-a3 b5-d4 d1-b2 c5-b3 c1-a2 b3-b4 b2-c4 b4-b3 c4-b4 d4-c4 "
                                    "a1-b3 a5-b3 b4-b3 e5-d3 b3-c5 done d3-c1")
    # South's archer on c5 stands on the enemy camp
    joy_to(clock, "c5")
    clock.press(SELECT)
    assert "No: c5 is on the enemy camp, where pieces never move" in said(app)
    assert app.text[-1] == "at c5: South archer"
    joy_to(clock, "c1")
    clock.press(SELECT)
    assert "No: the piece on c1 is not yours" in said(app)
    assert all(len(line) <= 21 for line in app.text) and "@" not in said(app)
