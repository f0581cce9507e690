"""The handheld on a web page: the project's own App, LEDs and colours, in
MicroPython WebAssembly (web/fast.js loads this beside jarmo/, hardware/leds.py,
hardware/profiles.py and host/colour.py).  Page only: it never goes on a
board, and nothing in jarmo/ is here for the page's sake.

Fast mode:

    h = Handheld("host", nvm_hex, seed)   # the App over a 4 KB sector kept by the page
    h.press(button, player)               # jarmo.app_buttons codes, seat 0/1
    h.tap(point)                          # a point of the board tapped (0..24, a1 first)
    busy = h.tick(now_ms)                 # True while an AI thinks: tick again soon
    h.update()                            # JSON of what changed, or ""

When the LEDs do not show the position (an LED-only menu, an icon, the AI's
spinner, the end), the simulator's words for them come along (host.view).

The LEDs are drawn as on the device: app.frame through hardware.leds.Leds
(the profile's brightness cap, the menu's brightness, the end-of-game
breathing) into 25 pixel colours, then shown "as the eye sees" them
(host.colour.perceived), as the terminal simulator shows them.

Device mode (the real firmware in a Web Worker sends the pixel pin's bytes):

    device_level(profile, nvm_hex)        # the drawing level the board uses now
    device_colours(profile, grb_hex, level)   # JSON: 25 colours, point a1 first
"""

import json

from hardware import profiles
from hardware.leds import Leds, pixel_map, scale_level
from host.colour import perceived
from host.view import led_meaning
from jarmo.app import App
from jarmo.app_base import S_PLAY
from jarmo.app_buttons import DOWN, NEXT, RIGHT, SELECT, UP
from jarmo.store_flash import Flash
from jarmo.store_log import Store

SECTOR = 4096       # microcontroller.nvm on an RP2040: the App's whole store


class StoredFlash(Flash):
    """The store's 4 KB sector, as microcontroller.nvm behaves (jarmo/store_flash.py);
    `changed` tells the page that it should keep the bytes (localStorage)."""

    def __init__(self, data=None):
        if data is not None and len(data) != SECTOR:
            data = None                 # not a sector of ours: start erased
        Flash.__init__(self, SECTOR, data)
        self.changed = False

    def saved(self, at, n):
        self.changed = True


class Pixels:
    """What hardware.leds.Leds draws on: 25 pixels of 0xRRGGBB (a NeoPixel
    with brightness 1.0 and auto_write off)."""

    def __init__(self):
        self.px = [0] * 25
        self.shows = 0

    def __setitem__(self, i, colour):
        self.px[i] = colour

    def __getitem__(self, i):
        return self.px[i]

    def fill(self, colour):
        for i in range(25):
            self.px[i] = colour

    def show(self):
        self.shows += 1


def has_display(name):
    """The PC's profile (the simulator's) shows the display's text too."""
    return name == "host" or profiles.get(name)["display"] is not None


class Handheld:
    """One App with its LEDs, for the page's loop."""

    def __init__(self, profile="host", nvm_hex="", seed=0):
        prof = profiles.get(profile)
        self.flash = StoredFlash(bytes.fromhex(nvm_hex) if nvm_hex else None)
        self.store = Store(self.flash)
        self.app = App(store=self.store, has_display=has_display(profile),
                       tabletop=prof["tabletop"], seed=seed)
        self.pixels = Pixels()
        self.map = pixel_map(0, False)      # the picture as it is: point p on pixel map[p]
        self.leds = Leds(self.pixels, self.map, prof["brightness"])
        self.shows = -1
        self.text_version = -1
        self.thinking = False
        self.says = None

    def press(self, button, player=0):
        self.app.press(button, player)

    def tap(self, point):
        """A point tapped: the buttons a player would press to pick it, at
        their own pick of a turn: NEXT through the choices to it (as a
        three-button board does), else the arrows, then SELECT, so a tap
        on a point no pick can take is refused in words, as SELECT there
        is. True if it picked; elsewhere than a pick (the menu, the AI's
        turn) a tap does nothing."""
        app = self.app
        if app.sid != S_PLAY or app.game is None:
            return False
        player = app.turn_side() if app.tabletop else 0
        board = app.board
        for _ in range(32):                 # at most once round the choices
            if board.cursor == point:
                break
            app.press(NEXT, player)
        if board.cursor != point and board.cursor < 25:
            turned = -1 if app.tabletop and player == 1 else 1      # the far seat's arrows
            for _ in range((point % 5 - board.cursor % 5) * turned % 5):
                app.press(RIGHT, player)
            ranks = point // 5 - board.cursor // 5
            for _ in range(abs(ranks)):     # (off rank 1 or 5 the cursor leaves the board)
                app.press(UP if ranks * turned > 0 else DOWN, player)
        if board.cursor != point or app.sid != S_PLAY:
            return False
        app.press(SELECT, player)
        return True

    def tick(self, now_ms):
        self.app.tick(now_ms)
        self.leds.update(self.app)
        return self.app.busy

    def colours(self):
        """The 25 LEDs as the eye sees them, point a1 first."""
        level = self.leds.level
        px = self.pixels.px
        return [perceived(px[self.map[p]], level) for p in range(25)]

    def update(self):
        """What changed since the last call, as JSON ("" for nothing): "leds"
        (25 colours 0xRRGGBB as seen, a1 first), "frame" (app.frame as hex),
        "text" (the display's lines), "thinking" (an AI turn began or ended),
        "state", "says" (what the LEDs mean when they do not show the
        position: lines, [] when they do), "nvm" (the sector as hex, to keep)."""
        out = {}
        app = self.app
        if self.pixels.shows != self.shows:
            self.shows = self.pixels.shows
            out["leds"] = self.colours()
            out["frame"] = bytes(app.frame).hex()
            out["level"] = self.leds.level
            out["celebrate"] = app.celebrate
        if app.text_version != self.text_version:
            self.text_version = app.text_version
            out["text"] = list(app.text)
        if app.thinking != self.thinking:
            self.thinking = out["thinking"] = app.thinking
        if out:
            out["state"] = app.state
            says = led_meaning(app)
            if says != self.says:
                self.says = out["says"] = says
        if self.flash.changed:
            self.flash.changed = False
            out["nvm"] = bytes(self.flash.data).hex()
        return json.dumps(out) if out else ""

    def game(self):
        """The running game's actions, as JSON (for the page's tests)."""
        g = self.app.game
        return json.dumps(g.history() if g is not None else None)

    def how_to_play(self):
        self.app.how_to_play()


def device_level(profile, nvm_hex=""):
    """The level (0..255) a board of `profile` draws at with this nvm: the
    profile's cap and the brightness the App reads from the settings kept there."""
    prof = profiles.get(profile)
    flash = StoredFlash(bytes.fromhex(nvm_hex) if nvm_hex else None)
    app = App(store=Store(flash), has_display=has_display(profile), tabletop=prof["tabletop"])
    return scale_level(prof["brightness"], app.brightness)


def device_colours(profile, grb_hex, level):
    """The 25 LEDs of a frame sent on a board's pixel pin (bytes in the
    profile's pixel order, pixel 0 first), as the eye sees them, point a1 first."""
    prof = profiles.get(profile)
    table = pixel_map(prof["rotation"], prof["serpentine"])
    order = prof["pixel_order"]
    data = bytes.fromhex(grb_hex)
    out = []
    for p in range(25):
        i = table[p] * 3
        rgb = {"R": 0, "G": 0, "B": 0}
        for j in range(3):
            if i + j < len(data):
                rgb[order[j]] = data[i + j]
        out.append(perceived((rgb["R"] << 16) | (rgb["G"] << 8) | rgb["B"], level))
    return json.dumps(out)
