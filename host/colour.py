"""Colours in a terminal: the LED as the eye sees it, the terminal's colour
mode, escape sequences, and text painted on an LED's colour.

Host only.  The simulator draws each point in the colour of the bytes the
NeoPixel object last transmitted (host/blinka.py captures them), undoing the
dimming the way the eye adapts to the LEDs (perceived).
"""

import os

GAMMA = 2.2    # the eye / an sRGB screen: shown value = light ** (1 / GAMMA)
MODES = ("truecolor", "256", "none")

RESET = "\x1b[0m"
DIM = "\x1b[2m"
BOLD = "\x1b[1m"


def _unscale(v, k):
    """The frame byte (0..255) that Leds.show() turned into v = (f * k) >> 8:
    the middle of the range of f that gives v (0 stays 0: the LED is off).
    (A piece too dim for its level is sent as 1 in its strongest channel:
    that reads as the middle of the range that gives 1.)"""
    if v <= 0 or k >= 256:
        return v
    lo = -(-v * 256 // k)                          # ceil(v * 256 / k)
    hi = min(255, -(-(v + 1) * 256 // k) - 1)
    return (lo + max(lo, hi)) / 2


def perceived(colour, level=255, gamma=GAMMA):
    """The 0xRRGGBB a terminal shows for an LED sent `colour` at drawing level
    `level` (0..255, hardware.leds.scale_level of the profile's cap and the
    menu brightness: the bytes are colour * (level + 1) >> 8).

    First the dimming is undone (the eye adapts to the LEDs' brightness, so a
    capped or dimmed grid looks the same, only darker); then the brightest
    channel is lifted from LED light to screen value (light ** (1 / gamma)),
    and the other channels scaled with it, so the hue stays: a dim archer
    (0x401C00) shows as a clear vermillion-brown 0x883C00, not near-black.
    """
    k = level + 1
    r = _unscale((colour >> 16) & 255, k)
    g = _unscale((colour >> 8) & 255, k)
    b = _unscale(colour & 255, k)
    top = max(r, g, b)
    if top <= 0:
        return 0
    top = min(top, 255)
    scale = 255 * (top / 255) ** (1 / gamma) / max(r, g, b)
    r, g, b = (min(255, int(round(c * scale))) for c in (r, g, b))
    return (r << 16) | (g << 8) | b


def colour_mode(option="auto", env=None):
    """The colour rendering for a terminal: "truecolor", "256" or "none".

    option: "auto" or one of MODES (a command-line choice overrides the
    environment).  auto: NO_COLOR set to anything non-empty gives "none"
    (https://no-color.org); COLORTERM truecolor or 24bit gives "truecolor";
    a TERM with 256color gives "256"; anything else (dumb, linux, vt100,
    xterm, unset) gives "none": letters and marks only.
    """
    if option != "auto":
        if option not in MODES:
            raise ValueError("--color must be auto, %s" % ", ".join(MODES))
        return option
    env = os.environ if env is None else env
    if env.get("NO_COLOR", ""):
        return "none"
    if env.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return "truecolor"
    if "256color" in env.get("TERM", ""):
        return "256"
    return "none"


_CUBE = (0, 95, 135, 175, 215, 255)   # the xterm 256-colour cube's levels


def xterm256(colour):
    """The nearest of the xterm 256-colour palette's cube and grey ramp (16..255)."""
    rgb = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)

    def near(v):
        return min(range(6), key=lambda i: abs(_CUBE[i] - v))
    idx = [near(v) for v in rgb]
    cube = tuple(_CUBE[i] for i in idx)
    grey_i = max(0, min(23, int(round((sum(rgb) / 3 - 8) / 10))))
    grey = (8 + 10 * grey_i,) * 3

    def dist(c):
        return sum((a - b) ** 2 for a, b in zip(c, rgb))
    if dist(grey) < dist(cube):
        return 232 + grey_i
    return 16 + 36 * idx[0] + 6 * idx[1] + idx[2]


def sgr_colour(colour, mode, background=False):
    """The escape sequence that sets the foreground (or background) colour;
    "" in mode "none"."""
    if mode == "none":
        return ""
    layer = 48 if background else 38
    if mode == "256":
        return "\x1b[%d;5;%dm" % (layer, xterm256(colour))
    return "\x1b[%d;2;%d;%d;%dm" % (layer, (colour >> 16) & 255, (colour >> 8) & 255, colour & 255)


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


def paint(text, colour, mode, bold=False):
    """text on the LED colour (0xRRGGBB as perceived) in the colour mode;
    plain text in mode "none"."""
    if mode == "none":
        return text
    return ((BOLD if bold else "") + sgr_colour(colour, mode, background=True)
            + sgr_colour(ink_for(colour), mode) + text + RESET)


def visible_len(s):
    """The characters of s a terminal shows (escape sequences take none)."""
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


def clip(s, width):
    """Cut a line with colour codes to width visible characters."""
    if visible_len(s) <= width:
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
