"""The status text: app.text's lines in terminalio.FONT on the OLED.

The lines are drawn into one 1-bit displayio.Bitmap (1 KB for 128 x 64)
shown by one TileGrid: a changed line has its changed characters blitted
from the font's own bitmap (bitmaptools, in C) and the rest of the old
text cleared.  On a board the display refreshes only when told
(auto_refresh off), and the text's work gets main-loop passes of its own
(hardware/mainloop.py runs step() instead of the app while `busy`): a pass
draws one changed line and sends just that area to the display.

Why not adafruit_display_text (measured on the emulated Feather, SH1107
at 400 kHz, CircuitPython 10.3, stock firmware with the .mpy deploy): its
Label keeps a TileGrid per character, so it cost 9.1 KB of code, 2.3 KB
for five empty labels and about 80 bytes per character shown (up to 8 KB
more for a full screen), while the board ran 23 KB short of its heap
budget in a game against level 4; setting five lines took up to 18 ms,
and a refresh of one changed line up to 49 ms, of several up to 108 ms
(their areas overlap in the SH1107's 8-pixel pages and went out in small
I2C writes).  Here: about 2 KB in all, a line drawn in at most 8 ms and
refreshed in at most 17 ms.  (A full-screen refresh costs 45 to 78 ms
whatever draws it: it is never needed.)  On a PC (no display) the lines
are only kept, for the simulator to read back.
"""

import bitmaptools
import displayio
import terminalio

LINES = 5          # app.text has at most 5 lines of at most 21 characters
COLUMNS = 21
LINE_HEIGHT = 12   # terminalio.FONT is 6 x 12 pixels: 21 x 5 fit 128 x 64


class TextDisplay:
    """app.text on a display, or kept off-screen (host: display None)."""

    def __init__(self, display=None, lines=LINES):
        self.text = [""] * lines        # what the display shows (or will, once drawn)
        self.drawn = [""] * lines       # what its bitmap holds
        self.shown_version = -1
        self.display = display
        self.canvas = None
        if display is not None:
            self.canvas = Canvas(display.width, display.height)
            display.auto_refresh = False
            display.root_group = self.canvas.group
            display.refresh()           # the whole screen, blank, once (45 to 78 ms; before the game starts)

    @property
    def busy(self):
        """True while a line waits to be drawn and sent (step(), a pass each)."""
        return self.text != self.drawn

    def update(self, app):
        """Take app.text if its version changed; True if it did.  Without a
        display that is all; with one, step() draws it a line a pass."""
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
        """One pass of the display's work: draw the first changed line and
        refresh the display (only the changed area goes out)."""
        canvas = self.canvas
        for row in range(len(self.text)):
            if self.text[row] != self.drawn[row]:
                if canvas is not None:
                    canvas.line(row, self.drawn[row], self.text[row])
                    self.display.refresh()
                self.drawn[row] = self.text[row]
                return

    def lines(self):
        """The texts shown now (host renderers read the screen back)."""
        return tuple(self.text)


class Canvas:
    """A 1-bit bitmap of text lines in terminalio.FONT, and its displayio group."""

    def __init__(self, width, height):
        font = terminalio.FONT
        self.glyph_w, self.glyph_h = font.get_bounding_box()[:2]
        self.sheet = font.bitmap
        self.sheet_cols = self.sheet.width // self.glyph_w
        # the tile of each printable ASCII character in the font's bitmap (0xFF: none)
        tiles = bytearray(b"\xff" * 95)
        for code in range(32, 127):
            glyph = font.get_glyph(code)
            if glyph is not None:
                tiles[code - 32] = glyph.tile_index  # type: ignore[attr-defined]  # (a named tuple's field)
        self.tiles = tiles
        self.bitmap = displayio.Bitmap(width, height, 2)
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        self.group = displayio.Group()
        self.group.append(displayio.TileGrid(self.bitmap, pixel_shader=palette))

    def line(self, row, old, new):
        """Turn line `row`'s old text into new: blit the characters from the
        first that differs, clear what is left of the old."""
        bitmap = self.bitmap
        w = self.glyph_w
        h = self.glyph_h
        y = row * LINE_HEIGHT
        fit = bitmap.width // w         # characters past the edge are not drawn
        old = old[:fit]
        new = new[:fit]
        first = 0
        while first < len(old) and first < len(new) and old[first] == new[first]:
            first += 1
        if len(old) > first:
            bitmaptools.fill_region(bitmap, first * w, y, len(old) * w, y + h, 0)
        sheet = self.sheet
        cols = self.sheet_cols
        tiles = self.tiles
        for i in range(first, len(new)):
            code = ord(new[i]) - 32
            tile = tiles[code] if 0 <= code < 95 else 0xFF
            if tile != 0xFF:
                sx = (tile % cols) * w
                sy = (tile // cols) * h
                bitmaptools.blit(bitmap, sheet, i * w, y, x1=sx, y1=sy, x2=sx + w, y2=sy + h)


def make_sh1107_128x64():
    """The OLED FeatherWing 128x64 (product 4650) on the board's I2C pins."""
    import adafruit_displayio_sh1107
    import board
    from i2cdisplaybus import I2CDisplayBus  # CircuitPython 9+, as the driver needs
    displayio.release_displays()
    import busio
    # 400 kHz (the SH1107's fast mode), not board.I2C()'s 100 kHz: a text
    # refresh then holds the main loop a quarter as long (emulated Feather:
    # a pass with a refresh took up to 410 ms at 100 kHz)
    i2c = busio.I2C(board.SCL, board.SDA, frequency=400_000)
    bus = I2CDisplayBus(i2c, device_address=0x3C)
    # the driver's defaults (rotation 90, offset 0x60) are the ones for this wing
    return adafruit_displayio_sh1107.SH1107(bus, width=128, height=64)


def make_display(kind):
    """The physical display of a profile's "display" entry, or None."""
    if kind == "sh1107_128x64":
        return make_sh1107_128x64()
    return None
