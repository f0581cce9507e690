"""tools/overlay.py: the SVG overlay is drawn from jarmo/board.py's table."""

import importlib.util
import os
import xml.etree.ElementTree as ET

import pytest

from jarmo import board

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NS = "{http://www.w3.org/2000/svg}"


def _overlay():
    spec = importlib.util.spec_from_file_location("jarmo_overlay", os.path.join(ROOT, "tools", "overlay.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


overlay = _overlay()


def _parse(svg):
    return ET.fromstring(svg.encode())


def _lines(root):
    solid, dashed = [], []
    for g in root.iter(NS + "g"):
        for line in g.iter(NS + "line"):
            if g.get("class") == "lines":
                solid.append(line)
            elif g.get("stroke-dasharray"):
                dashed.append(line)
    return solid, dashed


def _pairs(elements):
    return {frozenset(e.get("data-line").split("-")) for e in elements}


def test_38_solid_lines_and_one_dashed():
    root = _parse(overlay.overlay_svg())
    solid, dashed = _lines(root)
    assert len(solid) == 38
    assert len(dashed) == 1
    assert _pairs(solid) == {frozenset(x.split("-")) for x in board.LINES.split()}
    assert _pairs(dashed) == {frozenset(board.DOTTED_LINE.split("-"))}


def test_markers_and_led_holes():
    root = _parse(overlay.overlay_svg())
    circles = list(root.iter(NS + "circle"))
    markers = [c.get("data-point") for c in circles if c.get("class") == "marker"]
    leds = [c for c in circles if c.get("class") == "led"]
    assert sorted(markers) == sorted(board.MARKERS)
    assert len(leds) == 25


@pytest.mark.parametrize("pitch", (3.5, 10.0))
def test_pitch_sets_the_size_in_mm(pitch):
    root = _parse(overlay.overlay_svg(pitch))
    a1 = [c for c in root.iter(NS + "circle") if c.get("data-point") == "a1"][0]
    e1 = [c for c in root.iter(NS + "circle") if c.get("data-point") == "e1"][0]
    assert float(e1.get("cx")) - float(a1.get("cx")) == pytest.approx(4 * pitch)
    assert root.get("width").endswith("mm")
    # lines stop short of the LEDs
    for line in _lines(root)[0]:
        x1, y1 = float(line.get("x1")), float(line.get("y1"))
        assert min(((x1 - float(c.get("cx"))) ** 2 + (y1 - float(c.get("cy"))) ** 2) ** 0.5
                   for c in root.iter(NS + "circle") if c.get("class") == "led") > 0.25 * pitch


def test_docs_overlay_is_up_to_date():
    with open(os.path.join(ROOT, "docs", "overlay.svg")) as f:
        assert f.read() == overlay.overlay_svg(), "regenerate: python tools/overlay.py"


def test_command_line(tmp_path):
    out = tmp_path / "o.svg"
    assert overlay.main(["--pitch", "5", "--names", "--out", str(out)]) == 0
    root = _parse(out.read_text())
    assert len(_lines(root)[0]) == 38
    assert any(t.text == "c3" for t in root.iter(NS + "text"))
