"""RULES.md section 1: the board.

One test per rule; the expected data is copied from RULES.md, not from the
engine. Plain functions and asserts: runs under pytest and MicroPython.
"""

from jarmo import Game
from jarmo.board import DOTTED_LINE, LINES, NAMES, neighbours
from tests.core.positions import NORTH_CAMP, POINTS, SOUTH_CAMP, game

# RULES.md section 1, the 38 lines as printed.
RULES_LINES = (
    "a1-c2 a1-b3 b1-d2 b1-a3 c1-a2 c1-e2 c1-d3 d1-b2 d1-c3 e1-c2 e1-d3 "
    "a2-c3 b2-c2 b2-b3 b2-c4 c2-d2 c2-e3 d2-b3 d2-d3 e2-d4 "
    "a3-b5 b3-b4 b3-a5 b3-c5 c3-a4 c3-e4 d3-b4 d3-d4 d3-e5 e3-d5 "
    "a4-c5 b4-c4 b4-d5 c4-d4 c4-a5 c4-e5 d4-b5 e4-c5"
)

# RULES.md section 1, the neighbour table as printed (rank 5 at the top).
RULES_NEIGHBOURS = """
a5: b3 c4
b5: a3 d4
c5: b3 a4 e4
d5: e3 b4
e5: d3 c4
a4: c3 c5
b4: b3 d3 c4 d5
c4: b2 b4 d4 a5 e5
d4: e2 d3 c4 b5
e4: c3 c5
a3: b1 b5
b3: a1 b2 d2 b4 a5 c5
c3: d1 a2 a4 e4
d3: c1 e1 d2 b4 d4 e5
e3: c2 d5
a2: c1 c3
b2: d1 c2 b3 c4
c2: a1 e1 b2 d2 e3
d2: b1 c2 b3 d3
e2: c1 d4
a1: c2 b3
b1: d2 a3
c1: a2 e2 d3
d1: b2 c3
e1: c2 d3
"""

RING = ("b2", "c2", "d2", "d3", "d4", "c4", "b4", "b3")


def _xy(name):
    return "abcde".index(name[0]), int(name[1]) - 1


def _name(x, y):
    return "abcde"[x] + str(y + 1)


def _pairs(text):
    """The lines of a text as a set of sorted name pairs."""
    found = set()
    for item in text.split():
        a, b = item.split("-")
        found.add((min(a, b), max(a, b)))
    return found


def _engine_lines():
    return _pairs(LINES)


def _all_moves(g):
    return [a for a in g.legal() if len(a) == 5 and a[2] == "-"]


def test_points_are_named_a1_to_e5_files_left_to_right_and_ranks_as_seen_by_south():
    assert len(POINTS) == 25
    assert tuple(NAMES) == POINTS
    g = Game("standard")
    for p in POINTS:
        g.piece(p)   # every name is a point
    for bad in ("f1", "a6", "a0", "e0", "aa"):
        try:
            g.piece(bad)
        except ValueError:
            continue
        raise AssertionError("%s accepted as a point" % bad)


def test_south_camp_is_rank_1_and_north_camp_is_rank_5():
    g = Game("standard")
    for p in SOUTH_CAMP:
        assert g.piece(p) == "Sa"
    for p in NORTH_CAMP:
        assert g.piece(p) == "Na"


def test_there_are_exactly_the_38_printed_lines():
    printed = _pairs(RULES_LINES)
    assert len(printed) == 38
    assert len(LINES.split()) == 38
    assert _engine_lines() == printed


def test_30_lines_are_knight_shaped_and_8_are_orthogonal_steps():
    knight = orthogonal = 0
    for a, b in _pairs(RULES_LINES):
        ax, ay = _xy(a)
        bx, by = _xy(b)
        d = sorted((abs(ax - bx), abs(ay - by)))
        if d == [1, 2]:
            knight += 1
        elif d == [0, 1]:
            orthogonal += 1
        else:
            raise AssertionError("line %s-%s is neither knight-shaped nor a step" % (a, b))
    assert (knight, orthogonal) == (30, 8)


def test_the_8_orthogonal_lines_form_a_ring_around_the_centre():
    steps = set()
    for a, b in _engine_lines():
        ax, ay = _xy(a)
        bx, by = _xy(b)
        if abs(ax - bx) + abs(ay - by) == 1:
            steps.add((a, b))
    ring = set()
    for i in range(8):
        a, b = RING[i], RING[(i + 1) % 8]
        ring.add((min(a, b), max(a, b)))
    assert steps == ring


def test_the_centre_c3_is_not_on_the_ring():
    for a, b in _engine_lines():
        ax, ay = _xy(a)
        bx, by = _xy(b)
        if abs(ax - bx) + abs(ay - by) == 1:
            assert "c3" not in (a, b)


def test_the_neighbour_table_printed_in_the_rules_matches_the_board():
    table = neighbours()
    printed = {}
    for line in RULES_NEIGHBOURS.strip().split("\n"):
        point, rest = line.split(":")
        printed[point] = sorted(rest.split())
    assert sorted(printed.keys()) == sorted(POINTS)
    for i in range(25):
        assert sorted(NAMES[j] for j in table[i]) == printed[NAMES[i]], NAMES[i]


def test_no_rotation_or_reflection_maps_the_board_onto_itself():
    lines = _pairs(RULES_LINES)
    maps = (
        lambda x, y: (4 - y, x),          # rotate 90
        lambda x, y: (4 - x, 4 - y),      # rotate 180
        lambda x, y: (y, 4 - x),          # rotate 270
        lambda x, y: (4 - x, y),          # mirror left-right
        lambda x, y: (x, 4 - y),          # mirror top-bottom
        lambda x, y: (y, x),              # mirror on a diagonal
        lambda x, y: (4 - y, 4 - x),      # mirror on the other diagonal
    )
    for f in maps:
        image = set()
        for a, b in lines:
            c = _name(*f(*_xy(a)))
            d = _name(*f(*_xy(b)))
            image.add((min(c, d), max(c, d)))
        assert image != lines
    # and the engine plays on the printed board, so the same holds for it
    assert _engine_lines() == lines


def test_pieces_move_only_along_the_printed_lines():
    lines = _pairs(RULES_LINES)
    # From the start every South move is a printed line from its camp.
    g = Game("standard")
    expected = set()
    for a, b in lines:
        for x, y in ((a, b), (b, a)):
            if x[1] == "1" and y[1] != "1":
                expected.add(x + "-" + y)
    assert set(_all_moves(g)) == expected
    assert len(_all_moves(g)) == 11
    # Along whole games, every offered move is a printed line (plus the
    # dotted one in jasyr).
    games = (
        ("standard", "c1-e2 b5-a3 e1-c2 e5-c4 a1-b3 a3-b5 d1-c3 b5-a3 c3-e4 a3-b1 e4-c5 "
         "a5-b3 c2-e1 b3-a1 @a5 e2-d4 c4-e5 e1-c2 a5-c4 c2-e1 d5-e3 d4-d3 e3-c2 d3-d4 "
         "c2-b2 e1-d3 c4-a5 d3-c1 e5-d3 c1-a2"),
        ("jasyr", "c1-e2 b5-a3 e1-c2 a3-b1 a1-b3 e5-c4 d1-c3 c5-a4 c3-b5 a4-c3 b3-b4 "
         "c4-b4 c2-b2 c3-a2 e2-d4 b4-c4 b2-c2 c4-b2 c2-b2 d5-b4 d4-c4 a2-c1 c4-a5 b4-b3 "
         "b2-c2 @e5 c2-e3 e5-c4 e3-d5"),
    )
    for rules, actions in games:
        allowed = set(lines)
        if rules == "jasyr":
            allowed.add(("b5", "c3"))
        g = Game(rules)
        for action in actions.split():
            for move in _all_moves(g):
                a, b = move.split("-")
                assert (min(a, b), max(a, b)) in allowed, move
            g.play(action)


def test_the_dotted_line_is_c3_b5():
    assert _pairs(DOTTED_LINE) == {("b5", "c3")}
    assert ("b5", "c3") not in _pairs(RULES_LINES)


def test_the_dotted_line_is_used_only_in_jasyr():
    for rules in ("classic", "standard", "legendary", "jasyr"):
        g = game(rules, "a1-c2")
        assert ("b5-c3" in g.legal()) == (rules == "jasyr"), rules
        g = game(rules, "d1-c3 a5-b3")
        assert ("c3-b5" in g.legal()) == (rules == "jasyr"), rules
