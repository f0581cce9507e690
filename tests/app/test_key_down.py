"""A key that has a hold (NEXT held is PREV, SELECT held is MENU on the
three-button boards) acts when it is let go; the app shows the press as
the key goes down (App.press with KEY_DOWN), so the player never waits a
finger's length for a light, and acts at once where the hold means
nothing more (State.tap_at_down)."""

from jarmo import app_view as V
from jarmo.app import App
from jarmo.app_buttons import KEY_DOWN, MENU, NEXT, SELECT
from tests.app.drive import Clock, menu_to, new_game


def start(**kw):
    app = App(has_display=kw.pop("has_display", True))
    clock = Clock(app)
    new_game(clock, "standard", **kw)
    clock.run(1000)
    return app, clock


def down(clock, button, player=0):
    """The key goes down (in a pass of its own, drawn as the device's main loop
    draws a press's answer); press()'s answer."""
    app = clock.app
    acted = app.press(button | KEY_DOWN, player)
    app.draw(clock.now)
    return acted


def test_the_cursor_lights_white_as_next_goes_down_and_moves_at_its_release():
    app, clock = start()
    cursor = app.board.cursor
    before = bytes(app.frame)
    legal = app.game.legal()
    assert down(clock, NEXT) is False                 # the tap is still to come
    assert app.pixel(cursor) == V.WHITE and bytes(app.frame) != before
    assert app.board.cursor == cursor                  # nothing acted yet
    clock.run(300)                                     # held: the mark stays through redraws
    assert app.pixel(cursor) == V.WHITE
    clock.press(NEXT)                                  # let go: the tap
    assert app.board.cursor != cursor and not app.key_down
    assert app.pixel(cursor) != V.WHITE
    assert app.game.legal() == legal                   # the game is as it was


def test_a_hold_ends_the_mark_too():
    app, clock = start()
    down(clock, SELECT)
    assert app.key_down
    clock.press(MENU)                                  # held long enough: the menu
    assert app.state == "menu" and not app.key_down


def test_without_a_cursor_the_whole_picture_dips():
    """The LED-only menu: its item's LED (and everything else) at a quarter."""
    app = App(has_display=False)
    clock = Clock(app)
    clock.run(1000)
    assert app.state == "menu"
    frame = bytes(app.frame)
    down(clock, SELECT)
    assert bytes(app.frame) == bytes(b >> 2 for b in frame)
    clock.press(SELECT)
    assert not app.key_down


def test_where_the_hold_means_nothing_more_the_tap_acts_as_the_key_goes_down():
    """How to play: SELECT held is MENU, which leaves as SELECT does: it
    leaves as the key goes down; NEXT held is PREV (the page before), so NEXT
    still waits for its release."""
    app = App()
    clock = Clock(app)
    clock.run(500)
    menu_to(clock, "How to play")
    clock.press(SELECT)
    assert app.state == "help"
    assert down(clock, NEXT) is False and app.state == "help"
    clock.press(NEXT)
    assert down(clock, SELECT) is True and app.state == "menu"
    assert not app.key_down


def test_two_keys_down_in_the_same_millisecond():
    """Both are shown; each tap then acts once, in order."""
    app, clock = start()
    cursor = app.board.cursor
    assert down(clock, NEXT) is False and down(clock, NEXT) is False
    assert app.pixel(cursor) == V.WHITE
    clock.press(NEXT)
    clock.press(NEXT)
    assert app.board.cursor not in (cursor,) and not app.key_down
