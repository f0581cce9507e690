"""Bad settings.toml files on the emulated Pico (stock CircuitPython 10.3):
each is named (the notice's text in the trace; the Pico has no display,
so its LEDs show the notice's red X), the default is used, and the board
always starts: a button on, and the menu is there.

The file holds JARMO_TRACE = 1 first, so that the trace shows what the
board said; a file too large to be read at all (100 KB) turns that off
too, and is seen by its red X alone. Prints the table (full tier).
"""

import pytest

from tests import needs
from tests.device import stage
from tests.device.device import Device

PROFILE = "pico"
TRACE = b"JARMO_TRACE = 1\n"

CASES = [
    ("unknown profile", TRACE + b'JARMO_PROFILE = "nosuch_board"\n',
     ("JARMO_PROFILE: nosuch_board", "unknown, pico used")),
    ("another board's profile", TRACE + b'JARMO_PROFILE = "qtpy_bff"\n',
     ("JARMO_PROFILE: qtpy_bff", "another board's, pico used")),
    ("unterminated string", TRACE + b'JARMO_PROFILE = "pico"\nJARMO_SEED = "7\n',
     ("settings.toml line 3: unreadable",)),
    ("binary bytes", TRACE + b'JARMO_PROFILE = "pico"\n\x00\xff\xfe\x01\x80\n',
     ("settings.toml line 3: unreadable",)),
    ("a line with no =", TRACE + b'JARMO_PROFILE = "pico"\nJARMO_BRIGHTNESS\n',
     ("settings.toml line 3: unreadable",)),
    ("a misspelt key", TRACE + b'JARMO_PROFILE = "pico"\nJARMO_BRIGTNESS = 9\n',
     ("JARMO_BRIGTNESS: no such setting",)),
    ("out of range", TRACE + b'JARMO_PROFILE = "pico"\nJARMO_BRIGHTNESS = 999\n',
     ("JARMO_BRIGHTNESS: not -1..255, -1 used",)),
    ("100 KB", TRACE + b'JARMO_PROFILE = "pico"\n' + b"# padding\n" * 10240, None),
]


def _red_x(frame):
    """True if a NeoPixel frame (G, R, B a pixel) shows 9 red pixels and no others: the X."""
    lit = [(frame[i + 1], frame[i], frame[i + 2]) for i in range(0, len(frame), 3) if any(frame[i:i + 3])]
    return len(lit) == 9 and all(r > g and r > b for r, g, b in lit)


def _notice(dev, said, most_ms=6000, step_ms=250):
    """Run the board until its notice is up (the red X on the LEDs, and each
    line of `said` shown, if any) or most_ms have passed; the texts shown."""
    for _ in range(most_ms // step_ms):
        dev.run(step_ms)
        shown = " | ".join(" ".join(t) for t in stage.Trace(dev.console).texts())
        if any(_red_x(f) for _t, f in dev.frames[-40:]) and all(line in shown for line in said or ()):
            break
    return shown


@pytest.mark.full
@pytest.mark.parametrize("name,text,said", CASES, ids=[c[0] for c in CASES])
def test_a_bad_settings_toml_is_named_and_the_board_starts(tmp_path, name, text, said):
    prof = stage.profile(PROFILE)
    needs.require(stage.firmware_unavailable(PROFILE, "stock"))
    drive = stage.build_drive(str(tmp_path / "CIRCUITPY"), PROFILE, trace=1,
                              files={"settings.toml": text})
    with Device(stage.firmware(PROFILE, "stock"), drive, neopixel_pin=prof["pixel_pin"],
                timeout_s=600, nvm=stage.settings_nvm()) as dev:
        shown = _notice(dev, said)
        dev.run(1000)                                   # and it stays, until a press
        console = "\n".join(dev.console)
        assert "Traceback" not in console, console[-2000:]
        assert any(_red_x(f) for _t, f in dev.frames[-40:]), "no red X on the LEDs"
        if said is not None:
            for line in said:
                assert line in shown, shown
        before = len(dev.frames)
        dev.press(stage.key_pin(prof, "select"), 100)
        dev.run(1500)
        if said is not None:
            assert stage.Trace(dev.console).state_names()[-1] == "menu"
        assert not any(_red_x(f) for _t, f in dev.frames[before:][-5:]), "the notice stayed"
    print("settings.toml %-24s said: %s" % (name, shown if said is not None else "(red X only)"))
