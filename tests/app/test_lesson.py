"""The guided first game, driven through the buttons only."""

from jarmo.app import App
from jarmo.app_base import wrap
from jarmo.app_buttons import BACK, DOWN, LEFT, MENU, NEXT, PREV, RIGHT, SELECT, UP
from jarmo.app_lesson import SCRIPT, STEPS
from jarmo.app_view import HINT_COLOUR
from jarmo.board import point
from jarmo.game import Game
from tests.app.drive import Clock, menu_to, new_game, play
from tests.app.memstore import MemoryStore, reboot


def open_lesson(has_display=True, store=None):
    app = App(store=store or MemoryStore(), has_display=has_display)
    clock = Clock(app)
    menu_to(clock, "First game")
    clock.press(SELECT)
    assert app.state == "lesson", app.state
    return app, clock


def lesson(app):
    return app.states[app.sid]


def lit(app, clock):
    """The point lit in the hint colour (what to pick next), or None."""
    for _ in range(8):
        clock.run(128)
        for i in range(25):
            if app.pixel(i) == HINT_COLOUR:
                return i
    return None


def joy_to(app, clock, target):
    """Move the lesson's cursor to a point with the joystick alone."""
    for _ in range(12):
        c = lesson(app).board.cursor
        if c == target:
            return
        if c % 5 != target % 5:
            clock.press(RIGHT if target % 5 > c % 5 else LEFT)
        else:
            clock.press(UP if target // 5 > c // 5 else DOWN)
    raise AssertionError("the joystick never reached %d" % target)


def follow(app, clock, joystick=False):
    """Pick whatever the LEDs light, with NEXT (or the joystick) and SELECT."""
    for _ in range(60):
        if lesson(app).game.result() is not None:
            return
        if lesson(app).game.turn == "north":
            clock.run(800)
            continue
        want = lit(app, clock)
        assert want is not None, app.text
        if joystick:
            joy_to(app, clock, want)
        else:
            for _ in range(30):
                if lesson(app).board.cursor == want:
                    break
                clock.press(NEXT)
        assert "SELECT" in app.text[-1]
        clock.press(SELECT)
    raise AssertionError("the lesson never ended")


def test_the_script_is_a_game_that_south_wins_and_every_step_has_words():
    g = Game("standard")
    for a in SCRIPT:
        g.play(a)
    assert g.result().winner == "south"
    south = 0
    g = Game("standard")
    for a in SCRIPT:
        south += g.turn == "south"
        g.play(a)
    assert len(STEPS) == south + 1                  # one per South action, then the end
    for words in STEPS:
        assert len(wrap(words, 21, 9)) <= 3, words


def test_the_lesson_walks_through_a_whole_game_and_returns_to_the_menu():
    app, clock = open_lesson()
    assert app.text[0] == "First game 1/7"
    assert app.text[-1] == "Cursor a1: go to e1"
    seen = []
    for _ in range(60):
        if lesson(app).game.result() is not None:
            break
        if lesson(app).game.turn == "south":
            seen.append(app.text[1])
        follow_one(app, clock)
    g = lesson(app).game
    assert g.history() == SCRIPT
    assert g.result().reason == "wipeout"
    assert app.text[0] == "First game: done" and "won" in app.text[1]
    # the steps named moving, taking, guards, the camp, placing and the end
    words = " ".join(STEPS)
    for idea in ("lines", "take", "guard", "enemy camp", "Place", "win"):
        assert idea in words
    clock.press(SELECT)
    assert app.state == "menu"


def follow_one(app, clock):
    if lesson(app).game.turn == "north":
        clock.run(800)
        return
    want = lit(app, clock)
    for _ in range(30):
        if lesson(app).board.cursor == want:
            break
        clock.press(NEXT)
    clock.press(SELECT)


def test_a_wrong_pick_gets_a_hint_and_changes_nothing():
    app, clock = open_lesson()
    want = lit(app, clock)
    assert want == point("e1")
    while lesson(app).board.cursor == want:
        clock.press(NEXT)
    clock.press(SELECT)
    assert app.state == "lesson"
    assert app.text[-1] == "Not that: the lit one"
    assert lesson(app).game.plies == 0 and lesson(app).sel == -1
    assert lit(app, clock) == want                  # still lit: try again
    follow_one(app, clock)                          # e1
    follow_one(app, clock)                          # d3
    assert lesson(app).game.history() == ["e1-d3"]


def test_it_can_be_left_at_any_time_and_started_again():
    app, clock = open_lesson()
    follow_one(app, clock)
    follow_one(app, clock)                          # e1-d3 played
    clock.run(1000)                                 # North answered
    assert lesson(app).game.plies == 2
    clock.press(MENU)
    assert app.state == "menu"
    menu_to(clock, "First game")
    clock.press(SELECT)
    assert app.state == "lesson" and lesson(app).game.plies == 0
    assert app.text[0] == "First game 1/7"
    clock.press(BACK)
    assert app.state == "menu"
    clock.press(SELECT)                             # First game again
    clock.press(PREV)                               # nothing selected: PREV leaves too
    assert app.state == "menu"


def test_on_the_leds_alone_with_the_joystick():
    app, clock = open_lesson(has_display=False)
    follow(app, clock, joystick=True)
    assert lesson(app).game.history() == SCRIPT


def test_a_saved_game_is_untouched_by_the_lesson():
    store = MemoryStore()
    app = App(store=store)
    clock = Clock(app)
    new_game(clock, "standard")
    play(clock, "b1-d2")
    saved = reboot(store).game()
    clock.press(MENU)
    menu_to(clock, "First game")
    clock.press(SELECT)
    follow_one(app, clock)
    follow_one(app, clock)
    clock.press(MENU)
    assert reboot(store).game() == saved
    menu_to(clock, "Resume")
    clock.press(SELECT)
    assert app.state == "play" and app.game.history() == ["b1-d2"]


def test_the_cursor_is_named_and_told_apart_from_the_point_to_pick():
    """Bug: in First game the cursor was only a blinking pale point, easily
    taken for a target: nothing said where it was. Now its state's cursor() gives it
    (the simulator brackets it) and the last line names it."""
    app, clock = open_lesson()
    c = lesson(app).board.cursor
    assert lesson(app).cursor() == c == point("a1")
    assert app.text[-1] == "Cursor a1: go to e1"
    for _ in range(30):
        if lesson(app).cursor() == point("e1"):
            break
        clock.press(NEXT)
    assert app.text[-1] == "Cursor e1: SELECT"
    clock.press(SELECT)                             # e1 picked: the cursor on its first target
    assert lesson(app).cursor() == point("c2") and app.text[-1] == "Cursor c2: go to d3"
    clock.press(NEXT)
    assert lesson(app).cursor() == point("d3") and app.text[-1] == "Cursor d3: SELECT"
    clock.press(SELECT)
    assert lesson(app).cursor() == -1                         # North's turn: no cursor
    clock.run(1000)
    assert lesson(app).cursor() >= 0


# ---------------------------------------------------------------- the way in

def test_the_first_screen_points_a_new_player_to_the_lesson():
    """Bug: nothing on the first screen pointed a new player to Menu, First
    game. The device's first screen (the menu, nothing saved) names the item
    as the lesson; the simulator's first screen (a game started at once)
    says where the lesson is, until the first button; an LED-only board's
    menu lights First game's LED (c3) in the lesson's colour beside New game."""
    app = App(store=MemoryStore())
    Clock(app).run(100)
    assert app.text == ("Jarmo", ">New game", " Campaign", " First game (lesson)",
                        " Rules: standard")
    # the simulator starts a game before any button
    app = App(store=MemoryStore())
    app.new_game(rules="standard", opponent="greedy", side="south")
    clock = Clock(app)
    clock.run(100)
    said = " ".join(app.text)
    assert "New? The menu's First game is a lesson." in said, app.text
    assert app.text[0] == "standard vs greedy" and app.text[1] == "South (you) to move"
    assert len(app.text) == 5 and all(len(line) <= 21 for line in app.text)
    clock.press(NEXT)                       # the player is here: the board has the room
    assert "lesson" not in " ".join(app.text)
    # LED-only: c3 (First game) glows in the lesson's colour while New game blinks
    app = App(store=MemoryStore(), has_display=False)
    clock = Clock(app)
    clock.run(100)
    assert app.pixel("c3") == HINT_COLOUR
    clock.press(SELECT)                     # New game: the pointer's work is done
    clock.press(MENU)
    clock.run(100)
    assert app.state == "menu" and app.pixel("c3") != HINT_COLOUR
