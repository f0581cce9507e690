"""The device's code on a PC (CPython + Adafruit Blinka): event files, a
virtual clock, captured NeoPixel frames.

Host only (host/ never goes on the board).  Importing this module sets BLINKA_OS_AGNOSTIC
so that `import board` gives Blinka's simulated board on any PC.

Event files (JARMO_EVENTS, `python3 run.py play --script`), one event a line:

    select              a button of jarmo/app_buttons.py, pressed by player 1 (seat 0)
    p2 select           the same button pressed by player 2 (seat 1; tabletop)
    next 3              the button three times
    wait 500            let 500 ms pass
    # comment           blank lines and comments are skipped

The buttons: next prev up down left right select back menu.  The first pass
draws the start screen; then each button event is delivered in its own
main-loop pass, one clock step after the previous one; `wait` adds time.
After the last event the loop runs one more pass and stops.
"""

import os
import sys

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from adafruit_ticks import ticks_add, ticks_diff  # noqa: E402

from jarmo import app_buttons as codes  # noqa: E402

STEP_MS = 10  # virtual time of one main-loop pass on the host
# The most one line may ask for: a count past this is a typo, not a game (a
# game is a few hundred presses), and each press or 10 ms of waiting is a
# main-loop pass that the run must make.
MAX_COUNT = 1000
MAX_WAIT_MS = 600000


def parse_events(text, extra=()):
    """Event lines -> list of (kind, value, seat): ("press", code, seat) or ("wait", ms, 0).

    extra: further words accepted as ("word", word, 0) (the simulator's "quit").
    ValueError names the line that is wrong and says why.
    """
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        try:
            out += _event(line.split(), extra)
        except ValueError as err:
            raise ValueError("line %d %r: %s" % (number, raw.strip(), err)) from None
    return out


def _event(words, extra):
    """The events of one line's words; ValueError saying what is wrong."""
    seat = 0
    if words[0] in ("p1", "p2"):
        seat = 1 if words[0] == "p2" else 0
        words = words[1:]
        if not words:
            raise ValueError("a button must follow %s" % ("p2" if seat else "p1"))
    if words[0] == "wait":
        if len(words) != 2 or not words[1].isdigit() or int(words[1]) > MAX_WAIT_MS:
            raise ValueError("wait takes 0 to %d milliseconds, a whole number: wait 500, not %r"
                             % (MAX_WAIT_MS, " ".join(words[1:])))
        return [("wait", int(words[1]), 0)]
    if words[0] in extra:
        if len(words) > 1:
            raise ValueError("too many words: %s stands alone" % words[0])
        return [("word", words[0], seat)]
    if words[0] not in codes.NAMES:
        raise ValueError("%r is not a button (%s), wait MS%s" % (
            words[0], " ".join(codes.NAMES), "".join(", " + w for w in extra)))
    if len(words) > 2:
        raise ValueError("too many words: a button and a count at most (next 3)")
    count = 1
    if len(words) == 2:
        if not words[1].isdigit():
            raise ValueError("%r is not a count: a button, then how many times (next 3)"
                             % words[1])
        count = int(words[1])
        if not 1 <= count <= MAX_COUNT:
            raise ValueError("a count of 1 to %d, not %s" % (MAX_COUNT, words[1]))
    return [("press", codes.code(words[0]), seat)] * count


class EventSource:
    """Feeds parsed events to the main loop; poll() is False once they are used up."""

    def __init__(self, events, gap_ms=0):
        self.events = list(events)
        self.pos = 0
        self.gap_ms = gap_ms
        self.due = None          # virtual time the next event is due
        self.finished = False
        self.words = []          # ("word", ...) events met, for the caller

    @classmethod
    def from_file(cls, path, **kw):
        with open(path) as f:
            return cls(parse_events(f.read()), **kw)

    def poll(self, now, press):
        if self.due is None:
            self.due = now
            return True      # the first pass only draws the start screen
        while self.pos < len(self.events):
            kind, value, seat = self.events[self.pos]
            if kind == "wait":
                self.due += value
                self.pos += 1
                continue
            if ticks_diff(now, self.due) < 0:
                return True
            self.pos += 1
            self.due = now + self.gap_ms
            if kind == "word":
                self.words.append(value)
                if value == "quit":
                    self.finished = True
                    return False
                continue
            press(value, seat)
            return True
        if ticks_diff(now, self.due) < 0:
            return True      # a trailing wait still runs
        if self.finished:
            return False
        self.finished = True  # one more pass after the last event
        return True


class VirtualClock:
    """A clock that advances STEP_MS per call: fast, repeatable host runs."""

    def __init__(self, start=0, step=STEP_MS):
        self.now = start - step
        self.step = step

    def __call__(self):
        self.now = ticks_add(self.now, self.step)
        return self.now


def capturing_neopixel():
    """A neopixel.NeoPixel subclass that keeps the bytes each show() transmits."""
    import neopixel

    class CapturingNeoPixel(neopixel.NeoPixel):
        sent = b""
        shows = 0

        def _transmit(self, buffer):
            self.sent = bytes(buffer)
            self.shows += 1
            super()._transmit(buffer)

    return CapturingNeoPixel


def sent_colours(pixels, pixel_map, order="GRB"):
    """The 25 point colours (0xRRGGBB, a1 first) in the last transmitted buffer."""
    buf = pixels.sent
    ri, gi, bi = order.index("R"), order.index("G"), order.index("B")
    bpp = len(order)
    out = []
    for p in range(25):
        i = pixel_map[p] * bpp
        if i + bpp > len(buf):
            out.append(0)
            continue
        out.append((buf[i + ri] << 16) | (buf[i + gi] << 8) | buf[i + bi])
    return out


def frame_text(colours):
    """Five lines of hex colours, rank 5 on top, files a..e left to right."""
    lines = []
    for rank in range(5, 0, -1):
        row = colours[(rank - 1) * 5:rank * 5]
        lines.append("%d  %s" % (rank, " ".join("%06x" % c for c in row)))
    lines.append("   " + " ".join("%-6s" % f for f in "abcde").rstrip())
    return lines


class FramePrinter:
    """on_show callback for code.py on the host: prints frames and status text.

    mode "all": a block each time the LEDs or the text change; "last": only
    the final block (call finish()); "none": nothing.
    """

    def __init__(self, leds, screen, profile, mode="all", out=None, app=None):
        self.leds = leds
        self.screen = screen
        self.order = profile["pixel_order"]
        self.mode = mode
        self.out = out or sys.stdout
        self.app = app
        self.count = 0
        self.last = None
        self.celebrated = None

    def block(self, now):
        colours = sent_colours(self.leds.pixels, self.leds.map, self.order)
        lines = ["-- frame %d at %d ms" % (self.count, now)]
        celebrate = self.leds.celebrating
        if celebrate is not None:
            lines.append("celebrate %06x" % celebrate)
        else:
            lines.extend(frame_text(colours))
        if self.screen is not None:
            text = self.screen.lines()
        elif self.app is not None:
            text = self.app.text
        else:
            text = ()
        for t in text:
            if t:
                lines.append("| " + t)
        return "\n".join(lines)

    def __call__(self, now, drawn, texted):
        if self.leds.celebrating is not None and not texted:
            # animation steps depend on the wall clock: print the start only
            if self.celebrated == self.leds.celebrating:
                return
        self.celebrated = self.leds.celebrating
        self.count += 1
        self.last = self.block(now)
        if self.mode == "all":
            print(self.last, file=self.out)

    def finish(self):
        if self.mode == "last" and self.last is not None:
            print(self.last, file=self.out)
