"""The 5x5 NeoPixel grid: app.frame through a flat point->pixel table.

Point p (0..24, a1 = 0, e5 = 24, index = (rank-1)*5 + file) is drawn on
pixel MAP[p].  The table is computed once from the profile's rotation and
serpentine settings; drawing a frame is 25 integer writes into the
NeoPixel buffer and one show(), with no allocation.

While app.celebrate holds a colour, an adafruit_led_animation Pulse in
that colour runs instead of the frame; its module is imported only when a
game ends (about 5 KB of RAM, measured in hardware/PROFILES.md).
"""


def pixel_map(rotation=0, serpentine=False):
    """The 25-byte table point -> pixel index.

    Rotation 0: pixel 0 is the top-left LED as seen from South's side
    (point a5), pixels run left to right, then row by row downwards, so a1
    is pixel 20.  Rotation 90/180/270 turns the board picture clockwise on
    the grid by that many degrees.  Serpentine: every odd row (1, 3) of the
    LED chain runs right to left.
    """
    if rotation not in (0, 90, 180, 270):
        raise ValueError("rotation must be 0, 90, 180 or 270, not %r" % (rotation,))
    table = bytearray(25)
    turns = rotation // 90
    for p in range(25):
        x = p % 5            # column, left to right as South sees it
        y = 4 - p // 5       # row, top (rank 5) to bottom (rank 1)
        for _ in range(turns):
            # one quarter turn clockwise of the picture
            x, y = 4 - y, x
        if serpentine and y & 1:
            x = 4 - x
        table[p] = y * 5 + x
    return bytes(table)


def scale_level(cap, brightness):
    """0..255 drawing level from the profile cap and the app's brightness."""
    return (cap * (brightness + 1)) >> 8


class Leds:
    """Writes app frames to a NeoPixel object (auto_write=False).

    pixels: a neopixel.NeoPixel (or any PixelBuf) of 25 pixels, brightness 1.0
    (the scaling is done here in integers, so the native PixelBuf keeps a
    single buffer); pixel_map: from pixel_map(); cap: the profile's
    brightness cap 0..255.
    """

    def __init__(self, pixels, pixel_map, cap=255):
        self.pixels = pixels
        self.map = pixel_map
        self.cap = cap
        self.level = scale_level(cap, 255)
        self.shown_version = -1      # app.frame_version last drawn
        self.shown_brightness = -1   # app.brightness last drawn
        self.celebrating = None      # colour of the running animation
        self._pulse = None
        self.animated = False        # True after update() drew an animation step

    def show(self, frame, level=None):
        """Draw a 75-byte RGB frame at a level 0..255; one show()."""
        if level is None:
            level = self.level
        px = self.pixels
        m = self.map
        k = level + 1
        i = 0
        for p in range(25):
            # one small int per pixel: setting an int colour allocates nothing
            px[m[p]] = (((frame[i] * k) >> 8) << 16) | (((frame[i + 1] * k) >> 8) << 8) \
                | ((frame[i + 2] * k) >> 8)
            i += 3
        px.show()

    def update(self, app):
        """Bring the LEDs up to date with app; True if a frame was drawn.

        Draws only when frame_version or brightness changed.  While
        app.celebrate is set, steps the winner animation instead (it shows
        itself when its next step is due) and returns False.
        """
        colour = app.celebrate
        if colour is not None:
            self._celebrate(colour, app.brightness)
            return False
        if self.celebrating is not None:
            self.celebrating = None
            self.shown_version = -1
        self.animated = False
        b = app.brightness
        if app.frame_version == self.shown_version and b == self.shown_brightness:
            return False
        if b != self.shown_brightness:
            self.level = scale_level(self.cap, b)
            self.shown_brightness = b
        self.shown_version = app.frame_version
        self.show(app.frame)
        return True

    def _celebrate(self, colour, brightness):
        pulse = self._pulse
        if colour != self.celebrating:
            level = scale_level(self.cap, brightness) + 1
            scaled = ((((colour >> 16) & 255) * level >> 8) << 16) \
                | ((((colour >> 8) & 255) * level >> 8) << 8) | ((colour & 255) * level >> 8)
            if pulse is None:
                from adafruit_led_animation.animation.pulse import Pulse
                pulse = self._pulse = Pulse(self.pixels, speed=0.02, color=scaled, period=1.5)
            else:
                pulse.color = scaled
            self.celebrating = colour
        if pulse is not None:
            self.animated = pulse.animate()

def make_leds(profile, cap=-1, neopixel_class=None):
    """Leds for a profile: NeoPixel(pin, 25, auto_write=False) and its pixel map.

    cap < 0 uses the profile's brightness cap; neopixel_class replaces
    neopixel.NeoPixel (the host passes one that records what it sends).
    """
    import board
    if neopixel_class is None:
        import neopixel
        neopixel_class = neopixel.NeoPixel
    pixels = neopixel_class(getattr(board, profile["pixel_pin"]), 25, brightness=1.0,
                            auto_write=False, pixel_order=profile["pixel_order"])
    table = pixel_map(profile["rotation"], profile["serpentine"])
    return Leds(pixels, table, profile["brightness"] if cap < 0 else cap)
