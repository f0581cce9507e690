"""Buttons: keypad events -> (button code, seat); profiles' keys and pins."""

import importlib.util
import os
import re

import keypad
import pytest

from hardware import profiles
from hardware.buttons import Buttons
from jarmo import app_buttons as B


class QueueKeys:
    """Stands in for keypad.Keys: a keypad.EventQueue we fill by hand."""

    def __init__(self):
        self.events = keypad.EventQueue(16)
        self.deinited = False

    def down(self, k):
        self.events.keypad_eventqueue_record(k, True)

    def up(self, k):
        self.events.keypad_eventqueue_record(k, False)

    def deinit(self):
        self.deinited = True


def _buttons(profile):
    keys = QueueKeys()
    return Buttons(profile, keys=keys), keys


def _name(b):
    """A code as a name; "+next" for next's key going down (KEY_DOWN)."""
    return ("+" + B.NAMES[b & ~B.KEY_DOWN]) if b & B.KEY_DOWN else B.NAMES[b]


def test_short_keys_send_on_press():
    buttons, keys = _buttons(profiles.JOYSTICK)
    got = []
    for label in "ikjlo":
        k = buttons.labels.index(label)
        keys.down(k)
        keys.up(k)
    buttons.poll(0, lambda b, p: got.append((b, p)))
    assert got == [(B.UP, 0), (B.DOWN, 0), (B.LEFT, 0), (B.RIGHT, 0), (B.SELECT, 0)]


def test_long_press_key_sends_short_on_early_release():
    buttons, keys = _buttons(profiles.FEATHER_OLED)
    got = []
    press = lambda b, p: got.append(_name(b))  # noqa: E731
    a = buttons.labels.index("a")
    keys.down(a)
    buttons.poll(1000, press)
    assert got == ["+next"]               # seen going down; tap or hold undecided while held
    buttons.poll(1000 + buttons.long_ms - 1, press)
    assert got == ["+next"]
    keys.up(a)
    buttons.poll(1000 + buttons.long_ms - 1, press)
    assert got == ["+next", "next"]


def test_long_press_key_sends_long_once_when_held():
    buttons, keys = _buttons(profiles.FEATHER_OLED)
    got = []
    press = lambda b, p: got.append(_name(b))  # noqa: E731
    b = buttons.labels.index("b")
    keys.down(b)
    buttons.poll(5000, press)
    buttons.poll(5000 + buttons.long_ms, press)
    buttons.poll(5000 + buttons.long_ms + 500, press)
    keys.up(b)
    buttons.poll(5000 + buttons.long_ms + 600, press)
    assert got == ["+select", "menu"]      # not "select" too


def test_a_tap_taken_as_the_key_goes_down_sends_nothing_more():
    """Where the app acts on the tap at once (press() answers True to the key
    going down), neither the release nor a hold sends anything."""
    buttons, keys = _buttons(profiles.QTPY_BFF)
    got = []

    def press(b, p):
        got.append(_name(b))
        return bool(b & B.KEY_DOWN)
    for hold in (10, buttons.long_ms + 50):
        keys.down(1)
        buttons.poll(0, press)
        buttons.poll(hold, press)
        keys.up(1)
        buttons.poll(hold + 1, press)
    assert got == ["+select", "+select"]


def test_two_keys_in_the_same_millisecond():
    """Both keys go down and up in one scan: each is seen going down and each
    tap comes, in the order the events came; none is lost."""
    buttons, keys = _buttons(profiles.QTPY_BFF)
    got = []
    keys.down(0)
    keys.down(1)
    keys.up(1)
    keys.up(0)
    buttons.poll(0, lambda b, p: got.append(_name(b)))
    assert got == ["+next", "+select", "select", "next"]


def test_long_press_across_the_clock_wrap():
    buttons, keys = _buttons(profiles.QTPY_BFF)
    got = []
    keys.down(0)
    start = (1 << 29) - 100
    buttons.poll(start, lambda b, p: got.append(b))
    buttons.poll((start + buttons.long_ms) % (1 << 29), lambda b, p: got.append(b))
    assert got == [B.NEXT | B.KEY_DOWN, B.PREV]


def test_tabletop_seats():
    buttons, keys = _buttons(profiles.TABLETOP)
    got = []
    for label in ("3", "0"):
        k = buttons.labels.index(label)
        keys.down(k)
        keys.up(k)
    buttons.poll(0, lambda b, p: got.append((B.NAMES[b], p)))
    assert got == [("back", 0), ("back", 1)]


def test_deinit_reaches_the_keys():
    buttons, keys = _buttons(profiles.QTPY_BFF)
    buttons.deinit()
    assert keys.deinited


def test_poll_keeps_the_loop_running():
    buttons, _keys = _buttons(profiles.QTPY_BFF)
    assert buttons.poll(0, lambda b, p: None) is True


def test_every_profile_has_the_same_fields_and_no_others():
    fields = set(profiles.profile("a board", "D1"))
    for name, profile in profiles.PROFILES.items():
        assert set(profile) == fields, name
    with pytest.raises(TypeError):
        profiles.profile("a board", "D1", colour="red")


def test_the_three_button_set_taps_and_holds():
    assert profiles.three_buttons("A0", "A1", "A2") == (
        ("a", "A0", 0, "next", "prev"), ("b", "A1", 0, "select", "menu"), ("c", "A2", 0, "back", None))
    assert profiles.TABLETOP["keys"][3:] == profiles.three_buttons("D11", "D12", "D13", "890", 1)


@pytest.mark.parametrize("name", sorted(profiles.PROFILES))
def test_profile_keys_are_well_formed(name):
    profile = profiles.PROFILES[name]
    labels = [k[0] for k in profile["keys"]]
    assert len(set(labels)) == len(labels), "labels must differ"
    pins = [k[1] for k in profile["keys"]]
    assert len(set(pins)) == len(pins), "one key per pin"
    for label, _pin, seat, short, long in profile["keys"]:
        assert len(label) == 1 and label == label.lower()
        assert seat in (0, 1)
        B.code(short)
        if long:
            B.code(long)
    if profile["usb_edit_key"] is not None:
        assert profile["usb_edit_key"] in labels
    if not profile["tabletop"]:
        assert all(k[2] == 0 for k in profile["keys"])
    assert pytest.approx(profile["long_ms"]) == int(profile["long_ms"])


def _stub_pins(board):
    spec = importlib.util.find_spec("board_definitions")
    path = os.path.join(list(spec.submodule_search_locations)[0], board, "__init__.pyi")
    with open(path) as f:
        return set(re.findall(r"(?m)^([A-Z][A-Z0-9_]*)\s*:", f.read()))


@pytest.mark.parametrize("name,board", [
    ("feather_oled", "adafruit_feather_rp2040"),
    ("joystick", "adafruit_feather_rp2040"),
    ("tabletop", "adafruit_feather_rp2040"),
    ("qtpy_bff", "adafruit_qtpy_rp2040"),
])
def test_profile_pins_exist_on_the_board(name, board):
    """Every pin a profile names is in circuitpython-stubs' definition of its board."""
    pins = _stub_pins(board)
    profile = profiles.PROFILES[name]
    used = [profile["pixel_pin"]] + [k[1] for k in profile["keys"]]
    assert set(used) <= pins, sorted(set(used) - pins)
    if profile["display"]:
        assert {"SDA", "SCL"} <= pins


def test_unknown_profile_names_the_known_ones():
    with pytest.raises(ValueError, match="feather_oled"):
        profiles.get("nope")


def test_real_keypad_keys_under_blinka():
    """Buttons builds keypad.Keys from the profile's pins (Blinka's simulated ones here).

    Run in a child process: Blinka's scanning thread never stops (its
    deinit() hangs), so the child exits without deinit, as a PC program should.
    """
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    child = """
import time
from hardware import profiles
from host import blinka
from hardware.buttons import Buttons
profile = dict(profiles.QTPY_BFF, keys=(("a", "Dx_INPUT_TRUE", 0, "next", None),
                                        ("b", "Dx_INPUT_FALSE", 0, "select", None)))
buttons = Buttons(profile)
got = []
end = time.monotonic() + 0.5
while time.monotonic() < end and not got:
    buttons.poll(0, lambda b, p: got.append(b))
    time.sleep(0.01)
print(got)
"""
    env = dict(os.environ, PYTHONPATH=root, BLINKA_OS_AGNOSTIC="1")
    proc = subprocess.run([sys.executable, "-c", child], cwd=root, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # the pin that reads low is a pressed key (pull-up wiring): select
    assert proc.stdout.strip() == "[%d]" % B.SELECT
