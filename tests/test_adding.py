"""Each "add X" of docs/ARCHITECTURE.md's table "Where a change goes",
sketched for real: a screen and a board profile here; a rule set in
tests/test_rulesets.py (test_a_new_variant_is_a_row) and an opponent kind in
tests/app/test_players.py (a made-up kind in a row). Each sketch is the
row the table names, and the app, the simulator or the deploy takes it from
there."""

import sys

from hardware import profiles
from host import blinka, view
from jarmo import app as A
from jarmo import app_base as B
from jarmo.app_buttons import SELECT
from tests.app.drive import Clock, new_game, play
from tools import deploy


def test_a_new_screen_is_a_module_and_a_row(monkeypatch):
    # its row in app_base.SCREENS (its id: the row's number), on demand
    row = ("tally", "tests.app.sketch_screen", "Tally", True)
    sid = len(B.SCREENS) // B.SCREEN
    for module in (B, A):
        monkeypatch.setattr(module, "SCREENS", B.SCREENS + row)
    # the simulator's words for its LEDs (host/view.py)
    monkeypatch.setitem(view.SCREEN_LEDS, sid, (view.NEVER, ["LEDs: the turns played"], 0))
    app = A.App()
    clock = Clock(app)
    new_game(clock, "standard", opponent="human")
    play(clock, "b1-d2")
    app.goto(sid)
    assert app.state == "tally" and app.text == ("Tally", "1 turns played")
    assert "tests.app.sketch_screen" in sys.modules
    assert view.led_meaning(app) == ["LEDs: the turns played"]
    clock.run(40)
    assert sum(1 for k in range(0, 75, 3) if app.frame[k]) == 1       # one LED: one turn
    clock.press(SELECT)
    assert app.state == "menu"
    assert "tests.app.sketch_screen" not in sys.modules                # its code left RAM


def test_a_new_board_profile_is_one_entry(monkeypatch, tmp_path):
    turned = profiles.profile(
        board="Raspberry Pi Pico + 5x5 grid turned a quarter, wired in a snake, on GP2",
        pixel_pin="GP2",
        keys=profiles.three_buttons("GP3", "GP4", "GP5"),
        rotation=90,
        serpentine=True,
        board_id="raspberry_pi_pico",
    )
    monkeypatch.setitem(profiles.PROFILES, "pico_turned", turned)
    assert profiles.get("pico_turned") is turned
    assert set(turned) == set(profiles.PICO)                           # every field, no other
    # its LEDs: a1 (frame bytes 0..2) is the pixel its map gives (on the
    # PC's Blinka board: its pixel pin is the PC's)
    from hardware.leds import make_leds, pixel_map
    leds = make_leds(dict(turned, pixel_pin="NEOPIXEL"), -1, blinka.capturing_neopixel())

    class Shown:
        frame = bytearray(75)
        frame_version = 1
        brightness = 255
        celebrate = None
    Shown.frame[0:3] = bytes((255, 0, 0))
    assert leds.update(Shown) is True
    sent = leds.pixels.sent
    lit = [i for i in range(25) if any(sent[3 * i:3 * i + 3])]
    assert lit == [pixel_map(90, True)[0]] and lit != [pixel_map()[0]]
    leds.pixels.deinit()
    # the deploy writes it onto a board's drive by name
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    deploy.deploy(str(drive), "pico_turned", log=lambda *a: None, force=True)
    assert 'JARMO_PROFILE = "pico_turned"' in (drive / "settings.toml").read_text()
