"""Menu items and the settings they change.

Settings are small ints (indices into the tuples below) in one bytearray,
saved as JSON under the store name ``settings``. The menu is a fixed list of items; some are
hidden when they do not apply (expansions with classic, the side without an
AI, resume without a game). An item's index is fixed so the LED-only menu
can show it as one lit LED at a fixed place (see docs/APP.md).
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

RULES = ("classic", "standard", "legendary", "jasyr")
OPPONENTS = ("human", "AI random", "AI greedy", "AI level 2", "AI level 3")
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
ITEMS = const(10)

TITLES = ("Resume", "New game", "Rules", "Heroes", "Challenges", "Opponent",
          "Side", "Match", "Brightness", "Statistics")
_COUNTS = (0, 0, 4, 2, 2, 5, 2, 4, 8, 0)


# Settings: a bytearray of small ints, one per valued item, in item order
# (settings[item - RULE]); a bytearray costs a few bytes and no class.
_NAMES = ("rules", "heroes", "challenges", "opp", "side", "games", "bright")
_DEFAULTS = (1, 0, 0, 2, 0, 0, 5)   # standard rules against the greedy AI


def new_settings():
    return bytearray(_DEFAULTS)


def expansions(s):
    """The expansions the settings give (none with classic)."""
    if s[0] == 0:
        return ()
    out = ()
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
    for k in range(len(_NAMES)):
        v = data.get(_NAMES[k], _DEFAULTS[k]) if isinstance(data, dict) else _DEFAULTS[k]
        s[k] = v if type(v) is int and 0 <= v < _COUNTS[k + RULE] else _DEFAULTS[k]
    if s[0] == 0:
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


def count(item):
    """How many values an item has (0 for action items)."""
    return _COUNTS[item]


def change(settings, item, delta):
    """Step an item's value by delta (wrapping); False for action items."""
    n = _COUNTS[item]
    if not n:
        return False
    settings[item - RULE] = (settings[item - RULE] + delta) % n
    if settings[0] == 0:
        settings[HEROES - RULE] = settings[CHALLENGES - RULE] = 0
    return True


def value_text(settings, item):
    v = value(settings, item)
    if item == RULE:
        return RULES[v]
    if item == HEROES or item == CHALLENGES:
        return ("off", "on")[v]
    if item == OPPONENT:
        return OPPONENTS[v]
    if item == SIDE:
        return SIDES[v]
    if item == MATCH:
        return "1 game" if v == 0 else "%d games" % GAMES[v]
    if item == BRIGHT:
        return "%d/8" % (v + 1)
    return ""


def label(settings, item):
    """The item as one display line without the cursor mark (<= 20 chars)."""
    if item == NEW and settings[MATCH - RULE]:
        return "New match"
    v = value_text(settings, item)
    if v:
        return TITLES[item] + ": " + v
    return TITLES[item]
