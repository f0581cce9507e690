# The handheld's app: a hardware-free state machine (docs/APP.md).
#
#     app = App(store=None, has_display=True, tabletop=False, seed=0, resident=False)
#     app.press(button, player=0)    # one debounced button (jarmo.buttons)
#     app.tick(now_ms)               # wrapping int ms; bounded work
#     app.frame, app.frame_version   # 25 RGB points, a1 = bytes 0..2
#     app.text, app.text_version     # up to 5 lines of up to 21 characters
#     app.brightness, app.celebrate
#
# App holds the state (a small int), the picture and the text. The code that
# runs a state lives in an *overlay* module, imported when the state is
# entered and unloaded when another overlay takes over, because on the device
# imported code stays on the heap:
#
#     app_play     play, ai: a human's turn and the AI's (with app_turn)
#     app_menu     menu: the menu and its settings
#     app_screens  notice, stats, end, result, and start-up (with app_menu, stats)
#
# Each overlay has press(app, button, player), tick(app) and draw(app, buf).
# The LED picture primitives are in app_view, which stays loaded.
#
# RAM (docs/APP.md, Memory): the app modules describe themselves in comments,
# not docstrings, because MicroPython keeps module and class docstrings on
# the heap; function docstrings cost nothing there.
#
# Saving: after every completed turn the game (or match) goes to the store as
# ``game``; settings go to ``settings`` when a value changes; statistics to
# ``stats`` when a game ends. A damaged file is reported and set aside.

import json
import sys

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.board import point
from jarmo import app_view as V

# States (the overlays use these names).
S_MENU = const(0)
S_STATS = const(1)
S_PLAY = const(2)
S_AI = const(3)
S_END = const(4)
S_RESULT = const(5)
S_NOTICE = const(6)
S_HELP = const(7)       # How to play: run by app_menu with jarmo.app_help
STATE_NAMES = ("menu", "stats", "play", "ai", "end", "result", "notice", "help")

# The overlay modules. An overlay is named by its module's index here and
# keeps the modules of its _KEEP bit mask loaded; all others are unloaded.
_MODULES = ("jarmo.app_play", "jarmo.app_turn", "jarmo.app_menu", "jarmo.app_screens",
            "jarmo.stats")
PLAY = const(0)         # app_play + app_turn
MENU = const(2)         # app_menu
SCREENS = const(3)      # app_screens + app_menu + stats
_KEEP = (0b00011, 0, 0b00100, 0b11100)     # by overlay (1 is none)
_UI = (MENU, SCREENS, PLAY, PLAY, SCREENS, SCREENS, SCREENS, MENU)    # the overlay of each state

# What the device imports after start-up, one module per main-loop pass, so
# that no state change waits for an import (docs/ARCHITECTURE.md).
# (jarmo.explain, only for a refused pick, and the How to play pages load
# when first needed: each import alone stays well under the pass budget.)
PRELOAD = _MODULES + ("jarmo.ai", "jarmo.match")

SAVE = "game"
# Settings a new device starts with (app_menu names them): standard rules,
# no expansions, against the greedy AI, South, one game, brightness 5 of 7.
DEFAULT_SETTINGS = b"\x01\x00\x00\x02\x00\x00\x05"
_AI_STEPS = const(2)        # player.step() calls per tick; each applies up to 8
                            # actions (ai.SLICE), so at most 16 a tick
_REDRAW = const(32)         # ms between redraws when nothing happened


def wrap(text, width=21, lines=2):
    """Up to `lines` lines of at most `width` characters, cut at spaces."""
    out = []
    line = ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = ""
        line = (line + " " + w if line else w)[:width]
    if line:
        out.append(line)
    return tuple(out[:lines])


def _unload(name):
    """Forget a module so its code can be collected (MicroPython RAM)."""
    mod = sys.modules.pop(name, None)
    pkg = sys.modules.get("jarmo")
    short = name[6:]                    # after "jarmo."
    if mod is not None and getattr(pkg, short, None) is mod:
        delattr(pkg, short)


class App:
    def __init__(self, store=None, has_display=True, tabletop=False, seed=0, resident=False):
        self.frame = bytearray(75)
        self.resident = resident    # keep every overlay once loaded (the device: see _use)
        self._work = bytearray(75)
        self.frame_version = 0
        self.text = ()
        self.text_version = 0
        self.celebrate = None
        self.store = store
        self.has_display = has_display
        self.tabletop = tabletop
        self.seed = seed
        self.ai_steps = _AI_STEPS
        self.settings = bytearray(DEFAULT_SETTINGS)
        self.brightness = 128
        self.match = None
        self.game = None
        self._opp = 0           # opponent index of the running game (0 human)
        self._human0 = 0        # side the human plays in game 1 against the AI
        self._counted = False   # the running game's result is in the statistics
        self._player = None     # the AI, created when first needed
        self._queue = None      # the AI's turn being shown, or None while it thinks
        self._qi = 0
        self._due = 0
        self._cells = bytearray(25)
        self._under = bytearray(25)
        self._markers = 0
        self._choices = None    # app_turn.Choices while a human's turn is played
        self._sel = -1
        self._tmask = 0         # targets of the selection / one-pick points
        self._cursor = 0
        self._cur_t = 0
        self._trail = -1
        self._arrive = -1
        self._arrive_t = 0
        self._flash = -2        # point, -1 whole board, -2 none
        self._flash_c = 0
        self._flash_t = 0
        self._msg = ()
        self._ev = []           # the latest turn's events in words (app_play)
        self._ev_side = -1      # the side whose turn they tell
        self._item = 1
        self._stats_rules = 1
        self._stats_opp = "p2"  # the statistics page's opponent (jarmo.stats keys)
        self._page = 0          # How to play: the page shown (app_help)
        self._title = "Jarmo"
        self._settings_dirty = False
        self._now = 0
        self._t0 = 0
        self._drawn = 0
        self._dirty = True
        self._dots = -1
        self._state = S_MENU
        self._ui = -1           # the overlay loaded, and its module
        self._mod = None
        self._stats = None      # jarmo.stats.Stats while loaded
        self._use(SCREENS).boot(self)

    # ------------------------------------------------------------ public

    @property
    def state(self):
        """The current state's name (for tests and the simulator)."""
        return STATE_NAMES[self._state]

    @property
    def cursor(self):
        """The point 0..24 under the cursor in a human's turn, else -1."""
        c = self._cursor
        return c if self._state == S_PLAY and c < 25 else -1

    @property
    def thinking(self):
        """True while the AI searches for its turn (traces and tests)."""
        return self._state == S_AI and self._queue is None

    def press(self, button, player=0):
        if 0 <= button <= 8:
            self._dirty = True
            self._use(_UI[self._state]).press(self, button, player)

    def tick(self, now_ms):
        self._now = now = now_ms & 0x1FFFFFFF
        store = self.store
        if store is not None and store.busy:
            # one unit of a queued save a pass, and nothing else this pass:
            # a flash sector costs ~50 ms on an RP2040 (jarmo/storage.py)
            store.step()
            if store.problem is not None:
                store.problem = None
                self._msg = ("Cannot save: the", "drive is read-only")
        else:
            self._use(_UI[self._state]).tick(self)
        if self._dirty or V.ticks_diff(now, self._drawn) >= _REDRAW:
            self._render()

    def pixel(self, where):
        """The 0xRRGGBB colour of a point given as index or name ("c3")."""
        if isinstance(where, str):
            where = point(where)
        return V.get(self.frame, where)

    @staticmethod
    def legend():
        """(meaning, 0xRRGGBB) pairs: the LED legend of the manual."""
        from jarmo.app_legend import LEGEND
        return LEGEND

    def new_game(self, rules=None, expansions=None, opponent=None, side=None, games=None):
        """Start a game now, as the menu's New game would (simulator, tests).

        rules: "classic" "standard" "legendary" "jasyr"; expansions: a tuple of
        "heroes"/"challenges"; opponent: "human" "random" "greedy" "2" "3";
        side: "south"/"north" (the human's, against the AI); games: 1 2 4 6.
        Unset options keep the current settings. ValueError for bad values."""
        self._use(SCREENS).start(self, rules, expansions, opponent, side, games)

    def recover(self):
        """After a MemoryError in a pass: drop all that can be rebuilt and resume.

        The AI's search, the turn being picked, the statistics and every
        overlay module go; the game comes back from its last save (made
        after every turn, so at most the turn in progress is lost) and is
        resumed, or the menu opens when there is none."""
        self._player = None
        self._choices = None
        self._stats = None
        self._queue = None
        self.game = None
        self.match = None
        self._mod = None
        self._ui = -1
        for name in _MODULES:
            _unload(name)
        import gc
        gc.collect()
        self._use(SCREENS).boot(self)
        self.resume_saved()

    def resume_saved(self):
        """Resume the saved game, if start-up found one, as the menu's Resume would."""
        if self.game is not None and self._state == S_MENU:
            self._use(MENU).resume(self)
        self._dirty = True

    def how_to_play(self):
        """Open How to play, as the menu's item does (the simulator's ? key);
        leaving it opens the menu."""
        self._dirty = True
        self._use(MENU)._help().open_help(self)

    @property
    def stats(self):
        """The statistics (jarmo.stats.Stats), loaded on demand."""
        if self._stats is None:
            from jarmo.stats import Stats
            self._stats = Stats(self.store)
        return self._stats

    # ------------------------------------------------------------ for the overlays

    def _use(self, ui):
        """The overlay module `ui` (PLAY, MENU, SCREENS), loaded if need be."""
        if ui != self._ui:
            self._mod = None
            # On the device (resident) nothing is unloaded: an RP2040 has the
            # RAM for all of it, and an import there stalls a pass for 10-60
            # ms, so code.py imports every overlay after start-up (PRELOAD).
            keep = 0b11111 if self.resident else _KEEP[ui]
            for i in range(len(_MODULES)):
                if not keep >> i & 1:
                    _unload(_MODULES[i])
            if not keep & 1:
                self._choices = None    # an app_turn object would keep its code
            if self.store is not None and not keep & 16:
                self._stats = None      # read again from the store when needed
            name = _MODULES[ui]
            __import__(name)
            self._mod = sys.modules[name]
            self._ui = ui
        return self._mod

    def _set_text(self, lines):
        if lines != self.text:
            self.text = lines
            self.text_version += 1

    def _render(self):
        work = self._work
        self._use(_UI[self._state]).draw(self, work)
        frame = self.frame
        changed = False
        for j in range(75):
            v = work[j]
            if frame[j] != v:
                frame[j] = v
                changed = True
        if changed:
            self.frame_version += 1
        self._drawn = self._now
        self._dirty = False

    def _turn_side(self):
        return 0 if self.game.turn == "south" else 1

    def _refresh_cells(self):
        self._markers = V.read_board(self.game, self._cells, self._under)

    def _save(self):
        """Save the running game or match (after every completed turn)."""
        if self.store is None or self.game is None:
            return
        d = {"v": 1, "opp": self._opp, "human": self._human0, "counted": self._counted}
        if self.match is not None:
            d["match"] = self.match.dump()
        else:
            d["game"] = self.game.dump()
        try:
            self.store.write(SAVE, json.dumps(d))
        except OSError:
            self._msg = ("Cannot save: the", "drive is read-only")
