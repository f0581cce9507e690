# App base: the names every app module shares, and the State every screen is.
#
# A leaf: it imports nothing of the app, so every app module can import it
# and no app module imports upwards (tests/app/test_app_layers.py). The
# layers, lowest first: app_base, app_view, app_turn, app_play, app_menu,
# app_screens, app_help, app; each imports only from layers below it. A
# state never imports another state's module: it goes there with
# ``app.goto(S_...)``, and App (the top) holds the states.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# The states, by id (App.goto) and by name (App.state, traces, docs/APP.md).
S_MENU = const(0)
S_PLAY = const(1)
S_AI = const(2)
S_END = const(3)
S_RESULT = const(4)
S_NOTICE = const(5)
# From S_HELP on, a state's module is imported when it opens and forgotten
# when it closes (App.goto), so it costs RAM only while it is shown.
S_HELP = const(6)       # How to play: jarmo/app_help.py
S_STATS = const(7)      # statistics: jarmo/app_stats.py
S_CAMPAIGN = const(8)   # the campaign's ladder: jarmo/app_campaign.py
S_LESSON = const(9)     # the guided first game: jarmo/app_lesson.py
STATE_NAMES = ("menu", "play", "ai", "end", "result", "notice", "help", "stats", "campaign",
               "lesson")

# Millisecond ticks wrap at 2**29, like adafruit_ticks (App.tick masks the clock).
TICKS_MASK = const(0x1FFFFFFF)

# ---------------------------------------------------------------- settings
# The settings are small ints in one bytearray, settings[item - RULE], in the
# order of the menu items RULE .. HINTS (stored as they are: jarmo/app_menu.py).
# Item ids are fixed (the LED-only menu shows each at a fixed place);
# app_menu's ORDER is the order the menu lists them in.

RESUME = const(0)
NEW = const(1)
RULE = const(2)
HEROES = const(3)
CHALLENGES = const(4)
OPPONENT = const(5)
SIDE = const(6)
MATCH = const(7)
BRIGHT = const(8)
TIMER = const(9)        # seconds per turn: TIMER_S
TIMEOUT = const(10)     # when time runs out: the greedy AI or a random turn plays it
HINTS = const(11)       # the menu's Hint in two-player games: off, on
STATS = const(12)
HELP = const(13)
CAMPAIGN = const(14)
LESSON = const(15)
HINT = const(16)
ITEMS = const(17)

TITLES = ("Resume", "New game", "Rules", "Heroes", "Challenges", "Versus",
          "Side", "Match", "Brightness", "Timer", "Time out", "Hints", "Statistics",
          "How to play", "Campaign", "First game", "Hint")
# The opponents as a ladder, weakest first, each named once, the same way
# everywhere (menu, --opponent, statistics, docs): "AI " and the jarmo.ai
# level it plays (random, greedy, level 2, 3, 4; --opponent takes the last
# word). Shown as "Versus: AI level 4" (<= 20 characters).
OPPONENTS = ("human", "AI random", "AI greedy", "AI level 2", "AI level 3", "AI level 4")
SIDE_WORDS = ("South", "North")
GAMES = (1, 2, 4, 6)
BRIGHTNESS = (8, 16, 32, 64, 96, 128, 192, 255)
TIMER_S = (0, 15, 30, 60)
# values per item (0: an action item)
COUNTS = bytes((0, 0, 4, 2, 2, len(OPPONENTS), 2, 4, 8, 4, 2, 2, 0, 0, 0, 0, 0))
# What a new device starts with (and what an odd stored value becomes):
# standard rules, no expansions, against the greedy AI, South, one game,
# brightness 6 of 8, no timer (the greedy AI plays a timed-out turn), hints on.
DEFAULT_SETTINGS = b"\x01\x00\x00\x02\x00\x00\x05\x00\x00\x01"


def forget_module(name):
    """Forget a module ("jarmo.stats") so its code can be collected
    (MicroPython RAM): out of sys.modules and off its package."""
    import sys
    mod = sys.modules.pop(name, None)
    package, _, short = name.rpartition(".")
    pkg = sys.modules.get(package)
    if mod is not None and getattr(pkg, short, None) is mod:
        delattr(pkg, short)


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


# A screen of the app. App.goto(id, arg) calls exit on the state left and
# enter(app, arg) on the state entered; while a state runs, App hands it the
# buttons (press), the clock (tick: app.now is set) and the drawing of the
# LED frame (draw into a 75-byte buffer). A state keeps its own fields; what
# several states share is on the App (game, match, board, settings, ...).
class State:
    def enter(self, app, arg):
        pass

    def exit(self, app):
        pass

    def press(self, app, b, player):
        pass

    def tick(self, app):
        pass

    def draw(self, app, buf):
        pass

    def busy(self, app):
        # True while the state has work for every pass (an AI thinking)
        return False
