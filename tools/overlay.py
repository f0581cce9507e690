"""Printable SVG overlay of the Jarmo board lines for a 5x5 LED grid.

    python tools/overlay.py [--pitch MM] [--out docs/overlay.svg] [--names]

Draws, from the board table in jarmo/board.py (nothing is copied here):
the 38 printed lines as solid lines, the dotted line (Jasyr) dashed, the
remote-camp markers of the Challenges expansion as rings, a hole outline
around every LED, the camps' labels and a 10 mm scale bar to check the print
size.  Lines stop short of the LEDs so that their light is not covered.

Pitch is the distance between neighbouring LED centres in millimetres: the
default suits a 5x5 NeoPixel Grid BFF but was not measured from a data
sheet -- measure yours (centre of a1 to centre of e1, divided by 4) and pass
--pitch.  Print at 100 % (no "fit to page") on paper or transparent film.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from jarmo import board  # noqa: E402

DEFAULT_PITCH = 3.5   # mm between LED centres (assumed for the BFF, see above)


def _xy(p, pitch, margin):
    """Centre of point p in mm; rank 5 at the top, as South sees the board."""
    return margin + (p % 5) * pitch, margin + (4 - p // 5) * pitch


def _shortened(a, b, pitch, margin, gap):
    (x0, y0), (x1, y1) = _xy(a, pitch, margin), _xy(b, pitch, margin)
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    return x0 + ux * gap, y0 + uy * gap, x1 - ux * gap, y1 - uy * gap


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
        for p in range(25):
            x, y = _xy(p, pitch, margin)
            out.append('<text x="%s" y="%s" font-size="%s">%s</text>'
                       % (_num(x + pitch * 0.3), _num(y + pitch * 0.45), _num(font * 0.6),
                          board.NAMES[p]))
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
    ap.add_argument("--pitch", type=float, default=DEFAULT_PITCH,
                    help="LED centre distance in mm (default %s)" % DEFAULT_PITCH)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "overlay.svg"),
                    help="output file, - for stdout")
    ap.add_argument("--names", action="store_true", help="print point names too")
    args = ap.parse_args(argv)
    if args.pitch <= 0:
        ap.error("--pitch must be positive")
    svg = overlay_svg(args.pitch, args.names)
    if args.out == "-":
        sys.stdout.write(svg)
    else:
        with open(args.out, "w") as f:
            f.write(svg)
        print("wrote %s (pitch %s mm)" % (args.out, args.pitch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
