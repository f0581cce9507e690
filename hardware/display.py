"""The status text: one displayio Group of Labels, built once.

Lines change only through Label.text, and only when different, so an
unchanged line costs nothing and a changed one re-renders just itself.
"""

import displayio
import terminalio
from adafruit_display_text import label

LINES = 5          # app.text has at most 5 lines of at most 21 characters
LINE_HEIGHT = 12   # terminalio.FONT is 6 x 12 pixels: 21 x 5 fit 128 x 64


class TextDisplay:
    """Labels for app.text; show() them on a display or keep them off-screen (host)."""

    def __init__(self, display=None, lines=LINES):
        self.group = displayio.Group()
        self.labels = []
        for i in range(lines):
            line = label.Label(terminalio.FONT, text="", color=0xFFFFFF,
                               anchor_point=(0, 0), anchored_position=(0, i * LINE_HEIGHT))
            self.labels.append(line)
            self.group.append(line)
        self.shown_version = -1
        if display is not None:
            display.root_group = self.group

    def show(self, text):
        """Put a tuple of lines on the labels; missing lines become empty."""
        n = len(text)
        for i, line in enumerate(self.labels):
            new = text[i] if i < n else ""
            if line.text != new:
                line.text = new

    def update(self, app):
        """Show app.text if its version changed; True if it did."""
        if app.text_version == self.shown_version:
            return False
        self.shown_version = app.text_version
        self.show(app.text)
        return True

    def lines(self):
        """The texts on the labels now (host renderers read the screen back)."""
        return tuple(line.text for line in self.labels)


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
