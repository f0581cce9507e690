# Overlay of the menu state: the menu, its items and the settings they change.
#
# App imports this module when the menu opens and unloads it when a game goes
# on (jarmo/app.py); app_screens uses its settings too. Every function with an
# ``app`` argument takes the App.
#
# Settings are small ints (indices into the tuples below) in one bytearray,
# ``settings[item - RULE]``, saved as JSON under the store name ``settings``
# at every change of a value (a small file; a change must survive a power-off
# in the menu), and once more when a game starts. The menu is a
# fixed list of items; some are hidden when they do not apply (expansions with
# classic, the side without an AI, resume without a game). An item's index is
# fixed so the LED-only menu can show it as one lit LED at a fixed place (see
# docs/APP.md).

import json

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.buttons import NEXT, PREV, UP, DOWN, LEFT, SELECT, BACK, MENU
from jarmo.game import Game
from jarmo.match import Match
from jarmo import app as A
from jarmo import app_view as V

RULES = ("classic", "standard", "legendary", "jasyr")
# The opponents as a ladder, weakest first: "AI n" is the n-th rung, then the
# jarmo.ai level it plays (random, greedy, 2, 3, ...: --opponent's names).
# Shown as "Versus: AI 2 greedy" (<= 20 characters).
OPPONENTS = ("human", "AI 1 random", "AI 2 greedy", "AI 3 level 2", "AI 4 level 3",
             "AI 5 level 4")
SIDES = ("South", "North")
GAMES = (1, 2, 4, 6)
BRIGHTNESS = (8, 16, 32, 64, 96, 128, 192, 255)

RESUME = const(0)
NEW = const(1)
RULE = const(2)
HEROES = const(3)
CHALLENGES = const(4)
OPPONENT = const(5)
SIDE = const(6)
MATCH = const(7)
BRIGHT = const(8)
STATS = const(9)
HELP = const(10)
ITEMS = const(11)

TITLES = ("Resume", "New game", "Rules", "Heroes", "Challenges", "Versus",
          "Side", "Match", "Brightness", "Statistics", "How to play")
# values per item (0: an action)
_COUNTS = bytes((0, 0, 4, 2, 2, len(OPPONENTS), 2, 4, 8, 0, 0))

# The settings file's keys, in settings order, and the defaults of a missing
# or odd value: standard rules against the greedy AI.
_NAMES = ("rules", "heroes", "challenges", "opp", "side", "games", "bright")
_DEFAULTS = A.DEFAULT_SETTINGS
SETTINGS = "settings"


# ---------------------------------------------------------------- settings

def expansions(s):
    """The expansions the settings give (none with classic)."""
    out = ()
    if s[0]:
        if s[HEROES - RULE]:
            out += ("heroes",)
        if s[CHALLENGES - RULE]:
            out += ("challenges",)
    return out


def dump(s):
    d = {}
    for k in range(len(_NAMES)):
        d[_NAMES[k]] = s[k]
    return d


def load(s, data):
    """Take valid values from a dict; anything odd keeps the default."""
    if not isinstance(data, dict):
        data = {}
    for k in range(len(_NAMES)):
        v = data.get(_NAMES[k])
        s[k] = v if type(v) is int and 0 <= v < _COUNTS[k + RULE] else _DEFAULTS[k]
    _fix(s)


def _fix(s):
    if s[0] == 0:       # the classic rule set takes no expansions
        s[HEROES - RULE] = s[CHALLENGES - RULE] = 0


def visible(settings, item, resumable):
    """Whether a menu item is offered now."""
    if item == RESUME:
        return resumable
    if item == HEROES or item == CHALLENGES:
        return settings[0] != 0
    if item == SIDE:
        return settings[OPPONENT - RULE] != 0
    return True


def value(settings, item):
    """The index of an item's current value, or -1 for action items."""
    return settings[item - RULE] if _COUNTS[item] else -1


def change(settings, item, delta):
    """Step an item's value by delta (wrapping); False for action items."""
    n = _COUNTS[item]
    if n:
        settings[item - RULE] = (settings[item - RULE] + delta) % n
        _fix(settings)
    return n > 0


def label(settings, item):
    """The item as one display line without the cursor mark (<= 20 chars)."""
    v = value(settings, item)
    if item == NEW and settings[MATCH - RULE]:
        return "New match"
    if item == RULE:
        v = RULES[v]
    elif item == HEROES or item == CHALLENGES:
        v = ("off", "on")[v]
    elif item == OPPONENT:
        v = OPPONENTS[v]
    elif item == SIDE:
        v = SIDES[v]
    elif item == MATCH:
        v = "1 game" if v == 0 else "%d games" % GAMES[v]
    elif item == BRIGHT:
        v = "%d/8" % (v + 1)
    else:
        return TITLES[item]
    return TITLES[item] + ": " + v


def save_settings(app):
    if app.store is not None and app._settings_dirty:
        app._settings_dirty = False
        try:
            app.store.write(SETTINGS, json.dumps(dump(app.settings)))
        except OSError:
            pass


# ---------------------------------------------------------------- the menu

def open_menu(app, item=None):
    app._state = A.S_MENU
    app._sel = -1
    if item is None or not visible(app.settings, item, app.game is not None):
        item = RESUME if app.game is not None else NEW
    app._item = item
    _text(app)


def _items(app):
    s = app.settings
    resumable = app.game is not None
    return [i for i in range(ITEMS) if visible(s, i, resumable)]


def _text(app):
    items = _items(app)
    k = items.index(app._item) if app._item in items else 0
    first = max(0, min(k - 1, len(items) - 4))
    # while a game can be resumed, the game's settings are for the next one
    lines = ["For the next game:" if app.game is not None and RULE <= app._item <= MATCH
             else app._title]
    for i in items[first:first + 4]:
        lines.append((">" if i == app._item else " ") + label(app.settings, i))
    app._set_text(tuple(lines))


def press(app, b, player):
    if app._state == A.S_HELP:
        _help().press(app, b, player)
        return
    s = app.settings
    items = _items(app)
    k = items.index(app._item) if app._item in items else 0
    item = items[k]
    if b == NEXT or b == DOWN:
        app._item = items[(k + 1) % len(items)]
    elif b == UP:
        app._item = items[(k - 1) % len(items)]
    elif b == PREV or b == BACK or b == MENU:
        if app.game is not None:
            resume(app)
            return
    elif not _COUNTS[item]:     # Resume, New game, Statistics, How to play
        if b == SELECT:
            if item == RESUME:
                resume(app)
            elif item == NEW:
                new_game(app)
            elif item == HELP:
                _help().open_help(app)
            else:
                app._use(A.SCREENS).open_stats(app)
            return
    else:
        change(s, item, -1 if b == LEFT else 1)
        app._settings_dirty = True
        save_settings(app)      # a change survives a power-off in the menu
        app.brightness = BRIGHTNESS[s[BRIGHT - RULE]]
    _text(app)


# How to play (state S_HELP) runs in this overlay: its pages are
# jarmo/app_help.py, imported when it opens and unloaded when it closes, so
# they are in RAM only while someone reads them.

def _help():
    from jarmo import app_help
    return app_help


def tick(app):
    pass


def draw(app, buf):
    """The board behind the menu; without a display, the LED-only menu:
    ranks 5 and 4 show which item (one white LED at a fixed place, a5..e5
    then a4..e4; How to play a3), ranks 1..3 its value as a count of LEDs
    lit from a1."""
    if app._state == A.S_HELP:
        _help().draw(app, buf)
        return
    if app.has_display:
        V.draw_board(buf, app._cells, app._under, app._markers, -1, app._now)
        return
    V.clear(buf)
    item = app._item
    spot = 20 + item if item < 5 else 10 + item if item < 10 else 10
    v = value(app.settings, item)
    if v < 0:
        # an action item: its LED blinks
        V.put_k(buf, spot, V.WHITE, 255 if V.blink(app._now, 512) else 40)
        return
    V.put(buf, spot, V.WHITE)
    if item == MATCH:
        v = GAMES[v] - 1
    V.draw_count(buf, 0, v + 1, V.SIDE[v] if item == SIDE else 0x707070)


# ---------------------------------------------------------------- leaving it

def new_game(app):
    A._unload("jarmo.app_help")     # App.new_game may come from the help
    s = app.settings
    save_settings(app)
    rules = RULES[s[0]]
    games = GAMES[s[MATCH - RULE]]
    if games > 1:
        app.match = Match(rules, games, expansions(s))
        app.game = app.match.game
    else:
        app.match = None
        app.game = Game(rules, expansions(s))
    app._opp = s[OPPONENT - RULE]
    app._human0 = s[SIDE - RULE]
    app._player = None
    app._use(A.PLAY).start_game(app)


def resume(app):
    save_settings(app)
    if app.game.result() is not None:
        app._use(A.SCREENS).to_result(app)
    else:
        app._use(A.PLAY).begin_turn(app)
