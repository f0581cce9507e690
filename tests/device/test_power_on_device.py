"""Idle power on real CircuitPython 10 firmware (hardware/power.py): a board
left alone dims, then goes dark, its CPU at 48 MHz there (the LEDs' dark
frame still timed right); any button wakes it into the very game it
showed, at the full clock, and that press does nothing else. A press on a
dimmed board brightens it and plays.

Boots a board: full tier (run.py test --full).
"""

import pytest

from tests.device import stage
from tests.device.test_game_on_device import GAP_MS, PRESS_MS, booted, tap, trace, wait_state

DIM_S = 2
OFF_S = 4
FULL_HZ = 125000000
SLOW_HZ = 48000000                  # JARMO_IDLE_MHZ's default
DARK_MS = 20000                     # long enough for a sweep of the heap (one a few seconds)


def pin_frame(dev, after_t):
    """The first LED frame on the pin after emulated ms after_t (bytes), or None."""
    later = [grb for t, grb in dev.frames if t > after_t]
    return later[0] if later else None


def _pixels_differing(a, b):
    return sum(a[i:i + 3] != b[i:i + 3] for i in range(0, len(a), 3))


def _a_turn_each(dev, settle_ms):
    """A new game from the menu, a turn each: (the game's actions, the
    frames traced in the turn's first second (the cursor and the AI's last
    move blink, each in its own phase), the LEDs' full level)."""
    wait_state(dev, "menu", 10000)
    dev.run(settle_ms)
    tap(dev, "select")                                      # New game
    wait_state(dev, "play", 10000)
    tap(dev, "select")                                      # a piece
    tap(dev, "select")                                      # its first target: the AI answers
    wait_state(dev, "ai", 5000)
    wait_state(dev, "play", 20000)
    seen = len(trace(dev).frames())
    dev.run(600)                                            # the turn's own frames
    game = trace(dev).last_game()
    assert game, "a turn each was played"
    shown = trace(dev).frames()[seen:]
    assert shown, "the turn was drawn"
    full_level = shown[0][1]
    return game, [f for f in shown if f[1] == full_level], full_level


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_idle_until_dark_then_a_press_wakes_the_same_game(tmp_path, firmware_option, kind):
    with booted(tmp_path, firmware_option, "pico", kind=kind, JARMO_TRACE=2,
                JARMO_DIM_S=DIM_S, JARMO_OFF_S=OFF_S) as dev:
        game, shown, full_level = _a_turn_each(dev, 1500)

        dim_line = dev.wait_for(r"^@@IDLE 1 ", (DIM_S + 1) * 1000)
        dim_t = dev.last_match_t()
        dev.run(300)                                        # the dimmed frame's trace line
        dim = [(v, level, hex_) for v, level, hex_ in trace(dev).frames() if level < full_level]
        assert dim, "the LEDs were drawn dimmer after %d s: %s" % (DIM_S, dim_line)
        assert dev.stats()["clock_hz"] == FULL_HZ, "dimmed, the LEDs and text drawn at full speed"
        # the dimmed frame reaches the LEDs as drawn
        # (its trace line comes at the end of the pass that sent it)
        sent = [grb for t, grb in dev.frames if t > dim_t - 100]
        assert stage.expected_grb(dev.profile, dim[0][2], dim[0][1]) in sent, [g.hex() for g in sent]

        dev.wait_for(r"^@@IDLE 2 ", (OFF_S - DIM_S + 1) * 1000)
        dark_t = dev.last_match_t()
        dev.run(1000)
        dark = [grb for t, grb in dev.frames if t >= dark_t - 50]
        # (sent at 48 MHz: timed for another clock, its 0 bits would read as 1s)
        assert dark and not any(dark[-1]), "the LEDs are dark"
        assert dim_t < dark_t
        frames_dark = len(dev.frames)
        seen = len(dev.console)
        dev.run(DARK_MS)                                    # (the heap swept meanwhile)
        assert len(dev.frames) == frames_dark, "nothing is sent to dark LEDs"
        waits = [int(line.split()[1]) for line in dev.console[seen:] if line.startswith("@@MAXPOLL ")]
        assert all(us <= 50000 for us in waits), "dark, the buttons polled within 50 ms: %s" % waits
        assert dev.stats()["clock_hz"] == SLOW_HZ, "dark, the CPU runs slow"

        press_t = dev.t
        tap(dev, "back")                                    # any button wakes it (as it goes down)
        woke = pin_frame(dev, press_t)
        assert woke is not None, "a press lit the LEDs again"
        lit_ms = [t for t, _grb in dev.frames if t > press_t][0] - press_t
        assert lit_ms <= 50, "lit within 50 ms of the press, the clock's change included: %.1f" % lit_ms
        print("the press that woke the dark board lit it in %.1f ms" % lit_ms)
        assert dev.stats()["clock_hz"] == FULL_HZ, "awake, the CPU runs at full speed"
        before = [stage.expected_grb(dev.profile, hex_, full_level) for _v, _l, hex_ in shown]
        # the same picture at full brightness, as one of the turn's frames
        # (at most one pixel in another phase of its blinking)
        assert min(_pixels_differing(woke, b) for b in before) <= 1, (woke.hex(), [b.hex() for b in before])
        t = trace(dev)
        assert t.state_names()[-1] == "play" and t.last_game() == game, "the same game, the same turn"
        idle = [line.split()[1] for line in dev.console if line.startswith("@@IDLE ")]
        assert idle[-3:] == ["1", "2", "0"], "dim, dark, awake: %s" % idle

        # the waking press did nothing else; the next one is the game's
        tap(dev, "select")                                  # a piece again
        tap(dev, "select")                                  # its first target
        wait_state(dev, "ai", 5000)
        wait_state(dev, "play", 20000)

        # dimmed again: a press brightens the board, and plays
        dev.wait_for(r"^@@IDLE 1 ", (DIM_S + 1) * 1000)
        dev.run(300)
        picked = len(trace(dev).frames())
        select = stage.key_pin(dev.profile, "select")
        dev.set_pin(select, 0)                              # a piece (a long-press key: it acts,
        dev.run(PRESS_MS)                                   # and wakes the board, when let go)
        released_t = dev.t
        dev.set_pin(select, "z")
        dev.run(GAP_MS)
        after = trace(dev).frames()[picked:]
        assert after and all(level == full_level for _v, level, _hex in after), after
        answered = [t for t, _grb in dev.frames if t > released_t][0] - released_t
        assert answered <= 50, "the press lit within 50 ms: %.1f ms" % answered
        print("a press on the dimmed board lit in %.1f ms" % answered)
        tap(dev, "select")                                  # its first target: the AI answers
        wait_state(dev, "ai", 5000)
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_dark_long_enough_it_sleeps_with_its_cpu_idle_and_a_press_wakes_the_same_game(
        tmp_path, firmware_option, kind):
    # A USB host is attached to the emulated board, as a PC's would be: there
    # CircuitPython only pretends to deep-sleep, and the pretence keeps its
    # CPU busy all the time (measured: 100 %, the web page's core with it),
    # so the board light-sleeps on the buttons' pin alarms instead
    # (hardware/deepsleep.py). On a battery it deep-sleeps: rp2040js does not
    # model the RP2040's dormant state, so that path is tested on the PC
    # (tests/hardware/test_power.py); its wake is a restarted code.py that
    # resumes the saved game, as after a power cut
    # (test_qtpy_resumes_the_game_after_a_power_cut, tests/device/test_game_on_device.py).
    with booted(tmp_path, firmware_option, "pico", kind=kind, JARMO_TRACE=2,
                JARMO_DIM_S=1, JARMO_OFF_S=2, JARMO_SLEEP_S=2) as dev:
        game, shown, full_level = _a_turn_each(dev, 500)
        dev.wait_for(r"^@@IDLE 2 ", 5000)                   # dark
        dev.run(2500)                                       # then asleep
        asleep, before = len(dev.frames), dev.stats()
        dev.run(2000)
        after = dev.stats()
        busy = 1 - (after["idle_s"] - before["idle_s"]) / (after["emulated_s"] - before["emulated_s"])
        assert busy < 0.01, "asleep, the CPU waits for an interrupt: busy %.1f %%" % (100 * busy)
        assert len(dev.frames) == asleep, "nothing is sent while it sleeps"

        press_t = dev.t
        tap(dev, "back")                                    # any button wakes it
        dev.run(300)
        woke = [t for t, _grb in dev.frames if t > press_t]
        assert woke and woke[0] - press_t < 50, "a press lit the LEDs again at once"
        assert dev.stats()["boots"] == after["boots"], "no restart: the game was in RAM"
        t = trace(dev)
        assert t.state_names()[-1] == "play" and t.last_game() == game, "the same game, the same turn"
        lit = [grb for tt, grb in dev.frames if tt > press_t]
        before_frames = [stage.expected_grb(dev.profile, hex_, full_level) for _v, _l, hex_ in shown]
        assert min(_pixels_differing(lit[-1], b) for b in before_frames) <= 2, lit[-1].hex()

        tap(dev, "select")                                  # the waking press did nothing else:
        tap(dev, "select")                                  # the next ones play the turn
        wait_state(dev, "ai", 5000)
        assert "Traceback" not in "\n".join(dev.console)
