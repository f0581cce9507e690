"""Every one of the board's 38 lines can be traced in the simulator's text.

The tests read only the rendered text: they find each point's cell from the
rank labels and the files' row, then follow each line from the centre of
one end's cell to the other's, the way an eye would. The line must be drawn
all the way (no gap), in strokes of its own direction (another line's only
where that one crosses it), and nothing may be drawn that is on no line.
Both drawings are checked: Braille dots where the terminal has Unicode,
ASCII strokes where it does not.
"""

import math

import pytest

from host import board_text as BT
from jarmo import Game
from jarmo.board import DOTTED_LINE, LINES, NAMES, line_pairs, point

PAIRS = line_pairs(LINES)
assert len(PAIRS) == 38


# ---------------------------------------------------------------- reading the text


def cells_of(rows):
    """{point: (row, first column)} of the 25 cells, found from the rank
    labels ("5 " .. "1 " at the start of a row) and the files' row (a b c d e)."""
    files_row = next(r for r in reversed(rows) if r.split() == list("abcde"))
    columns = [files_row.index(f) for f in "abcde"]
    out = {}
    for y, row in enumerate(rows):
        if row[:2] in ("1 ", "2 ", "3 ", "4 ", "5 "):
            rank = int(row[0])
            for f in range(5):
                out[(rank - 1) * 5 + f] = (y, columns[f] - 1)
    assert len(out) == 25, rows
    return out


def box_chars(cells):
    return {(y, x + i) for (y, x) in cells.values() for i in range(BT.CELL_W)}


def centre_of(cells, p):
    """The centre of p's cell in character coordinates (x, y), continuous."""
    y, x = cells[p]
    return x + BT.CELL_W / 2, y + 0.5


def char_at(rows, y, x):
    return rows[y][x] if 0 <= y < len(rows) and 0 <= x < len(rows[y]) else " "


# ---------------------------------------------------------------- braille


def braille_pixels(rows, boxes):
    """The lit Braille dots, as a set of (px, py): 2 a character across, 4 down."""
    bits = ((0x01, 0, 0), (0x02, 0, 1), (0x04, 0, 2), (0x40, 0, 3),
            (0x08, 1, 0), (0x10, 1, 1), (0x20, 1, 2), (0x80, 1, 3))
    lit = set()
    for y, row in enumerate(rows[:-1]):             # the last row: the files' letters
        for x, ch in enumerate(row):
            if (y, x) in boxes or x < BT.LEFT:      # a cell, or the rank labels
                continue
            v = ord(ch) - 0x2800
            if 0 < v < 256:
                for bit, dx, dy in bits:
                    if v & bit:
                        lit.add((2 * x + dx, 4 * y + dy))
            else:
                assert ch == " ", "%r at row %d column %d is no Braille dot" % (ch, y, x)
    return lit


def _segment(cells, a, b):
    (x0, y0), (x1, y1) = centre_of(cells, a), centre_of(cells, b)
    return 2 * x0, 4 * y0, 2 * x1, 4 * y1


def _distance(px, py, seg):
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (x0 + t * dx), py - (y0 + t * dy))


def trace_braille(rows, lines, dotted=()):
    """Follow every line in Braille dots; AssertionError naming the first
    line that cannot be followed."""
    cells = cells_of(rows)
    boxes = box_chars(cells)
    lit = braille_pixels(rows, boxes)
    segments = {}
    for a, b in list(lines) + list(dotted):
        seg = segments[(a, b)] = _segment(cells, a, b)
        x0, y0, x1, y1 = seg
        steps = int(2 * max(abs(x1 - x0), abs(y1 - y0)))
        gap = 0
        for i in range(steps + 1):
            px, py = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
            if (int(py // 4), int(px // 2)) in boxes:
                continue
            near = any((int(round(px)) + ex, int(round(py)) + ey) in lit
                       for ex in (-1, 0, 1) for ey in (-1, 0, 1))
            gap = 0 if near else gap + 1
            # a dotted line has gaps of two dots; a printed line none at all
            assert gap <= (5 if (a, b) in dotted else 0), \
                "line %s-%s has a gap near dot (%.1f, %.1f)" % (NAMES[a], NAMES[b], px, py)
    for px, py in lit:       # nothing drawn that is on no line
        assert min(_distance(px + 0.5, py + 0.5, s) for s in segments.values()) < 2.0, \
            "a dot at (%d, %d) belongs to no line" % (px, py)
    # no two lines run together: each pair shares at most a crossing's dots
    own = {pair: {d for d in lit if _distance(d[0] + 0.5, d[1] + 0.5, seg) < 1.2}
           for pair, seg in segments.items()}
    pairs = list(own)
    for i, p in enumerate(pairs):
        for q in pairs[i + 1:]:
            shared = len(own[p] & own[q])
            assert shared <= 8, "%s and %s share %d dots" % (p, q, shared)
    return True


# ---------------------------------------------------------------- ascii

STROKES = {"h": "-", "v": "|", "/": "/", "\\": "\\", "s": "'-_", "d": ":"}


def _kind(cells, a, b, dotted):
    (x0, y0), (x1, y1) = centre_of(cells, a), centre_of(cells, b)
    dx, dy = x1 - x0, y1 - y0
    if dotted:
        return "d"
    if dy == 0:
        return "h"
    if dx == 0:
        return "v"
    if abs(dy) * 2 >= abs(dx):
        return "/" if (dx > 0) != (dy > 0) else "\\"
    return "s"


def _path(cells, a, b, kind):
    """The (row, column) places the line a-b passes, one a row (steep) or one
    a column (shallow, horizontal), outside the two cells."""
    (x0, y0), (x1, y1) = centre_of(cells, a), centre_of(cells, b)
    out = []
    if kind in "hs":
        for x in range(int(min(x0, x1)) + 2, int(max(x0, x1)) - 2):
            out.append((y0 + (y1 - y0) * (x + 0.5 - x0) / (x1 - x0), x + 0.5))
    else:
        for y in range(int(min(y0, y1)) + 1, int(max(y0, y1))):
            out.append((y + 0.5, x0 + (x1 - x0) * (y + 0.5 - y0) / (y1 - y0)))
    return out


def trace_ascii(rows, lines, dotted=()):
    """Follow every line in ASCII strokes; AssertionError naming the first
    line that cannot be followed."""
    cells = cells_of(rows)
    boxes = box_chars(cells)
    ways = {}           # each line: its kind, and at each step the places it may be drawn
    for pair in list(lines) + list(dotted):
        kind = _kind(cells, pair[0], pair[1], pair in dotted)
        steps = []
        for py, px in _path(cells, pair[0], pair[1], kind):
            y, x = int(py), int(px)
            # one character of slack across the line's way, none along it
            steps.append({(y + ey, x + ex) for ey in ((0, -1, 1) if kind == "s" else (0,))
                          for ex in ((0,) if kind in "hs" else (0, -1, 1))} - boxes)
        ways[pair] = (kind, steps)
    anywhere = {pair: set().union(*steps) for pair, (_kind_, steps) in ways.items()}
    for pair, (kind, steps) in ways.items():
        for places in steps:
            if not places:
                continue          # inside a cell
            assert any(char_at(rows, y, x) in STROKES[kind] or (
                char_at(rows, y, x) != " " and any(q != pair and (y, x) in anywhere[q] for q in ways))
                for y, x in places), "line %s-%s is broken near row %d column %d:\n%s" % (
                NAMES[pair[0]], NAMES[pair[1]], min(places)[0], min(places)[1], "\n".join(rows))
    every = set().union(*anywhere.values())
    for y, row in enumerate(rows[:-1]):
        for x, ch in enumerate(row):
            if ch != " " and (y, x) not in boxes and x >= BT.LEFT:
                assert ch in "X/\\|-_':", "%r at row %d column %d" % (ch, y, x)
                assert (y, x) in every, "%r at row %d column %d is on no line" % (ch, y, x)
    return True


# ---------------------------------------------------------------- the tests


def _labels(game):
    from host.legend import piece_label
    return [piece_label(game.piece(n)) for n in NAMES]


POSITIONS = [
    ("start", None, {}),
    ("pieces", "b1-d2 e5-d3 d2-d3 b5-a3", {point("a1"): "cursor", point("d3"): "last"}),
    ("marks", "a1-c2", {point("c2"): "selected", point("d2"): "target", point("e3"): "target",
                        point("c5"): "hint", point("c4"): "cursor"}),
]


@pytest.mark.parametrize("drawing", BT.DRAWINGS)
@pytest.mark.parametrize("name, moves, marks", POSITIONS)
def test_every_line_can_be_traced(drawing, name, moves, marks):
    g = Game("standard")
    for a in (moves or "").split():
        g.play(a)
    rows = BT.draw_board([0] * 25, _labels(g) if moves else None, marks, "none", drawing,
                         bold_points=(point("c3"),))
    trace = trace_braille if drawing == "braille" else trace_ascii
    assert trace(rows, PAIRS)


@pytest.mark.parametrize("drawing", BT.DRAWINGS)
def test_the_dotted_line_is_drawn_apart_in_jasyr_only(drawing):
    trace = trace_braille if drawing == "braille" else trace_ascii
    dotted = line_pairs(DOTTED_LINE)
    rows = BT.draw_board([0] * 25, None, {}, "none", drawing, dotted=True)
    assert trace(rows, PAIRS, dotted)
    plain = BT.draw_board([0] * 25, None, {}, "none", drawing)
    assert plain != rows and trace(plain, PAIRS)
    if drawing == "ascii":
        assert ":" in "".join(rows) and ":" not in "".join(plain)


@pytest.mark.parametrize("drawing", BT.DRAWINGS)
def test_the_tracer_finds_a_missing_or_a_stray_stroke(drawing):
    """The test has teeth: a board with one stroke rubbed out, or one extra
    stroke drawn, is refused."""
    trace = trace_braille if drawing == "braille" else trace_ascii
    rows = BT.draw_board([0] * 25, None, {}, "none", drawing)
    x, y = BT.centre(point("a1"))
    gap = [list(r) for r in rows]
    gap[y - 2][x + 2] = " "               # on the line a1-b3, two rows up
    with pytest.raises(AssertionError, match="a1-b3"):
        trace(["".join(r) for r in gap], PAIRS)
    stray = [list(r) for r in rows]
    y, x = next((y, x) for y in range(1, len(rows) - 2) for x in range(BT.LEFT + 1, BT.WIDTH - 1)
                if all(char_at(rows, y + ey, x + ex) == " " for ey, ex in
                       ((0, 0), (0, -1), (0, 1), (-1, 0), (1, 0))))   # a blank place, away from the lines
    stray[y][x] = "\u2812" if drawing == "braille" else "-"
    with pytest.raises(AssertionError, match="no line"):
        trace(["".join(r) for r in stray], PAIRS)
