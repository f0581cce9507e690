"""The game on real CircuitPython 10 firmware, on emulated RP2040 boards.

Each test deploys the project exactly as `run.py deploy` does (compiled
with CircuitPython's mpy-cross when there is one) for a profile, unmodified,
boots the firmware of the board that profile names, and plays through the
profile's buttons, reading the console trace (hardware/trace.py), the LEDs
from the pixel pin and, on the OLED FeatherWing build, the I2C bus.

Tests taking `kind` run on both kinds of firmware: "stock" (CircuitPython
as published, the project deployed as .mpy) and "frozen" (Jarmo's firmware,
tools/firmware.py, built from this checkout; the drive holds only code.py,
boot.py and settings.toml): a whole game, a power cut, a memory error and
the OLED. What does not depend on where the code runs (the saves' log,
read by the same code on both) runs on stock only, to keep CI's time.  The default tier boots one board on stock
firmware and plays a turn each (the device stage in a quarter of a
minute); the rest is marked `full` (run.py test --full).
"""

import contextlib

import pytest

from jarmo.store_log import R_IMPORTED
from jarmo.store_stats import Stats
from tests import needs
from tests.app.oldsaves import game_text, slot
from tests.device import stage
from tests.device.device import Device

PRESS_MS = 100       # a tap: shorter than the profiles' 600 ms long press
GAP_MS = 300         # between taps


@contextlib.contextmanager
def booted(tmp_path, firmware_option, profile_name, files=None, nvm=None, kind="stock", **settings):
    """The board of profile_name running Jarmo on firmware of `kind`; skips
    when there is no such firmware here (CI builds Jarmo's first: it fails).
    files: put on the drive; nvm: what microcontroller.nvm holds at power-on."""
    prof = stage.profile(profile_name)
    needs.require(stage.firmware_unavailable(profile_name, kind, firmware_option))
    drive = stage.build_drive(str(tmp_path / "CIRCUITPY"), profile_name, files=files, frozen=kind == "frozen",
                              JARMO_SEED=settings.pop("JARMO_SEED", 11), **settings)
    i2c = 0x3C if prof["display"] == "sh1107_128x64" else None
    with Device(stage.firmware(profile_name, kind, firmware_option), drive, neopixel_pin=prof["pixel_pin"],
                i2c_ack=i2c, timeout_s=240, nvm=nvm) as dev:
        dev.profile = prof
        dev.kind = kind
        yield dev


def tap(dev, button):
    dev.press(stage.key_pin(dev.profile, button), PRESS_MS)
    dev.run(GAP_MS)


def hold(dev, button):
    dev.press(stage.long_key_pin(dev.profile, button), dev.profile["long_ms"] + 200)
    dev.run(GAP_MS)


def wait_state(dev, pattern, timeout_ms):
    """Wait for a state line; then a little longer, for the lines printed with it."""
    line = dev.wait_for(r"^@@STATE " + pattern, timeout_ms)
    dev.run(100)
    return line


def play_a_turn_and_the_ais(dev, answer_ms=20000):
    """From the player's turn: the first piece to its first target, then wait
    until the AI has answered (the player's turn again)."""
    tap(dev, "select")                                   # a piece
    tap(dev, "select")                                   # its first target
    wait_state(dev, "ai", 5000)
    wait_state(dev, "play", answer_ms)


def trace(dev):
    return stage.Trace(dev.console)


def play_until(dev, state, most_taps=200):
    """Tap select (piece, then its first target; menu items) until the app is in `state`."""
    for _ in range(most_taps):
        if state in trace(dev).state_names():
            return
        tap(dev, "select")
    raise AssertionError("no %r after %d taps of select: %s" % (state, most_taps, trace(dev).lines[-20:]))


def assert_a_held_key_is_seen_as_it_goes_down(dev, within_ms=20):
    """NEXT (held: PREV) is down and not yet let go: within 20 ms of the press
    the pin carries a frame unlike all of the 300 ms before it (the cursor
    lit white), and the tap acts only at the release (the cursor moves: a
    frame unlike the held ones)."""
    pin = stage.key_pin(dev.profile, "next")
    before = set(grb for t, grb in dev.frames if t >= dev.t - 300)
    t_press = dev.set_pin(pin, 0)["t"]
    dev.run(200)
    held = [(t, grb) for t, grb in dev.frames if t > t_press and grb not in before]
    assert held and held[0][0] - t_press <= within_ms, (held[:1], t_press)
    t_release = dev.set_pin(pin, "z")["t"]
    dev.run(200)
    seen = set(grb for _t, grb in held) | before
    assert any(t > t_release and grb not in seen for t, grb in dev.frames), "the tap never acted"


def assert_pin_shows_every_frame(dev):
    """Every frame the app drew (@@FRAME) went out on the pixel pin, byte for byte."""
    sent = {grb for _t, grb in dev.frames}
    drawn = trace(dev).frames()
    assert drawn, "the app drew no frame"
    missing = [v for v, level, data in drawn
               if stage.expected_grb(dev.profile, data, level) not in sent]
    # the last frame may still be on its way out when the run stopped
    assert missing in ([], [drawn[-1][0]]), "frames drawn but never sent: %s" % missing[:10]


# ---------------------------------------------------------------- QT Py + 5x5 BFF (no display)

def test_qtpy_boots_lights_the_grid_and_plays_a_turn_each(tmp_path, firmware_option):
    with booted(tmp_path, firmware_option, "qtpy_bff") as dev:
        wait_state(dev, "menu", 5000)
        dev.run(500)
        t = trace(dev)
        assert t.boots() and t.first_frame_ms() is not None
        # no heap figures unless asked (stage.HEAP): the trace collects nothing a player's board would not
        assert t.states() and all(free is None for _name, free, _us, _ms in t.states())
        assert t.texts()[-1][0] == "Jarmo"
        assert any("New game" in line for line in t.texts()[-1])
        assert len(dev.frames) >= 1 and dev.frames[-1][1] != bytes(75)     # something is lit
        tap(dev, "select")                                   # New game
        wait_state(dev, "play", 5000)
        play_a_turn_and_the_ais(dev)
        assert len(trace(dev).last_game()) == 2
        assert stage.board_game(dev) == trace(dev).last_game()     # saved after every turn
        assert_a_held_key_is_seen_as_it_goes_down(dev)
        assert dev.stats()["wear"] == {}                     # and nothing erased for it
        assert_pin_shows_every_frame(dev)
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_qtpy_whole_game_against_the_greedy_ai_by_buttons(tmp_path, firmware_option, kind):
    with booted(tmp_path, firmware_option, "qtpy_bff", kind=kind) as dev:
        wait_state(dev, "menu", 5000)
        play_until(dev, "end", most_taps=300)
        wait_state(dev, "result", 10000)
        t = trace(dev)
        names = t.state_names()
        assert names[:3] == ["menu", "play", "ai"]          # New game opens South's turn
        assert names.count("ai") >= 5 and names.count("play") >= 5
        ai_moves = t.ai_turns()
        assert len(ai_moves) >= 5
        final = t.last_game()
        assert len(final) >= 10 and not [a for a in final if not a[0].isalnum() and a[0] != "@"]
        assert_pin_shows_every_frame(dev)
        # the finished game counts in the statistics on the flash
        assert sum(Stats(stage.board_store(dev)).counts("standard", 2)) == 1     # AI greedy's id
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_qtpy_resumes_the_game_after_a_power_cut(tmp_path, firmware_option, kind):
    with booted(tmp_path, firmware_option, "qtpy_bff", kind=kind) as dev:
        wait_state(dev, "menu", 5000)
        tap(dev, "select")                                   # New game
        wait_state(dev, "play", 5000)
        play_a_turn_and_the_ais(dev)
        before = trace(dev).last_game()
        assert len(before) == 2
        assert stage.board_game(dev) == before               # saved after every turn
        dev.reset()
        wait_state(dev, "menu", 10000)
        assert any("Resume" in line for line in trace(dev).texts()[-1])
        tap(dev, "select")                                   # Resume
        wait_state(dev, "play", 5000)
        assert trace(dev).last_game() == before


@pytest.mark.full
def test_qtpy_says_when_the_nvm_holds_another_programs_data_and_starts_afresh(tmp_path,
                                                                            firmware_option):
    foreign = b"another program's settings\x00\x01" * 20
    with booted(tmp_path, firmware_option, "qtpy_bff", nvm=foreign) as dev:
        wait_state(dev, "notice", 5000)
        assert "saves: unreadable, started afresh" in " ".join(trace(dev).texts()[-1])
        tap(dev, "select")                                   # any button
        wait_state(dev, "menu", 5000)
        tap(dev, "select")                                   # New game: the first save
        wait_state(dev, "play", 5000)
        dev.run(500)
        assert stage.board_store(dev).problems == []         # the sector is Jarmo's now
        dev.reset()                                          # and nothing to say any more
        wait_state(dev, "menu", 10000)
        assert "notice" not in trace(dev).state_names()[-2:]
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
def test_qtpy_imports_an_older_versions_save_once_and_never_writes_the_drive(tmp_path,
                                                                             firmware_option):
    from jarmo import Game
    game = Game("standard")
    for a in ("a1-c2", "e5-d3"):
        game.play(a)
    old = {"game.0": slot(3, game_text(game, opp=2)), "game.1": bytes(512)}
    with booted(tmp_path, firmware_option, "qtpy_bff", files=old) as dev:
        drive = dev.fs_image()
        wait_state(dev, "notice", 5000)                      # the import is announced
        assert "older saves taken over from the drive: game" in " ".join(trace(dev).texts()[-1])
        tap(dev, "select")                                   # any button
        wait_state(dev, "menu", 5000)
        assert trace(dev).texts()[-1][:2] == ("Saved game found", ">Resume")
        assert stage.board_game(dev) == ["a1-c2", "e5-d3"]
        tap(dev, "select")                                   # Resume, then a turn and the AI's
        wait_state(dev, "play", 5000)
        play_a_turn_and_the_ais(dev)
        dev.reset()
        wait_state(dev, "menu", 10000)
        assert len(stage.board_game(dev)) == 4               # the log goes on, not the old file
        assert dev.fs_image() == drive                       # the drive was never written
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_qtpy_a_memory_error_does_not_end_the_game(tmp_path, firmware_option, kind):
    # JARMO_TRACE_BALLAST fills the heap when the AI starts to think (level 2:
    # over several passes) and again after every pass: its turn's save runs out
    # of memory (what the search lets go in that pass is all there is). On a PC
    # the same recovery is shown by tests/app/test_app_save.py (App.recover)
    with booted(tmp_path, firmware_option, "qtpy_bff", JARMO_TRACE_BALLAST="ai",
                nvm=stage.settings_nvm(opp=3), kind=kind) as dev:
        wait_state(dev, "menu", 5000)
        tap(dev, "select")
        wait_state(dev, "play", 5000)
        tap(dev, "select")
        tap(dev, "select")
        dev.wait_for(r"^@@BALLAST", 5000)
        moves = trace(dev).last_game()
        dev.wait_for(r"out of memory", 10000)
        # the game goes on from its save after a restart: the AI's turn again,
        # or, if its answer was saved before memory ran out, the player's turn
        dev.wait_for(r"^@@BOOT", 10000)
        wait_state(dev, "(ai|play)", 10000)
        assert trace(dev).last_game()[:len(moves)] == moves
        if len(trace(dev).last_game()) == len(moves):
            wait_state(dev, "play", 20000)            # and the AI answered
        assert len(trace(dev).last_game()) == len(moves) + 1


# ---------------------------------------------------------------- Feather + OLED FeatherWing

@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_feather_oled_menu_on_the_display(tmp_path, firmware_option, kind):
    with booted(tmp_path, firmware_option, "feather_oled", kind=kind) as dev:
        wait_state(dev, "menu", 8000)
        dev.run(500)
        first = trace(dev).texts()[-1]
        assert ">New game" in first
        # the panel's first picture is the menu, whole: it stays dark (its
        # RAM's power-up noise unseen) until the refresh that draws the menu
        # lights it, not a blank screen with the text a few characters a pass
        bursts = dev.i2c
        menu_lit = bursts[-1]["oled_lit"]
        off = [i for i, burst in enumerate(bursts) if not burst["oled_on"]]
        assert off and menu_lit > 500, bursts
        assert bursts[off[-1] + 1]["oled_lit"] == menu_lit, bursts[off[-1]:]
        tap(dev, "next")                                     # the next menu item
        assert trace(dev).texts()[-1] != first
        for _ in range(14):                                  # the items wrap around
            if ">New game" in trace(dev).texts()[-1]:
                break
            tap(dev, "next")
        assert ">New game" in trace(dev).texts()[-1]
        tap(dev, "select")                                   # New game
        wait_state(dev, "play", 5000)
        tap(dev, "select")
        tap(dev, "select")
        wait_state(dev, "play", 20000)                # the AI answered
        hold(dev, "menu")                                    # B held: the menu
        wait_state(dev, "menu", 5000)
        assert any("Resume" in line for line in trace(dev).texts()[-1])
        # the menu's code is imported as it opens (made on demand): the passes
        # of the game, the one that opened it included, stay within the budget
        state, _free, longest_us, _ms = trace(dev).states()[-1]
        assert state == "menu" and longest_us <= stage.BUDGETS[kind][0] * 1000, trace(dev).states()[-1]
        assert dev.i2c, "nothing was sent to the OLED"
        assert_pin_shows_every_frame(dev)
        assert "Traceback" not in "\n".join(dev.console)


# ---------------------------------------------------------------- Pico (a board fresh from the box)

@pytest.mark.full
def test_pico_first_start_leaves_as_much_heap_as_any_later_start(tmp_path, firmware_option):
    """A board that never ran Jarmo (blank nvm, no older saves) imports the
    older saves once at its first start: the code that does it is forgotten
    after, so the menu has the heap a later start has (within 512 bytes: the
    two starts read different records; the modules left behind took 2.9 KB)."""
    with booted(tmp_path, firmware_option, "pico", **stage.HEAP) as dev:
        wait_state(dev, "menu", 8000)
        first = [free for state, free, _us, _ms in trace(dev).states() if state == "menu"][0]
        assert stage.board_store(dev).read(R_IMPORTED) is not None   # the import ran
        seen = len(dev.console)
        dev.reset()
        wait_state(dev, "menu", 8000)
        later = [free for state, free, _us, _ms in stage.Trace(dev.console[seen:]).states()
                 if state == "menu"][0]
        assert first >= later - 512, (first, later)
        assert "Traceback" not in "\n".join(dev.console)
