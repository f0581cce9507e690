"""Printable SVG overlay of the Jarmo board lines for a 5x5 LED grid.

    python tools/overlay.py [--profile NAME] [--pitch MM] [--out docs/overlay.svg] [--names]

Draws, from the board table in jarmo/board.py (nothing is copied here):
the 38 printed lines as solid lines, the dotted line (Jasyr) dashed, the
remote-camp markers of the Challenges expansion as rings, a hole outline
around every LED, the camps' labels and a 10 mm scale bar to check the print
size.  Lines stop short of the LEDs so that their light is not covered.

Pitch is the distance between neighbouring LED centres in millimetres, the
profile's "pitch_mm" (hardware/profiles.py; the default build's, handheld,
unless --profile names another); --pitch overrides it for a grid of your
own (measure the centre of a1 to the centre of e1 and divide by 4).  Print
at 100 % (no "fit to page") on paper or transparent film: docs/KIT.md, "The
overlay".
"""

import argparse
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware import profiles  # noqa: E402
from jarmo import board  # noqa: E402

DEFAULT_PROFILE = "handheld"    # the docs' default build (docs/KIT.md)
DEFAULT_PITCH = profiles.get(DEFAULT_PROFILE)["pitch_mm"]


def _xy(p, pitch, margin):
    """Centre of point p in mm; rank 5 at the top, as South sees the board."""
    return margin + (p % 5) * pitch, margin + (4 - p // 5) * pitch


def _shortened(a, b, pitch, margin, gap):
    (x0, y0), (x1, y1) = _xy(a, pitch, margin), _xy(b, pitch, margin)
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    return x0 + ux * gap, y0 + uy * gap, x1 - ux * gap, y1 - uy * gap


def _seg_dist(px, py, x0, y0, x1, y1):
    """Distance from the point (px, py) to the segment (x0, y0)-(x1, y1)."""
    dx, dy = x1 - x0, y1 - y0
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / n))
    ex, ey = x0 + t * dx - px, y0 + t * dy - py
    return (ex * ex + ey * ey) ** 0.5


def _crosses(box, seg):
    """True if the segment meets the box (x0, y0, x1, y1): Liang-Barsky clipping."""
    bx0, by0, bx1, by1 = box
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def box_seg_dist(box, seg):
    """Distance between a box (x0, y0, x1, y1) and a segment (x0, y0, x1, y1); 0 if they meet."""
    if _crosses(box, seg):
        return 0.0
    bx0, by0, bx1, by1 = box
    corners = ((bx0, by0), (bx1, by0), (bx0, by1), (bx1, by1))
    d = min(_seg_dist(cx, cy, *seg) for cx, cy in corners)
    for sx, sy in (seg[:2], seg[2:]):
        ex = max(bx0 - sx, 0.0, sx - bx1)
        ey = max(by0 - sy, 0.0, sy - by1)
        d = min(d, (ex * ex + ey * ey) ** 0.5)
    return d


def box_circle_dist(box, cx, cy, r):
    """Distance from a box to a circle's outline from outside (negative: they overlap)."""
    bx0, by0, bx1, by1 = box
    ex = max(bx0 - cx, 0.0, cx - bx1)
    ey = max(by0 - cy, 0.0, cy - by1)
    return (ex * ex + ey * ey) ** 0.5 - r


def text_box(x, y, size, text):
    """The box a label of `text` takes, centred on x with its baseline at y
    (sans-serif digits and lower case: about 0.6 em wide, 0.75 em high)."""
    w = 0.6 * size * len(text)
    return (x - w / 2, y - 0.75 * size, x + w / 2, y)


def name_positions(pitch, margin, size, segments, circles):
    """(x, baseline y) of each point's name: beside its LED in the direction
    that keeps it clearest of every line, LED hole and marker ring, and
    nearer its own LED than any other (the nearest ring of places around
    the LED where one is clear by a stroke width)."""
    out = []
    stroke = max(0.2, pitch * 0.06)
    centres = [_xy(q, pitch, margin) for q in range(25)]
    for p in range(25):
        px, py = centres[p]
        name = board.NAMES[p]
        best = None
        for radius in (0.4, 0.44, 0.48, 0.52, 0.56, 0.6, 0.65, 0.7):
            for step in range(72):
                angle = math.radians(step * 5)
                x = px + radius * pitch * math.cos(angle)
                cy = py + radius * pitch * math.sin(angle)
                nearest = min(range(25), key=lambda q: (centres[q][0] - x) ** 2
                              + (centres[q][1] - cy) ** 2)
                if nearest != p:
                    continue
                y = cy + 0.375 * size
                box = text_box(x, y, size, name)
                clear = min([box_seg_dist(box, s) for s in segments] +
                            [box_circle_dist(box, ccx, ccy, r) for ccx, ccy, r in circles])
                if best is None or clear > best[0] + 1e-9:
                    best = (clear, x, y)
            if best is not None and best[0] >= stroke:
                break
        out.append((best[1], best[2]))
    return out


def _num(v):
    return ("%.3f" % v).rstrip("0").rstrip(".")


def overlay_svg(pitch=DEFAULT_PITCH, names=False):
    """The overlay as SVG text; sizes in millimetres."""
    margin = pitch * 1.2
    size = 4 * pitch + 2 * margin
    height = size + 4.0 + 3.0        # room for the scale bar below
    stroke = max(0.2, pitch * 0.06)
    gap = pitch * 0.32               # keeps each LED's light clear
    hole = pitch * 0.3
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
        'viewBox="0 0 %s %s">' % (_num(size), _num(height), _num(size), _num(height)),
        '<title>Jarmo board overlay, LED pitch %s mm</title>' % _num(pitch),
        '<rect x="0" y="0" width="%s" height="%s" fill="none" stroke="#999" '
        'stroke-width="0.1" class="outline"/>' % (_num(size), _num(size)),
    ]
    out.append('<g class="lines" stroke="#000" stroke-width="%s" stroke-linecap="round">'
               % _num(stroke))
    for a, b in board.line_pairs(board.LINES):
        x0, y0, x1, y1 = _shortened(a, b, pitch, margin, gap)
        out.append('<line class="line" data-line="%s-%s" x1="%s" y1="%s" x2="%s" y2="%s"/>'
                   % (board.NAMES[a], board.NAMES[b], _num(x0), _num(y0), _num(x1), _num(y1)))
    out.append('</g>')
    out.append('<g class="dotted" stroke="#000" stroke-width="%s" stroke-dasharray="%s %s">'
               % (_num(stroke), _num(stroke * 2), _num(stroke * 2)))
    for a, b in board.line_pairs(board.DOTTED_LINE):
        x0, y0, x1, y1 = _shortened(a, b, pitch, margin, gap)
        out.append('<line class="dotted-line" data-line="%s-%s" x1="%s" y1="%s" x2="%s" y2="%s"/>'
                   % (board.NAMES[a], board.NAMES[b], _num(x0), _num(y0), _num(x1), _num(y1)))
    out.append('</g>')
    out.append('<g class="holes" fill="none" stroke="#bbb" stroke-width="0.1">')
    for p in range(25):
        x, y = _xy(p, pitch, margin)
        out.append('<circle class="led" data-point="%s" cx="%s" cy="%s" r="%s"/>'
                   % (board.NAMES[p], _num(x), _num(y), _num(hole)))
    out.append('</g>')
    out.append('<g class="markers" fill="none" stroke="#000" stroke-width="%s">' % _num(stroke))
    for name in board.MARKERS:
        x, y = _xy(board.point(name), pitch, margin)
        out.append('<circle class="marker" data-point="%s" cx="%s" cy="%s" r="%s"/>'
                   % (name, _num(x), _num(y), _num(pitch * 0.42)))
    out.append('</g>')
    font = max(1.2, pitch * 0.3)
    out.append('<g class="labels" font-family="sans-serif" font-size="%s" fill="#000" '
               'text-anchor="middle">' % _num(font))
    out.append('<text x="%s" y="%s">North camp</text>' % (_num(size / 2), _num(margin * 0.45)))
    out.append('<text x="%s" y="%s">South camp</text>'
               % (_num(size / 2), _num(size - margin * 0.2)))
    if names:
        name_size = font * 0.6
        segments = [_shortened(a, b, pitch, margin, gap)
                    for a, b in board.line_pairs(board.LINES) + board.line_pairs(board.DOTTED_LINE)]
        circles = [_xy(p, pitch, margin) + (hole,) for p in range(25)]
        circles += [_xy(board.point(n), pitch, margin) + (pitch * 0.42,) for n in board.MARKERS]
        # keep inside the outline and clear of the camps' labels
        boxes = [(0, 0, size, size),
                 text_box(size / 2, margin * 0.45, font, "North camp"),
                 text_box(size / 2, size - margin * 0.2, font, "South camp")]
        for x0, y0, x1, y1 in boxes:
            segments += [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]
        for p, (x, y) in enumerate(name_positions(pitch, margin, name_size, segments, circles)):
            out.append('<text class="name" data-point="%s" x="%s" y="%s" font-size="%s">%s</text>'
                       % (board.NAMES[p], _num(x), _num(y), _num(name_size), board.NAMES[p]))
    out.append('</g>')
    y = size + 3.0
    out.append('<g class="scale" stroke="#000" stroke-width="0.2">'
               '<line x1="1" y1="%s" x2="11" y2="%s"/></g>' % (_num(y), _num(y)))
    out.append('<text x="12" y="%s" font-family="sans-serif" font-size="1.5">10 mm</text>'
               % _num(y + 0.5))
    out.append('</svg>')
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", default=DEFAULT_PROFILE, choices=sorted(profiles.PROFILES),
                    help="draw at this profile's LED pitch (default %s)" % DEFAULT_PROFILE)
    ap.add_argument("--pitch", type=float, default=None,
                    help="LED centre distance in mm (default: the profile's)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "overlay.svg"),
                    help="output file, - for stdout")
    ap.add_argument("--names", action="store_true", help="print point names too")
    args = ap.parse_args(argv)
    pitch = profiles.get(args.profile)["pitch_mm"] if args.pitch is None else args.pitch
    if pitch <= 0:
        ap.error("--pitch must be positive")
    svg = overlay_svg(pitch, args.names)
    if args.out == "-":
        sys.stdout.write(svg)
    else:
        with open(args.out, "w") as f:
            f.write(svg)
        print("wrote %s (pitch %s mm)" % (args.out, pitch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
