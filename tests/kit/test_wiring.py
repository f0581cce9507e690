"""tools/kit/wiring.py: each board profile's wiring diagram shows every pin
the profile uses, no pin carries two signals, the SVG parses and its texts
do not overlap."""

import xml.etree.ElementTree as ET

import pytest

from hardware import profiles
from tests.kit.test_bom import BOARDS, used_pins
from tools.kit import wiring

SVG = "{http://www.w3.org/2000/svg}"
POWER = set(wiring.POWER_PINS)


def tree(name):
    return ET.fromstring(wiring.wiring_svg(name).encode())


def wire_ends(root):
    return [(e.get("data-pin"), e.get("data-signal")) for e in root.iter(SVG + "line") if e.get("data-pin")]


@pytest.mark.parametrize("name", BOARDS)
def test_every_pin_of_the_profile_is_on_its_diagram(name):
    pins = {pin for pin, _signal in wire_ends(tree(name))}
    assert used_pins(profiles.get(name)) - pins == set()


@pytest.mark.parametrize("name", BOARDS)
def test_no_pin_carries_two_signals(name):
    signals = {}
    for pin, signal in wire_ends(tree(name)):
        if pin not in POWER:
            signals.setdefault(pin, set()).add(signal)
    assert {pin: s for pin, s in signals.items() if len(s) > 1} == {}
    p = profiles.get(name)
    uses = [p["pixel_pin"]] + [k[1] for k in p["keys"]] + list(p["link"] or ()) + [p["led_power"]]
    uses = [pin for pin in uses if pin]
    assert len(uses) == len(set(uses)), uses


def _box(text):
    """The text's box, roughly: a monospace character is 0.6 em wide."""
    size = float(text.get("font-size"))
    width = 0.6 * size * len(text.text or "")
    x, y = float(text.get("x")), float(text.get("y"))
    x0 = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "start")]
    return x0, y - 0.8 * size, x0 + width, y + 0.2 * size


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name", BOARDS)
def test_labels_do_not_overlap(name):
    boxes = [(_box(t), t.text) for t in tree(name).iter(SVG + "text")]
    clashes = [(ta, tb) for i, (a, ta) in enumerate(boxes) for b, tb in boxes[i + 1:] if _overlap(a, b)]
    assert clashes == []


@pytest.mark.parametrize("name", BOARDS)
def test_the_diagram_shows_the_power_parts(name):
    root = tree(name)
    parts = {e.get("data-part") for e in root.iter(SVG + "rect") if e.get("data-part")}
    assert {"mcu", "grid", "battery", "link"} <= parts
    assert ("switch" in parts) == (profiles.get(name)["led_power"] is not None)
    assert ("boost" in parts) == (profiles.get(name)["grid"] != "bff")


def test_the_command_writes_the_file(tmp_path):
    out = tmp_path / "w.svg"
    assert wiring.main(["--profile", "pico", "--out", str(out)]) == 0
    assert ET.parse(str(out)).getroot().get("data-profile") == "pico"
