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


def _segment_box_distance(seg, box, samples=100):
    """Smallest distance from points along the segment to the box (0 inside it)."""
    x0, y0, x1, y1 = seg
    bx0, by0, bx1, by1 = box
    best = float("inf")
    for k in range(samples + 1):
        t = k / samples
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        dx = max(bx0 - x, 0.0, x - bx1)
        dy = max(by0 - y, 0.0, y - by1)
        best = min(best, (dx * dx + dy * dy) ** 0.5)
    return best


@pytest.mark.parametrize("pitch", (3.5, 5.0, 10.0))
def test_names_sit_beside_their_point_clear_of_every_line(pitch):
    """--names: each label's box (0.6 em per character, 0.75 em above the
    baseline) keeps a stroke's width from every printed and dotted line and
    outside every LED hole, and is nearer its own LED than any other."""
    root = _parse(overlay.overlay_svg(pitch, names=True))
    solid, dashed = _lines(root)
    segments = [tuple(float(e.get(k)) for k in ("x1", "y1", "x2", "y2")) for e in solid + dashed]
    leds = {c.get("data-point"): (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
            for c in root.iter(NS + "circle") if c.get("class") == "led"}
    stroke = float(next(g for g in root.iter(NS + "g") if g.get("class") == "lines")
                   .get("stroke-width"))
    labels = [t for t in root.iter(NS + "text") if t.get("class") == "name"]
    assert sorted(t.text for t in labels) == sorted(board.NAMES)
    for t in labels:
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        w = 0.6 * size * len(t.text)
        box = (x - w / 2, y - 0.75 * size, x + w / 2, y)
        for seg in segments:
            assert _segment_box_distance(seg, box) >= stroke / 2, (t.text, seg, box)
        for name, (cx, cy, r) in leds.items():
            dx = max(box[0] - cx, 0.0, cx - box[2])
            dy = max(box[1] - cy, 0.0, cy - box[3])
            assert (dx * dx + dy * dy) ** 0.5 >= r, (t.text, name)   # not over an LED
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        nearest = min(leds, key=lambda n: (leds[n][0] - centre[0]) ** 2
                      + (leds[n][1] - centre[1]) ** 2)
        assert nearest == t.text, (t.text, nearest)
