"""What the page must show, computed on CPython from the project's own code:
LED colours as the eye sees them, the App's frames and games, the OLED's text
in the board's font."""

import os

from hardware.leds import Leds, pixel_map
from host.colour import perceived
from jarmo.app import App
from jarmo.store_flash import Flash
from jarmo.store_log import Store


class _Pixels:
    def __init__(self):
        self.px = [0] * 25

    def __setitem__(self, i, c):
        self.px[i] = c

    def show(self):
        pass


def seen(frame, level):
    """The 25 colours (a1 first) the page must show for an app frame drawn at
    level: the device's LED code's bytes, as the eye sees them."""
    px = _Pixels()
    leds = Leds(px, pixel_map(0, False))
    leds.show(bytes(frame), level)
    return [perceived(px.px[leds.map[p]], level) for p in range(25)]


def settle(app, now, most_ms=60000, step=16):
    """Tick the app until no AI thinks or plays; the clock after."""
    end = now + most_ms
    while now < end:
        app.tick(now)
        now += step
        if app.state != "ai" and not app.busy:
            app.tick(now)
            return now + step
    raise AssertionError("the app did not settle")


def replay(seed, presses, has_display=True):
    """The game an App with a new store and this seed plays for these button
    presses (each after the app has settled), as the page's must be."""
    app = App(store=Store(Flash()), has_display=has_display, seed=seed)
    now = settle(app, 0)
    for b in presses:
        app.press(b)
        now = settle(app, now)
    return app.game.history() if app.game is not None else None


def menu_frames(nvm=None, has_display=False, ms=1100, step=10):
    """Every frame the App shows in its menu at start-up (it blinks), for a
    board whose nvm holds these bytes."""
    app = App(store=Store(Flash(data=nvm) if nvm else Flash()), has_display=has_display, seed=1)
    frames = set()
    for now in range(0, ms, step):
        app.tick(now)
        frames.add(bytes(app.frame))
    assert app.state == "menu"
    return frames, app.text


def nvm_history(nvm):
    """The game in progress in an nvm sector's log, as actions, or None."""
    from jarmo.store_game import load
    found = Store(Flash(data=nvm)).game()
    return None if found is None else load(found[1], found[2], 255)[0].history()


def text_picture(lines, width=128, height=64):
    """The display's lines drawn in CircuitPython's built-in font (terminalio,
    6 x 12), as hardware/display.py lays them out: a line every 12 pixels."""
    os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
    import terminalio
    font = terminalio.FONT
    out = bytearray(width * height)
    for row, line in enumerate(lines):
        for col, ch in enumerate(line):
            g = font.get_glyph(ord(ch))
            if g is None:
                continue
            for y in range(g.height):
                for x in range(g.width):
                    if g.bitmap[g.tile_index * g.width + x, y]:
                        px, py = col * 6 + x, row * 12 + y
                        if px < width and py < height:
                            out[py * width + px] = 1
    return bytes(out)


def best_match(picture, expected, width=128, height=64, reach=4):
    """How well the lit pixels of two pictures agree (2 |both| / (|one| + |other|):
    1 when the same), at the best shift of at most reach pixels each way (the
    labels' exact baseline aside)."""
    lit = {(i % width, i // width) for i, v in enumerate(picture) if v}
    want = [(i % width, i // width) for i, v in enumerate(expected) if v]
    if not lit or not want:
        return 0.0
    best = 0.0
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            both = sum((x + dx, y + dy) in lit for x, y in want)
            best = max(best, 2 * both / (len(lit) + len(want)))
    return best
