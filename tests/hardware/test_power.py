"""Idle power and the main loop's pace: dim, dark, wake; the buttons polled
before every step of work; the display's text a few characters a pass."""

from hardware import power, profiles
from hardware.cpuclock import CpuClock
from hardware.display import CHUNK, COLUMNS, Canvas, TextDisplay
from hardware.leds import make_leds
from hardware.mainloop import run
from host import blinka
from jarmo import app_buttons as B
from jarmo.app import App
from jarmo.game import _NEIGHBOUR_CACHE, Game, prepare_tables


class Clock:
    """ms, advanced by the test's inputs."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


class Script:
    """inputs.poll: at each listed ms a button; the clock moves `step` ms a
    pass; the loop ends at `end`. Keeps the ms of every poll."""

    def __init__(self, clock, presses, end, step=20):
        self.clock = clock
        self.presses = sorted(presses)
        self.end = end
        self.step = step
        self.polls = []

    def poll(self, now, press):
        self.polls.append(now)
        while self.presses and self.presses[0][0] <= now:
            press(self.presses.pop(0)[1], 0)
        self.clock.now += self.step
        return now < self.end


def _leds():
    return make_leds(dict(profiles.get("pico"), pixel_pin="NEOPIXEL"), -1, blinka.capturing_neopixel())


def _lit(leds):
    return any(leds.pixels.sent)


def test_idle_levels_from_the_last_press():
    idle = power.Idle(dim_ms=1000, off_ms=3000)
    assert idle.update(0) == power.AWAKE
    assert idle.update(999) == power.AWAKE
    assert idle.update(1000) == power.DIM
    assert idle.update(3000) == power.OFF
    assert idle.wake(3100) is True              # the press only woke it
    assert idle.level == power.AWAKE
    assert idle.update(3100 + 999) == power.AWAKE
    assert idle.wake(4200) is False             # dimmed: the press acts


def test_zero_turns_a_level_off():
    idle = power.Idle(dim_ms=0, off_ms=0)
    assert idle.update(0) == power.AWAKE
    assert idle.update(10 ** 8) == power.AWAKE


class Switch:
    value = None


def test_the_led_power_switch_follows_dark():
    switch = Switch()
    idle = power.Idle(dim_ms=10, off_ms=20, switch=switch)
    idle.update(0)
    idle.update(25)
    assert switch.value is False
    idle.wake(30)
    assert switch.value is True


def test_a_board_left_alone_dims_then_goes_dark_then_wakes_lit():
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    leds = _leds()
    clock = Clock()
    inputs = Script(clock, [(5000, B.NEXT)], end=6000)      # a press at 5 s wakes it
    idle = power.Idle(dim_ms=1000, off_ms=3000)
    drawn = []                                              # (pass ms, idle level, LED level, lit)
    update = leds.update

    def watched(a):
        drawn.append((clock.now - inputs.step, idle.level, leds.level, _lit(leds)))
        return update(a)
    leds.update = watched
    run(app, inputs, leds, None, clock, idle=idle)
    full = [level for t, _lv, level, _l in drawn if 100 <= t < 1000][-1]
    assert all(lv == power.DIM and level < full for t, lv, level, _l in drawn if 1100 <= t < 3000)
    assert not [t for t, *_rest in drawn if 3000 <= t < 5000], "dark LEDs are not drawn"
    assert not _lit(leds) or idle.level == power.AWAKE
    after = [(lv, level) for t, lv, level, _l in drawn if t >= 5000]
    assert after and after[-1] == (power.AWAKE, full) and _lit(leds)


def test_a_press_on_a_dimmed_board_brightens_it_and_acts():
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    leds = _leds()
    clock = Clock()
    idle = power.Idle(dim_ms=1000, off_ms=3000)
    run(app, Script(clock, [], end=500), leds, None, clock, idle=idle)
    full = leds.level
    run(app, Script(clock, [], end=1500), leds, None, clock, idle=idle)
    assert idle.level == power.DIM and leds.level < full
    cursor = app.board.cursor
    run(app, Script(clock, [(clock.now, B.NEXT)], end=clock.now + 60), leds, None, clock, idle=idle)
    assert idle.level == power.AWAKE and leds.level == full
    assert app.board.cursor != cursor, "the press acted"


class Cpu:
    """microcontroller.cpu: its frequency, and every one set."""

    def __init__(self, hz=125000000, settable=True):
        self.hz = hz
        self.settable = settable
        self.set = []

    @property
    def frequency(self):
        return self.hz

    @frequency.setter
    def frequency(self, hz):
        if not self.settable:
            raise AttributeError("can't set attribute")
        self.set.append(hz)
        self.hz = hz


def _clocked_run(script_of, app, idle):
    clock = Clock()
    run(app, script_of(clock), _leds(), None, clock, idle=idle)
    return clock


def test_the_cpu_runs_slow_while_dark_and_at_full_speed_from_the_waking_press():
    cpu = Cpu()
    retimed = []
    idle = power.Idle(dim_ms=100, off_ms=200, clock=CpuClock(cpu, 48000000))
    idle.retime = lambda: retimed.append(cpu.hz)
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    clock = Clock()
    leds = _leds()
    run(app, Script(clock, [], end=150), leds, None, clock, idle=idle)
    assert idle.level == power.DIM and cpu.set == [], "dimmed: the LEDs and text still drawn at full speed"
    run(app, Script(clock, [], end=clock.now + 100), leds, None, clock, idle=idle)
    assert idle.level == power.OFF and cpu.set == [48000000], "dark: slow"
    run(app, Script(clock, [], end=clock.now + 100), leds, None, clock, idle=idle)
    assert cpu.set == [48000000], "not set again"
    run(app, Script(clock, [(clock.now, B.NEXT)], end=clock.now + 40), leds, None, clock, idle=idle)
    assert idle.level == power.AWAKE and cpu.set == [48000000, 125000000]
    assert retimed == [48000000, 125000000], "the link's UART retimed after each change"


class Watched(Script):
    """Script, keeping (the AI thinking, the CPU's clock) at every poll."""

    def __init__(self, clock, cpu, app, end):
        Script.__init__(self, clock, [], end)
        self.seen = []
        self.cpu = cpu
        self.app = app

    def poll(self, now, press):
        self.seen.append((self.app.thinking, self.cpu.hz))
        return Script.poll(self, now, press)


def test_the_ais_turn_runs_at_full_speed_and_the_dark_wait_for_the_player_slow():
    cpu = Cpu()
    idle = power.Idle(dim_ms=10, off_ms=20, clock=CpuClock(cpu, 48000000))
    app = App(seed=3)
    app.new_game(rules="standard", opponent="2", side="north")     # the AI moves first
    clock = Clock()
    inputs = Watched(clock, cpu, app, end=3000)
    run(app, inputs, _leds(), None, clock, idle=idle)
    assert (True, 125000000) in inputs.seen and (True, 48000000) not in inputs.seen
    assert inputs.seen[-1] == (False, 48000000), "the player's turn: dark, slow"


class Heap:
    """gc.mem_free and gc.collect: 20 bytes of garbage an ms; keeps the
    CPU's clock at every collection."""

    def __init__(self, cpu, clock):
        self.cpu = cpu
        self.clock = clock
        self.since = 0
        self.swept_at = []

    def mem_free(self):
        return 60000 - 20 * (self.clock.now - self.since)

    def collect(self):
        self.since = self.clock.now
        self.swept_at.append(self.cpu.hz)


def test_a_dark_board_sweeps_its_heap_at_the_full_clock_and_slows_again():
    cpu = Cpu()
    idle = power.Idle(dim_ms=10, off_ms=20, clock=CpuClock(cpu, 48000000))
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    clock = Clock()
    heap = Heap(cpu, clock)
    run(app, Script(clock, [], end=3000), _leds(), None, clock, idle=idle, collect=heap.collect,
        heap_free=heap.mem_free)
    assert len(heap.swept_at) >= 3 and set(heap.swept_at) == {125000000}
    assert cpu.hz == 48000000 and idle.level == power.OFF, "dark and slow again after each sweep"
    assert cpu.set.count(125000000) == len(heap.swept_at), "the clock up once a sweep"


class QuietLink:
    """A linked game's link with nothing on the cable."""

    game = None

    def overlay(self, app, buf):
        pass

    def tick(self, app, now):
        pass

    def send_turn(self, now):
        pass


def test_a_linked_game_keeps_the_full_clock_and_a_board_that_cannot_set_it_keeps_its_own():
    cpu = Cpu()
    idle = power.Idle(dim_ms=100, off_ms=200, clock=CpuClock(cpu, 48000000))
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    app.link = QuietLink()
    app.link.game = app.game            # bound to the link
    clock = Clock()
    run(app, Script(clock, [], end=300), _leds(), None, clock, idle=idle)
    assert idle.level == power.OFF and cpu.set == []
    app.link.game = None                # a game against the AI after a linked one
    run(app, Script(clock, [(clock.now, B.NEXT)], end=clock.now + 300), _leds(), None, clock,
        idle=idle)
    assert idle.level == power.OFF and cpu.set == [48000000]
    fixed = Cpu(settable=False)
    unset = CpuClock(fixed, 48000000)
    assert unset.slow(True) is False and unset.slow(False) is False and unset.slow(True) is False
    assert fixed.hz == 125000000 and unset.low_hz == 125000000, "tried once, then left"


def test_the_clocks_code_is_loaded_only_when_the_board_first_goes_dark(monkeypatch):
    import sys
    made = []
    monkeypatch.setattr("hardware.cpuclock.cpu_clock",
                        lambda mhz: made.append(mhz) or CpuClock(Cpu(), mhz * 1000000))
    idle = power.Idle(dim_ms=100, off_ms=200, idle_mhz=48)
    idle.update(0)
    idle.update(150)
    assert made == [] and idle.clock == 48, "awake and dimmed: no clock made"
    idle.update(250)
    assert made == [48] and idle.clock.slowed
    assert "hardware.cpuclock" in sys.modules
    kept = power.Idle(dim_ms=100, off_ms=200)         # JARMO_IDLE_MHZ = 0
    kept.update(0)
    assert kept.update(250) == power.OFF and kept.clock == 0, "0 MHz: the clock kept"


def test_the_waking_press_does_nothing_else():
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    clock = Clock()
    idle = power.Idle(dim_ms=100, off_ms=200)
    run(app, Script(clock, [], end=400), _leds(), None, clock, idle=idle)
    assert idle.level == power.OFF
    cursor = app.board.cursor
    run(app, Script(clock, [(clock.now, B.NEXT)], end=clock.now + 60), _leds(), None, clock, idle=idle)
    assert idle.level == power.AWAKE and app.board.cursor == cursor
    run(app, Script(clock, [(clock.now, B.NEXT)], end=clock.now + 60), _leds(), None, clock, idle=idle)
    assert app.board.cursor != cursor


def test_waking_a_dark_board_leaves_the_game_hidden_while_another_cover_is_on_it():
    # the simulator's rules pager covers the game (its own bit, 2) when the
    # board goes dark; the waking press uncovers the dark board's part only:
    # the move timer must still stand while the pager is up
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    app.hidden |= 2
    clock = Clock()
    idle = power.Idle(dim_ms=100, off_ms=200)
    run(app, Script(clock, [], end=400), _leds(), None, clock, idle=idle)
    assert idle.level == power.OFF and app.hidden == 3
    run(app, Script(clock, [(clock.now, B.NEXT)], end=clock.now + 60), _leds(), None, clock, idle=idle)
    assert idle.level == power.AWAKE and app.hidden == 2
    app.hidden &= ~2                                    # the pager closes
    assert not app.hidden


def test_dark_long_enough_the_board_deep_sleeps_once_with_its_turn_saved():
    # a human turn completed just before (its save waits for the next pass):
    # the deep sleep comes after JARMO_SLEEP_S dark, with the turn saved
    from jarmo.store_flash import Flash
    from jarmo.store_log import Store
    app = App(store=Store(Flash()), seed=3)
    app.new_game(rules="classic", opponent="human")
    clock = Clock()
    idle = power.Idle(dim_ms=100, off_ms=200, sleep_ms=1000)
    slept = []                                  # (ms, actions saved) at each deep sleep
    idle.sleeper = lambda: slept.append((clock.now, app.saved))
    run(app, Script(clock, [(0, B.SELECT), (40, B.SELECT)], end=1100), _leds(), None, clock, idle=idle)
    assert idle.level == power.OFF and not slept, "dark, not yet asleep"
    assert app.game.plies == 1
    run(app, Script(clock, [], end=2000), _leds(), None, clock, idle=idle)
    assert len(slept) == 1 and slept[0][0] >= 40 + 200 + 1000, slept
    assert slept[0][1] == app.game.actions, "the turn was saved before the sleep"
    assert idle.sleeper is None, "a board whose sleep returns stays dark, not tried again"


def test_a_light_sleep_ends_with_the_board_awake_where_it_was_and_may_come_again():
    # USB attached (hardware/deepsleep.py): the sleep returns when a button
    # woke the board; the same game is lit again at once, the waking press
    # does nothing else, and the board sleeps again after the next dark spell
    app = App(seed=3)
    app.new_game(rules="classic", opponent="human")
    clock = Clock()
    idle = power.Idle(dim_ms=100, off_ms=200, sleep_ms=300)
    slept = []

    def light_sleep():
        slept.append(clock.now)
        clock.now += 5000                       # asleep until a button, 5 s later
        return True
    idle.sleeper = light_sleep
    leds = _leds()
    cursor, actions = app.board.cursor, app.game.actions
    run(app, Script(clock, [], end=600), leds, None, clock, idle=idle)
    assert len(slept) == 1 and slept[0] >= 500, slept
    assert idle.level == power.AWAKE and _lit(leds), "awake and lit after the sleep"
    assert app.board.cursor == cursor and app.game.actions == actions and not app.hidden
    assert idle.sleeper is light_sleep, "it may sleep again"
    run(app, Script(clock, [], end=clock.now + 600), leds, None, clock, idle=idle)
    assert len(slept) == 2, "dark again, asleep again"


def _fake_board(monkeypatch, usb):
    """alarm, alarm.pin, board and supervisor as on a board: what a sleep asked for."""
    import sys
    import types
    calls = []
    alarm = types.ModuleType("alarm")
    alarm.pin = types.ModuleType("alarm.pin")
    alarm.pin.PinAlarm = lambda pin, value, pull: ("alarm", pin, value, pull)
    alarm.light_sleep_until_alarms = lambda *a: calls.append(("light", a))
    alarm.exit_and_deep_sleep_until_alarms = lambda *a: calls.append(("deep", a))
    board = types.ModuleType("board")
    for name in ("GP2", "GP3", "GP4"):
        setattr(board, name, name)
    supervisor = types.ModuleType("supervisor")
    supervisor.runtime = types.SimpleNamespace(usb_connected=usb)
    supervisor.reload = lambda: calls.append(("reload", ()))
    for name, module in (("alarm", alarm), ("alarm.pin", alarm.pin), ("board", board),
                         ("supervisor", supervisor)):
        monkeypatch.setitem(sys.modules, name, module)
    return calls


class _Keys:
    def __init__(self):
        self.calls = []

    def deinit(self):
        self.calls.append("deinit")

    def restart(self, profile):
        self.calls.append("restart")


PROFILE = {"keys": (("SELECT", "GP2", 0, "SELECT", None), ("NEXT", "GP3", 0, "NEXT", None),
                    ("BACK", "GP2", 1, "BACK", None)), "pull_up": True}


def test_with_usb_attached_the_board_light_sleeps_on_every_buttons_pin():
    import pytest

    from hardware.deepsleep import sleep_until_pressed
    with pytest.MonkeyPatch.context() as mp:
        calls = _fake_board(mp, usb=True)
        keys = _Keys()
        assert sleep_until_pressed(keys, PROFILE) is True
    # each pin once (two keys share GP2), low when pressed (pull-ups)
    assert calls == [("light", (("alarm", "GP2", False, True), ("alarm", "GP3", False, True)))]
    assert keys.calls == ["deinit", "restart"], "keypad gives the pins to the alarms and takes them back"


def test_on_a_battery_the_board_deep_sleeps_and_a_refused_alarm_restarts_code_py():
    import pytest

    from hardware.deepsleep import sleep_until_pressed
    with pytest.MonkeyPatch.context() as mp:
        calls = _fake_board(mp, usb=False)
        keys = _Keys()
        sleep_until_pressed(keys, PROFILE)
        assert [c[0] for c in calls] == ["deep", "reload"]  # (a real deep sleep never returns)
        import sys

        def refused(*a):
            raise ValueError("pin in use")
        sys.modules["alarm"].exit_and_deep_sleep_until_alarms = refused
        del calls[:]
        assert sleep_until_pressed(_Keys(), PROFILE) is False
        assert calls == [("reload", ())], "code.py starts afresh and resumes the game"


def test_no_deep_sleep_when_it_is_off_or_the_board_has_none():
    idle = power.Idle(dim_ms=100, off_ms=200, sleep_ms=0)
    idle.sleeper = lambda: None
    idle.update(0)
    assert idle.update(10000) == power.OFF and not idle.sleep_due(10000)
    idle = power.Idle(dim_ms=100, off_ms=200, sleep_ms=500)
    idle.update(0)
    assert idle.update(10000) == power.OFF and not idle.sleep_due(10000), "no sleeper: stays dark"


def test_the_menu_builds_the_board_tables_of_the_game_it_would_start_a_side_a_pass():
    from jarmo.rulesets import RULE_SETS
    _NEIGHBOUR_CACHE.pop(True, None)
    app = App(seed=3)
    app.settings[0] = RULE_SETS.index("jasyr")         # the menu's rule set (setting 0)
    app.tick(0)
    assert True not in _NEIGHBOUR_CACHE                # one side in the first pass
    app.tick(20)
    assert True in _NEIGHBOUR_CACHE


def test_the_buttons_are_polled_before_each_display_step():
    # a long text change: every step of the display's work is a pass of its own,
    # and each pass begins with a poll
    screen = TextDisplay()
    screen.canvas = FakeCanvas()
    screen.display = FakeDisplay()
    app = App(seed=3)
    clock = Clock()
    inputs = Script(clock, [], end=400)
    steps = []
    real_step = screen.step

    def step():
        steps.append(len(inputs.polls))
        real_step()
    screen.step = step
    run(app, inputs, _leds(), screen, clock)
    assert steps, "the display had work"
    assert len(set(steps)) == len(steps), "one step between two polls"


class FakeDisplay:
    refreshes = 0
    brightness = 1.0

    def refresh(self):
        self.refreshes += 1


class FakeCanvas:
    """Canvas.line without displayio: what is set, a chunk at a time."""

    def __init__(self):
        self.sets = []

    def line(self, row, old, new, most=COLUMNS):
        grid = {}
        real = Canvas.__new__(Canvas)
        real.columns = COLUMNS
        real.grid = grid
        real.tiles = bytes(range(95))
        real.blank = 0
        end = Canvas.line(real, row, old, new, most)
        self.sets.append(len(grid))
        return end


def test_a_line_is_drawn_a_chunk_at_a_time_and_ends_as_the_text():
    screen = TextDisplay()
    screen.canvas = canvas = FakeCanvas()
    screen.display = FakeDisplay()
    screen.text[0] = "x" * COLUMNS
    screen.text[1] = "ab"
    screen.drawn[1] = "abcdefghijklmnop"
    while screen.busy:
        screen.step()
    assert screen.drawn == screen.text
    assert max(canvas.sets) <= CHUNK
    assert sum(canvas.sets) == COLUMNS + len("cdefghijklmnop")


def test_a_line_longer_than_the_display_ends_its_steps():
    # "South (Link) moves...." is 22 characters: the 22nd is never drawn, and
    # the display must not take every pass after it (the game would stop)
    screen = TextDisplay()
    screen.canvas = FakeCanvas()
    screen.display = FakeDisplay()
    screen.drawn[1] = "South (Link) moves..."
    screen.text[1] = "South (Link) moves...."
    steps = 0
    while screen.busy and steps < 10:
        screen.step()
        steps += 1
    assert not screen.busy and steps == 1
    screen.text[2] = "y" * (COLUMNS + 4)
    while screen.busy and steps < 20:
        screen.step()
        steps += 1
    assert not screen.busy and screen.drawn == screen.text


def test_a_forward_rule_sets_tables_built_a_side_a_step():
    _NEIGHBOUR_CACHE.pop(True, None)
    prepare_tables("jasyr", 0)
    assert True not in _NEIGHBOUR_CACHE
    prepare_tables("jasyr", 1)
    built = _NEIGHBOUR_CACHE[True]
    _NEIGHBOUR_CACHE.pop(True)
    assert Game("jasyr").neighbours == built


def test_the_power_model_counts_every_pixel_and_channel():
    from tools import bench_power as P
    assert P.led_ma(bytes(75)) == 25 * P.WS2812_IDLE_MA
    assert P.led_ma(bytes([255]) * 75) == 25 * P.WS2812_IDLE_MA + 75 * P.WS2812_CHANNEL_MA
    assert P.cpu_ma(1.0) == P.CPU_RUN_MA and P.cpu_ma(0.0) == P.CPU_WAIT_MA


def test_the_power_model_scales_the_rp2040s_current_with_its_clock_as_published():
    from tools import bench_power as P
    # the published busy loop: 22 mA at 133 MHz, 11.6 mA at 50 MHz
    assert abs(P.clock_scale(50) / P.clock_scale(133) - 11.6 / 22) < 0.005
    assert P.clock_scale(P.FULL_MHZ) == 1.0
    assert P.cpu_ma(0.0, 48) < 0.55 * P.CPU_WAIT_MA


class Sleeper:
    """time.sleep for run(): the clock moves by the nap; keeps each nap's ms."""

    def __init__(self, clock):
        self.clock = clock
        self.naps = []

    def __call__(self, seconds):
        ms = round(seconds * 1000)
        self.naps.append(ms)
        self.clock.now += ms


def test_a_menu_dark_on_the_leds_still_preloads_and_then_sleeps():
    # a display board's menu lights no LED: the preload waits for the pass
    # of the first frame, lit or not, and the board sleeps once it is done
    app = App(seed=3, has_display=True)
    clock = Clock()
    inputs = Script(clock, [], end=1000, step=1)
    loaded = []
    sleeper = Sleeper(clock)
    run(app, inputs, _leds(), None, clock, preload=(lambda: loaded.append(len(inputs.polls)),),
        sleep=sleeper)
    assert app.frame_version == 0, "the menu lit nothing"
    assert loaded == [2], "the preload had the second pass"
    assert sum(sleeper.naps) > 900, "the rest of the second was slept"


def test_an_idle_board_polls_the_buttons_within_50_ms_and_sleeps_in_short_naps():
    app = App(seed=3)
    clock = Clock()
    inputs = Script(clock, [], end=4000, step=2)    # a pass takes 2 ms
    sleeper = Sleeper(clock)
    run(app, inputs, _leds(), None, clock, sleep=sleeper)
    gaps = [b - a for a, b in zip(inputs.polls[1:], inputs.polls[2:])]
    assert max(gaps) <= 50
    assert len(inputs.polls) <= 4000 // 35, "no more passes than 25 frames a second need"
    assert max(sleeper.naps) <= 10, "a press ends the sleep within a nap"
    assert sum(sleeper.naps) > 0.9 * 4000
