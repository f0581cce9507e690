# Board: the Jarmo board as data - one table of lines, and what is derived from it.
#
# Points are the ints 0..24: index = (rank - 1) * 5 + file, so a1 = 0, e1 = 4,
# a5 = 20, e5 = 24.  Names follow chess: files a..e left to right and ranks
# 1..5, both as seen by South.  Everything else in the package (move
# generation, the LED overlay, the terminal drawing) is derived from LINES.

SOUTH = 0
NORTH = 1
SIDE_NAMES = ("south", "north")

FILES = "abcde"

# The 38 printed lines (RULES.md section 1), as unordered pairs.
LINES = (
    "a1-c2 a1-b3 b1-d2 b1-a3 c1-a2 c1-e2 c1-d3 d1-b2 d1-c3 e1-c2 e1-d3 "
    "a2-c3 b2-c2 b2-b3 b2-c4 c2-d2 c2-e3 d2-b3 d2-d3 e2-d4 "
    "a3-b5 b3-b4 b3-a5 b3-c5 c3-a4 c3-e4 d3-b4 d3-d4 d3-e5 e3-d5 "
    "a4-c5 b4-c4 b4-d5 c4-d4 c4-a5 c4-e5 d4-b5 e4-c5"
)

# The modern board's dotted line, usable only in the Jasyr variant.  The
# printed picture is not available to us: keep it as this one data item.
DOTTED_LINE = "c3-b5"

# Remote-camp markers of the Challenges expansion (one data item).
MARKERS = ("b3", "d3")

# Home row (rank index 0..4) of each side; a side's enemy camp is the other's.
HOME_ROW = (0, 4)

NAMES = tuple(FILES[p % 5] + str(p // 5 + 1) for p in range(25))

# Rank index of every point, as a table: cheaper than p // 5 in hot loops.
ROW = bytes(p // 5 for p in range(25))


def point(name):
    """The point index of a name such as "c3", or -1 if it is not a point."""
    if len(name) != 2:
        return -1
    f = FILES.find(name[0])
    r = "12345".find(name[1])
    if f < 0 or r < 0:
        return -1
    return r * 5 + f


def line_pairs(text):
    """The lines of a text such as LINES as a tuple of point-index pairs."""
    pairs = []
    for item in text.split():
        a, b = item.split("-")
        pairs.append((point(a), point(b)))
    return tuple(pairs)


def neighbours(with_dotted=False, side=None):
    """For every point, the tuple of points one line away.

    With side given, only forward or sideways steps for that side are kept
    (the Jasyr variant); with_dotted adds the dotted line.
    """
    pairs = line_pairs(LINES + " " + DOTTED_LINE if with_dotted else LINES)
    table = [[] for _ in range(25)]
    for a, b in pairs:
        table[a].append(b)
        table[b].append(a)
    if side is not None:
        step = 1 if side == SOUTH else -1
        for p in range(25):
            table[p] = [q for q in table[p] if (ROW[q] - ROW[p]) * step >= 0]
    return tuple(tuple(sorted(t)) for t in table)


def camp(side):
    """The five points of a side's home row, as a tuple."""
    first = HOME_ROW[side] * 5
    return tuple(range(first, first + 5))
