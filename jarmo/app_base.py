# App base: the names every app module shares, and the State every screen is.
#
# A leaf: it imports nothing of the app, so every app module can import it
# and no app module imports upwards (the order: tests/layers.py, checked
# by tests/app/test_app_layers.py). A state goes to another with
# ``app.goto(S_...)``, and App (the top) holds the states; the two state
# modules that import another's (app_assist's Assisted is a Play; the menu
# asks through app_assist) are named in docs/ARCHITECTURE.md.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.game import EXPANSIONS
from jarmo.rulesets import FEATURES, NO_EXPANSIONS, ROWS, RULE_SETS

# The screens (states), one row each; a screen's id (App.goto, S_ below)
# is its row's number. A row: its name (App.state, traces, docs/APP.md), the
# module that holds its State class, the class's name there, and whether it
# is made on demand: imported when it opens and forgotten when it closes,
# so its code costs RAM only while it is shown (App.goto); the others are
# resident, made with the App. Adding a screen is a module and a row
# (tests/app/test_app_menu.py ties the ids to the rows). The rows are one
# flat tuple, SCREEN fields a row: one object in RAM, not one per row.
SCREEN = const(4)
SCREENS = (
    "menu", "jarmo.app_menu", "Menu", True,
    "play", "jarmo.app_play", "Play", False,
    "ai", "jarmo.app_play", "AiTurn", False,
    "end", "jarmo.app_screens", "End", True,
    "result", "jarmo.app_screens", "ResultScreen", True,
    "notice", "jarmo.app_screens", "Notice", True,
    "help", "jarmo.app_help", "Help", True,
    "stats", "jarmo.app_stats", "StatsScreen", True,
    "campaign", "jarmo.app_campaign", "Campaign", True,
    "lesson", "jarmo.app_lesson", "Lesson", True,
    "link", "jarmo.app_link", "LinkWait", True,
)
S_MENU = const(0)
S_PLAY = const(1)
S_AI = const(2)
S_END = const(3)
S_RESULT = const(4)
S_NOTICE = const(5)
S_HELP = const(6)
S_STATS = const(7)
S_CAMPAIGN = const(8)
S_LESSON = const(9)
S_LINK = const(10)

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
HINTS = const(11)       # "Allow hints": the menu offers Hint (any game): off, on
STATS = const(12)
HELP = const(13)
CAMPAIGN = const(14)
LESSON = const(15)
HINT = const(16)

# The opponents, one row each, in the menu's order (Versus), weakest first.
# A row: its label, the same everywhere (menu, --opponent, statistics,
# docs; an AI's is "AI " and the jarmo.ai level it plays, and --opponent
# takes its last word; shown as "Versus: AI level 4", <= 20 characters);
# the module and the function there that make its player (the interface of
# jarmo/app_players.py) from the App and the row's id; its id, the byte saved
# games (jarmo/store_game.py) and statistics (jarmo/store_stats.py) keep, fixed
# whatever the row's place and never given to another kind (0 two at the
# table, 1 + n the AI level n); and its needs: LINKED, offered only on a
# board with a link cable, and its games go over the link (jarmo/link.py).
# The settings keep the row's place (app_menu): a new kind is appended.
# One flat tuple, OPP fields a row (see ITEMS).
OPP = const(5)
LINKED = const(1)
OPPONENTS = (
    "human", "jarmo.app_players", "human", 0, 0,
    "AI random", "jarmo.app_players", "ai", 1, 0,
    "AI greedy", "jarmo.app_players", "ai", 2, 0,
    "AI level 2", "jarmo.app_players", "ai", 3, 0,
    "AI level 3", "jarmo.app_players", "ai", 4, 0,
    "AI level 4", "jarmo.app_players", "ai", 5, 0,
    "Link", "jarmo.app_players", "linked", 6, LINKED,
)
LABEL = const(0)        # the fields of an opponent's row
MAKER = const(1)        # the module; its function follows
IDENT = const(3)
NEEDS = const(4)
SIDE_WORDS = ("South", "North")
GAMES = (1, 2, 4, 6)
BRIGHTNESS = (8, 16, 32, 64, 96, 128, 192, 255)
TIMER_S = (0, 15, 30, 60)

# The menu's items, one row each, by item id: its title, how many values it
# takes (0: an action), the point of its one LED in the LED-only menu (a5
# .. e5 first, docs/APP.md), and the screen it opens (-1: none). One flat
# tuple, ITEM fields a row: field f of item k is ITEMS[k * ITEM + f]. A
# title says what the item does to a player who has not read the manual:
# "First game (lesson)" is the lesson (on the first screen, the menu at
# start-up), "Hint for your turn" an action and "Allow hints" the setting
# that offers it (side by side, "Hint" and "Hints" read as one thing).
ITEM = const(4)
ITEMS = (
    "Resume", 0, 20, -1,
    "New game", 0, 21, -1,
    "Rules", len(RULE_SETS), 22, -1,
    "Heroes", 2, 23, -1,
    "Challenges", 2, 24, -1,
    "Versus", len(OPPONENTS) // OPP, 15, -1,
    "Side", 2, 16, -1,
    "Match", len(GAMES), 17, -1,
    "Brightness", len(BRIGHTNESS), 18, -1,
    "Timer", len(TIMER_S), 13, -1,
    "Time out", 2, 14, -1,
    "Allow hints", 2, 8, -1,
    "Statistics", 0, 19, S_STATS,
    "How to play", 0, 10, S_HELP,
    "Campaign", 0, 11, S_CAMPAIGN,
    "First game (lesson)", 0, 12, S_LESSON,
    "Hint for your turn", 0, 9, -1,
)
TITLE = const(0)        # the fields of an item's row
VALUES = const(1)
SPOT = const(2)
OPENS = const(3)


# What a new device starts with (and what an odd stored value becomes):
# standard rules, no expansions, against the greedy AI, South, one game,
# brightness 6 of 8, no timer (the greedy AI plays a timed-out turn), hints on.
DEFAULT_SETTINGS = b"\x01\x00\x00\x02\x00\x00\x05\x00\x00\x01"


def opponent(row, field=LABEL):
    """A field of the opponent's row (the menu's place): LABEL, IDENT, NEEDS."""
    return OPPONENTS[row * OPP + field]


def opponent_row(value, field=IDENT):
    """The first opponent's row whose field is value, or -1: by the id a
    save or statistics keep; (LINKED, NEEDS): the one played over the link
    (--link, a link's offer); (name, MAKER + 1): by its maker ("ai")."""
    for row in range(len(OPPONENTS) // OPP):
        if OPPONENTS[row * OPP + field] == value:
            return row
    return -1


def takes_expansions(s):
    """Whether the settings' rule set takes expansions (classic does not)."""
    return not ROWS[s[0]][FEATURES] & NO_EXPANSIONS


def expansions(s):
    """The expansions the settings give (none where the rule set takes none)."""
    out = ()
    if takes_expansions(s):
        for k in range(len(EXPANSIONS)):
            if s[HEROES - RULE + k]:
                out += (EXPANSIONS[k],)
    return out


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
        """App.goto came here with arg: set up the state, set the text. Once
        per visit; may allocate (it is not in the pass loop)."""

    def exit(self, app):
        """App.goto leaves: let go of what only this visit needed (RAM)."""

    def press(self, app, b, player):
        """Button b (jarmo.app_buttons) from seat player (0, or 1 at a tabletop
        build), once per debounced press; may change state with app.goto."""

    def tick(self, app):
        """Every main-loop pass (app.now set): bounded work only (the pass
        budget is 100 ms on an RP2040), and no allocation when nothing
        happens, so the heap does not churn between turns."""

    def draw(self, app, buf):
        """Draw the LEDs into buf (75 bytes, RGB per point) when the frame
        is redrawn (a change, or every 32 ms): must not allocate."""

    def refresh(self, app):
        """Something the text shows changed outside the state (the link's
        note, app.msg): set the text again."""

    def busy(self, app):
        """True while the state has work for every pass (an AI thinking): the
        device's main loop then does not sleep between passes (App.busy)."""
        return False

    def tap_at_down(self, b):
        """True when button b's hold (on a key that has one: NEXT held is PREV,
        SELECT held is MENU) does here what its tap does, or nothing: the tap
        then acts as the key goes down, not at its release (App.press)."""
        return False
