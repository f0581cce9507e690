"""The main loop's order of work around a completed turn (hardware/mainloop.py):
the turn is lit in its press's pass and saved in the very next pass, ahead
of the garbage collection and the display's steps; while the game has work
of its own (an AI thinks), the display's steps give every other pass to it.
"""

from hardware.display import TextDisplay
from hardware.mainloop import run
from jarmo import app_buttons as B
from jarmo.app import App
from jarmo.store_flash import Flash
from jarmo.store_log import Store
from tests.hardware.test_power import Clock, FakeCanvas, FakeDisplay, Script, _leds


def _screen():
    screen = TextDisplay()
    screen.canvas = FakeCanvas()
    screen.display = FakeDisplay()
    return screen


class Passes:
    """Notes, by the poll that began its pass, each save, collection,
    display step and App.tick."""

    def __init__(self, app, screen, inputs):
        self.log = []
        self.busy = []      # the polls of the display's steps while the game had work
        self.app = app
        self.inputs = inputs
        self._wrap(app, "save")
        self._wrap(app, "tick")
        self._wrap(screen, "step")

    def _wrap(self, owner, name):
        real = getattr(owner, name)

        def noted(*args):
            self.log.append((len(self.inputs.polls), name))
            if name == "step" and self.app.busy:
                self.busy.append(len(self.inputs.polls))
            return real(*args)
        setattr(owner, name, noted)

    def collect(self):
        self.log.append((len(self.inputs.polls), "collect"))

    def in_pass(self, poll):
        return [name for p, name in self.log if p == poll]


def test_a_completed_turn_is_saved_in_the_pass_after_its_press_before_the_collection_and_the_display():
    app = App(store=Store(Flash()), seed=3)
    app.new_game(rules="classic", opponent="human")
    screen = _screen()
    clock = Clock()
    inputs = Script(clock, [(200, B.SELECT), (400, B.SELECT)], end=800)
    passes = Passes(app, screen, inputs)
    run(app, inputs, _leds(), screen, clock, collect=passes.collect)
    assert app.game.plies == 1 and app.saved == app.game.actions
    press = inputs.polls.index(400) + 1            # the pass that took the completing press
    assert "save" not in passes.in_pass(press), "not in the press's pass"
    assert passes.in_pass(press + 1)[:2] == ["tick", "save"], passes.in_pass(press + 1)
    assert "collect" in passes.in_pass(press + 2) and screen.busy is False


def test_while_the_ai_thinks_the_display_s_steps_take_every_other_pass():
    app = App(store=Store(Flash()), seed=3)
    app.new_game(rules="standard", opponent="3", side="north")     # the AI moves first
    screen = _screen()
    clock = Clock()
    inputs = Script(clock, [], end=600, step=5)
    passes = Passes(app, screen, inputs)
    run(app, inputs, _leds(), screen, clock, collect=passes.collect)
    steps = passes.busy
    assert len(steps) >= 4, "the display had a text change to send while the AI thought"
    gaps = [b - a for a, b in zip(steps, steps[1:])]
    assert min(gaps) >= 2, "a pass of the game's own between two display steps: %s" % steps[:12]
    ticks = {p for p, name in passes.log if name == "tick"}
    assert any(steps[0] < p < steps[-1] for p in ticks), "the AI thought while the text went out"


def test_a_key_going_down_is_lit_by_its_own_pass_s_tick_before_other_work():
    """A key with a hold goes down (KEY_DOWN) while the display has a text
    change to send and a collection is due: the pass that took it runs the
    app's tick (which draws the mark, and reads a link's bytes), not the
    display's step or a collection, and nothing is collected for it."""
    app = App(store=Store(Flash()), seed=3)
    app.new_game(rules="classic", opponent="human")
    screen = _screen()
    clock = Clock()
    # SELECT picks a piece at 200 (a text change for the display, a collection
    # due); NEXT goes down at 220, in the very next pass
    inputs = Script(clock, [(200, B.SELECT), (220, B.NEXT | B.KEY_DOWN)], end=400)
    passes = Passes(app, screen, inputs)
    marks = []
    tick = app.tick

    def tick_noting(now):
        tick(now)
        marks.append((len(inputs.polls), app.key_down, app.pixel(app.cursor) == 0xFFFFFF))
    app.tick = tick_noting
    run(app, inputs, _leds(), screen, clock, collect=passes.collect)
    down = inputs.polls.index(220) + 1             # the pass that took the key going down
    assert passes.in_pass(down) == ["tick"], passes.in_pass(down)
    assert (down, True, True) in marks             # lit white in that pass
    assert screen.display.brightness == 0.5        # the display's half contrast while the key is down
