"""A Project Bundle (tools/bundle.py) on real CircuitPython firmware: its
folder copied onto an empty CIRCUITPY drive, as its README says, boots the
game and plays a turn on the emulated QT Py RP2040."""

import os
import zipfile

import pytest

from tests import needs
from tests.device import stage
from tests.device.device import Device, firmware_path, unavailable_reason
from tests.device.test_game_on_device import play_a_turn_and_the_ais, tap, trace, wait_state
from tests.hardware.test_bundle import bundle, compiler


@pytest.mark.full
def test_the_qtpy_bundle_copied_onto_a_blank_drive_plays(tmp_path, firmware_option):
    prof = stage.profile("qtpy_bff")
    needs.require(unavailable_reason(prof["board_id"], firmware_option))
    path = bundle.bundle("qtpy_bff", compiler(), str(tmp_path / "out"), log=lambda s: None)
    drive = tmp_path / "CIRCUITPY"
    with zipfile.ZipFile(path) as z:
        top = next(n for n in z.namelist() if n.endswith("/code.py"))[:-len("code.py")]
        for name in z.namelist():
            if name.startswith(top) and not name.endswith("/"):
                target = drive / name[len(top):]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(z.read(name))
    with open(drive / "settings.toml", "a") as f:
        f.write("JARMO_TRACE = 2\nJARMO_SEED = 11\n")            # the test reads the trace
    with Device(firmware_path(prof["board_id"], firmware_option), str(drive),
                neopixel_pin=prof["pixel_pin"], timeout_s=240) as dev:
        dev.profile = prof
        wait_state(dev, "menu", 8000)
        tap(dev, "select")                                   # New game
        wait_state(dev, "play", 8000)
        play_a_turn_and_the_ais(dev)
        assert len(trace(dev).last_game()) == 2
        assert "Traceback" not in "\n".join(dev.console)
        assert sorted(os.listdir(drive / "lib")) == ["adafruit_ticks.mpy", "neopixel.mpy"]
