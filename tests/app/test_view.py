"""jarmo.app_view: piece colours, breathing, hostage glimpse, markers, ticks."""

from jarmo import app_view as V
from jarmo.app import App
from jarmo.board import point
from jarmo.codes import GOLD, GUARD, MARK, NORTH, PRESENT
from tests.app.drive import Clock, play


def test_every_face_has_its_own_colour_per_side():
    colours = set()
    for side in (0, NORTH):
        for face in (0, MARK, GUARD, GOLD, GOLD | GUARD):
            colours.add(V.piece_colour(PRESENT | side | face, 0))
    assert len(colours) == 10
    # guards brighter than archers, in the same colour family
    for side in (0, 1):
        archer, guard = V.PIECE[side * 5], V.PIECE[side * 5 + 2]
        assert _sum(archer) * 3 < _sum(guard)


def _sum(c):
    return (c >> 16) + ((c >> 8) & 255) + (c & 255)


def test_marked_archer_breathes():
    marked = V.cell_of("Sm")
    seen = set(V.piece_colour(marked, t) for t in range(0, 2048, 128))
    assert len(seen) > 4
    assert V.piece_colour(V.cell_of("Sa"), 0) == V.piece_colour(V.cell_of("Sa"), 999)


def test_stack_glimpses_the_hostage_and_markers_glow():
    buf = bytearray(75)
    cells = bytearray(25)
    under = bytearray(25)
    c3 = point("c3")
    cells[c3] = V.cell_of("Na")
    under[c3] = V.cell_of("SA")
    markers = 1 << point("b3") | 1 << point("d3")
    V.draw_board(buf, cells, under, markers, -1, 100)
    assert V.get(buf, c3) == V.PIECE[3]         # hostage: South's gold archer
    V.draw_board(buf, cells, under, markers, -1, 1000)
    assert V.get(buf, c3) == V.PIECE[5]         # top: North archer
    assert V.get(buf, point("b3")) == V.MARKER and V.get(buf, point("a1")) == 0


def test_ticks_wrap_like_adafruit_ticks():
    assert V.ticks_diff(5, (1 << 29) - 5) == 10
    assert V.ticks_diff((1 << 29) - 5, 5) == -10
    assert V.ticks_add((1 << 29) - 1, 2) == 1


def test_clock_wrap_during_a_game():
    app = App(tabletop=True)
    clock = Clock(app, start=(1 << 29) - 300)
    app.new_game(rules="standard", opponent="human", games=1)
    clock.run(200)
    play(clock, "b1-d2")
    clock.run(1200)            # the clock wraps past 2**29 meanwhile
    assert app.pixel("b1") == V.TRAIL


def test_promotion_shows_as_a_guard():
    app = App(tabletop=True)
    clock = Clock(app)
    app.new_game(rules="standard", expansions=(), opponent="human", games=1)
    for a in ("b1-d2", "e5-d3", "d2-d3"):
        play(clock, a)
    assert app.game.piece("d3") == "Sg"
    clock.run(1000)
    if app.board.cursor != point("d3"):
        assert app.pixel("d3") == V.PIECE[2]


def test_each_sides_golden_soldier_has_its_own_tint():
    # South's turns to yellow, North's to bluish green: apart from the side's
    # other pieces, from the cursor, and from each other
    s_guard, s_gold = V.PIECE[2], V.PIECE[4]
    n_guard, n_gold, n_gold_archer, n_archer = V.PIECE[7], V.PIECE[9], V.PIECE[8], V.PIECE[5]
    assert n_gold & 255 < (n_gold >> 8) & 255                 # more green than blue
    assert n_guard & 255 > (n_guard >> 8) & 255               # the guard: more blue
    assert n_gold_archer & 255 < (n_gold_archer >> 8) & 255
    assert n_archer & 255 > (n_archer >> 8) & 255
    assert len({s_gold, n_gold, V.CURSOR[1], n_guard, s_guard}) == 5
    from jarmo.app_legend import LEGEND
    assert ("North Golden Soldier (guard, bluish green)", n_gold) in LEGEND
