"""The simulator's screen: the board, the display, what the marks and letters
mean, the log, the keys; laid out for the terminal's size at every redraw.

Host only.  The full layout when it fits: the board with its lines, the
display's 21 x 5 characters in a frame beside it (or under it), then the
legends and the log. Else a compact board of 5 x 5 cells with the display's
text beside or under it, so the menus and whose turn it is always show;
below MIN_COLS x MIN_ROWS a message asks for a bigger terminal while the
game keeps running.
"""

import os
import textwrap

from host import board_text as BT
from host import legend as L
from host import view
from host.blinka import frame_text, sent_colours
from host.colour import clip, perceived, visible_len
from host.log import EventLog

BOX_W = 25                        # the display box
MIN_COLS = 30                     # smaller than this (or MIN_ROWS): only a message
MIN_ROWS = 12
SIDE_MIN = 26                     # the side panel beside the board needs this much


def wrap(line, width):
    """A plain line split at spaces into pieces that fit width; the
    continuation lines are indented by 2."""
    if width < 11 or len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) or [""]


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


def beside(left, right, left_w):
    """Rows of `left` with `right` beside them, from column left_w."""
    rows = []
    for i in range(max(len(left), len(right))):
        b = left[i] if i < len(left) else ""
        s = right[i] if i < len(right) else ""
        rows.append(b + " " * (left_w - visible_len(b)) + s if s else b)
    return rows


def too_small(columns, lines):
    """The message shown instead of the game, word-wrapped into columns - 1."""
    text = "terminal too small: make it at least %dx%d" % (MIN_COLS, MIN_ROWS)
    rows = textwrap.wrap(text, max(1, columns - 1), break_on_hyphens=False)
    return rows[:max(1, lines)]


class Screen:
    """Draws the LEDs (from the transmitted NeoPixel bytes, as perceived), the
    pieces' letters and marks, the display's text, the legends and the log;
    or the rules pager.

    mode: "truecolor", "256" or "none"; drawing: "braille" or "ascii" (the
    board's lines); log=True prints each screen as plain text (the --script
    log: the full layout, then the LED bytes in hex).
    """

    def __init__(self, app, leds, text_display, profile, out, mode="truecolor", notes=None,
                 log=False, drawing="braille"):
        self.app = app
        self.leds = leds
        self.text_display = text_display
        self.profile = profile
        self.out = out
        self.mode = "none" if log else mode
        self.drawing = drawing
        self.log = log
        self.notes = notes or []
        self.status = ""
        self.pager = None
        self.resized = True
        self.count = 0
        self.events = EventLog()

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
        sent = sent_colours(self.leds.pixels, self.leds.map, self.profile["pixel_order"])
        level = getattr(self.leds, "level", 255)
        return sent, [perceived(c, level) for c in sent]

    def _parts(self):
        """What every layout draws from: the app's state read once."""
        app = self.app
        self.events.see(app)
        sent, colours = self.colours()
        labels = view.board_labels(app)
        marks = view.board_marks(app)
        cursor = view.cursor(app)
        replay = getattr(app, "replay", False)
        game = getattr(app, "game", None)
        return {
            "sent": sent, "colours": colours, "labels": labels, "marks": marks,
            "dotted": view.dotted_counts(app), "bold": view.bold_points(app),
            "text": self.text_display.lines() if self.text_display is not None else (),
            "has_display": self.text_display is not None,
            "lines": ["lines " + L.neighbours_text(cursor)] if 0 <= cursor < 25 else [],
            "pieces": L.piece_legend(game) if labels is not None else [],
            "short_pieces": game if labels is not None else None,
            "leds": view.led_meaning(app),
            "notes": list(self.notes) + ([self.status] if self.status else []),
            "replay": replay,
        }

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
        parts = self._parts()
        if self.log or columns - 1 >= BT.WIDTH:
            body = self._full(parts, columns, lines)
            if self.log:
                return body + ["LEDs as sent (hex):"] + frame_text(parts["sent"])
            # the whole key legend, else one short line of it; no legend: too small for this
            whole = []
            for line in L.key_legend(self.profile, replay=parts["replay"]):
                whole += wrap(line, columns - 1)
            short = L.short_key_legend(self.profile, columns - 1, parts["replay"])
            for keys in (whole, [short] if short else []):
                if keys and len(body) + 1 + len(keys) <= lines:
                    return body + [""] + keys
        if columns < MIN_COLS or lines < MIN_ROWS:
            return too_small(columns, lines)
        return self._compact(parts, L.short_key_legend(self.profile, columns - 1, parts["replay"]),
                             columns, lines)

    def _full(self, parts, columns, lines):
        """The board with its lines, the display and the legends beside it (or
        under it when the terminal is narrow), the log in what room is left."""
        board = BT.draw_board(parts["colours"], parts["labels"], parts["marks"], self.mode,
                              self.drawing, parts["bold"], parts["dotted"]) + parts["lines"]
        left_w = BT.WIDTH + 2
        side_by_side = self.log or columns >= left_w + SIDE_MIN
        side_w = 60 if self.log else (columns - 1 - left_w if side_by_side else columns - 1)
        side = display_box(parts["text"], parts["has_display"])
        for line in (parts["leds"] + parts["pieces"]
                     + L.mark_legend(parts["marks"], parts["dotted"], max(side_w, 11))
                     + parts["notes"]):
            if line:
                side += wrap(line, max(side_w, 11))
        room = (len(board) if side_by_side else max(0, lines - len(board) - 4)) - len(side)
        side += self.events.lines(max(side_w, 11), room if not self.log else 12)
        if side_by_side:
            return beside(board, side, left_w)
        return board + [""] + side

    def _compact(self, parts, keys, columns, lines):
        """Small board, the display's text beside it (or under it), then the
        cursor point's lines, the legends, notes and a one-line key legend,
        as far as they fit."""
        board = BT.small_board(parts["colours"], parts["labels"], parts["marks"], self.mode)
        side_by_side = columns - 1 >= BT.SMALL_W + 2 + BOX_W
        side_w = columns - 1 - (BT.SMALL_W + 2) if side_by_side else columns - 1
        text = parts["text"]
        plain = ["(no display)"] if not parts["has_display"] else \
            ["| " + (text[i][:21] if i < len(text) else "") for i in range(5)]
        pieces = L.short_piece_legend(parts["short_pieces"], columns - 1) \
            if parts["labels"] is not None else ""
        marks = L.mark_legend(parts["marks"])
        extras = []
        for note in parts["leds"] + parts["notes"]:
            extras += wrap(note, max(side_w, 11))
        keep = {"frame": True, "extras": True, "keys": bool(keys), "lines": True,
                "pieces": bool(pieces), "marks": bool(marks)}
        drop = ["keys", "extras", "pieces", "marks", "frame", "lines"]     # first dropped first
        while True:
            box = display_box(text, parts["has_display"]) if keep["frame"] else plain
            if side_by_side:
                rows = beside(board, box + (extras if keep["extras"] else []), BT.SMALL_W + 2)
            else:
                rows = board + box + (extras if keep["extras"] else [])
            if keep["lines"]:
                rows += parts["lines"]
            if keep["marks"]:
                rows += wrap(marks, columns - 1)
            if keep["pieces"]:
                rows.append(pieces)
            if keep["keys"]:
                rows.append(keys)
            if len(rows) <= lines and all(visible_len(r) < columns for r in rows) or not drop:
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
        buf.append("\n".join(clip(r, width) + "\x1b[K" for r in rows))
        buf.append("\x1b[J")
        self.out.write("".join(buf))
        self.out.flush()

    def __call__(self, now, drawn, texted):
        self.draw()
