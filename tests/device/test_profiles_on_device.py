"""Every board profile plays on its emulated board (real CircuitPython 10.3).

A maker builds any profile of hardware/profiles.py: each one is deployed
as `run.py deploy` does, boots its board's stock firmware, starts a game by
its own buttons and plays a move, and every frame the app drew goes out on
its pixel pin in the order its grid is chained (a strip's serpentine rows,
hardware/leds.py). The default build (handheld) runs in the quick tier,
the others in the full one.
"""

import pytest

from hardware import profiles
from tests.device.test_game_on_device import assert_pin_shows_every_frame, booted, tap, trace, wait_state

DEFAULT_BUILD = "handheld"


def _marked(name):
    marks = () if name == DEFAULT_BUILD else (pytest.mark.full,)
    return pytest.param(name, marks=marks, id=name)


BOARD_PROFILES = [_marked(name) for name, prof in profiles.PROFILES.items()
                  if prof["board_id"] is not None]


@pytest.mark.parametrize("name", BOARD_PROFILES)
def test_every_profile_starts_a_game_and_moves_by_its_buttons(tmp_path, firmware_option, name):
    with booted(tmp_path, firmware_option, name) as dev:
        wait_state(dev, "menu", 8000)
        dev.run(300)
        tap(dev, "select")                                   # New game
        wait_state(dev, "play", 8000)
        tap(dev, "select")                                   # a piece
        tap(dev, "select")                                   # its first target
        dev.run(500)
        assert len(trace(dev).last_game()) >= 1, trace(dev).lines[-20:]
        assert dev.frames[-1][1] != bytes(75)                # the grid is lit
        assert_pin_shows_every_frame(dev)
        assert "Traceback" not in "\n".join(dev.console)
