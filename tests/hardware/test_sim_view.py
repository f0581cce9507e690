"""The simulator's board as a person reads it: letters from the game, LED
colours as the eye sees them, in true colour, 256 colours or plain text.

These render the real app's screens in-process and check the drawn cells
(their text and escape codes); tests/hardware/test_sim.py drives the whole
program through a pseudo-terminal.
"""

import io
import os
import re

import pytest

from hardware.leds import scale_level
from host import blinka, legend, screen, view
from host import board_text as BT
from host import colour as C
from host import sim as S
from jarmo import Game
from jarmo import app_view as V
from jarmo.board import NAMES, point

ANSI = re.compile(r"\x1b\[[0-9;]*m")

# Two short games that show every kind of piece (checked in the tests below):
# heroes: North's archer takes South's Golden Soldier on d3 (a stack, the
# archer promoted to guard), then leaves it there, archer face up.
HEROES_STACK = "e1-d3 e5-d3"
HEROES_LEFT = "e1-d3 e5-d3 a1-c2 d3-d4"
CLASSIC_MARKED = "c1-d3 e5-d3"      # classic: the capturer on d3 is marked


def _game(rules, actions, expansions=()):
    g = Game(rules, expansions=expansions)
    for a in actions.split():
        g.play(a)
    return g


def _sent(colour, cap, brightness):
    """The bytes hardware/leds.py sends for a frame colour."""
    from hardware.leds import Leds

    class Pixels(list):
        def show(self):
            pass
    px = Pixels([0] * 25)
    frame = bytearray(75)
    frame[0:3] = bytes(((colour >> 16) & 255, (colour >> 8) & 255, colour & 255))
    Leds(px, bytes(range(25)), cap).show(frame, scale_level(cap, brightness))
    return px[0]


def _rgb(c):
    return (c >> 16) & 255, (c >> 8) & 255, c & 255


# ---------------------------------------------------------------- letters


def test_piece_letters_follow_the_game_strings():
    assert legend.piece_label(None) == "" and legend.piece_label("") == ""
    assert [legend.piece_label(p) for p in ("Sa", "Sg", "Sm", "SG", "SA")] == list("AGMST")
    assert [legend.piece_label(p) for p in ("Na", "Ng", "Nm", "NG", "NA")] == list("agmst")
    assert legend.piece_label("Ng/SA") == "gT" and legend.piece_label("SA/NA") == "Tt"


def test_every_kind_of_piece_from_real_games():
    g = _game("standard", HEROES_STACK, ("heroes",))
    labels = {n: legend.piece_label(g.piece(n)) for n in NAMES if g.piece(n)}
    assert labels["d3"] == "gT"            # North's guard holds South's Golden Soldier
    assert labels["a5"] == "s"             # North's Golden Soldier, guard face up
    assert labels["a1"] == "A" and labels["b5"] == "a"
    g = _game("standard", HEROES_LEFT, ("heroes",))
    assert legend.piece_label(g.piece("d3")) == "T" and legend.piece_label(g.piece("d4")) == "g"
    g = _game("classic", CLASSIC_MARKED)
    assert legend.piece_label(g.piece("d3")) == "m"


def test_cells_show_names_letters_and_the_cursor():
    assert BT.cell_text(point("c3")) == " c3 "
    assert BT.cell_text(point("c3"), mark="cursor") == "[c3]"
    assert BT.cell_text(point("a1"), "A") == " A  "
    assert BT.cell_text(point("a1"), "A", "cursor") == "[A] "
    assert BT.cell_text(point("d3"), "gT") == " gT "
    assert BT.cell_text(point("d2"), "", "target") == "(d2)"
    assert BT.cell_text(point("b1"), "A", "selected") == "<A> "
    assert BT.cell_text(point("c5"), "a", "hint") == "{a} "
    assert BT.cell_text(point("e2"), "", "last") == "*e2*"
    assert all(len(BT.cell_text(0, lab, mark)) == BT.CELL_W
               for lab in ("", "A", "gT") for mark in (None,) + tuple(m for m, _ in BT.MARKS))


def test_legend_names_the_letters_the_rules_can_show():
    standard = "\n".join(legend.piece_legend(Game("standard")))
    assert "South A, North a" in standard and "A archer" in standard and "G guard" in standard
    assert "Golden" not in standard and "marked" not in standard
    assert "A archer  M marked archer" in legend.piece_legend(Game("classic"))
    heroes = "\n".join(legend.piece_legend(Game("standard", expansions=("heroes",))))
    assert "S Golden Soldier" in heroes and "T Golden" in heroes and "hostage" in heroes
    assert all(len(line) <= 25 for g in (Game("classic"), Game("jasyr", expansions=("heroes",)))
               for line in legend.piece_legend(g))


# ---------------------------------------------------------------- colours


def test_perceived_colour_undoes_the_dimming_and_lifts_dim_leds():
    # brightness 255 on the host profile: nothing is dimmed, a guard stays itself
    assert C.perceived(0xFF6400, 255) == 0xFF6400
    # an archer (0x401C00) is lifted to a clear vermillion-brown, same hue
    r, g, b = _rgb(C.perceived(0x401C00, 255))
    assert (r, b) == (136, 0) and abs(g / r - 0x1C / 0x40) < 0.01
    assert C.perceived(0, 128) == 0                     # an LED that is off stays off


PROFILES_AND_CAPS = [("host", 255), ("feather_oled", 64), ("qtpy_bff", 48)]
BRIGHTNESS = (8, 16, 32, 64, 96, 128, 192, 255)     # the menu's eight levels (app_menu)


def _hue_survives(cap, brightness):
    """True when the LED bytes still hold the archer's green part: the menu
    levels where a real LED shows vermillion rather than plain red."""
    return (0x1C * (scale_level(cap, brightness) + 1)) >> 8 > 0


@pytest.mark.parametrize("profile, cap", PROFILES_AND_CAPS)
@pytest.mark.parametrize("brightness", BRIGHTNESS)
def test_a_dim_archer_reads_as_its_side_colour_in_every_profile(profile, cap, brightness):
    """From the bytes actually sent: South's archer vermillion (red over green,
    no blue, bright enough to see), North's sky blue (blue over green over red).

    At the lowest levels of the capped profiles the LED itself rounds the
    archer's green to 0 (hardware/leds.py keeps the strongest channel lit):
    the screen then shows what the LED shows, pure red or blue, never a
    made-up colour and never nothing."""
    level = scale_level(cap, brightness)
    if not _hue_survives(cap, brightness):
        r, g, b = _rgb(C.perceived(_sent(0x401C00, cap, brightness), level))
        assert g == b == 0 and r >= 0x70, (r, g, b)        # red, never off
        r, g, b = _rgb(C.perceived(_sent(0x103650, cap, brightness), level))
        assert r == 0 and b >= 0x70, (r, g, b)                 # blue, never off
        return
    r, g, b = _rgb(C.perceived(_sent(0x401C00, cap, brightness), level))
    assert r >= 0x80 and r > g > b == 0 and 0.25 < g / r < 0.7, (r, g, b)
    r, g, b = _rgb(C.perceived(_sent(0x103650, cap, brightness), level))
    assert b >= 0x80 and b > g > r and 0.4 < g / b < 0.9, (r, g, b)
    # a guard stays brighter than an archer of its side
    guard = C.perceived(_sent(0xFF6400, cap, brightness), level)
    assert _rgb(guard)[0] > 0xE0


def test_the_same_piece_looks_the_same_at_every_brightness():
    """The eye adapts: the menu brightness and the profile's cap do not change
    the drawn colour (beyond the LED's own rounding)."""
    for c in (0x401C00, 0x103650, 0xFF6400, 0x40A8FF, 0xFFC020):
        ref = _rgb(C.perceived(c, 255))
        for cap in (255, 64):
            for brightness in (64, 128, 255):
                level = scale_level(cap, brightness)
                got = _rgb(C.perceived(_sent(c, cap, brightness), level))
                assert max(abs(a - b) for a, b in zip(got, ref)) <= 24, (hex(c), cap, got, ref)


def test_colour_mode_detection():
    assert C.colour_mode("auto", {"COLORTERM": "truecolor", "TERM": "xterm"}) == "truecolor"
    assert C.colour_mode("auto", {"COLORTERM": "24bit"}) == "truecolor"
    assert C.colour_mode("auto", {"TERM": "xterm-256color"}) == "256"
    assert C.colour_mode("auto", {"TERM": "xterm"}) == "none"
    assert C.colour_mode("auto", {"TERM": "dumb"}) == "none"
    assert C.colour_mode("auto", {}) == "none"
    # NO_COLOR: any non-empty value, whatever the terminal says
    env = {"COLORTERM": "truecolor", "TERM": "xterm-256color"}
    assert C.colour_mode("auto", dict(env, NO_COLOR="1")) == "none"
    assert C.colour_mode("auto", dict(env, NO_COLOR="")) == "truecolor"
    # the command line wins over the environment
    assert C.colour_mode("truecolor", {"NO_COLOR": "1"}) == "truecolor"
    assert C.colour_mode("256", {}) == "256"
    with pytest.raises(ValueError):
        C.colour_mode("16", {})


def test_xterm_256_palette():
    assert C.xterm256(0x000000) == 16
    assert C.xterm256(0xFFFFFF) == 231
    assert C.xterm256(0xFF0000) == 196
    assert C.xterm256(0x808080) == 244           # the grey ramp is nearer than the cube
    assert C.xterm256(0x893C00) == 94            # a South archer as drawn
    assert C.sgr_colour(0xFF0000, "256", background=True) == "\x1b[48;5;196m"
    assert C.sgr_colour(0x102030, "truecolor") == "\x1b[38;2;16;32;48m"
    assert C.sgr_colour(0x102030, "none") == ""


def test_ink_reads_on_the_led_colour():
    assert C.ink_for(0xFFC020) == 0x000000          # a bright Golden Soldier: black letters
    assert C.ink_for(0x893C00) == 0xFFFFFF          # a dim archer: white letters
    assert C.ink_for(0) not in (0, 0xFFFFFF)         # an LED that is off: grey


# ---------------------------------------------------------------- the drawn board


def _screen(tmp_path, profile_name="host", mode="truecolor", args=()):
    """A Screen on the real app and LEDs; the drawn rows and the app."""
    from hardware import profiles
    from hardware.display import TextDisplay
    from hardware.leds import make_leds
    profile = profiles.get(profile_name)
    leds = make_leds(dict(profile, pixel_pin="NEOPIXEL"), -1, blinka.capturing_neopixel())
    has_display = profile["display"] is not None or profile is profiles.HOST
    text = TextDisplay() if has_display else None
    os.makedirs(str(tmp_path), exist_ok=True)
    app = S.make_app(profile, S.parse_args(["--data", str(tmp_path), "--seed", "1"] + list(args)),
                     str(tmp_path))
    app.tick(0)
    leds.update(app)
    if text is not None:
        text.update(app)
    return screen.Screen(app, leds, text, profile, io.StringIO(), mode=mode), leds, app


def _rows(screen, cols=120, rows=40):
    return screen.lines(os.terminal_size((cols, rows)))


def _cell_at(rows, p):
    """The drawn cell (with its escape codes) of point p on the full board."""
    rank = p // 5 + 1
    row = next(r for r in rows if ANSI.sub("", r).startswith("%d " % rank))
    col = BT.centre(p)[0] - 2
    # walk the row counting visible characters to the cell's column
    i = n = 0
    while n < col:
        m = ANSI.match(row, i)
        if m:
            i = m.end()
            continue
        i += 1
        n += 1
    j = i
    seen = 0
    while seen < BT.CELL_W:
        m = ANSI.match(row, j)
        if m:
            j = m.end()
            continue
        j += 1
        seen += 1
    m = ANSI.match(row, j)
    while m:
        j = m.end()
        m = ANSI.match(row, j)
    start = i
    while start > 0:                      # the codes just before the cell belong to it
        m = re.search(r"(\x1b\[[0-9;]*m)+$", row[:start])
        if not m:
            break
        start = m.start()
    return row[start:j]


@pytest.mark.parametrize("profile", ["host", "qtpy_bff", "feather_oled"])
def test_true_colour_cells_carry_the_letter_and_the_perceived_led(tmp_path, profile):
    screen, leds, app = _screen(tmp_path, profile)
    try:
        rows = _rows(screen)
        sent = blinka.sent_colours(leds.pixels, leds.map, screen.profile["pixel_order"])
        for name, letter in (("b1", "A"), ("c5", "a")):
            p = point(name)
            colour = C.perceived(sent[p], leds.level)
            cell = _cell_at(rows, p)
            assert ANSI.sub("", cell) == " %s  " % letter, cell
            assert cell.startswith("\x1b[1m" + C.sgr_colour(colour, "truecolor", True)), cell
            assert C.sgr_colour(C.ink_for(colour), "truecolor") in cell
            r, g, b = _rgb(colour)
            assert (r > g > b) if letter == "A" else (b > g > r), (name, hex(colour))
        cursor = _cell_at(rows, point("a1"))
        assert ANSI.sub("", cursor) == "[A] "                    # the cursor on a1
        assert ANSI.sub("", _cell_at(rows, point("c3"))) == " c3 "   # an empty point
    finally:
        leds.pixels.deinit()


def test_256_colour_cells(tmp_path):
    screen, leds, app = _screen(tmp_path, mode="256")
    try:
        rows = _rows(screen)
        sent = blinka.sent_colours(leds.pixels, leds.map, "GRB")
        cell = _cell_at(rows, point("b1"))
        index = C.xterm256(C.perceived(sent[point("b1")], leds.level))
        assert cell.startswith("\x1b[1m\x1b[48;5;%dm" % index) and " A  " in cell, cell
        assert "\x1b[48;2;" not in "".join(rows)
    finally:
        leds.pixels.deinit()


@pytest.mark.parametrize("cols, rows", [(120, 40), (60, 20), (30, 12)])
def test_plain_text_has_every_letter_and_no_escape_codes(tmp_path, cols, rows):
    screen, leds, app = _screen(tmp_path, mode="none")
    try:
        drawn = _rows(screen, cols, rows)
        text = "\n".join(drawn)
        assert "\x1b" not in text
        # the board's words only: the display's lines stand beside it, after "|"
        board = [[w for w in line.split("|")[0].split()[1:] if re.match(r"^\[?[A-Za-z][A-Za-z1-5]?\]?$", w)]
                 for line in drawn if re.match(r"[1-5] ", line)]
        assert board[0] == ["a"] * 5, text                       # rank 5: North's archers
        assert board[-1] == ["[A]", "A", "A", "A", "A"], text     # rank 1, the cursor on a1
        assert "c3" in text
    finally:
        leds.pixels.deinit()


def test_stack_golden_soldier_and_marked_letters_on_the_drawn_board(tmp_path):
    """The letters come from app.game: a heroes game with a hostage and a
    classic game with a marked archer, drawn in the real screen."""
    screen, leds, app = _screen(tmp_path, args=["--rules", "standard", "--expansions", "heroes",
                                                "--opponent", "human"])
    try:
        for a in HEROES_STACK.split():
            app.game.play(a)                    # the position the next frame shows
        app.tick(100)
        leds.update(app)
        rows = _rows(screen)
        assert ANSI.sub("", _cell_at(rows, point("d3"))) == " gT "
        assert ANSI.sub("", _cell_at(rows, point("a5"))) == " s  "
        text = ANSI.sub("", "\n".join(rows))
        assert "S Golden Soldier" in text and "hostage" in text
    finally:
        leds.pixels.deinit()
    screen, leds, app = _screen(tmp_path / "c", args=["--rules", "classic", "--opponent", "human"])
    try:
        for a in CLASSIC_MARKED.split():
            app.game.play(a)
        rows = _rows(screen)
        assert ANSI.sub("", _cell_at(rows, point("d3"))) == " m  "
        assert "M marked archer" in ANSI.sub("", "\n".join(rows))
    finally:
        leds.pixels.deinit()


def test_no_letters_where_the_leds_show_no_board(tmp_path):
    """On an LED-only board the menu lights item and value LEDs: no piece
    letters over them; beside a display the menu shows the board behind it."""
    from jarmo import app_buttons as B
    screen, leds, app = _screen(tmp_path, "qtpy_bff")
    try:
        app.press(B.MENU, 0)
        assert app.state == "menu" and view.board_labels(app) is None
    finally:
        leds.pixels.deinit()
    screen, leds, app = _screen(tmp_path / "d", "host")
    try:
        app.press(B.MENU, 0)
        labels = view.board_labels(app)
        assert labels[point("a1")] == "A" and labels[point("a5")] == "a"
    finally:
        leds.pixels.deinit()


def test_the_lines_of_the_cursor_and_the_selection_are_bold():
    """In a colour mode the lines of the point under the cursor (and of the
    selected piece) are drawn bold; the others plain; in plain text none."""
    rows = BT.draw_board([0] * 25, None, {point("a1"): "cursor"}, "truecolor", "ascii",
                         bold_points=(point("a1"),))
    y = BT.centre(point("a1"))[1] - 2
    assert "\x1b[1m/" in rows[y]                        # a1-b3, two rows up from a1
    far = BT.centre(point("e5"))[1] + 1
    assert "\x1b[1m" not in rows[far]                   # e5's lines: plain
    plain = BT.draw_board([0] * 25, None, {}, "none", "ascii", bold_points=(point("a1"),))
    assert "\x1b" not in "".join(plain)


# ---------------------------------------------------------------- the end of a game

# A short two-player game that South wins by wiping North out (the lesson's).
WIPEOUT = "e1-d3 b5-a3 b1-a3 e5-d3 c1-d3 a5-b3 a1-b3 d5-b4 b3-c5 @c1 b4-d3 c1-d3"


def _cells_text(rows):
    """{point name: the cell's text without its marks} of the full board."""
    out = {}
    for p in range(25):
        x, y = BT.centre(p)
        row = ANSI.sub("", rows[y])
        out[NAMES[p]] = row[x - 2:x + 2]
    return out


@pytest.mark.parametrize("mode", ["none", "truecolor"])
@pytest.mark.parametrize("drawing", BT.DRAWINGS)
def test_the_end_screen_shows_the_final_position_and_the_winning_move(tmp_path, mode, drawing):
    """Bug: after "North wins: camp" every letter and the legend went, and with
    --color none (NO_COLOR, TERM=xterm) the board was blank. The final
    position stays, in letters, with the winning move marked, through the
    celebration and the result."""
    from tests.app.drive import Clock, play
    screen, leds, app = _screen(tmp_path, mode=mode, args=["--opponent", "human"])
    screen.drawing = drawing
    try:
        clock = Clock(app)
        for a in WIPEOUT.split():
            play(clock, a)
        g = app.game
        assert g.result().winner == "south"
        expected = {n: legend.piece_label(g.piece(n)) for n in NAMES if g.piece(n)}
        for state, ms in (("end", 100), ("result", 4000)):
            clock.run(ms)
            leds.update(app)
            screen.text_display.update(app)
            assert app.state == state
            rows = _rows(screen)
            text = ANSI.sub("", "\n".join(rows))
            cells = _cells_text(rows)
            for name, letters in expected.items():
                assert cells[name].strip(" *") == letters, (state, name, cells[name], text)
            assert cells["c1"] == "*c1*" and cells["d3"].startswith("*"), (state, text)
            assert "*c1* *d3* last move" in text and "Letters: South A, North a" in text
            assert "North's pieces are all" in text and "South wins." in text
            if mode == "none":
                assert "\x1b" not in "\n".join(rows)
        assert app.pixel("c1") == V.TRAIL           # the LEDs too: where the winning move came from
    finally:
        leds.pixels.deinit()


def _board_rows(rows):
    """The full board's rows (ranks 5 to 1 and the lines between), plain."""
    return [ANSI.sub("", r)[:BT.WIDTH] for r in rows[:BT.HEIGHT]]


def test_no_stray_dots_on_the_menu_and_end_screens(tmp_path):
    """Bug: "::" showed on the menu and end screens: the dotted line, drawn
    whenever no game was shown. It is drawn, and explained, in jasyr only."""
    from jarmo import app_buttons as B
    from tests.app.drive import Clock, play
    screen, leds, app = _screen(tmp_path, mode="none", args=["--opponent", "human"])
    screen.drawing = "ascii"
    try:
        clock = Clock(app)
        for a in WIPEOUT.split():
            play(clock, a)
        clock.run(4000)                             # the result
        for state in ("result", "menu"):
            assert app.state == state
            leds.update(app)
            screen.text_display.update(app)
            rows = _rows(screen)
            assert ":" not in "".join(_board_rows(rows)), "\n".join(rows)
            assert "dotted" not in "\n".join(rows)
            app.press(B.SELECT)                     # on to the menu, no game any more
            app.tick(clock.now)
    finally:
        leds.pixels.deinit()
    screen, leds, app = _screen(tmp_path / "j", mode="none", args=["--rules", "jasyr"])
    screen.drawing = "ascii"
    try:
        rows = _rows(screen)
        assert ":" in "".join(_board_rows(rows))
        assert "dotted c3-b5: a line in jasyr" in "\n".join(rows)
    finally:
        leds.pixels.deinit()


@pytest.mark.parametrize("mode", ["none", "truecolor"])
def test_the_lessons_cursor_is_bracketed_and_the_point_to_pick_marked(tmp_path, mode):
    """Bug: in First game the cursor had no brackets, no "at" line and no
    lines footer, and with --color none it could not be seen at all."""
    from jarmo import app_buttons as B
    from tests.app.drive import Clock, menu_to
    screen, leds, app = _screen(tmp_path, mode=mode)
    try:
        clock = Clock(app)
        app.press(B.MENU)
        menu_to(clock, "First game")
        clock.press(B.SELECT)
        assert app.state == "lesson"
        for _step in range(3):
            clock.run(300)
            leds.update(app)
            screen.text_display.update(app)
            rows = _rows(screen)
            text = ANSI.sub("", "\n".join(rows))
            cursor = NAMES[view.cursor(app)]
            cells = _cells_text(rows)
            assert cells[cursor].startswith("["), (cursor, text)          # the cursor, bracketed
            assert "lines %s:" % cursor in text                           # its lines named
            assert "Cursor %s: " % cursor in text                         # and on the display
            assert cells["e1"].startswith("[" if cursor == "e1" else "{"), text   # what to pick
            assert "[%s] cursor" % cursor in text
            if cursor != "e1":
                assert "{e1} hint: pick it" in text
            clock.press(B.NEXT)
    finally:
        leds.pixels.deinit()


def _marks_on_board(rows):
    """{point name: mark name} of the marked cells of the full board."""
    pairs = {pair: name for name, pair in BT.MARKS}
    out = {}
    for name, cell in _cells_text(rows).items():
        if cell[0] != " ":
            out[name] = pairs[cell[0] + (cell[3] if cell[3] != " " else cell[2])]
    return out


def test_every_mark_on_the_board_is_explained(tmp_path):
    """The cursor, the selected piece, its targets, the hint and the last move:
    each mark shown is named, with its points, in the legend beside the board."""
    from jarmo import app_buttons as B
    from jarmo.board import point
    from tests.app.drive import Clock, goto, menu_to, play
    screen, leds, app = _screen(tmp_path, mode="none", args=["--opponent", "human"])
    try:
        clock = Clock(app)
        play(clock, "b1-d2")                          # a last move
        seen = set()

        def check():
            leds.update(app)
            screen.text_display.update(app)
            rows = _rows(screen)
            side = "\n".join(ANSI.sub("", r)[BT.WIDTH + 2:] for r in rows)   # beside the board
            marks = _marks_on_board(rows)
            for name, mark in marks.items():
                pair = dict(BT.MARKS)[mark]
                assert pair[0] + name + pair[1] in side, (name, mark, side)
                assert dict(legend.MARK_WORDS)[mark] in side, (mark, side)
                seen.add(mark)
            return marks

        marks = check()
        assert marks["b1"] == "last" and marks["d2"] == "last"
        goto(clock, point("a5"))
        clock.press(B.SELECT)                         # North's archer on a5: selected
        marks = check()
        assert marks["a5"] == "selected" and {marks["b3"], marks["c4"]} <= {"target", "cursor"}
        clock.press(B.BACK)
        clock.press(B.MENU)
        menu_to(clock, "Hint")
        clock.press(B.SELECT)                         # a hint for North's turn
        for _ in range(200):
            clock.run(16)
            if any(line.startswith("Hint: ") and "thinking" not in line for line in app.text):
                break
        clock.run(100)
        marks = check()
        assert "hint" in marks.values(), marks
        assert seen == {"cursor", "selected", "target", "hint", "last"}
    finally:
        leds.pixels.deinit()


def test_without_a_display_a_line_says_what_the_lit_leds_mean(tmp_path):
    """Bug: --profile qtpy_bff lit a5 white in the menu with nothing saying why."""
    from jarmo import app_buttons as B
    from jarmo import app_menu as M
    screen, leds, app = _screen(tmp_path, "qtpy_bff", mode="none")
    try:
        app.press(B.MENU)
        said = []
        for _ in range(6):
            app.tick(app.now + 16)
            leds.update(app)
            text = ANSI.sub("", "\n".join(_rows(screen)))
            item = app.states[app.sid].item
            spot = NAMES[M.ITEMS[item * M.ITEM + M.SPOT]]
            title = M.ITEMS[item * M.ITEM + M.TITLE]
            assert "LEDs: %s lit white = the item %s" % (spot, title) in text, text
            said.append(text)
            app.press(B.NEXT)
        assert any("lit = its value" in t for t in said)      # a setting's value, counted from a1
        assert any("(it blinks: SELECT does it)" in t for t in said)
    finally:
        leds.pixels.deinit()


def test_every_screen_of_the_app_has_its_row_in_the_view():
    """A new screen (a row of jarmo.app_base.SCREENS) fails here until the
    simulator knows when its LEDs show the board and what they mean."""
    from jarmo import app_base as B
    ids = set(range(len(B.SCREENS) // B.SCREEN))
    assert set(view.SCREEN_LEDS) == ids | {view.REPLAY}
