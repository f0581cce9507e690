"""The status text: app.text's lines in terminalio.FONT on the OLED.

The text is one displayio.TileGrid laid over the font's own glyph sheet:
a character is one tile, a byte, 105 bytes for 21 x 5 characters.  A
changed line has the tiles from its first changed character set; on a
board the display refreshes only when told (auto_refresh off), and the
text's work gets main-loop passes of its own (hardware/mainloop.py runs
step() instead of the app while `busy`): a pass sets one changed line and
sends just that area to the display.  On a PC (no display) the lines are
only kept, for the simulator to read back.

RAM, measured on the emulated Feather (stock firmware, .mpy deploy), where
the 50 KB budget in a game against the AI is tight:
- adafruit_display_text's Label keeps a TileGrid per character: 9.1 KB of
  code, 2.3 KB for five empty labels and about 80 bytes a character shown,
  and a line took up to 49 ms to refresh (108 ms for several), in small
  I2C writes.  Not used.
- A 128 x 64 1-bit Bitmap with glyphs blitted in (bitmaptools) costs
  1,344 bytes; the TileGrid here 384.
- adafruit_displayio_sh1107's SH1107 class (a Python subclass of
  busdisplay.BusDisplay, its module loaded into the heap) costs 1,424
  bytes; busdisplay.BusDisplay made directly with the same start-up
  commands and settings, 48.  Together they took a game against level 4
  from 46.8 to 49.2 KB free.
"""

import displayio
import terminalio

LINES = 5          # app.text has at most 5 lines of at most 21 characters
COLUMNS = 21       # terminalio.FONT is 6 x 12 pixels: 21 x 5 fit 128 x 64
CHUNK = 7          # characters drawn and sent in one pass: the buttons are polled
                   # between such steps (a whole line took up to 87 ms on the
                   # emulated Feather; hardware/mainloop.py)


class TextDisplay:
    """app.text on a display, or kept off-screen (host: display None)."""

    def __init__(self, lines=LINES):
        self.text = [""] * lines        # what the display shows (or will, once drawn)
        self.drawn = [""] * lines       # what its bitmap holds
        self.shown_version = -1
        self.display = None
        self.canvas = None
        self.key_down = False           # the press shown (update): the display at half contrast

    def attach(self, display, app):
        """Show app's text on `display` from now on: code.py attaches the
        OLED once the App is made, before the first frame. The text is drawn
        whole and the whole screen goes out once (about 70 ms), so the first
        picture the player sees is the board's state (a blank screen first,
        and then the text a few characters a pass, showed the menu 0.6 s
        later); later changes follow a few characters a pass (step)."""
        self.display = display
        self.canvas = Canvas()
        self.update(app)
        for row, line in enumerate(self.text):
            self.canvas.line(row, "", line)
            self.drawn[row] = line
        display.auto_refresh = False
        display.root_group = self.canvas.group
        display.refresh()

    @property
    def busy(self):
        """True while a line waits to be drawn and sent (step(), a pass each)."""
        return self.text != self.drawn

    def update(self, app):
        """Take app.text if its version changed; True if it did.  Without a
        display that is all; with one, step() draws it CHUNK characters a pass.
        While a key is down (app.key_down: its tap comes at its release) the
        display's contrast is halved: the press is seen on the display at
        once, by one command, without drawing anything."""
        down = app.key_down
        if down != self.key_down:
            self.key_down = down
            display = self.display
            if display is not None and display.brightness:      # not while it is dark
                display.brightness = 0.5 if down else 1.0
        if app.text_version == self.shown_version:
            return False
        self.shown_version = app.text_version
        text = app.text
        n = len(text)
        for i in range(len(self.text)):
            self.text[i] = text[i] if i < n else ""
        if self.canvas is None:
            self.drawn[:] = self.text
        return True

    def step(self):
        """One pass of the display's work: the next CHUNK characters of the
        first changed line set, and the display refreshed (only the changed
        area goes out)."""
        canvas = self.canvas
        display = self.display
        for row in range(len(self.text)):
            new = self.text[row]
            old = self.drawn[row]
            if new != old:
                if canvas is None or display is None:
                    self.drawn[row] = new
                    return
                end = canvas.line(row, old, new, CHUNK)
                display.refresh()
                # what the line shows now: the new text up to `end`, the old
                # after it; all of it once the display's width is reached (a
                # longer line's rest is never drawn: else the line would stay
                # "changed" and the display take every pass from then on)
                self.drawn[row] = new if end >= min(max(len(old), len(new)), COLUMNS) else \
                    (new[:end] + " " * (end - len(new)))[:end] + old[end:]
                return

    def awake(self, on):
        """Light the display, or darken it (contrast 0) while the board is idle."""
        if self.display is not None:
            self.display.brightness = 1.0 if on else 0.0

    def lines(self):
        """The texts shown now (host renderers read the screen back)."""
        return tuple(self.text)


class Canvas:
    """The text as one displayio.TileGrid over terminalio.FONT's glyph sheet:
    a character is one tile (a byte), and a line is changed by setting tiles."""

    def __init__(self, columns=COLUMNS, lines=LINES):
        font = terminalio.FONT
        glyph_w, glyph_h = font.get_bounding_box()[:2]
        # the tile of each printable ASCII character (a space's for one the font lacks)
        blank = font.get_glyph(32).tile_index  # type: ignore[attr-defined]  # (a named tuple's field)
        tiles = bytearray(95)
        for code in range(32, 127):
            glyph = font.get_glyph(code)
            tiles[code - 32] = blank if glyph is None else glyph.tile_index  # type: ignore[attr-defined]
        self.tiles = tiles
        self.blank = blank
        self.columns = columns
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        self.grid = displayio.TileGrid(font.bitmap, pixel_shader=palette, width=columns, height=lines,
                                       tile_width=glyph_w, tile_height=glyph_h, default_tile=blank)
        self.group = displayio.Group()
        self.group.append(self.grid)

    def line(self, row, old, new, most=COLUMNS):
        """Turn line `row`'s old text into new, at most `most` characters of
        it: set the tiles from the first character that differs. Returns the
        column after the last tile set (the line's end when it is done)."""
        columns = self.columns
        old = old[:columns]             # characters past the edge are not drawn
        new = new[:columns]
        length = max(len(old), len(new))
        first = 0                       # (past a text's end a blank)
        while first < length and (old[first] if first < len(old) else " ") == \
                (new[first] if first < len(new) else " "):
            first += 1
        grid = self.grid
        tiles = self.tiles
        base = row * columns
        end = min(length, first + most)
        for i in range(first, end):
            code = ord(new[i]) - 32 if i < len(new) else 0
            grid[base + i] = tiles[code] if 0 <= code < 95 else self.blank
        return end if end < length else columns
