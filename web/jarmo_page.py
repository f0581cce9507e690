"""The handheld on a web page: the project's own App, LEDs and colours, in
MicroPython WebAssembly (web/fast.js loads this beside jarmo/, hardware/leds.py,
hardware/profiles.py and host/colour.py).  Page only: it never goes on a
board, and nothing in jarmo/ is here for the page's sake.

Fast mode:

    c = check_stored(nvm_hex)             # JSON: "why" the kept sector is not read whole ("" if
                                          # it is); the page then keeps it under another key
    h = Handheld("host", nvm_hex, seed, aside)   # the App over a 4 KB sector kept by the page
                                          # (aside: "" , "kept" or "lost", the copy's fate)
    h.press(button, player)               # jarmo.app_buttons codes, seat 0/1
    h.key(k, down)                        # the profile's own key k down / let go
    h.tap(point)                          # a point of the board tapped (0..24, a1 first)
    busy = h.tick(now_ms)                 # True while an AI thinks: tick again soon
    h.update()                            # JSON of what changed, or ""

When the LEDs do not show the position (an LED-only menu, an icon, the AI's
spinner, the end), the simulator's words for them come along (host.view);
so do the letters of the pieces (the simulator's: A archer, G guard, upper
case South) and the marks of the overlay that the rules in play use.

The LEDs are drawn as on the device: app.frame through hardware.leds.Leds
(the profile's brightness cap, the menu's brightness, the end-of-game
breathing) into 25 pixel colours, then shown "as the eye sees" them
(host.colour.perceived), as the terminal simulator shows them.

Device mode (the real firmware in a Web Worker sends the pixel pin's bytes):

    device_level(profile, nvm_hex)        # the drawing level the board uses now
    check_stored(nvm_hex)                 # as above; its "image": what the board starts from
    device_colours(profile, grb_hex, level)   # JSON: 25 colours, point a1 first
    v = DeviceView(profile)               # the board as its flash and frames tell it
    v.read_flash(nvm_hex)                 # JSON: its level, the marks the rules in play use
    v.frame(grb_hex)                      # JSON: colours, letters, words for the LEDs

The firmware sends only the pixel pin's bytes, so device mode's words and
letters are read back from each frame: the frames the App's own drawing
makes on the screens whose LEDs do not show the board (the LED-only menu,
the result, a choice's icon, a draw's rings, a question), drawn at the
board's level and looked up; the AI's spinner and the winner's breathing
by their pattern; a piece by its colour.
"""

import json

from hardware import profiles
from hardware.leds import Leds, pixel_map, profile_map, scale_level
from host import view
from host.colour import perceived
from host.legend import PIECE_LETTERS
from host.view import led_meaning
from jarmo import app_view as V
from jarmo import rulesets as R
from jarmo.app import App
from jarmo.app_base import RULE, S_LESSON, S_PLAY, expansions
from jarmo.app_buttons import DOWN, KEY_DOWN, NEXT, RIGHT, SELECT, UP, code
from jarmo.board import NAMES
from jarmo.rulesets import RULE_SETS
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


# What the page keeps may not be a sector of ours: a browser's storage can be
# cleared in part, edited, or written by another version of the page. As the
# simulator does with jarmo.nvm (host/saves.py), a kept value the store cannot
# read whole is kept under another key by the page (fast.js, device.js)
# before anything is written over it, and named; what could be read of it is
# used. A value cut short may have gone on past the cut: its game is not resumed.

_HEX = "0123456789abcdefABCDEF"
_FOREIGN = "saves: unreadable, started afresh"       # jarmo/store_read.py's words


def _bytes(nvm_hex):
    """The bytes of hex text, or None if it is not hex."""
    if len(nvm_hex) % 2:
        return None
    for c in nvm_hex:
        if c not in _HEX:
            return None
    return bytes.fromhex(nvm_hex)


def _found(image):
    """(problems, game or None, locked): what the store and the app find in
    a sector, read on a copy (reading writes: a torn tail is marked)."""
    from jarmo.app_base import opponent_row
    from jarmo.store_campaign import Progress
    from jarmo.store_game import load
    from jarmo.store_log import R_CAMPAIGN, R_GAME, R_STATS
    from jarmo.store_stats import Stats
    store = Store(Flash(SECTOR, image))
    problems = list(store.problems)
    game = None
    if store.locked:
        return problems, None, True
    saved = store.game()
    if saved is not None:
        try:
            game, _m, ident, _h, _b = load(saved[1], saved[2], 255, R_GAME in store.damaged)
            if opponent_row(ident) < 0:
                raise ValueError("bad players")
        except ValueError as e:
            game = None
            problems.append("game: " + (e.args[0] if e.args else "unreadable"))
    for kind, key in ((Stats, R_STATS), (Progress, R_CAMPAIGN)):
        problem = kind(store).problem if store.read(key) is not None else None
        if problem:
            problems.append(problem)
    return problems, game, False


def _nothing_past(image, size):
    """True if a value cut short at size lost nothing: the records that
    follow each other from the start end before the cut, and erased bytes
    follow them up to it (records are appended one after the other, so none
    can start past an erased byte). As host/saves.py reads a file cut short."""
    from jarmo.store_log import parse_at
    pos = 0
    while pos < SECTOR:
        n = parse_at(image, pos, SECTOR)
        if not n:
            break
        pos += n
    return pos < size and image[pos:size] == b"\xff" * (size - pos)


def _check(nvm_hex):
    """check_stored() as a dict, with "end" (the game found is not
    resumed: the value was cut short) and "short" (the notice's name)."""
    out = {"why": "", "image": nvm_hex, "short": "", "end": False}
    if not nvm_hex:
        return out
    data = _bytes(nvm_hex)
    if data is None:
        out.update(why="not a saved sector (not hex)", image="", short="saves unreadable")
        return out
    size = len(data)
    image = data[:SECTOR] + b"\xff" * max(0, SECTOR - size)
    problems, game, locked = _found(image)
    out["image"] = image.hex()
    if locked or (size == SECTOR and not problems):
        return out                          # a newer Jarmo's sector: never written over
    damage = "; ".join(p for p in problems if p != _FOREIGN)
    if size == 0:
        why, short = "empty", "saves empty"
    elif size > SECTOR:
        why, short = "too long (%d bytes, not %d)" % (size, SECTOR), "saves too big"
    elif _FOREIGN in problems:
        why, short = "not Jarmo's saves (%d bytes)" % size, "saves unreadable"
    elif size < SECTOR:
        why, short = "cut short (%d of %d bytes)" % (size, SECTOR), "saves cut short"
    else:
        why, short = "damaged", "saves damaged"
    out["why"] = why + (": " + damage if damage and _FOREIGN not in problems else "")
    out["short"] = short
    if 0 < size < SECTOR and not problems and _nothing_past(image, size):
        out["why"] += " after its last record: nothing in it was lost"
    elif 0 < size < SECTOR and game is not None:
        out["end"] = True
        store = Store(Flash(SECTOR, image))
        store.end_game()                    # appended: the device mode's board reads it so
        out["image"] = bytes(store.flash.data).hex()
        out["why"] += "; its game (%d turns) is not resumed" % game.plies
    return out


def check_stored(nvm_hex):
    """JSON: "why" the sector the page kept is not read whole ("" when it is:
    then nothing else matters), "image" (hex: what can be read of it, to
    start from; "" for erased)."""
    c = _check(nvm_hex or "")
    return json.dumps({"why": c["why"], "image": c["image"]})


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

    def __init__(self, profile="host", nvm_hex="", seed=0, aside=""):
        # aside: what the page did with a kept value check_stored() named:
        # "kept" (under another key), "lost" (it could not: the page keeps
        # nothing this time, and the value stays as it was)
        prof = profiles.get(profile)
        c = _check(nvm_hex or "")
        problems = []
        image = bytes.fromhex(c["image"]) if c["image"] else None
        self.flash = StoredFlash(image)
        self.store = Store(self.flash)
        if c["why"]:
            if c["end"] and self.store.game() is not None:
                self.store.end_game()
            try:
                # the kept value replaced at once by what could be read of it,
                # compacted, so that a page closed now does not find the damage again
                self.store.compact()
            except OSError:
                pass
            if _FOREIGN in self.store.problems:
                self.store.problems.remove(_FOREIGN)    # said below, with the copy
            if aside == "kept":
                problems.append(c["short"] + ": a copy was set aside")
            else:
                problems.append(c["short"] + ": left as they are")
            if c["end"]:
                problems.append("game in progress not resumed")
            if aside != "kept":
                problems.append("saves last until you close the page")
            self.flash.changed = True       # the page keeps the repaired sector
        self.app = App(store=self.store, has_display=has_display(profile),
                       tabletop=prof["tabletop"], seed=seed, problems=problems)
        self.pixels = Pixels()
        self.map = pixel_map(0, False)      # the picture as it is: point p on pixel map[p]
        self.leds = Leds(self.pixels, self.map, prof["brightness"])
        self.shows = -1
        self.text_version = -1
        self.thinking = False
        self.says = None
        self.labels = None
        self.overlay = None
        # the profile's own keys (a three-button board's), as hardware/buttons.py reads them
        self.keys = prof["keys"]
        self.long_ms = prof["long_ms"]
        self.held = bytearray(len(self.keys))     # 0 up, 1 down (its hold to come), 2 done
        self.down_at = [0] * len(self.keys)

    def press(self, button, player=0):
        self.app.press(button, player)

    def key(self, k, down):
        """The profile's key k (its index in profile["keys"]) down or let go,
        sent to the App as hardware/buttons.py's Buttons.poll sends a board's
        key (that module imports keypad, which MicroPython on the page has
        not): a key without a hold gives its short name at once; one with a
        hold gives its short name with KEY_DOWN as it goes down, its short
        name when let go early, and its long name once held long_ms (tick)."""
        _label, _pin, seat, short, long = self.keys[k]
        app = self.app
        if down:
            if long is None:
                app.press(code(short), seat)
            elif not self.held[k]:
                self.down_at[k] = app.now
                self.held[k] = 2 if app.press(code(short) | KEY_DOWN, seat) else 1
            return
        if self.held[k] == 1:
            app.press(code(short), seat)
        self.held[k] = 0

    def tap(self, point):
        """A point tapped: the buttons a player would press to pick it, at
        their own pick of a turn: NEXT through the choices to it (as a
        three-button board does), else the arrows, then SELECT, so a tap
        on a point no pick can take is refused in words, as SELECT there
        is; "" if it picked, else the refusal's words; elsewhere than a
        pick (the menu, the AI's turn) a tap does nothing.

        A tap that no pick can take while a piece is picked keeps that piece
        picked (a finger that misses is no reason to pick again), where
        SELECT on such a point drops it on the board: refused in the App's
        words, the piece and its targets stay."""
        app = self.app
        if app.sid != S_PLAY or app.game is None:
            return ""
        player = app.turn_side() if app.tabletop else 0
        board = app.board
        play = app.states[app.sid]
        sel = play.sel
        if 0 <= sel < 25 and point != sel and not (play.tmask >> point & 1) \
                and not (play.choices.firsts >> point & 1):
            return self._refuse_keeping(play, sel, point)
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
            return ""
        app.press(SELECT, player)
        return " ".join(app.msg) if app.sid == S_PLAY and app.msg and app.msg[0].startswith("No: ") else ""

    def _refuse_keeping(self, play, sel, point):
        """The refusal of Play._refuse (jarmo/app_play.py: why, in the
        words of jarmo.explain, and a red flash on the point) without its
        drop of the picked piece; the cursor stays on its target."""
        from jarmo.app_base import wrap
        from jarmo.app_play import flash_at
        from jarmo.explain import refusal
        app = self.app
        why = "No: " + refusal(app.game, sel, point)
        flash_at(app, point, V.RED)
        app.msg = wrap(why, 21, 3)
        play.text(app)
        app.dirty = True                    # the flash drawn in this pass
        return "%s (%s stays picked)" % (why, NAMES[sel])

    def tick(self, now_ms):
        app = self.app
        app.tick(now_ms)
        for k in range(len(self.held)):     # a key held long enough: its long name (hardware/buttons.py)
            if self.held[k] == 1 and V.ticks_diff(app.now, self.down_at[k]) >= self.long_ms:
                self.held[k] = 2
                app.press(code(self.keys[k][4]), self.keys[k][2])
        self.leds.update(app)
        return app.busy

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
        position: lines, [] when they do), "labels" (the 25 points' piece
        letters, "" for none or while the LEDs show no position), "overlay"
        (the marks the rules in play use: overlay_marks), "nvm" (the sector
        as hex, to keep)."""
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
            labels = view.board_labels(app) or [""] * 25
            if labels != self.labels:
                self.labels = out["labels"] = labels
            overlay = overlay_marks(*rules_in_play(app))
            if overlay != self.overlay:
                self.overlay = out["overlay"] = overlay
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
    data = _bytes(nvm_hex) if nvm_hex else None      # a damaged value: the default level
    app = App(store=Store(StoredFlash(data)), has_display=has_display(profile),
              tabletop=prof["tabletop"])
    return scale_level(prof["brightness"], app.brightness)


def device_colours(profile, grb_hex, level):
    """The 25 LEDs of a frame sent on a board's pixel pin (bytes in the
    profile's pixel order, pixel 0 first), as the eye sees them, point a1 first."""
    prof = profiles.get(profile)
    table = profile_map(prof)
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


# ---------------------------------------------------------------- the overlay's marks

def rules_in_play(app):
    """(rule set, expansions) of the game the LEDs show or would resume (the
    lesson's own game in the lesson), else of the next game the settings
    describe (the menu's Rules, Heroes and Challenges)."""
    game = app.states[app.sid].game if app.sid == S_LESSON else app.game
    if game is not None:
        return game.rules, game.expansions
    s = app.settings
    return RULE_SETS[s[0]], expansions(s)


def overlay_marks(rules, expansions_):
    """What of the printed overlay these rules use, beyond the 38 lines:
    "dotted", jasyr's line c3-b5 (a rule set whose moves only go forward:
    host.view.dotted_counts); "rings", the remote camps b3 and d3 of the
    challenges expansion. The page draws only these, and says so."""
    return {"rules": rules, "expansions": list(expansions_),
            "dotted": bool(R.row(rules)[R.FEATURES] & R.FORWARD),
            "rings": "challenges" in expansions_}


# ---------------------------------------------------------------- device mode's frames read back

class _Stub:
    """What a drawing function of the App or a wording of host.view reads of
    an app, and nothing more (the screens drawn here are not the App's own)."""


_FLAT = pixel_map(0, False)     # point p on pixel p's place: the frame as drawn, a1 first
_CATALOGUES = {}                # (level, LED-only) -> {25 colours sent: words}
_QUESTION = ["LEDs: every LED flashes red = a question: SELECT again is yes, any other button no"]
_BREATHES = ["LEDs: the whole grid breathes in the winner's colour"]


def _drawn_frame(frame, level):
    """The 25 colours hardware/leds.py sends for an app frame at a level, a1 first."""
    px = Pixels()
    Leds(px, _FLAT).show(frame, level)
    return tuple(px.px[_FLAT[p]] for p in range(25))


def _key(sent):
    """25 colours as the catalogue's key: bytes (MicroPython hashes a tuple
    of ints so poorly that a lookup among the menu's frames took 40 ms)."""
    out = bytearray(75)
    for p in range(25):
        c = sent[p]
        out[3 * p] = c >> 16
        out[3 * p + 1] = (c >> 8) & 255
        out[3 * p + 2] = c & 255
    return bytes(out)


def _drawn(colour, level, k=256):
    """One app colour (scaled by k/256, as app_view.put_k does) as sent at a level."""
    buf = bytearray(75)
    V.put_k(buf, 0, colour, k)
    return _drawn_frame(buf, level)[0]


def _catalogue(level, led_only):
    """{25 colours sent: words} of every frame the App draws where its LEDs
    do not show the board, drawn by the App's own code at this level: the
    LED-only menu (each item, each value, with a game and without, both
    halves of a blink) and the result, a question's red, a pseudo choice's
    icon, a draw's rings. The words are host.view's, as fast mode says them
    (dark frames say nothing). A screen whose drawing reads more of the app
    than the stub holds is left out (said on the console), not guessed."""
    key = (level, led_only)
    if key in _CATALOGUES:
        return _CATALOGUES[key]
    out = {}
    buf = bytearray(75)

    def add(lines):
        sent = _drawn_frame(buf, level)
        key = _key(sent)
        if any(sent) and key not in out:
            out[key] = list(lines)

    sections = ([_menu_frames, _result_frames] if led_only else []) + [_question_frames, _icon_frames, _draw_frames]
    for section in sections:
        try:
            section(buf, add)
        except (AttributeError, TypeError, IndexError) as e:
            print("jarmo_page: %s left out of device mode's words: %r" % (section.__name__, e))
    _CATALOGUES[key] = out
    return out


def _menu_app():
    from jarmo import app_menu as M
    from jarmo.app_base import DEFAULT_SETTINGS
    app = _Stub()
    app.has_display = False
    app.settings = bytearray(DEFAULT_SETTINGS)
    app.sid = 0
    app.game = None
    app.states = [M.Menu()]
    return app


def _menu_frames(buf, add):
    """The LED-only menu: each item (its LED at its fixed place), each value."""
    from jarmo import app_menu as M
    from jarmo.app_base import ITEM, ITEMS, VALUES
    app = _menu_app()
    menu = app.states[0]
    for game in (None, _Stub()):            # (the first screen, without a game, differs)
        app.game = game
        for item in M.ORDER:
            menu.item = item
            n = ITEMS[item * ITEM + VALUES]
            for v in range(n) if n else (-1,):
                if n:
                    app.settings[item - RULE] = v
                for now in (0, 256):        # a blink's two halves (app_view.blink(now, 512))
                    app.now = now
                    menu.draw(app, buf)
                    add(view._menu_leds(app, False))


def _question_frames(buf, add):
    """The menu's question: every LED red (the other half of its blink is dark)."""
    app = _menu_app()
    menu = app.states[0]
    menu.asked = True
    app.now = 0
    menu.draw(app, buf)
    add(_QUESTION)


def _icon_frames(buf, add):
    """A pseudo choice (done, redeploy, menu) in either side's cursor colour."""
    app = _Stub()
    app.board = _Stub()
    for side in (0, 1):
        for i in range(len(V.ICONS)):
            app.board.cursor = 25 + i
            for now in (0, 512):
                V.draw_icon(buf, V.ICONS[i], V.CURSOR[side], now)
                add(view._choice_leds(app, False))


def _draw_frames(buf, add):
    """A draw's end: grey rings running out from c3, three phases."""
    from jarmo.app_screens import End
    app = _Stub()
    app.celebrate = None
    end = End()
    end.t0 = 0
    for now in (0, 256, 512):
        app.now = now
        end.draw(app, buf)
        add(view._end_leds(app, False))


def _result_frames(buf, add):
    """The LED-only result: South's points from a1, North's from e5 (at most
    12 each), a game's or, c3 white, a match's totals."""
    from jarmo.app_screens import ResultScreen
    app = _Stub()
    app.has_display = False
    result = ResultScreen()
    outcome = _Stub()
    outcome.winner = None
    app.game = _Stub()
    app.game.result = lambda: outcome
    app.frame = buf
    match = _Stub()
    match.side_of = lambda which: "south"
    for s in range(13):
        for n in range(13):
            outcome.points = (s, n)
            match.totals = (s, n)
            for totals in (False, True):
                app.match = match if totals else None
                app.now = 4096 if totals else 0
                result.draw(app, buf)
                add(view._result_leds(app, False))


class DeviceView:
    """A board of `profile` in device mode as the page reads it: its level
    and the rules in play from the flash it keeps (read_flash: the App's own
    reading of it), and from each frame on its pixel pin the colours as
    seen, the pieces' letters and what the LEDs mean (the module's
    docstring). One for the board's life: the flash is read again at each
    change, and no App is kept (MicroPython's heap on the page is fixed)."""

    def __init__(self, profile):
        self.profile = profile
        self.prof = profiles.get(profile)
        self.table = profile_map(self.prof)
        self.level = None
        self.marks = None
        self.rules = ("standard", ())
        self.thinks = []
        self.letters = [""] * 25

    def read_flash(self, nvm_hex=""):
        """Read the board's flash as its App would at start-up: the level it
        draws at, the rules in play, who thinks; JSON of the level and the
        overlay's marks."""
        data = _bytes(nvm_hex) if nvm_hex else None      # a damaged value: the defaults
        app = App(store=Store(StoredFlash(data)), has_display=has_display(self.profile),
                  tabletop=self.prof["tabletop"])
        self.rules = rules_in_play(app)
        stub = _Stub()
        stub.thinking = True
        stub.opponent = app.opponent
        self.thinks = view._thinking_leds(stub, False)   # the AI's, or the other board's turn
        level = scale_level(self.prof["brightness"], app.brightness)
        marks = bool(R.row(self.rules[0])[R.FEATURES] & R.MARKS)
        if (level, marks) != (self.level, self.marks):
            self.level, self.marks = level, marks
            self._colours(level, marks)
            # the catalogue now, while the board boots (the page reads its flash then), not
            # at its first frame: it takes MicroPython on the page most of a second
            _catalogue(level, self.prof["display"] is None)
        return json.dumps({"level": self.level, "overlay": overlay_marks(*self.rules)})

    def _colours(self, level, marks):
        # a piece by its colour (the colours of app_view.PIECE: kind + 5 * side) ...
        self.pieces = {}
        for k in range(10):
            if k % 5 != 1 or marks:         # (a marked archer only where the rules mark)
                letter = PIECE_LETTERS["amgAG"[k % 5]]
                self.pieces.setdefault(_drawn(V.PIECE[k], level), letter if k < 5 else letter.lower())
        if marks:                           # ... and a marked archer's breathing shades
            for side in (0, 1):
                for k in range(64, 256):
                    self.pieces.setdefault(_drawn(V.PIECE[1 + 5 * side], level, k), "M" if side == 0 else "m")
        # an empty point's colours; and every other colour a game shows over a
        # piece (cursor, selection, strobes, hint...): the point keeps its letter
        self.empty = {0, _drawn(V.TRAIL, level), _drawn(V.MARKER, level), _drawn(V.TARGET, level)}
        self.known = set(self.pieces) | self.empty
        for _meaning, colour in App.legend():
            self.known.add(_drawn(colour, level))
        for colour, k in ((V.WHITE, 160), (V.TARGET * 2, 256), (V.CURSOR[0], 64), (V.CURSOR[1], 64)):
            self.known.add(_drawn(colour, level, k))
        self.spin = [(_drawn(c, level), _drawn(c, level, 64)) for c in V.CURSOR]

    def _sent(self, grb_hex):
        """The 25 colours of a frame on the pixel pin, point a1 first (0xRRGGBB)."""
        order = self.prof["pixel_order"]
        data = bytes.fromhex(grb_hex)
        out = []
        for p in range(25):
            i = self.table[p] * 3
            rgb = {"R": 0, "G": 0, "B": 0}
            for j in range(3):
                if i + j < len(data):
                    rgb[order[j]] = data[i + j]
            out.append((rgb["R"] << 16) | (rgb["G"] << 8) | rgb["B"])
        return tuple(out)

    def _read_letters(self, sent):
        """Each point's piece letter: a piece's colour gives it; an empty
        point's takes it away; any other colour (the cursor's blink, the
        selection, a strobe) leaves the letter the point had. A frame with
        no piece at all (a screen of its own), or with a colour this level
        never draws (the board dimmed while idle, whose shades could pass
        for another piece's), shows none."""
        if not any(c in self.pieces for c in sent) or any(c not in self.known for c in sent):
            self.letters = [""] * 25
            return self.letters
        for p in range(25):
            c = sent[p]
            if c in self.pieces:
                self.letters[p] = self.pieces[c]
            elif c in self.empty:
                self.letters[p] = ""
        return self.letters

    def _spinning(self, sent):
        """True when the ring round c3 shows the AI's spinner: a dot in a
        cursor's colour with its dim tail behind it (app_view.draw_spinner)."""
        for head, tail in self.spin:
            for h in range(8):
                if sent[V.RING[h]] == head and sent[V.RING[(h - 1) & 7]] == tail:
                    return True
        return False

    def frame(self, grb_hex):
        """JSON of a frame on the pixel pin: "leds" (as the eye sees them, as
        device_colours), "labels" (the pieces' letters) and "says" (what the
        LEDs mean where they do not show the board, as fast mode words it)."""
        sent = self._sent(grb_hex)
        says = _catalogue(self.level, self.prof["display"] is None).get(_key(sent))
        if says is not None:
            labels = self.letters = [""] * 25
        else:
            labels = self._read_letters(sent)
            if self._spinning(sent):
                says = self.thinks
            elif sent[0] and all(c == sent[0] for c in sent):
                says = _BREATHES
            else:
                says = []
        return json.dumps({"leds": [perceived(c, self.level) for c in sent],
                           "labels": labels, "says": says})
