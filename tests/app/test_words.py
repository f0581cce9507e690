"""What the display says during a game: events and refusals in plain words.

Each game below is played through the buttons (NEXT and SELECT) in a
two-player game, up to the action whose words are checked. The scripts were
found by playing seeded random games with the rules core.
"""

from jarmo.app import App
from jarmo.app_buttons import SELECT
from jarmo.board import point
from tests.app.drive import Clock, goto, joy_to, play, told


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


def tells(app, clock, text):
    """True when every sentence of text is on the display, on one page of the
    events or another (they take turns every 3 s, and a page breaks only
    between sentences)."""
    pages = []
    for _ in range(max(1, app.board.pages)):
        pages.append(said(app))
        clock.run(3000)
    sentences = [x + "." for x in text.rstrip(".").split(". ")]
    return all(any(x in page for page in pages) for x in sentences)


def fits(app):
    return len(app.text) <= 5 and all(len(line) <= 21 for line in app.text)


def test_a_plain_move_is_told_with_both_points():
    app, _ = played("standard", "b1-d2")
    assert app.text == ("standard", "North to move", "South moved b1 to d2.", "at a5: North archer")


def test_a_capture_names_the_taker_the_piece_and_the_point():
    app, clock = played("standard", "b1-d2 e5-d3 d2-d3")
    # the last turn of each side: North's move, then South's capture
    assert app.text == ("North to move", "North moved e5 to d3.", "South took an archer",
                        "on d3.", "at a5: North archer")
    assert tells(app, clock, "South took an archer on d3. South's archer on d3 is now a guard.")


def test_a_classic_capture_marks_the_archer():
    app, clock = played("classic", "b1-d2 e5-d3 d2-d3")
    assert tells(app, clock, "South took an archer on d3. South's archer on d3 is now marked.")


def test_a_guard_entering_the_camp_brings_one_back_to_place():
    app, clock = played("standard", "b1-a3 b5-d4 d1-b2 c5-b3 c1-a2 b3-b4 b2-c4 b4-b3 c4-b4 d4-c4 "
                                    "a1-b3 a5-b3 b4-b3 e5-d3 b3-c5")
    # Bug: "South: place or done" and "Guard in camp: 1 back, place or done."
    # meant nothing to a player who had not read the rules. The top lines say
    # what to do, in words; the events say what happened, each with its subject.
    assert app.text == ("South: place a piece", "in your camp, or done", "North moved e5 to d3.",
                        "South moved b3 to c5.", "at a1: empty")
    clock.run(3000)                         # the next page of the turn's words
    assert app.text == ("South: place a piece", "in your camp, or done", "In the enemy camp the",
                        "guard turns archer.", "at a1: empty")
    clock.run(3000)
    assert app.text == ("South: place a piece", "in your camp, or done", "A taken piece comes",
                        "back to South.", "at a1: empty")
    clock.run(3000)                         # and round again
    assert app.text[2] == "North moved e5 to d3."


def test_a_guard_entering_the_camp_with_none_taken_just_turns_archer():
    app, clock = played("standard", "c1-e2 a5-c4 e2-c1 c5-b3 b1-d2 c4-a5 d2-c2 b3-b2 c2-b2 d5-b4 "
                                "a1-b3 a5-c4 b3-b4 c4-d4 c1-a2 d4-e2 b2-c4 b5-a3 d1-c3 a3-b1 b4-d5")
    assert tells(app, clock, "South moved b4 to d5. In the enemy camp the guard turns archer.")
    assert "comes back" not in " ".join(told(app))


def test_a_golden_soldier_taken_as_a_guard_becomes_a_hostage():
    app, clock = played("standard", "b1-a3 b5-d4 d1-b2 c5-b3 c1-a2 b3-b4 b2-c4 b4-b3 c4-b4 d4-c4 "
                                "a1-b3 a5-b3 b4-b3", ("heroes",))
    assert app.text == ("North to move", "North took a guard on", "b3. South took a",
                        "Golden Soldier on b3.", "at c4: North archer")
    clock.run(3000)
    assert app.text == ("standard+H", "North to move", "The Golden Soldier is", "now a hostage.",
                        "at c4: North archer")
    clock.run(3000)
    assert app.text == ("standard+H", "North to move", "South's archer on b3", "is now a guard.",
                        "at c4: North archer")


def test_taking_the_piece_on_your_hostage_frees_it():
    app, clock = played("standard", "a1-b3 e5-c4 e1-c2 c5-a4 b3-d2 a4-c3 d1-b2 c4-b4 c1-d3 b4-d3 "
                                    "d2-d3 b5-d4 d3-e5 @e1 d4-e2 b1-a3 a5-c4 b2-c4 c3-a2 c2-d2 "
                                    "e2-d4 d2-d3 d4-c4", ("heroes",))
    assert tells(app, clock, "North took a guard on c4. North's Golden Soldier is freed. "
                             "North's archer on c4 is now a guard.")
    joy_to(clock, "c4")
    assert app.text[-1] == "c4: N guard +hostage"


def test_taking_a_piece_that_stands_on_its_golden_soldier_takes_a_hostage():
    app, clock = played("standard", "a1-b3 e5-c4 d1-b2 c5-a4 b3-c5 d5-e3 b2-c2 c4-b2 e1-d3 a4-c3 "
                                "c2-b2 c3-a2 d3-e1 a5-b3 c1-e2 b3-d2 e2-d4 b5-a3 b2-b3 a3-b1 "
                                "e1-c2 e3-c2 b3-d2 c2-d2 c2-d2", ("heroes",))
    assert tells(app, clock, "The Golden Soldier is now a hostage.") and " took " in " ".join(told(app))


def test_a_jasyr_guard_taken_goes_back_held():
    app, clock = played("jasyr", "b1-a3 a5-b3 d1-c3 e5-c4 c1-d3 b5-c3 e1-c2 c4-b4 a3-b5 d5-e3 "
                             "a1-b3 b4-b3")
    assert tells(app, clock, "North took a guard on b3. North's archer on b3 is now a guard. "
                             "The taken guard goes back to South, held.")


def test_recall_flip_and_redeploy_in_words():
    app, clock = played("classic", "b1-a3 c5-b3 a3-b1 e5-c4 c1-a2 c4-d4 a2-c1 d4-d3 c1-d3 d5-b4 "
                               "e1-c2 b4-d5 d3-d4 b3-a1 d1-b2 d5-b4 d4-d3 a1@c5")
    assert tells(app, clock, "North recalled an archer to c5.")
    app, clock = played("legendary", "c1-e2 a5-c4 e2-c1 c5-b3 b1-d2 c4-a5 d2-c2 b3-b2 c2-b2 d5-b4 "
                                 "a1-b3 a5-c4 b3-b4 c4-d4 c1-a2 d4-e2 b2-c4 b5-a3 d1-c3 a3-b1 "
                                 "b4-d5 e2-d4 c3-e4 d4-d3 e4-c3 d3-e1 d5*")
    assert tells(app, clock, "South flipped the guard on d5. A taken piece comes back to South, "
                             "held.")
    app, clock = played("legendary", "b1-a3 c5-b3 a3-b1 e5-c4 c1-a2 c4-d4 a2-c1 d4-d3 c1-d3 d5-b4 "
                                 "e1-c2 b4-d5 d3-d4 b3-a1 b1-a3 d5-b4 d1-c3 b4-d3 d4-c4 a5-c4 "
                                 "c2-d2 c4-b2 a3-b5 d3-b4 d2-c2 b4-b3 c3-a4 b2-c2 a4-c3 c2-e1 "
                                 "c3-d1 e1*@a5")
    assert tells(app, clock, "North flipped the guard on e1. A taken piece comes back on a5.")
    app, clock = played("standard", "e1-d3 b5-a3 c1-e2 a3-b1 a1-b3 r@e1", ("challenges",))
    assert tells(app, clock, "South redeployed a piece to e1. The remote camps are gone.")


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
            if "AI took your " in " ".join(told(app)):
                seen.add("ai")
            legal = app.game.legal()
            takes = [a for a in legal if "-" in a and app.game.piece(a[3:])]
            play(clock, (takes or legal)[0])
            if takes and app.state == "ai":
                assert "You took " in " ".join(told(app)) and app.text[1].startswith("North (AI)")
                seen.add("you")
        elif app.state == "ai":
            clock.run(64)
        else:
            break
        assert fits(app)
        if seen == {"ai", "you"}:
            break
    assert seen == {"ai", "you"}, seen


def test_against_the_ai_the_words_say_whose_archer_became_a_guard():
    """Bug: "AI took your archer on d2. Now a guard." did not say whose piece
    became a guard (the reader took it for their own). The sentence names it:
    the AI's archer that took, on the point it took on."""
    from tests.app.drive import wait_state
    app = App(seed=1)
    app.ai_steps = 50
    clock = Clock(app)
    app.new_game(rules="standard", opponent="greedy", side="south", games=1)
    for action in ("a1-c2", "b1-d2"):
        play(clock, action)
        wait_state(clock, "play")
    assert app.game.history()[-1] == "b3-d2"       # the AI's archer took
    assert told(app)[-2:] == ["AI took your archer on d2.", "AI's archer on d2 is now a guard."]
    assert tells(app, clock, "AI took your archer on d2. AI's archer on d2 is now a guard.")


# What a sentence of the events may begin with: its subject (a side, its
# own, "The ..."/"A ..." piece), or "In the enemy camp" before it.
SUBJECTS = ("South", "North", "South's", "North's", "The", "A", "In")


def test_every_sentence_of_the_events_has_its_subject_and_fits_two_lines():
    """Bug: "Now a guard.", "Now marked.", "Hostage taken.", "1 piece back,
    held.", "Markers gone." said nothing of whose piece. Random two-player
    games of every rule set and expansion: every sentence told begins with
    its subject, and fits two lines, so that it shows beside a selection or
    the timer's line."""
    from jarmo.app_base import wrap
    from tests.app.drive import Rand, choose
    seen = set()
    for seed, (rules, exp) in enumerate((("classic", ()), ("standard", ("heroes", "challenges")),
                                         ("legendary", ("heroes", "challenges")),
                                         ("jasyr", ("heroes", "challenges")), ("standard", ()))):
        for k in range(3):
            app = App(tabletop=True)
            clock = Clock(app)
            app.new_game(rules=rules, expansions=exp, opponent="human", games=1)
            rng = Rand(seed * 10 + k)
            for _ in range(120):
                if app.state != "play":
                    break
                play(clock, choose(rng, app.game.legal()))
                for sentence in told(app):
                    seen.add(sentence.split()[1] if sentence.split()[0] in ("The", "A") else
                             sentence.split()[0])
                    assert sentence.split()[0] in SUBJECTS, sentence
                    assert len(wrap(sentence, 21, 9)) <= 2, sentence
    # the kinds of sentence of the rules: captures, promotions, camp entries
    assert {"South", "North", "South's", "North's", "In", "taken"} <= seen, seen


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


# ---------------------------------------------------------------- nothing lost, nothing cut


def test_a_capture_stays_told_after_the_answer():
    """Bug: "You took ... on d2" was replaced at once by the AI's answer. Now
    the last turn of each side stays on the display until that side acts again."""
    app, clock = played("standard", "b1-d2 e5-d3 d2-d3 b5-a3")
    assert tells(app, clock, "South took an archer on d3. South's archer on d3 is now a guard. "
                             "North moved b5 to a3.")
    assert " ".join(told(app)).startswith("South took")       # the older turn first


def test_a_turn_of_two_actions_is_told_whole():
    """Bug: a turn of a move and a placement was told as its last action only."""
    app, clock = played("standard", "b1-a3 b5-d4 d1-b2 c5-b3 c1-a2 b3-b4 b2-c4 b4-b3 c4-b4 d4-c4 "
                                    "a1-b3 a5-b3 b4-b3 e5-d3 b3-c5 @c1")
    assert tells(app, clock, "South moved b3 to c5. In the enemy camp the guard turns archer. "
                             "A taken piece comes back to South. South placed an archer on c1.")


def _whole_sentences(app):
    """No sentence of the latest turns is on the display in part."""
    shown = said(app)
    for sentence in told(app):
        head, tail = sentence[:12], sentence[-12:]
        if head in shown or tail in shown:
            assert sentence in shown, (sentence, app.text)


def test_events_are_never_cut_with_a_selection_or_the_timer():
    """Bug: with a piece selected the 5-line box cut a sentence in the middle.
    Random two-player games of every rule set, with and without the move
    timer: at every turn a piece is selected, and every page of the events
    (they turn every 3 s) shows whole sentences only, in 5 lines of 21."""
    from tests.app.drive import Rand, choose, picks, say_yes, set_option
    from tests.app.memstore import MemoryStore
    for seed, (rules, exp) in enumerate((("classic", ()), ("standard", ("heroes", "challenges")),
                                         ("legendary", ("heroes",)), ("jasyr", ("challenges",)))):
        for timer in ("off", "60 s"):
            app = App(store=MemoryStore(), tabletop=True)
            clock = Clock(app)
            set_option(clock, "Timer", timer)
            app.new_game(rules=rules, expansions=exp, opponent="human", games=1)
            rng = Rand(seed)
            for _ in range(60):
                if app.state != "play":
                    break
                a = choose(rng, app.game.legal())
                first = picks(app, a)
                if len(first) == 2:
                    goto(clock, first[0])
                    clock.press(SELECT, app.turn_side())     # selected: its targets shown
                    for _page in range(3):
                        assert fits(app), app.text
                        _whole_sentences(app)
                        clock.run(3000)
                    goto(clock, first[1])
                    seat = app.turn_side()
                    clock.press(SELECT, seat)
                    say_yes(clock, seat)
                else:
                    play(clock, a)
                assert fits(app), app.text
                _whole_sentences(app)


def test_the_title_names_the_opponent_and_the_campaign_battle():
    from tests.app.memstore import MemoryStore
    for opponent, title in (("greedy", "standard vs greedy"), ("2", "standard vs level 2"),
                            ("human", "standard")):
        app = App(store=MemoryStore())
        app.new_game(rules="standard", opponent=opponent, side="south")
        Clock(app).run(50)
        assert app.text[0] == title, app.text
    app = App(store=MemoryStore())
    clock = Clock(app)
    from jarmo.app_buttons import SELECT
    from tests.app.drive import menu_to
    menu_to(clock, "Campaign")
    clock.press(SELECT)
    clock.press(SELECT)                      # battle 1
    clock.run(50)
    assert app.battle == 0 and app.text[0].startswith("Battle 1 classic"), app.text
