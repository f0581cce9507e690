"""The board as text: the 38 lines, the 25 points as cells, marks on them.

Host only.  Every point is a cell of CELL_W characters: its piece letters
(South upper case, North lower case) or, when empty, its name; a mark
around it says what it is now (MARKS: the cursor, the selected piece, a
target, the hint, the last move).  Each cell is painted in its LED's colour
where the terminal has colours.

The lines are drawn straight from point to point, so that each can be
followed with the eye:

- "braille" (where the terminal shows Unicode): every line is a row of
  Braille dots, eight to a character, at its true slope; crossings are
  single dots, so no line merges with another;
- "ascii" (anywhere): "-" and "|" for the ring, "/" and "\\" for the steep
  lines (one character a row), "'", "-" and "_" stepping down a row every
  four characters for the shallow ones; where two lines cross, the steeper
  one's character (an "X" where two diagonals cross).

The dotted line c3-b5 counts only in jasyr: it is drawn (dots spaced
apart, ":" in ascii) only for a jasyr game.  The lines of chosen points
(the cursor's, the selected piece's) are drawn bold in a colour mode.
"""

from host.colour import BOLD, RESET, paint
from jarmo import board as jboard

SX = 8        # columns between two points: a steep line (one file, two ranks) is a diagonal
SY = 4        # rows between two points
CELL_W = 4    # " a1 ", " A  ", "[At]"
LEFT = 2      # the rank label
WIDTH = LEFT + 4 * SX + CELL_W
HEIGHT = 4 * SY + 1
DRAWINGS = ("braille", "ascii")

LINES = jboard.line_pairs(jboard.LINES)
DOTTED = jboard.line_pairs(jboard.DOTTED_LINE)

# Marks around a cell, strongest first: one cell shows one of them.
MARKS = (("cursor", "[]"), ("selected", "<>"), ("target", "()"), ("hint", "{}"),
         ("last", "**"))
MARK_OF = dict(MARKS)


def centre(p):
    """(column, row) of point p's cell: its 4 characters are columns x - 2 .. x + 1."""
    return LEFT + 2 + (p % 5) * SX, (4 - p // 5) * SY


def _cells():
    """(row, column) of every character inside a point's cell."""
    out = set()
    for p in range(25):
        x, y = centre(p)
        for c in range(x - 2, x + 2):
            out.add((y, c))
    return out


_IN_CELL = _cells()

# ---------------------------------------------------------------- braille

# The dot bits of a Braille character (U+2800 + bits) by (row 0..3, column 0..1).
_DOT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def _braille(lines, bold, dotted):
    """{(row, column): (character, bold)} of the lines as Braille dots."""
    dots = {}
    for pair, dashed in [(pr, False) for pr in lines] + [(pr, True) for pr in dotted]:
        a, b = pair
        (x0, y0), (x1, y1) = centre(a), centre(b)
        px0, py0, px1, py1 = 2 * x0, 4 * y0 + 2, 2 * x1, 4 * y1 + 2
        n = max(abs(px1 - px0), abs(py1 - py0))
        heavy = pair in bold
        for i in range(n + 1):
            if dashed and i % 4 >= 2:
                continue
            px = int(round(px0 + (px1 - px0) * i / n))
            py = int(round(py0 + (py1 - py0) * i / n))
            at = (py // 4, px // 2)
            if at in _IN_CELL:
                continue
            bits, was_bold = dots.get(at, (0, False))
            dots[at] = (bits | _DOT[py % 4][px % 2], was_bold or heavy)
    return {at: (chr(0x2800 + bits), heavy) for at, (bits, heavy) in dots.items()}


# ---------------------------------------------------------------- ascii

# How strongly a character holds its place when another line crosses it.
_RANK = {"X": 4, "/": 3, "\\": 3, "|": 3, ":": 2, "-": 1, "_": 1, "'": 1}


def _put(grid, at, ch, heavy):
    old = grid.get(at)
    if old is not None:
        och, oheavy = old
        if {och, ch} == {"/", "\\"}:
            ch = "X"
        elif _RANK[och] >= _RANK[ch]:
            ch = och
        heavy = heavy or oheavy
    grid[at] = (ch, heavy)


def _ascii(lines, bold, dotted):
    """{(row, column): (character, bold)} of the lines in ASCII strokes."""
    grid = {}
    for pair, dashed in [(pr, False) for pr in lines] + [(pr, True) for pr in dotted]:
        a, b = pair
        (x0, y0), (x1, y1) = centre(a), centre(b)
        dx, dy = x1 - x0, y1 - y0
        heavy = pair in bold
        if dy == 0:
            for x in range(min(x0, x1) + 2, max(x0, x1) - 2):
                _put(grid, (y0, x), "-", heavy)
        elif abs(dy) * 2 >= abs(dx):
            # one character a row: | for the ring, / or \ for a diagonal
            ch = ":" if dashed else "|" if dx == 0 else "/" if (dx > 0) != (dy > 0) else "\\"
            for y in range(min(y0, y1) + 1, max(y0, y1)):
                _put(grid, (y, int(x0 + dx * (y - y0) / dy)), ch, heavy)
        else:
            # one character a column, stepping down a row every 4 columns
            for x in range(min(x0, x1) + 2, max(x0, x1) - 2):
                y = y0 + 0.5 + dy * (x + 0.5 - x0) / dx
                row = int(y)
                if (row, x) in _IN_CELL:
                    continue
                f = y - row
                _put(grid, (row, x), "'" if f < 0.25 else "-" if f < 0.75 else "_", heavy)
    return grid


# ---------------------------------------------------------------- cells


def cell_text(p, label="", mark=None):
    """The CELL_W characters of point p: its name when empty (" a1 "), else its
    letters (" A  ", " aT "); inside a mark's pair when it has one ("[a1]",
    "[A] ", "(c3)")."""
    pair = MARK_OF.get(mark, "  ")
    if label and len(label) == 1:
        return pair[0] + label + pair[1] + " "
    return pair[0] + (label[:2] if label else jboard.NAMES[p]) + pair[1]


def point_lines(points):
    """The lines (pairs) that end at any of the points."""
    return set(pair for pair in LINES if pair[0] in points or pair[1] in points)


def draw_board(colours, labels=None, marks=None, mode="truecolor", drawing="braille",
               bold_points=(), dotted=False):
    """Rows of text: the 25 points as cells in their LED colours (as
    perceived), letters (labels, None: point names only) and marks ({point:
    mark name}), over the board's lines; then the files' row.

    mode: "truecolor", "256" or "none" (plain text); drawing: "braille" or
    "ascii"; bold_points: points whose lines are drawn bold (in a colour
    mode); dotted: draw the dotted line (it counts only in jasyr)."""
    marks = marks or {}
    bold = point_lines(bold_points)
    strokes = (_braille if drawing == "braille" else _ascii)(LINES, bold, DOTTED if dotted else ())
    cells = {}
    for p in range(25):
        x, y = centre(p)
        cells[(y, x - 2)] = p
    plain = mode == "none"
    rows = []
    for y in range(HEIGHT):
        rank = 5 - y // SY if y % SY == 0 else 0
        line = ["%d " % rank if rank else "  "]
        x = LEFT
        while x < WIDTH:
            p = cells.get((y, x))
            if p is not None:
                label = labels[p] if labels else ""
                mark = marks.get(p)
                line.append(paint(cell_text(p, label, mark), colours[p], mode,
                                  bool(label) or mark is not None))
                x += CELL_W
                continue
            ch, heavy = strokes.get((y, x), (" ", False))
            line.append(BOLD + ch + RESET if heavy and not plain else ch)
            x += 1
        rows.append("".join(line).rstrip())
    files = [" "] * WIDTH
    for f in range(5):
        files[centre(f)[0] - 1] = "abcde"[f]
    rows.append("".join(files).rstrip())
    return rows


# ---------------------------------------------------------------- small terminals

SMALL_W = 2 + 5 * CELL_W + 4      # rank label, five cells with a space between two


def small_board(colours, labels=None, marks=None, mode="truecolor"):
    """The 25 points as 5 rows of cells in their LED colours (rank 5 on top),
    the file letters under them; pieces by their letters, empty points by
    name, with their marks; no lines. SMALL_W columns and 6 rows, for
    terminals too small for draw_board()."""
    marks = marks or {}
    rows = []
    for rank in range(5, 0, -1):
        parts = ["%d " % rank]
        for f in range(5):
            p = (rank - 1) * 5 + f
            label = labels[p] if labels else ""
            mark = marks.get(p)
            parts.append(paint(cell_text(p, label, mark), colours[p], mode,
                               bool(label) or mark is not None))
            if f < 4:
                parts.append(" ")
        rows.append("".join(parts))
    files = [" "] * SMALL_W
    for f in range(5):
        files[2 + f * (CELL_W + 1) + 1] = "abcde"[f]
    rows.append("".join(files).rstrip())
    return rows


def neighbours_text(p):
    """"c3: d1 a2 a4 e4" - the points one line away from p."""
    table = jboard.neighbours()
    return "%s: %s" % (jboard.NAMES[p], " ".join(jboard.NAMES[q] for q in table[p]))
