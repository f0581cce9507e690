"""The 5x5 NeoPixel grid: app.frame through a flat point->pixel table.

Point p (0..24, a1 = 0, e5 = 24, index = (rank-1)*5 + file) is drawn on
pixel MAP[p].  The table is computed once from the profile's rotation and
serpentine settings; drawing a frame is 25 integer writes into the
NeoPixel buffer and one show(), with no allocation.

While app.celebrate holds a colour, the whole grid breathes in that colour
instead of the frame (a triangle wave, PERIOD ms, drawn in STEPS levels).
This is a dozen lines rather than adafruit_led_animation's Pulse: on an
RP2040 the Pulse and the modules it pulls in took about 10 KB of heap at
the end of a game, which the 50 KB free-heap budget could not spare
(python3 run.py bench --device).
"""

from adafruit_ticks import ticks_diff, ticks_ms

PERIOD = 1500       # ms of one breath (dim -> bright -> dim)
STEPS = 32          # brightness levels of a breath: a show() at most every 47 ms


def pixel_map(rotation=0, serpentine=False, mirror=False):
    """The 25-byte table point -> pixel index.

    Rotation 0: pixel 0 is the top-left LED as seen from South's side
    (point a5), pixels run left to right, then row by row downwards, so a1
    is pixel 20.  Rotation 90/180/270 turns the board picture clockwise on
    the grid by that many degrees.  Mirror: the rows run right to left
    (pixel 0 top-right: the 5x5 NeoPixel Grid BFF's chain, seen from its
    LEDs with its jumpers at the top).  Serpentine: every odd row (1, 3)
    of the LED chain runs back the other way.
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
        if mirror:
            x = 4 - x
        if serpentine and y & 1:
            x = 4 - x
        table[p] = y * 5 + x
    return bytes(table)


def profile_map(profile):
    """The point -> pixel table of a profile's grid (its chain order)."""
    return pixel_map(profile["rotation"], profile["serpentine"], profile["mirror"])


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
        self._breath_t0 = 0          # ticks_ms when it began
        self._breath_step = -1       # the level last shown
        self.animated = False        # True after update() drew an animation step
        self.shift = 0               # idle dimming: the level >> shift (hardware/power.py)

    def show(self, frame, level=None):
        """Draw a 75-byte RGB frame at a level 0..255; one show()."""
        if level is None:
            level = self.level
        px = self.pixels
        m = self.map
        k = level + 1
        i = 0
        for p in range(25):
            r = frame[i]
            g = frame[i + 1]
            b = frame[i + 2]
            # one small int per pixel: setting an int colour allocates nothing
            c = (((r * k) >> 8) << 16) | (((g * k) >> 8) << 8) | ((b * k) >> 8)
            if not c and (r | g | b):
                # too dim for a low cap and brightness: the strongest channel
                # at 1, so that a piece never vanishes (its hue is kept above)
                c = 0x10000 if r >= g and r >= b else (0x100 if g >= b else 1)
            px[m[p]] = c
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
            self.level = scale_level(self.cap, b) >> self.shift
            self.shown_brightness = b
        self.shown_version = app.frame_version
        self.show(app.frame)
        return True

    def _celebrate(self, colour, brightness):
        now = ticks_ms()
        if colour != self.celebrating:
            self.celebrating = colour
            self._breath_t0 = now
            self._breath_step = -1
        # a triangle wave over PERIOD: 0 .. STEPS .. 0
        phase = ticks_diff(now, self._breath_t0) % PERIOD
        step = phase * 2 * STEPS // PERIOD
        if step > STEPS:
            step = 2 * STEPS - step
        self.animated = step != self._breath_step
        if not self.animated:
            return
        self._breath_step = step
        k = (((scale_level(self.cap, brightness) >> self.shift) + 1) * (step * 7 + STEPS) // (8 * STEPS))
        self.pixels.fill((((colour >> 16) & 255) * k >> 8) << 16
                         | (((colour >> 8) & 255) * k >> 8) << 8 | ((colour & 255) * k >> 8))
        self.pixels.show()


    def dim(self, idle_level):
        """Follow the idle level (hardware/power.py): 0 awake, 1 dimmed (a
        quarter), 2 dark (one black frame now; update() is not called then).
        The next update() draws the frame again at the new level."""
        self.shift = 2 if idle_level == 1 else 0
        self.shown_brightness = -1
        self.shown_version = -1
        self._breath_step = -1
        if idle_level == 2:
            self.pixels.fill(0)
            self.pixels.show()


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
    return Leds(pixels, profile_map(profile), profile["brightness"] if cap < 0 else cap)
