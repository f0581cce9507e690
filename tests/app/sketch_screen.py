"""A made-up screen, as a new one is written (tests/test_adding.py adds its
row): the plies played so far, shown as a count of lit LEDs; any button
goes back to the menu."""

from jarmo import app_view as V
from jarmo.app_base import S_MENU, State


class Tally(State):
    def enter(self, app, arg):
        self.plies = app.game.plies if app.game is not None else 0
        app.set_text(("Tally", "%d turns played" % self.plies))

    def press(self, app, b, player):
        app.goto(S_MENU)

    def draw(self, app, buf):
        V.clear(buf)
        V.draw_count(buf, 0, min(self.plies, 25), V.WHITE)
