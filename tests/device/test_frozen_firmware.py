"""Jarmo's firmware (tools/firmware.py: CircuitPython 10.3 with jarmo/,
hardware/ and the libraries frozen in) on the emulated board of every
profile, against its budgets (tests/device/stage.py BUDGETS), and the game's own view of where
its code comes from (jarmo.ai.FROZEN: the bigger tables) on both kinds.

Each boots a board, so all are in the full tier (run.py test --full); CI
builds the firmwares first (.ci/run), elsewhere they are built here when
the ARM compiler is installed (seconds once built) and skipped otherwise.
"""

import pytest

from hardware.profiles import PROFILES
from tests.device import stage
from tests.device.test_game_on_device import booted, wait_state
from tests.device.test_modes_on_device import play_level_4_and_check

# every profile of a board (not the PC's), a firmware each
DEVICE_PROFILES = tuple(name for name, prof in PROFILES.items() if prof["board_id"])


def repl(dev, command, answer, timeout_ms=5000):
    """Stop code.py (Ctrl-C), run one line at the REPL; the line printed that matches `answer`."""
    dev.send("\x03")
    dev.wait_for(r"Press any key to enter the REPL", timeout_ms)
    dev.send("\r")
    dev.run(300)
    dev.send(command + "\r")
    return dev.wait_for(answer, timeout_ms)


@pytest.mark.full
@pytest.mark.parametrize("profile_name", DEVICE_PROFILES)
def test_every_profile_plays_level_4_on_its_firmware_within_the_budgets(tmp_path, profile_name):
    first_ms = stage.BUDGETS["frozen"][2]
    with booted(tmp_path, None, profile_name, kind="frozen",
                nvm=stage.settings_nvm(rules=1, opp=5), **stage.HEAP) as dev:
        code = sorted(name for name in dev.listdir("/") if name.endswith((".py", ".mpy")))
        assert code == ["boot.py", "code.py"]                       # the rest is in the firmware
        assert "jarmo" not in dev.listdir("/") and "hardware" not in dev.listdir("/")
        play_level_4_and_check(dev, "frozen", profile_name)         # standard v level 4
    # power-on to the first frame (LEDs or OLED) as a player meets it: no USB host, the board's own boot counted
    prof = stage.profile(profile_name)
    power_on, _shown = stage.power_on_figures(
        stage.firmware(profile_name, "frozen"), profile_name, "frozen",
        i2c=0x3C if prof["display"] == "sh1107_128x64" else None)["none"]
    print(profile_name, "power-on to the first frame", power_on)
    assert power_on is not None and power_on <= first_ms


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_the_game_knows_whether_it_runs_frozen_and_sizes_its_tables(tmp_path, kind):
    with booted(tmp_path, None, "qtpy_bff", kind=kind) as dev:
        wait_state(dev, "menu", 5000)
        line = repl(dev, "import jarmo.ai as a; print('AI', a.FROZEN, a.__file__, a._TT[3], a._TT[4])",
                    r"^AI (True|False) ")
    frozen, path, tt3, tt4 = line.split()[1:]
    from jarmo import ai
    if kind == "frozen":
        assert (frozen, path) == ("True", "jarmo/ai.py")           # no such file on the drive
        assert (int(tt3), int(tt4)) == ai.TT_FROZEN[3:5]
    else:
        assert (frozen, path) == ("False", "jarmo/ai.mpy")          # the deploy's file
        assert (int(tt3), int(tt4)) == ai.TT_STOCK[3:5]
