"""Terminal simulator of the handheld: `python -m hardware.sim`.

Runs the device's own main loop (hardware/mainloop.py) with jarmo.App,
Leds writing into a NeoPixel object and the display's Labels; instead of
buttons it reads the keyboard, and instead of LEDs it draws, in true
colour, the bytes that NeoPixel object last transmitted.

    python -m hardware.sim [--rules R] [--expansions E ...] [--opponent human|random|greedy|2|3]
                           [--side south|north] [--profile host|feather_oled|...]
                           [--replay FILE] [--script FILE|-] [--seed N] [--data DIR]

Keys: arrows move, Enter (or space) selects, Esc (or Backspace) goes back,
Tab / Shift-Tab next / previous, m menu, q quit; plus one key per button of
the chosen profile (its label: lower case presses it, upper case holds it).

The layout follows the terminal's size at every redraw: the full board
with the display beside (or under) it when it fits; else a compact board
of 5 x 5 coloured cells with the display's text beside or under it, so
the menus and whose turn it is always show; below MIN_COLS x MIN_ROWS a
message asks for a bigger terminal while the game keeps running.

--script FILE (or - for stdin) runs without a terminal, for CI and bug
reports: one event a line as in hardware/host.py (`select`, `p2 next`,
`wait 500`, `quit`), on a virtual clock; every screen that changes is
printed as plain text, colours as hex.

--replay FILE loads a saved game (Game.dump() text) and steps through it:
Tab / right arrow next action, Shift-Tab / left arrow previous, q quit.
"""

import argparse
import os
import signal
import sys

from hardware import host  # sets BLINKA_OS_AGNOSTIC before board is imported
from hardware import profiles
from jarmo import board as jboard
from jarmo import buttons as codes

# ---------------------------------------------------------------- drawing

SX = 10   # columns between two points
SY = 4    # rows between two points
LEFT = 3  # columns for the rank labels
WIDTH = LEFT + 4 * SX + 6
HEIGHT = 4 * SY + 1

RESET = "\x1b[0m"
DIM = "\x1b[2m"
BOLD = "\x1b[1m"

_LINES = jboard.line_pairs(jboard.LINES)
_DOTTED = jboard.line_pairs(jboard.DOTTED_LINE)


def _xy(p):
    """Canvas centre of point p (rank 5 on top)."""
    return LEFT + (p % 5) * SX + 2, (4 - p // 5) * SY


def _plot_line(canvas, a, b, ch, weight, weights, every=1):
    x0, y0 = _xy(a)
    x1, y1 = _xy(b)
    steps = max(abs(x1 - x0), abs(y1 - y0) * 2)
    for i in range(1, steps, every):
        x = x0 + (x1 - x0) * i / steps
        y = y0 + (y1 - y0) * i / steps
        cx, cy = int(round(x)), int(round(y))
        if weights[cy][cx] <= weight:
            canvas[cy][cx] = ch
            weights[cy][cx] = weight


def _line_char(a, b):
    (x0, y0), (x1, y1) = _xy(a), _xy(b)
    if y0 == y1:
        return "-"
    if x0 == x1:
        return "|"
    return "."


def board_canvas(highlight=-1, dotted=True):
    """The board lines as a list of character rows, and a per-cell style map.

    Styles: 0 blank, 0.5 dotted line, 1 line, 3 line of the highlighted point.
    """
    canvas = [[" "] * WIDTH for _ in range(HEIGHT)]
    weights = [[0] * WIDTH for _ in range(HEIGHT)]
    if dotted:
        # under the printed lines: where it crosses the ring, the ring shows
        for a, b in _DOTTED:
            _plot_line(canvas, a, b, ":", 0.5, weights, 2)
    for a, b in _LINES:
        ch = _line_char(a, b)
        if highlight in (a, b):
            _plot_line(canvas, a, b, "*" if ch == "." else ch, 3, weights)
        else:
            # knight lines sparse, so that 30 of them crossing stay readable
            _plot_line(canvas, a, b, ch, 1, weights, 1 if ch != "." else 3)
    return canvas, weights


def neighbours_text(p):
    """"c3: d1 a2 a4 e4" - the points one line away from p."""
    table = jboard.neighbours()
    return "%s: %s" % (jboard.NAMES[p], " ".join(jboard.NAMES[q] for q in table[p]))


def _fg(c):
    return "\x1b[38;2;%d;%d;%dm" % ((c >> 16) & 255, (c >> 8) & 255, c & 255)


def _bg(c):
    return "\x1b[48;2;%d;%d;%dm" % ((c >> 16) & 255, (c >> 8) & 255, c & 255)


def _cell(c, text, bold=False):
    """text on the LED colour c: light ink on dark LEDs, dark on bright ones."""
    lum = ((c >> 16) & 255) * 3 + ((c >> 8) & 255) * 6 + (c & 255)
    ink = 0x000000 if lum > 1100 else 0x808080
    return (BOLD if bold else "") + _bg(c) + _fg(ink) + text + RESET


def draw_board(colours, highlight=-1, colour=True):
    """Rows of text: the 25 points in their LED colours over the board lines.

    colour=False draws each point as its hex colour (plain text for logs).
    """
    canvas, weights = board_canvas(highlight)
    styles = {0.5: DIM, 1: DIM, 3: BOLD}
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
                c = colours[p]
                if colour:
                    line.append(_cell(c, " %s " % jboard.NAMES[p]))
                    x += 4
                else:
                    line.append("%06x" % c)
                    x += 6
                continue
            ch = canvas[y][x]
            if colour and ch != " ":
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
    ("Esc", "back"),
    ("Tab", "next"),
    ("S-Tab", "prev"),
    ("m", "menu"),
    ("q", "quit"),
)


def legend(profile, replay=False):
    """Key legend lines for the chosen profile."""
    if replay:
        return ["Keys: Tab/right next action, S-Tab/left previous, Home start,",
                "End last, q quit"]
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
    """Split a plain line at ", " or spaces so that each piece fits width."""
    out = []
    while len(line) > width > 10:
        cut = line.rfind(", ", 0, width)
        cut = cut + 1 if cut > 0 else line.rfind(" ", 0, width)
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
    return "".join(out) + RESET


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

CELL_W = 4                        # columns of one point on the compact board
SMALL_W = 2 + 5 * CELL_W + 4      # rank label, five cells with a space between two
BOX_W = 25                        # the display box
MIN_COLS = 30                     # smaller than this (or MIN_ROWS): only a message
MIN_ROWS = 12


def small_board(colours, highlight=-1, colour=True):
    """The 25 points as 5 rows of cells in their LED colours (rank 5 on top),
    the file letters under them; the highlighted point's name in brackets.

    SMALL_W columns and 6 rows, for terminals too small for draw_board().
    """
    rows = []
    for rank in range(5, 0, -1):
        parts = ["%d " % rank]
        for f in range(5):
            p = (rank - 1) * 5 + f
            text = ("[%s]" if p == highlight else " %s ") % jboard.NAMES[p]
            parts.append(_cell(colours[p], text, p == highlight) if colour else text)
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
        generic = "Keys: arrows, Enter select, Esc back, Tab next, S-Tab prev, m menu, q quit"
        options = ["; ".join(legend(profile))]
        if profile["keys"]:
            options.append(generic + "; buttons " + ", ".join(
                "%s %s" % (key[0], key[3]) for key in profile["keys"]))
        options += [generic,
                    "Keys: arrows, Enter select, Esc back, Tab next, m menu, q quit",
                    "arrows, Enter select, Esc back, m menu, q quit",
                    "Enter select, Esc back, m menu, q quit",
                    "Esc back, m menu, q quit",
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


# ---------------------------------------------------------------- the screen


def app_cursor(app):
    """The point under the app's cursor while a human picks, else -1.

    Reads the public App.cursor; an App without it falls back to the
    private _cursor, which only means something while a game is played.
    """
    if hasattr(app, "cursor"):
        cursor = app.cursor
    elif getattr(app, "state", None) == "play":
        cursor = getattr(app, "_cursor", None)
    else:
        cursor = None
    if not isinstance(cursor, int) or not 0 <= cursor < 25:
        return -1
    return cursor


class Screen:
    """Draws the LEDs (from the transmitted NeoPixel bytes), the text and a legend."""

    def __init__(self, app, leds, text_display, profile, out, colour=True, notes=None):
        self.app = app
        self.leds = leds
        self.text_display = text_display
        self.profile = profile
        self.out = out
        self.colour = colour
        self.notes = notes or []
        self.status = ""
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

    def lines(self, size=None):
        """The rows of the screen for a terminal of this size (default: the
        terminal's): each at most columns - 1 wide, at most `lines` of them.

        The full layout when it fits; else a compact one (small board, the
        display's text beside or under it); else a message to enlarge the
        terminal. The plain-text log (colour=False) is always the full one.
        """
        size = size or self.size()
        columns, lines = size.columns, size.lines
        colours = host.sent_colours(self.leds.pixels, self.leds.map, self.profile["pixel_order"])
        cursor = app_cursor(self.app)
        text = self.text_display.lines() if self.text_display is not None else ()
        has_display = self.text_display is not None
        extras = list(self.notes) + ([self.status] if self.status else [])
        lines_row = ["lines " + neighbours_text(cursor)] if cursor >= 0 else []
        if self.leds.celebrating is not None:
            lines_row.append("celebrating %06x" % self.leds.celebrating)
        replay = getattr(self.app, "replay", False)
        if not self.colour or columns - 1 >= WIDTH:
            board_rows = draw_board(colours, cursor, self.colour) + lines_row
            body = compose(board_rows, display_box(text, has_display) + extras, columns)
            if not self.colour:
                return body
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
        return self._compact(colours, cursor, text, has_display, extras, lines_row,
                             short_legend(self.profile, columns - 1, replay), columns, lines)

    def _compact(self, colours, cursor, text, has_display, extras, lines_row, keys,
                 columns, lines):
        """Small board, the display's text beside it (or under it), then the
        cursor point's lines, notes and a one-line legend, as far as they fit."""
        board_rows = small_board(colours, cursor, self.colour)
        beside = columns - 1 >= SMALL_W + 2 + BOX_W
        plain = ["(no display)"] if not has_display else \
            ["| " + (text[i][:21] if i < len(text) else "") for i in range(5)]
        keep = {"frame": True, "extras": True, "keys": bool(keys), "lines": True}
        drop = ["keys", "extras", "frame", "lines"]     # first dropped first
        while True:
            box = display_box(text, has_display) if keep["frame"] else plain
            if beside:
                side = box + (extras if keep["extras"] else [])
                rows = []
                for i in range(max(len(board_rows), len(side))):
                    b = board_rows[i] if i < len(board_rows) else ""
                    rows.append(b + " " * (SMALL_W + 2 - _visible_len(b))
                                + (side[i] if i < len(side) else ""))
            else:
                rows = board_rows + box + (extras if keep["extras"] else [])
            if keep["lines"]:
                rows += lines_row
            if keep["keys"]:
                rows.append(keys)
            if len(rows) <= lines or not drop:
                return rows[:lines]
            keep[drop.pop(0)] = False

    def draw(self):
        self.count += 1
        if not self.colour:
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
}
_SINGLE = {
    b"\r": "select", b"\n": "select", b" ": "select",
    b"\t": "next", b"\x1b": "back", b"\x7f": "back", b"\x08": "back",
    b"m": "menu", b"n": "next", b"p": "prev", b"q": "quit", b"\x03": "quit",
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
            if host._diff(now, item[0]) >= 0:
                self.pending.remove(item)
                self.keys.events.keypad_eventqueue_record(item[1], False)
        return self.buttons.poll(now, press)


class TerminalInput:
    """Keyboard -> app.press; poll() waits up to idle_s for a key (the loop's only pause)."""

    def __init__(self, fd, screen, profile_keys, idle_s=0.01):
        self.fd = fd
        self.screen = screen
        self.profile_keys = profile_keys
        self.idle_s = idle_s
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
                if name == "quit":
                    return False
                self.on_key(name, now, press)
        if self.profile_keys is not None:
            self.profile_keys.poll(now, press)
        return True

    def on_key(self, name, now, press):
        if name in codes.NAMES:
            press(codes.code(name), 0)
        elif self.profile_keys is None or not self.profile_keys.key(name, now):
            self.screen.status = "key %r does nothing here" % (name,)
            self.screen.draw()


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
    """Steps through a saved game; an App look-alike for the main loop.

    The position after `pos` actions is drawn with the app's own piece
    colours (jarmo/app_view.py), so a shared position looks as on the device.
    """

    replay = True

    def __init__(self, text):
        from jarmo import Game
        self.game = Game.load(text)
        self.actions = self.game.history()
        self.rules = self.game.rules
        self.expansions = self.game.expansions
        self.pos = len(self.actions)
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
        g = Game(self.rules, expansions=self.expansions)
        for a in self.actions[:n]:
            g.play(a)
        return g

    def _draw(self):
        from jarmo import app_view as V
        g = self.position(self.pos)
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
        prog="python -m hardware.sim",
        description="Play Jarmo in a terminal: the handheld's own code with "
                    "the keyboard for buttons and true-colour cells for LEDs.")
    ap.add_argument("--rules", default=None,
                    help="classic, standard, legendary or jasyr (default: the app's)")
    ap.add_argument("--expansions", nargs="*", default=None, metavar="E",
                    help="heroes and/or challenges")
    ap.add_argument("--opponent", default=None,
                    help="human, random, greedy, 2 or 3 (lookahead level)")
    ap.add_argument("--side", default=None, choices=("south", "north"),
                    help="the side you play against the computer")
    ap.add_argument("--profile", default="host", choices=sorted(profiles.PROFILES),
                    help="board profile: its buttons, pixel order and brightness")
    ap.add_argument("--replay", metavar="FILE", help="step through a saved game")
    ap.add_argument("--script", metavar="FILE",
                    help="events from FILE (- for stdin) instead of the keyboard; "
                         "prints each screen as plain text (no terminal needed)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the computer player")
    ap.add_argument("--data", default=None,
                    help="folder for saves and statistics (default: a temporary folder)")
    return ap.parse_args(argv)


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


OPPONENT_NAMES = ("human", "random", "greedy", "2", "3")   # the menu's Opponent values, in order


def check_options(opts):
    """ValueError naming a bad start option."""
    from jarmo import app_menu as M
    if "rules" in opts and opts["rules"] not in M.RULES:
        raise ValueError("--rules must be one of %s" % ", ".join(M.RULES))
    for e in opts.get("expansions", ()):
        if e not in ("heroes", "challenges"):
            raise ValueError("--expansions takes heroes and/or challenges, not %r" % e)
    if opts.get("rules") == "classic" and opts.get("expansions"):
        raise ValueError("the expansions do not go with the classic rules")
    if "opponent" in opts and opts["opponent"] not in OPPONENT_NAMES:
        raise ValueError("--opponent must be one of %s" % ", ".join(OPPONENT_NAMES))


def start_game(app, opts):
    """Start a game with the given options, as the menu's "New game" would.

    Uses App.new_game(**opts) when the App has it; otherwise it changes the
    settings through app_menu's dump()/load() (the names the settings file
    uses) and presses SELECT on "New game", the way a player would.
    """
    new_game = getattr(app, "new_game", None)
    if new_game is not None:
        new_game(**opts)
        return
    from jarmo import app_menu as M
    values = M.dump(app.settings)
    if "rules" in opts:
        values["rules"] = M.RULES.index(opts["rules"])
    if "expansions" in opts or "rules" in opts:
        ex = opts.get("expansions", M.expansions(app.settings))
        values["heroes"] = 1 if "heroes" in ex else 0
        values["challenges"] = 1 if "challenges" in ex else 0
    if "opponent" in opts:
        values["opp"] = OPPONENT_NAMES.index(opts["opponent"])
    if "side" in opts:
        values["side"] = 0 if opts["side"] == "south" else 1
    M.load(app.settings, values)
    if app.state != "menu":
        raise SystemExit("cannot start a game from the command line now (app state %s)"
                         % app.state)
    for _ in range(M.ITEMS):       # a saved game puts the menu on "Resume"
        if getattr(app, "_item", M.NEW) == M.NEW:
            break
        app.press(codes.NEXT, 0)
    app.press(codes.SELECT, 0)


def make_app(profile, args, data):
    from jarmo.app import App
    from jarmo.storage import Store
    opts = start_options(args)
    try:
        check_options(opts)
    except ValueError as err:
        raise SystemExit("hardware.sim: " + str(err))
    app = App(store=Store(data), has_display=profile["display"] is not None or
              profile is profiles.HOST, tabletop=profile["tabletop"], seed=args.seed)
    # A newcomer lands in a game against the default opponent (the greedy
    # AI); a saved game found in --data waits on the menu's "Resume" (the
    # menu offers Resume exactly when app.game is set), and a notice about
    # a damaged file stays up to be read. Start options always start a game.
    if opts or (app.state == "menu" and getattr(app, "game", None) is None):
        start_game(app, opts)
    return app


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.script is None and not (_isatty(sys.stdin) and _isatty(sys.stdout)):
        _say(
            "hardware.sim needs a terminal: stdin/stdout is not a tty.\n"
            "For a run without one, give the button events as a script:\n"
            "  python -m hardware.sim --script events.txt   (or --script - to read stdin)\n")
        return 2
    if args.script == "-" and sys.stdin is None:
        _say("hardware.sim: --script - reads stdin, but there is none\n")
        return 2

    import tempfile

    from hardware.display import TextDisplay
    from hardware.leds import make_leds
    from hardware.mainloop import run

    profile = profiles.get(args.profile)
    # the profile's pixel order, rotation, brightness and buttons; Blinka's
    # simulated board has none of the device's pins, so the LEDs use its NEOPIXEL
    leds = make_leds(dict(profile, pixel_pin="NEOPIXEL"), -1, host.capturing_neopixel())
    has_display = profile["display"] is not None or profile is profiles.HOST
    text_display = TextDisplay() if has_display else None
    tmp = None
    data = args.data
    if data is None:
        tmp = tempfile.TemporaryDirectory(prefix="jarmo-sim-")
        data = tmp.name
    try:
        if args.replay:
            with open(args.replay) as f:
                app = Replay(f.read())
            if text_display is None:
                text_display = TextDisplay()
        else:
            app = make_app(profile, args, data)
        if args.script is not None:
            return _run_script(args, app, leds, text_display, profile, run)
        return _run_terminal(args, app, leds, text_display, profile, run)
    finally:
        leds.pixels.deinit()
        if tmp is not None:
            tmp.cleanup()


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


def _run_script(args, app, leds, text_display, profile, run):
    if args.script == "-":
        text = sys.stdin.read()
    else:
        with open(args.script) as f:
            text = f.read()
    events = host.EventSource(host.parse_events(text, extra=("quit",)))
    screen = Screen(app, leds, text_display, profile, sys.stdout, colour=False)
    sys.stdout.write("\n".join(legend(profile, replay=args.replay is not None)) + "\n")
    run(app, events, leds, text_display, host.VirtualClock(), screen)
    return 0


def _run_terminal(args, app, leds, text_display, profile, run):
    import adafruit_ticks
    fd = sys.stdin.fileno()
    out = sys.stdout
    screen = Screen(app, leds, text_display, profile, out, colour=True)

    def on_winch(signum, frame):
        screen.resized = True

    old_winch = signal.signal(signal.SIGWINCH, on_winch)
    try:
        with Terminal(fd, out):
            if args.replay:
                inputs = ReplayKeys(fd, screen, None)
            else:
                inputs = TerminalInput(fd, screen, ProfileKeys(profile) if profile["keys"] else None)
            run(app, inputs, leds, text_display, adafruit_ticks.ticks_ms, screen)
    finally:
        signal.signal(signal.SIGWINCH, old_winch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
