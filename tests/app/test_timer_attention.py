"""The move timer runs only while the player can see their turn and act on it:
never before the player's first button after start-up, never while the game
is out of sight (How to play, the menu, the simulator's rules pager), and a
change of Timer in the menu applies when the player goes back to the game."""

from types import SimpleNamespace

from jarmo.app import App
from jarmo.app_buttons import BACK, MENU, NEXT
from tests.app.drive import Clock, menu_to, set_option
from tests.app.memstore import MemoryStore, reboot
from tests.app.test_timer_hint import seconds_shown, start


def timer_store(timer="15 s"):
    """A store whose settings say Timer `timer` and hold no game (the last one finished)."""
    store = MemoryStore()
    app = App(store=store)
    set_option(Clock(app), "Timer", timer)
    return reboot(store)


def test_a_game_started_at_start_up_waits_for_the_players_first_button():
    # the simulator starts a game at once when none was saved (host/sim.py)
    app = App(store=timer_store(), tabletop=True)
    app.new_game(opponent="greedy")
    clock = Clock(app)
    clock.run(60000)
    assert app.state == "play" and app.game.plies == 0        # nothing was played for you
    assert seconds_shown(app) == 15
    clock.press(NEXT)                                         # here now: the clock runs
    clock.run(5000)
    assert seconds_shown(app) == 10


def test_a_game_resumed_at_start_up_waits_for_the_players_first_button():
    app, clock = start("15 s", opponent="human")
    app = App(store=reboot(app.store), tabletop=True)
    app.resume_saved()
    clock = Clock(app)
    clock.run(30000)
    assert app.state == "play" and app.game.plies == 0
    clock.press(NEXT)
    clock.run(16000)
    assert app.game.plies == 1                                # timed out only now


def test_the_clock_stands_still_while_the_game_is_out_of_sight():
    app, clock = start("30 s")
    clock.run(5000)
    app.hidden = 2                  # the simulator's rules pager over the game
    clock.run(60000)
    assert app.game.plies == 0
    app.hidden = 0
    clock.run(100)
    assert seconds_shown(app) == 25
    clock.run(25500)
    assert app.game.plies == 1


def test_the_simulators_rules_pager_stops_the_clock_until_it_closes():
    from host.terminal import TerminalInput
    app, clock = start("15 s")
    screen = SimpleNamespace(app=app, pager=None, resized=False, status="", draw=lambda: None)
    keys = TerminalInput(None, screen, None)
    assert keys.extra_key("r") and screen.pager is not None
    clock.run(20000)
    assert app.game.plies == 0 and seconds_shown(app) == 15
    keys.pager_key("back")                                    # Esc closes it
    assert screen.pager is None
    clock.run(16000)
    assert app.game.plies == 1


def test_how_to_play_stops_the_clock_and_esc_goes_back_to_the_turn():
    app, clock = start("30 s")
    clock.run(10000)
    app.how_to_play()
    clock.run(60000)
    clock.press(BACK)
    assert app.state == "play" and app.game.plies == 0
    assert seconds_shown(app) == 20


def test_a_timer_set_in_the_menu_applies_when_you_go_back_to_the_turn():
    app, clock = start("off")
    assert not app.text[0].endswith(" s")
    clock.press(MENU)
    set_option(clock, "Timer", "30 s")
    clock.press(MENU)                                         # back to the game
    assert seconds_shown(app) == 30                           # the turn in progress
    clock.run(10000)
    clock.press(MENU)
    set_option(clock, "Timer", "15 s")
    clock.press(MENU)
    assert seconds_shown(app) == 15                           # the new time, whole
    clock.press(MENU)
    set_option(clock, "Timer", "off")
    clock.press(MENU)
    clock.run(70000)
    assert app.game.plies == 0 and not app.text[0].endswith(" s")


def test_leaving_the_menu_without_a_change_keeps_the_time_left():
    app, clock = start("30 s")
    clock.run(10000)
    clock.press(MENU)
    menu_to(clock, "Timer")
    clock.press(MENU)
    assert seconds_shown(app) == 20
