"""Terminal simulator of the handheld: `python3 run.py play` (python -m host.sim).

Runs the device's own main loop (hardware/mainloop.py) with jarmo.App,
Leds writing into a NeoPixel object and the display's Labels; instead of
buttons it reads the keyboard, and instead of LEDs it draws the bytes that
NeoPixel object last transmitted, as the eye sees the LED
(blinka.perceived), with each piece's letter from the game on top.

    python3 run.py play [--rules R] [--expansions E ...] [--opponent human|random|greedy|2|3|4]
                        [--side south|north] [--profile host|feather_oled|...]
                        [--color auto|truecolor|256|none] [--seed N] [--data DIR]
                        [--replay FILE] [--script FILE|-]

Keys: arrows move, Enter (or space) selects, Esc / Shift-Tab / Backspace
go back, Tab next choice, m menu, ? How to play (the device's own pages),
r the whole rules (docs/RULES.md, paged), x export the game as text, q
quit; plus one key per button of the chosen profile (its label: lower
case presses it, upper case holds it).

Pieces are letters, South upper case and North lower case: A archer, G
guard, M marked archer (classic), S Golden Soldier (guard face up), T a
Golden Soldier on its archer face; a stack shows its top piece and then
the hostage under it ("At").  Colours: true colour when COLORTERM says
so, 256 colours on a TERM with 256color, letters only otherwise or when
NO_COLOR is set; --color chooses.

The layout follows the terminal's size at every redraw: the full board
with the display beside (or under) it when it fits; else a compact board
of 5 x 5 coloured cells with the display's text beside or under it, so
the menus and whose turn it is always show; below MIN_COLS x MIN_ROWS a
message asks for a bigger terminal while the game keeps running.

Saves and statistics go to --data DIR, by default $XDG_DATA_HOME/jarmo
(else ~/.local/share/jarmo); the folder is made when missing.

--script FILE (or - for stdin) runs without a terminal, for CI and bug
reports: one event a line as in host/blinka.py (`select`, `p2 next`,
`wait 500`, `quit`, `export`), on a virtual clock; every screen that
changes is printed as plain text, with the LED bytes in hex under it.

--replay FILE steps through a game: the game in progress in a data folder
(or its log, jarmo.nvm), an export (`x`), Game.dump() text or a plain list
of moves.  Tab / right arrow next
action, Shift-Tab / left arrow previous, Home / End, q quit.
"""

import argparse
import os
import signal
import sys
import time

from adafruit_ticks import ticks_diff, ticks_ms

from hardware import profiles
from host import blinka  # sets BLINKA_OS_AGNOSTIC before board is imported
from jarmo import board as jboard
from jarmo import buttons as codes
from jarmo.game import EXPANSIONS, RULE_SETS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES_FILE = os.path.join(ROOT, "docs", "RULES.md")
COMMAND = "python3 run.py play"   # how players start it: the name in its messages

# ---------------------------------------------------------------- drawing

SX = 10   # columns between two points
SY = 4    # rows between two points
LEFT = 3  # columns for the rank labels
WIDTH = LEFT + 4 * SX + 6
HEIGHT = 4 * SY + 1
CELL_W = 4   # columns of one point: " a1 ", " A  ", "[At]"

RESET = "\x1b[0m"
DIM = "\x1b[2m"
BOLD = "\x1b[1m"

_LINES = jboard.line_pairs(jboard.LINES)
_DOTTED = jboard.line_pairs(jboard.DOTTED_LINE)


def _xy(p):
    """Canvas centre of point p (rank 5 on top)."""
    return LEFT + (p % 5) * SX + 2, (4 - p // 5) * SY


def _slope_char(dx, dy):
    """The character that draws a line going (dx, dy) on the canvas: - | / \\,
    "." for the shallow lines (two files across, one rank up)."""
    if dy == 0:
        return "-"
    if dx == 0:
        return "|"
    if abs(dy) * 2.5 >= abs(dx):
        return "/" if (dx > 0) != (dy > 0) else "\\"
    return "."


def _plot_line(canvas, a, b, weight, weights, every=1, dotted=False):
    """Draw the line a-b: every `every` steps one character, where no
    heavier line is drawn yet; a continuous shallow line steps along
    with _ - ' so that it reads as one stroke."""
    x0, y0 = _xy(a)
    x1, y1 = _xy(b)
    dx, dy = x1 - x0, y1 - y0
    ch = ":" if dotted else _slope_char(dx, dy)
    if ch in "-|" and not dotted:
        every = 1
    steps = max(abs(dx), abs(dy) * 2)
    for i in range(1, steps, every):
        x = x0 + dx * i / steps
        y = y0 + dy * i / steps
        cx, cy = int(round(x)), int(round(y))
        c = ch
        if c == "." and every == 1:
            f = y - cy
            c = "_" if f > 0.2 else ("'" if f < -0.2 else "-")
        if weights[cy][cx] <= weight:
            canvas[cy][cx] = c
            weights[cy][cx] = weight


def board_canvas(highlight=-1, dotted=True):
    """The board lines as a list of character rows, and a per-cell style map.

    Styles: 0 blank, 0.5 dotted line, 1 line, 3 line of the highlighted point.
    The 30 knight's-move lines are drawn sparse (every third character) so
    that where they cross they stay readable; the lines of the highlighted
    point are drawn whole and bold.
    """
    canvas = [[" "] * WIDTH for _ in range(HEIGHT)]
    weights = [[0] * WIDTH for _ in range(HEIGHT)]
    if dotted:
        # under the printed lines: where it crosses the ring, the ring shows
        for a, b in _DOTTED:
            _plot_line(canvas, a, b, 0.5, weights, 2, dotted=True)
    for a, b in _LINES:
        if highlight in (a, b):
            _plot_line(canvas, a, b, 3, weights)
        else:
            _plot_line(canvas, a, b, 1, weights, 3)
    return canvas, weights


def neighbours_text(p):
    """"c3: d1 a2 a4 e4" - the points one line away from p."""
    table = jboard.neighbours()
    return "%s: %s" % (jboard.NAMES[p], " ".join(jboard.NAMES[q] for q in table[p]))


# ---------------------------------------------------------------- pieces as letters

# The face letters of Game.piece() ("Sa", "Ng", "SG", "Na/SA") -> the letter
# drawn; South upper case, North lower case.
PIECE_LETTERS = {"a": "A", "g": "G", "m": "M", "G": "S", "A": "T"}


def piece_label(piece):
    """Game.piece() text -> the letters drawn on its point: "Sa" "A", "Ng" "g",
    "SG" "S" (Golden Soldier), "NA" "t" (Golden Soldier, archer face),
    "Sm" "M" (marked), a stack "Na/SA" "aT" (top, then its hostage); "" if empty."""
    if not piece:
        return ""
    out = ""
    for face in piece.split("/"):
        letter = PIECE_LETTERS.get(face[1:2], "?")
        out += letter if face[:1] == "S" else letter.lower()
    return out


def board_labels(app):
    """The 25 labels (piece letters, "" for an empty point) of the position the
    LEDs show, or None while they show something else (an LED-only menu or
    screen, a pseudo choice's icon)."""
    game = getattr(app, "game", None)
    state = getattr(app, "state", None)
    if state == "lesson":                   # the guided first game has its own game
        return [piece_label(app.states[app.sid].game.piece(name)) for name in jboard.NAMES]
    if game is None:
        return None
    if state == "play" and app.cursor < 0:
        return None           # done / redeploy / menu: an icon replaces the board
    if state not in ("play", "ai", "end", "replay") and not (
            state == "menu" and getattr(app, "has_display", False)):
        return None           # the menu shows the board only beside a display
    return [piece_label(game.piece(name)) for name in jboard.NAMES]


def piece_legend(game):
    """Lines (at most 25 characters) that say what the letters mean, for the
    pieces this game's rules can show."""
    rules = getattr(game, "rules", None)
    heroes = "heroes" in getattr(game, "expansions", ())
    out = ["Letters: South A, North a",
           "A archer   G guard"]
    if rules == "classic":
        out.append("M marked archer")
    if heroes:
        out += ["S Golden Soldier (guard)", "T Golden S., archer face",
                "At: A holds hostage t"]
    return out


def short_piece_legend(game, width):
    """The piece legend in one line that fits width ("" if none does)."""
    kinds = "A archer, G guard"
    if getattr(game, "rules", None) == "classic":
        kinds += ", M marked"
    if "heroes" in getattr(game, "expansions", ()):
        kinds += ", S/T Golden Soldier"
    for text in ("South A, North a: " + kinds, "South A, North a", ""):
        if len(text) <= width:
            return text
    return ""


# ---------------------------------------------------------------- cells


def _luminance(c):
    """WCAG relative luminance of 0xRRGGBB."""
    out = 0.0
    for shift, weight in ((16, 0.2126), (8, 0.7152), (0, 0.0722)):
        v = ((c >> shift) & 255) / 255
        v = v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
        out += weight * v
    return out


def ink_for(c):
    """The text colour that reads best on the LED colour c: black or white
    (the one with more contrast), light grey on an LED that is off."""
    if c == 0:
        return 0xB0B0B0
    return 0x000000 if _luminance(c) > 0.179 else 0xFFFFFF


def cell_text(p, label="", highlighted=False):
    """The 4 characters of point p: its name when empty (" a1 "), else its
    letters (" A  ", " aT "); in brackets under the cursor ("[a1]", "[A] ")."""
    if label and len(label) == 1:
        return ("[%s] " if highlighted else " %s  ") % label
    inner = label[:2] if label else jboard.NAMES[p]
    return ("[%s]" if highlighted else " %s ") % inner


def paint_cell(text, colour, mode, bold=False):
    """text on the LED colour (0xRRGGBB as perceived) in the colour mode;
    plain text in mode "none"."""
    if mode == "none":
        return text
    return ((BOLD if bold else "") + blinka.sgr_colour(colour, mode, background=True)
            + blinka.sgr_colour(ink_for(colour), mode) + text + RESET)


def draw_board(colours, highlight=-1, mode="truecolor", labels=None, dotted=True):
    """Rows of text: the 25 points in their LED colours (as perceived), with
    the piece letters (labels, None: point names only), over the board lines.

    mode: "truecolor", "256" or "none" (plain text: letters and lines only);
    dotted: draw the dotted line (it only counts in jasyr).
    """
    canvas, weights = board_canvas(highlight, dotted)
    styles = {0.5: DIM, 1: DIM, 3: BOLD}
    plain = mode == "none"
    rows = []
    for y in range(HEIGHT):
        points = {}
        rank = 5 - y // SY if y % SY == 0 else 0
        if rank:
            for f in range(5):
                p = (rank - 1) * 5 + f
                x, _ = _xy(p)
                points[x - 2] = p
        line = []
        x = 0
        while x < WIDTH:
            if x == 0 and rank:
                line.append("%d " % rank)
                x = 2
                continue
            if x in points:
                p = points[x]
                label = labels[p] if labels else ""
                line.append(paint_cell(cell_text(p, label, p == highlight), colours[p], mode,
                                       bool(label) or p == highlight))
                x += CELL_W
                continue
            ch = canvas[y][x]
            if not plain and ch != " ":
                line.append(styles[weights[y][x]] + ch + RESET)
            else:
                line.append(ch)
            x += 1
        rows.append("".join(line).rstrip())
    files = [" "] * WIDTH
    for f in range(5):
        files[_xy(f)[0]] = "abcde"[f]
    rows.append("".join(files).rstrip())
    return rows


def display_box(lines, has_display):
    """The OLED's 21 x 5 characters in a frame."""
    top = "+" + "-" * 23 + "+"
    out = [top]
    if not has_display:
        out.append("| %-21s |" % "(no display)")
    else:
        for i in range(5):
            t = lines[i] if i < len(lines) else ""
            out.append("| %-21s |" % t[:21])
    out.append(top)
    return out


GENERIC_KEYS = (
    ("arrows", "up/down/left/right"),
    ("Enter", "select"),
    ("Tab", "next"),
    ("Esc/S-Tab", "back"),
    ("m", "menu"),
    ("?", "how to play"),
    ("r", "rules"),
    ("x", "export"),
    ("q", "quit"),
)


def legend(profile, replay=False):
    """Key legend lines for the chosen profile."""
    if replay:
        return ["Keys: Tab/right next action, S-Tab/left previous, Home start,",
                "End last, r rules, x export, q quit"]
    out = ["Keys: " + ", ".join("%s %s" % kv for kv in GENERIC_KEYS)]
    keys = profile["keys"]
    if keys:
        parts = []
        for label, _pin, seat, short, long in keys:
            text = "%s %s" % (label, short)
            if long:
                text += " (%s: %s)" % (label.upper() if label.isalpha() else "hold " + label, long)
            if profile["tabletop"]:
                text = "P%d %s" % (seat + 1, text)
            parts.append(text)
        out.append("Buttons: " + ", ".join(parts))
    return out


def wrap(line, width):
    """Split a plain line at ", " or spaces so that each piece fits width
    (a word longer than that is cut); continuation lines are indented by 2."""
    out = []
    while len(line) > width > 10:
        start = 3 if out else 1        # never at the indent itself: always progress
        cut = line.rfind(", ", start, width)
        cut = cut + 1 if cut > 0 else line.rfind(" ", start, width)
        if cut <= 0:
            cut = width
        out.append(line[:cut].rstrip())
        line = "  " + line[cut:].lstrip()
    out.append(line)
    return out


def _visible_len(s):
    n = 0
    i = 0
    while i < len(s):
        if s[i] == "\x1b":
            j = s.find("m", i)
            i = j + 1 if j >= 0 else len(s)
            continue
        n += 1
        i += 1
    return n


def _clip(s, width):
    """Cut a line with colour codes to width visible characters."""
    if _visible_len(s) <= width:
        return s
    out = []
    n = 0
    i = 0
    while i < len(s) and n < width:
        if s[i] == "\x1b":
            j = s.find("m", i)
            out.append(s[i:j + 1])
            i = j + 1
            continue
        out.append(s[i])
        n += 1
        i += 1
    return "".join(out) + (RESET if "\x1b" in s else "")


def compose(board_rows, side_rows, width):
    """Board on the left, display and notes on the right (below if too narrow)."""
    left_w = WIDTH + 2
    if width >= left_w + 26:       # the display box is 25 wide
        rows = []
        for i in range(max(len(board_rows), len(side_rows))):
            b = board_rows[i] if i < len(board_rows) else ""
            s = side_rows[i] if i < len(side_rows) else ""
            pad = " " * (left_w - _visible_len(b))
            rows.append(b + pad + s)
        return rows
    return list(board_rows) + [""] + list(side_rows)


# ---------------------------------------------------------------- small terminals

SMALL_W = 2 + 5 * CELL_W + 4      # rank label, five cells with a space between two
BOX_W = 25                        # the display box
MIN_COLS = 30                     # smaller than this (or MIN_ROWS): only a message
MIN_ROWS = 12


def small_board(colours, highlight=-1, mode="truecolor", labels=None):
    """The 25 points as 5 rows of cells in their LED colours (rank 5 on top),
    the file letters under them; pieces by their letters, empty points by
    name; the highlighted point in brackets.

    SMALL_W columns and 6 rows, for terminals too small for draw_board().
    """
    rows = []
    for rank in range(5, 0, -1):
        parts = ["%d " % rank]
        for f in range(5):
            p = (rank - 1) * 5 + f
            label = labels[p] if labels else ""
            parts.append(paint_cell(cell_text(p, label, p == highlight), colours[p], mode,
                                    bool(label) or p == highlight))
            if f < 4:
                parts.append(" ")
        rows.append("".join(parts))
    files = [" "] * SMALL_W
    for f in range(5):
        files[2 + f * (CELL_W + 1) + 1] = "abcde"[f]
    rows.append("".join(files).rstrip())
    return rows


def short_legend(profile, width, replay=False):
    """The fullest one-line key legend that fits width ("" if none does)."""
    if replay:
        options = [" ".join(legend(profile, replay=True)),
                   "Tab/right next, S-Tab/left prev, Home start, End last, q quit",
                   "Tab next, S-Tab prev, q quit",
                   "q quit"]
    else:
        generic = ("Keys: arrows, Enter select, Tab next, Esc back, m menu, ? how to play, "
                   "r rules, x export, q quit")
        options = ["; ".join(legend(profile))]
        if profile["keys"]:
            options.append(generic + "; buttons " + ", ".join(
                "%s %s" % (key[0], key[3]) for key in profile["keys"]))
        options += [generic,
                    "Keys: arrows, Enter select, Esc back, m menu, ? help, q quit",
                    "arrows, Enter select, Esc back, m menu, ? help, q quit",
                    "Enter select, Esc back, m menu, ? help, q quit",
                    "Esc back, m menu, ? help, q quit",
                    "m menu, ? help, q quit",
                    "m menu, q quit"]
    for text in options:
        if len(text) <= width:
            return text
    return ""


def too_small(columns, lines):
    """The message shown instead of the game, word-wrapped into columns - 1."""
    width = max(1, columns - 1)
    words = ("terminal too small: make it at least %dx%d" % (MIN_COLS, MIN_ROWS)).split()
    rows = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            rows.append(line)
            line = ""
        line = (line + " " + word) if line else word
        while len(line) > width:
            rows.append(line[:width])
            line = line[width:]
    rows.append(line)
    return rows[:max(1, lines)]


# ---------------------------------------------------------------- the rules, paged


def wrap_text(text, width):
    """Lines of text word-wrapped to width; a wrapped line keeps its indent
    (and a list item's, "- " or "1. ", for its continuation)."""
    out = []
    width = max(10, width)
    for line in text.expandtabs(4).splitlines():
        line = line.rstrip()
        if len(line) <= width:
            out.append(line)
            continue
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        for mark in ("- ", "* ", "| "):
            if stripped.startswith(mark):
                indent += len(mark)
                break
        else:
            head = stripped.split(" ", 1)[0]
            if head[:-1].isdigit() and head.endswith("."):
                indent += len(head) + 1
        indent = min(indent, width // 2)
        while len(line) > width:
            cut = line.rfind(" ", indent + 1, width + 1)
            if cut <= indent:
                cut = width
            out.append(line[:cut].rstrip())
            line = " " * indent + line[cut:].lstrip()
        out.append(line)
    return out


class Pager:
    """A text shown a page at a time in place of the game (the game runs on)."""

    FOOTER = ("Space/PgDn next page, b/PgUp back, Home/End, Esc or ? close",
              "Space next, b back, Esc close", "Esc close")

    def __init__(self, title, text):
        self.title = title
        self.text = text
        self.page = 0
        self.pages = 1

    def rows(self, columns, lines):
        width = max(10, columns - 1)
        body = wrap_text(self.text, width)
        height = max(1, lines - 2)
        self.pages = max(1, -(-len(body) // height))
        self.page = max(0, min(self.page, self.pages - 1))
        head = "%s - page %d/%d" % (self.title, self.page + 1, self.pages)
        foot = next((f for f in self.FOOTER if len(f) <= width), "")
        first = self.page * height
        rows = [head[:width]] + body[first:first + height]
        rows += [""] * (height + 1 - len(rows)) + [foot]
        return [r[:width] for r in rows[:max(1, lines)]]

    def key(self, name):
        """Turn the page for a key; False when the key closes the pager."""
        if name in ("back", "quit", "?", "menu"):
            return False
        if name in ("select", "next", "pgdn", "down", "right", "n"):
            self.page = min(self.pages - 1, self.page + 1)
        elif name in ("prev", "pgup", "up", "left", "b", "p"):
            self.page = max(0, self.page - 1)
        elif name == "home":
            self.page = 0
        elif name == "end":
            self.page = self.pages - 1
        return True


def rules_pager():
    """The rules (docs/RULES.md) in a Pager."""
    try:
        with open(RULES_FILE, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        text = ("The rules are not in this copy of the game: docs/RULES.md is missing.\n"
                "The README's Rules section names the rule sets.")
    return Pager("Rules (docs/RULES.md)", text)


# ---------------------------------------------------------------- export


def _turns(game):
    """The game's actions grouped by turn: [(side, [action, ...]), ...]."""
    from jarmo import Game
    g = Game(game.rules, expansions=game.expansions, ply_limit=game.ply_limit)
    out = []
    plies = -1
    for a in game.history():
        if g.plies != plies or not out:
            out.append((g.turn, []))
            plies = g.plies
        out[-1][1].append(a)
        g.play(a)
    return out


def export_text(game, when=None, seed=None):
    """The game as a text a person reads and `--replay` loads: comment lines
    (rules, result, the moves turn by turn) above Game.dump()."""
    when = time.localtime() if when is None else when
    res = game.result()
    if res is None:
        state = "in progress, %s to move" % game.turn
    elif res.winner is None:
        state = "a draw (%s)" % res.reason
    else:
        state = "%s won (%s)" % (res.winner.capitalize(), res.reason)
    if res is not None and res.points is not None:
        state += ", points %d-%d" % res.points
    lines = ["# Jarmo game exported %s by the simulator" % time.strftime("%Y-%m-%d %H:%M:%S", when),
             "# rules %s, expansions %s" % (game.rules, " ".join(game.expansions) or "none"),
             "# %s after %d actions" % (state, len(game.history()))]
    if seed is not None:
        lines.append("# AI seed %d" % seed)
    lines.append("# replay: python3 run.py play --replay THIS-FILE")
    lines.append("#")
    for i, (side, actions) in enumerate(_turns(game), 1):
        lines.append("# %3d %-5s %s" % (i, side, " ".join(actions)))
    return "\n".join(lines) + "\n" + game.dump()


def export_game(game, folder, when=None, seed=None):
    """Write export_text() as jarmo-game-YYYYmmdd-HHMMSS.txt in folder (a
    suffix -2, -3 ... if that name is taken); its path."""
    when = time.localtime() if when is None else when
    base = os.path.join(folder, time.strftime("jarmo-game-%Y%m%d-%H%M%S", when))
    path = base + ".txt"
    n = 1
    while os.path.exists(path):
        n += 1
        path = "%s-%d.txt" % (base, n)
    text = export_text(game, when, seed)
    with open(path, "x", encoding="utf-8") as f:
        f.write(text)
    return path


def _home(path):
    """path with the home folder written ~."""
    home = os.path.expanduser("~")
    if home not in ("", "/") and (path == home or path.startswith(home + os.sep)):
        return "~" + path[len(home):]
    return path


# ---------------------------------------------------------------- the screen


def app_cursor(app):
    """The point under the app's cursor while a human picks, else -1 (a
    replay has no cursor)."""
    cursor = getattr(app, "cursor", -1)
    return cursor if 0 <= cursor < 25 else -1


class Screen:
    """Draws the LEDs (from the transmitted NeoPixel bytes, as perceived), the
    pieces' letters, the display's text and legends; or the rules pager.

    mode: "truecolor", "256" or "none"; log=True prints each screen as plain
    text (the --script log: the full layout, then the LED bytes in hex).
    """

    def __init__(self, app, leds, text_display, profile, out, mode="truecolor", notes=None,
                 log=False):
        self.app = app
        self.leds = leds
        self.text_display = text_display
        self.profile = profile
        self.out = out
        self.mode = "none" if log else mode
        self.log = log
        self.notes = notes or []
        self.status = ""
        self.pager = None
        self.resized = True
        self.count = 0

    def size(self):
        try:
            size = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError):
            size = os.terminal_size((0, 0))
        if size.columns <= 0 or size.lines <= 0:   # a terminal that does not say
            return os.terminal_size((100, 40))
        return size

    def colours(self):
        """(the 25 colours as sent to the LEDs, the same as the eye sees them)."""
        sent = blinka.sent_colours(self.leds.pixels, self.leds.map, self.profile["pixel_order"])
        level = getattr(self.leds, "level", 255)
        return sent, [blinka.perceived(c, level) for c in sent]

    def lines(self, size=None):
        """The rows of the screen for a terminal of this size (default: the
        terminal's): each at most columns - 1 wide, at most `lines` of them.

        The rules pager when open; the full layout when it fits; else a
        compact one (small board, the display's text beside or under it);
        else a message to enlarge the terminal. The plain-text log is always
        the full one.
        """
        size = size or self.size()
        columns, lines = size.columns, size.lines
        if self.pager is not None and not self.log:
            if columns < MIN_COLS or lines < 3:
                return too_small(columns, lines)
            return self.pager.rows(columns, lines)
        sent, colours = self.colours()
        cursor = app_cursor(self.app)
        labels = board_labels(self.app)
        game = getattr(self.app, "game", None)
        text = self.text_display.lines() if self.text_display is not None else ()
        has_display = self.text_display is not None
        extras = list(self.notes) + ([self.status] if self.status else [])
        lines_row = ["lines " + neighbours_text(cursor)] if cursor >= 0 else []
        replay = getattr(self.app, "replay", False)
        pieces = piece_legend(game) if labels is not None else []
        if self.log or columns - 1 >= WIDTH:
            beside = columns >= WIDTH + 2 + 26
            side_w = columns - 1 - (WIDTH + 2) if beside and not self.log else 60
            side = display_box(text, has_display) + pieces
            for note in extras:
                side += wrap(note, max(side_w, 11))
            dotted = getattr(game, "rules", "jasyr") == "jasyr" or labels is None
            board_rows = draw_board(colours, cursor, self.mode, labels, dotted) + lines_row
            body = compose(board_rows, side, columns if not self.log else 200)
            if self.log:
                return body + ["LEDs as sent (hex):"] + blinka.frame_text(sent)
            # the whole legend, else one short line of it; no legend: too small for this
            whole = []
            for line in legend(self.profile, replay=replay):
                whole += wrap(line, columns - 1)
            short = short_legend(self.profile, columns - 1, replay)
            for keys in (whole, [short] if short else []):
                if keys and len(body) + 1 + len(keys) <= lines:
                    return body + [""] + keys
        if columns < MIN_COLS or lines < MIN_ROWS:
            return too_small(columns, lines)
        return self._compact(colours, cursor, labels, game, text, has_display, extras,
                             lines_row, short_legend(self.profile, columns - 1, replay),
                             columns, lines)

    def _compact(self, colours, cursor, labels, game, text, has_display, extras, lines_row,
                 keys, columns, lines):
        """Small board, the display's text beside it (or under it), then the
        cursor point's lines, the letters' legend, notes and a one-line key
        legend, as far as they fit."""
        board_rows = small_board(colours, cursor, self.mode, labels)
        beside = columns - 1 >= SMALL_W + 2 + BOX_W
        side_w = columns - 1 - (SMALL_W + 2) if beside else columns - 1
        plain = ["(no display)"] if not has_display else \
            ["| " + (text[i][:21] if i < len(text) else "") for i in range(5)]
        pieces = short_piece_legend(game, columns - 1) if labels is not None else ""
        notes = []
        for note in extras:
            notes += wrap(note, max(side_w, 11))
        keep = {"frame": True, "extras": True, "keys": bool(keys), "lines": True,
                "pieces": bool(pieces)}
        drop = ["keys", "extras", "pieces", "frame", "lines"]     # first dropped first
        while True:
            box = display_box(text, has_display) if keep["frame"] else plain
            if beside:
                side = box + (notes if keep["extras"] else [])
                rows = []
                for i in range(max(len(board_rows), len(side))):
                    b = board_rows[i] if i < len(board_rows) else ""
                    rows.append(b + " " * (SMALL_W + 2 - _visible_len(b))
                                + (side[i] if i < len(side) else ""))
            else:
                rows = board_rows + box + (notes if keep["extras"] else [])
            if keep["lines"]:
                rows += lines_row
            if keep["pieces"]:
                rows.append(pieces)
            if keep["keys"]:
                rows.append(keys)
            if len(rows) <= lines or not drop:
                return rows[:lines]
            keep[drop.pop(0)] = False

    def draw(self):
        self.count += 1
        if self.log:
            rows = self.lines()
            self.out.write("-- screen %d\n" % self.count)
            self.out.write("\n".join(r.rstrip() for r in rows) + "\n")
            self.out.flush()
            return
        size = self.size()
        rows = self.lines(size)[:size.lines]
        width = max(0, size.columns - 1)       # the last column stays empty: no line wraps
        buf = ["\x1b[2J" if self.resized else "", "\x1b[H"]
        self.resized = False
        # no newline after the last row: on the bottom line it would scroll the screen
        buf.append("\n".join(_clip(r, width) + "\x1b[K" for r in rows))
        buf.append("\x1b[J")
        self.out.write("".join(buf))
        self.out.flush()

    def __call__(self, now, drawn, texted):
        self.draw()


# ---------------------------------------------------------------- keyboard

_SEQUENCES = {
    b"\x1b[A": "up", b"\x1bOA": "up",
    b"\x1b[B": "down", b"\x1bOB": "down",
    b"\x1b[C": "right", b"\x1bOC": "right",
    b"\x1b[D": "left", b"\x1bOD": "left",
    b"\x1b[Z": "prev",
    b"\x1b[H": "home", b"\x1b[1~": "home", b"\x1bOH": "home",
    b"\x1b[F": "end", b"\x1b[4~": "end", b"\x1bOF": "end",
    b"\x1b[5~": "pgup", b"\x1b[6~": "pgdn",
}
_SINGLE = {
    b"\r": "select", b"\n": "select", b" ": "select",
    b"\t": "next", b"\x1b": "back", b"\x7f": "back", b"\x08": "back",
    b"m": "menu", b"n": "next", b"p": "prev", b"q": "quit", b"\x03": "interrupt",
}


def split_keys(data):
    """Bytes read from the terminal -> list of key names or single characters."""
    out = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"\x1b" and i + 1 < len(data):
            for seq, name in _SEQUENCES.items():
                if data.startswith(seq, i):
                    out.append(name)
                    i += len(seq)
                    break
            else:
                if data[i + 1:i + 2] in (b"[", b"O"):
                    # unknown sequence: skip to its final byte
                    j = i + 2
                    while j < len(data) and not (0x40 <= data[j] <= 0x7E):
                        j += 1
                    i = j + 1
                else:
                    out.append("back")
                    i += 1
            continue
        ch = data[i:i + 1]
        out.append(_SINGLE.get(ch, ch.decode("latin-1")))
        i += 1
    return out


class ProfileKeys:
    """The profile's physical buttons, fed through hardware.buttons.Buttons.

    A keypad.EventQueue stands in for keypad.Keys: pressing the label key
    records press + release, the upper-case label press now and release
    after the long-press time.
    """

    def __init__(self, profile):
        import keypad

        from hardware.buttons import Buttons

        class _Keys:
            events = keypad.EventQueue(32)

            def deinit(self):
                pass

        self.keys = _Keys()
        self.buttons = Buttons(profile, keys=self.keys)
        self.labels = self.buttons.labels
        self.long_ms = self.buttons.long_ms
        self.pending = []   # (release time, key number)

    def key(self, ch, now):
        """Handle a typed character; True if it was one of the profile's buttons."""
        q = self.keys.events
        if ch in self.labels:
            k = self.labels.index(ch)
            q.keypad_eventqueue_record(k, True)
            q.keypad_eventqueue_record(k, False)
            return True
        if ch.lower() in self.labels and ch != ch.lower():
            k = self.labels.index(ch.lower())
            q.keypad_eventqueue_record(k, True)
            self.pending.append((now + self.long_ms + 20, k))
            return True
        return False

    def poll(self, now, press):
        for item in list(self.pending):
            if ticks_diff(now, item[0]) >= 0:
                self.pending.remove(item)
                self.keys.events.keypad_eventqueue_record(item[1], False)
        return self.buttons.poll(now, press)


class TerminalInput:
    """Keyboard -> app.press; poll() waits up to idle_s for a key (the loop's only pause).

    Besides the buttons: ? opens the app's How to play (where the app has
    it, else the rules), r the rules (docs/RULES.md in a pager the next keys
    turn; Esc, q or ? close it), x exports the game as text into the data
    folder.
    """

    def __init__(self, fd, screen, profile_keys, idle_s=0.01, data=None, seed=None):
        self.fd = fd
        self.screen = screen
        self.profile_keys = profile_keys
        self.idle_s = idle_s
        self.data = data
        self.seed = seed
        self.quit = False

    def poll(self, now, press):
        """Hand every key that arrived to on_key(); False once the player quits."""
        import select
        if self.screen.resized and self.screen.count:   # the first screen waits for the app
            self.screen.draw()
        ready, _, _ = select.select([self.fd], [], [], self.idle_s)
        if ready:
            data = os.read(self.fd, 256)
            if not data:
                return False
            for name in split_keys(data):
                if name == "interrupt":
                    return False
                if self.screen.pager is not None:
                    if not self.screen.pager.key(name):
                        self.screen.pager = None
                        self.screen.resized = True
                    self.screen.draw()
                    continue
                if name == "quit":
                    return False
                self.on_key(name, now, press)
        if self.profile_keys is not None:
            self.profile_keys.poll(now, press)
        return True

    def on_key(self, name, now, press):
        if self.extra_key(name):
            return
        if name in codes.NAMES:
            press(codes.code(name), 0)
        elif self.profile_keys is None or not self.profile_keys.key(name, now):
            self.screen.status = "key %r does nothing here" % (name,)
            self.screen.draw()

    def extra_key(self, name):
        """?, r and x; True if name was one of them."""
        if name == "?" and open_how_to_play(self.screen.app):
            self.screen.status = ""
            self.screen.draw()
            return True
        if name in ("?", "r"):
            self.screen.pager = rules_pager()
            self.screen.resized = True
            self.screen.draw()
            return True
        if name == "x":
            self.screen.status = export_status(self.screen.app, self.data, self.seed)
            self.screen.draw()
            return True
        return False


def open_how_to_play(app):
    """Open the app's own How to play (the device's menu item), if it has one; True if so."""
    how = getattr(app, "how_to_play", None)
    if how is None:
        return False
    how()
    return True


def export_status(app, folder, seed=None):
    """Export app's game into folder; the line that says where (or why not)."""
    game = getattr(app, "game", None)
    if game is None:
        return "no game to export yet"
    if folder is None:
        return "no data folder to export into"
    try:
        path = export_game(getattr(app, "full", game), folder, seed=seed)
    except OSError as err:
        return "cannot export into %s: %s" % (_home(folder), err.strerror or err)
    return "game exported as %s in %s" % (os.path.basename(path), _home(os.path.dirname(path)))


class Terminal:
    """Raw keyboard, alternate screen; always restored (also on errors and SIGTERM)."""

    def __init__(self, fd, out):
        self.fd = fd
        self.out = out
        self.saved = None

    def __enter__(self):
        import termios
        import tty
        self.saved = termios.tcgetattr(self.fd)
        self._old_term = signal.signal(signal.SIGTERM, _terminate)
        tty.setcbreak(self.fd)
        attrs = termios.tcgetattr(self.fd)
        attrs[3] &= ~termios.ISIG  # Ctrl-C arrives as a key (quit), not as a signal
        termios.tcsetattr(self.fd, termios.TCSANOW, attrs)
        self.out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        self.out.flush()
        return self

    def __exit__(self, *exc):
        import termios
        try:
            self.out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
            self.out.flush()
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            signal.signal(signal.SIGTERM, self._old_term)
        return False


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


# ---------------------------------------------------------------- replay


class Replay:
    """Steps through a game; an App look-alike for the main loop.

    The position after `pos` actions is drawn with the app's own piece
    colours (jarmo/app_view.py), so a shared position looks as on the device.
    `full` is the whole game, `game` the position shown.
    """

    replay = True

    def __init__(self, game):
        self.full = game
        self.actions = game.history()
        self.rules = game.rules
        self.expansions = game.expansions
        self.ply_limit = game.ply_limit
        self.pos = len(self.actions)
        self.game = None
        self.frame = bytearray(75)
        self.frame_version = 0
        self.text = ()
        self.text_version = 0
        self.brightness = 255
        self.celebrate = None
        self.state = "replay"
        self._cells = bytearray(25)
        self._under = bytearray(25)
        self._draw()

    def position(self, n):
        """The game after its first n actions."""
        from jarmo import Game
        g = Game(self.rules, expansions=self.expansions, ply_limit=self.ply_limit)
        for a in self.actions[:n]:
            g.play(a)
        return g

    def _draw(self):
        from jarmo import app_view as V
        g = self.game = self.position(self.pos)
        for p in range(25):
            piece = g.piece(jboard.NAMES[p]) or ""
            top, _, under = piece.partition("/")
            self._cells[p] = V.cell_of(top)
            self._under[p] = V.cell_of(under)
        markers = 0
        for name in g.markers():
            markers |= 1 << jboard.point(name)
        last = self.actions[self.pos - 1] if self.pos else "start"
        trail = jboard.point(last[:2]) if len(last) == 5 and last[2] == "-" else -1
        V.draw_board(self.frame, self._cells, self._under, markers, trail, 1000)
        self.frame_version += 1
        res = g.result()
        lines = ["Replay %d/%d" % (self.pos, len(self.actions)),
                 ("%s %s" % (self.rules, "+".join(self.expansions))).strip()[:21],
                 "last: %s" % last]
        if res is not None:
            lines.append(("won: %s" % res.winner) if res.winner else "draw")
        else:
            lines.append("to move: %s" % g.turn)
        self.text = tuple(lines)
        self.text_version += 1

    def press(self, button, player=0):
        n = self.pos
        if button in (codes.NEXT, codes.RIGHT, codes.SELECT, codes.DOWN):
            n = min(len(self.actions), n + 1)
        elif button in (codes.PREV, codes.LEFT, codes.BACK, codes.UP):
            n = max(0, n - 1)
        elif button == codes.MENU:
            n = 0
        if n != self.pos:
            self.pos = n
            self._draw()

    def tick(self, now):
        pass


class ReplayKeys(TerminalInput):
    """Keys of the replay viewer: Home jumps to the start, End to the last action."""

    def on_key(self, name, now, press):
        if self.extra_key(name):
            return
        if name == "home":
            press(codes.MENU, 0)
        elif name == "end":
            for _ in range(1000):
                press(codes.NEXT, 0)
        elif name in codes.NAMES:
            press(codes.code(name), 0)


# ---------------------------------------------------------------- setup


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=COMMAND,
        description="Play Jarmo in a terminal: the handheld's own code with "
                    "the keyboard for buttons and coloured, lettered cells for LEDs. "
                    "Keys: arrows, Enter select, Tab next, Esc/Shift-Tab back, m menu, "
                    "? how to play, r rules, x export the game, q quit.")
    ap.add_argument("--rules", default=None,
                    help="%s (default: the app's)" % ", ".join(RULE_SETS))
    ap.add_argument("--expansions", nargs="*", default=None, metavar="E",
                    help=" and/or ".join(EXPANSIONS))
    ap.add_argument("--opponent", default=None,
                    help="%s (the menu's Versus ladder, strongest last)" % ", ".join(opponent_names()))
    ap.add_argument("--side", default=None, choices=("south", "north"),
                    help="the side you play against the computer")
    ap.add_argument("--profile", default="host", choices=sorted(profiles.PROFILES),
                    help="board profile: its buttons, pixel order and brightness")
    ap.add_argument("--color", "--colour", dest="color", default="auto",
                    choices=("auto",) + blinka.COLOUR_MODES,
                    help="auto (default: NO_COLOR, COLORTERM and TERM decide), truecolor, "
                         "256 or none (letters only)")
    ap.add_argument("--replay", metavar="FILE",
                    help="step through a game: a data folder (its game in progress) or its "
                         "jarmo.nvm, an export (key x), Game.dump() text or a plain list of moves "
                         "(played with --rules/--expansions)")
    ap.add_argument("--script", metavar="FILE",
                    help="events from FILE (- for stdin) instead of the keyboard; "
                         "prints each screen as plain text (no terminal needed)")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of the computer player's dice (default: a new one each "
                         "session)")
    ap.add_argument("--data", default=None, metavar="DIR",
                    help="folder for saves, statistics and exports, made when missing "
                         "(default: $XDG_DATA_HOME/jarmo, else ~/.local/share/jarmo)")
    return ap.parse_args(argv)


def session_seed():
    """A new seed for the AI's dice (24 bits from os.urandom: a small int)."""
    return int.from_bytes(os.urandom(3), "big")


def start_options(args):
    """The start options given on the command line, as a dict (only those given)."""
    opts = {}
    if args.rules is not None:
        opts["rules"] = args.rules
    if args.expansions is not None:
        opts["expansions"] = tuple(args.expansions)
    if args.opponent is not None:
        opts["opponent"] = args.opponent
    if args.side is not None:
        opts["side"] = args.side
    return opts


def opponent_names():
    """--opponent's choices: the menu's Versus ladder (human, then AI 1, AI 2,
    ...) by the names of the jarmo.ai levels its rungs play."""
    from jarmo.ai import LEVELS
    from jarmo.app_base import OPPONENTS
    return ("human",) + LEVELS[:len(OPPONENTS) - 1]


def check_options(opts):
    """ValueError naming a bad start option."""
    if "rules" in opts and opts["rules"] not in RULE_SETS:
        raise ValueError("--rules must be one of %s" % ", ".join(RULE_SETS))
    for e in opts.get("expansions", ()):
        if e not in EXPANSIONS:
            raise ValueError("--expansions takes %s, not %r" % (" and/or ".join(EXPANSIONS), e))
    if opts.get("rules") == "classic" and opts.get("expansions"):
        raise ValueError("the expansions do not go with the classic rules")
    if "opponent" in opts and opts["opponent"] not in opponent_names():
        raise ValueError("--opponent must be one of %s" % ", ".join(opponent_names()))


def start_game(app, opts):
    """Start a game with the given options, as the menu's "New game" would."""
    app.new_game(**opts)


def make_app(profile, args, data, seed=None):
    """The App on a store in the folder `data`, started as the options say."""
    from hardware.flash import open_store
    from jarmo.app import App
    opts = start_options(args)
    check_options(opts)
    if seed is None:
        seed = args.seed if args.seed is not None else session_seed()
    store, problems = open_store(os.path.join(data, blinka.LOG), data, use_nvm=False)
    app = App(store=store, has_display=profile["display"] is not None or
              profile is profiles.HOST, tabletop=profile["tabletop"], seed=seed,
              problems=problems)
    # A newcomer lands in a game against the default opponent (the greedy
    # AI); a saved game found in --data waits on the menu's "Resume" (the
    # menu offers Resume exactly when app.game is set), and a notice about
    # a damaged file stays up to be read. Start options always start a game.
    if opts or (app.state == "menu" and getattr(app, "game", None) is None):
        start_game(app, opts)
    return app


def read_script(path):
    """The events of --script FILE (- for stdin); FileError saying what is wrong."""
    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8")
            except UnicodeError:
                data = "\0"
        if "\0" in data:
            raise blinka.FileError("--script -: standard input is not text")
        text = data
    else:
        text = blinka.read_text(path, "--script")
    try:
        return blinka.parse_events(text, extra=("quit", "export", "rules"))
    except ValueError as err:
        raise blinka.FileError("--script %s: %s" % (path, err)) from err


def read_replay(path, args):
    """The Game in --replay FILE; FileError saying what is wrong.

    FILE: the app's saved game (a data folder, its log jarmo.nvm, or an
    older version's save files), an export, Game.dump() text or a plain
    list of moves."""
    entry = blinka.saved_game_entry(path) if os.path.exists(path) \
        else None
    if entry is not None:
        try:
            return blinka.load_saved_game(entry)
        except ValueError as err:
            raise blinka.FileError("--replay %s: not a game Jarmo can read: %s" % (path, err)) from err
    if os.path.isdir(path):
        raise blinka.FileError("--replay %s: is a folder without a saved game" % path)
    text = blinka.read_text(path, "--replay")
    try:
        return blinka.load_game_text(text, args.rules, args.expansions or ())
    except ValueError as err:
        raise blinka.FileError("--replay %s: not a game Jarmo can read: %s" % (path, err)) from err


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # Everything the command line names is checked before anything starts:
    # one line and status 2 for a bad option or file, never a traceback.
    try:
        check_options(start_options(args))
        game = read_replay(args.replay, args) if args.replay else None
    except (blinka.FileError, ValueError) as err:
        _say("%s: %s\n" % (COMMAND, err))
        return 2
    if args.script is None and not (_isatty(sys.stdin) and _isatty(sys.stdout)):
        _say(
            COMMAND + " needs a terminal: stdin/stdout is not a tty.\n"
            "For a run without one, give the button events as a script:\n"
            "  " + COMMAND + " --script events.txt   (or --script - to read stdin)\n")
        return 2
    if args.script == "-" and sys.stdin is None:
        _say(COMMAND + ": --script - reads stdin, but there is none\n")
        return 2
    try:
        data = blinka.data_folder(args.data)
        events = read_script(args.script) if args.script is not None else None
    except blinka.FileError as err:
        _say("%s: %s\n" % (COMMAND, err))
        return 2

    from hardware.display import TextDisplay
    from hardware.leds import make_leds
    from hardware.mainloop import run

    seed = args.seed if args.seed is not None else session_seed()
    profile = profiles.get(args.profile)
    # the profile's pixel order, rotation, brightness and buttons; Blinka's
    # simulated board has none of the device's pins, so the LEDs use its NEOPIXEL
    leds = make_leds(dict(profile, pixel_pin="NEOPIXEL"), -1, blinka.capturing_neopixel())
    has_display = profile["display"] is not None or profile is profiles.HOST
    text_display = TextDisplay() if has_display else None
    try:
        if game is not None:
            app = Replay(game)
            if text_display is None:
                text_display = TextDisplay()
        else:
            app = make_app(profile, args, data, seed)
        if events is not None:
            return _run_script(args, events, app, leds, text_display, profile, run, data, seed)
        return _run_terminal(args, app, leds, text_display, profile, run, data, seed)
    finally:
        leds.pixels.deinit()


def _isatty(f):
    """True if f (sys.stdin or sys.stdout, None when the descriptor is closed) is a terminal."""
    try:
        return f is not None and f.isatty()
    except (OSError, ValueError):
        return False


def _say(text):
    if sys.stderr is not None:
        sys.stderr.write(text)
        sys.stderr.flush()


class ScriptInput:
    """Events of a --script for the main loop; the word `export` exports the game."""

    def __init__(self, events, screen, data, seed):
        self.events = blinka.EventSource(events)
        self.screen = screen
        self.data = data
        self.seed = seed

    def poll(self, now, press):
        seen = len(self.events.words)
        going = self.events.poll(now, press)
        for word in self.events.words[seen:]:
            if word == "export":
                self.screen.status = export_status(self.screen.app, self.data, self.seed)
                self.screen.draw()
            elif word == "rules":
                open_how_to_play(self.screen.app)
        return going


def _run_script(args, events, app, leds, text_display, profile, run, data, seed):
    notes = ["Saves in " + _home(data)]
    screen = Screen(app, leds, text_display, profile, sys.stdout, notes=notes, log=True)
    sys.stdout.write("\n".join(legend(profile, replay=args.replay is not None)) + "\n")
    sys.stdout.write("AI seed %d (--seed %d plays this session again)\n" % (seed, seed))
    run(app, ScriptInput(events, screen, data, seed), leds, text_display,
        blinka.VirtualClock(), screen)
    return 0


def _run_terminal(args, app, leds, text_display, profile, run, data, seed):
    fd = sys.stdin.fileno()
    out = sys.stdout
    notes = ["Saves in " + _home(data)]
    screen = Screen(app, leds, text_display, profile, out, blinka.colour_mode(args.color),
                    notes=notes)

    def on_winch(signum, frame):
        screen.resized = True

    old_winch = signal.signal(signal.SIGWINCH, on_winch)
    try:
        with Terminal(fd, out):
            if args.replay:
                inputs = ReplayKeys(fd, screen, None, data=data, seed=seed)
            else:
                inputs = TerminalInput(fd, screen, ProfileKeys(profile) if profile["keys"]
                                       else None, data=data, seed=seed)
            run(app, inputs, leds, text_display, ticks_ms, screen)
    finally:
        signal.signal(signal.SIGWINCH, old_winch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
