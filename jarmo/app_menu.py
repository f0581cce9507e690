# Menu: the menu state, its items and the settings they change.
#
# Settings are small ints (indices into RULES, the core's rule sets, and
# the tuples of app_base) in one bytearray, ``settings[item - RULE]``, saved
# as it is in the store's R_SETTINGS record at every change of a value (a
# few bytes appended; a change must survive a power-off in the menu). The menu is a fixed list of items (in
# ORDER); some are hidden when they do not apply (expansions with classic,
# the side without an AI, resume and hint without a game). An item's id is
# fixed so the LED-only menu can show it as one lit LED at a fixed place
# (app_base.ITEMS, docs/APP.md).

import sys

from jarmo import app_view as V
from jarmo.app_base import (
    BRIGHT,
    BRIGHTNESS,
    CAMPAIGN,
    CHALLENGES,
    DEFAULT_SETTINGS,
    GAMES,
    HELP,
    HEROES,
    HINT,
    HINTS,
    ITEM,
    ITEMS,
    LESSON,
    LINKED,
    MAKER,
    MATCH,
    NEEDS,
    NEW,
    OPENS,
    OPPONENT,
    RESUME,
    RULE,
    S_CAMPAIGN,
    S_LINK,
    S_RESULT,
    SIDE,
    SIDE_WORDS,
    SPOT,
    STATS,
    TIMEOUT,
    TIMER,
    TIMER_S,
    TITLE,
    VALUES,
    State,
    expansions,
    opponent,
    takes_expansions,
)
from jarmo.app_buttons import BACK, DOWN, LEFT, MENU, NEXT, PREV, SELECT, UP
from jarmo.game import Game, prepare_tables_step
from jarmo.rulesets import RULE_SETS as RULES
from jarmo.store_log import R_SETTINGS

# The items as the menu lists them (their LEDs in the LED-only menu:
# app_base.ITEMS; values light at most a1..c2).
ORDER = bytes((RESUME, HINT, NEW, CAMPAIGN, LESSON, RULE, HEROES, CHALLENGES, OPPONENT, SIDE,
               MATCH, TIMER, TIMEOUT, HINTS, BRIGHT, STATS, HELP))


# ---------------------------------------------------------------- settings

def load(s, data):
    """Take the valid values of a stored settings record (bytes in the order
    of the items; a shorter one from an older version keeps the defaults of
    the rest); anything odd keeps the default."""
    for k in range(len(DEFAULT_SETTINGS)):
        v = data[k] if k < len(data) else DEFAULT_SETTINGS[k]
        s[k] = v if v < ITEMS[(k + RULE) * ITEM + VALUES] else DEFAULT_SETTINGS[k]
    fix(s)


def fix(s):
    """A rule set that takes no expansions (classic) has none set."""
    if not takes_expansions(s):
        s[HEROES - RULE] = s[CHALLENGES - RULE] = 0


def visible(settings, item, resumable):
    """Whether a menu item is offered now (resumable: 0 no game, 1 a game,
    2 a game whose next human turn may have a hint)."""
    if item == RESUME:
        return resumable
    if item == HINT:
        return resumable > 1
    if item == HEROES or item == CHALLENGES:
        return takes_expansions(settings)
    if item == SIDE:
        return opponent(settings[OPPONENT - RULE], MAKER + 1) != "human"     # not at the table
    return True


def value(settings, item):
    """The index of an item's current value, or -1 for action items."""
    return settings[item - RULE] if ITEMS[item * ITEM + VALUES] else -1


def change(settings, item, delta):
    """Step an item's value by delta (wrapping); False for action items."""
    n = ITEMS[item * ITEM + VALUES]
    if n:
        settings[item - RULE] = (settings[item - RULE] + delta) % n
        fix(settings)
    return n > 0


def label(settings, item):
    """The item as one display line without the cursor mark (<= 20 chars)."""
    v = value(settings, item)
    if item == NEW and settings[MATCH - RULE]:
        return "New match"
    if item == RULE:
        v = RULES[v]
    elif item == HEROES or item == CHALLENGES or item == HINTS:
        v = ("off", "on")[v]
    elif item == OPPONENT:
        v = opponent(v)
    elif item == SIDE:
        v = SIDE_WORDS[v]
    elif item == MATCH:
        v = "1 game" if v == 0 else "%d games" % GAMES[v]
    elif item == BRIGHT:
        v = "%d/8" % (v + 1)
    elif item == TIMER:
        v = "%d s" % TIMER_S[v] if v else "off"
    elif item == TIMEOUT:
        v = ("AI greedy", "AI random")[v]
    else:
        return ITEMS[item * ITEM + TITLE]
    return ITEMS[item * ITEM + TITLE] + ": " + v


def save_settings(app):
    if app.store is not None:
        try:
            app.store.write(R_SETTINGS, bytes(app.settings))
        except OSError:
            pass


def apply_brightness(app):
    app.brightness = BRIGHTNESS[app.settings[BRIGHT - RULE]]


# ---------------------------------------------------------------- leaving the menu

def new_game(app):
    """Start the game (or match) the settings describe; against the link,
    wait for the other board (jarmo/app_link.py: it proposes or accepts)."""
    s = app.settings
    app.menu_title = "Jarmo"        # the game found at start-up is replaced
    if opponent(s[OPPONENT - RULE], NEEDS) & LINKED:
        app.goto(S_LINK)
        return
    rules = RULES[s[0]]
    games = GAMES[s[MATCH - RULE]]
    if games > 1:
        # (imported only for a match: a single game keeps its code off the heap)
        from jarmo.match import Match
        match = Match(rules, games, expansions(s))
        game = match.game
    else:
        match = None
        game = Game(rules, expansions(s))
    app.set_game(game, match, s[OPPONENT - RULE], s[SIDE - RULE], False)
    app.start_game()


def resume(app):
    """Back to the running game: its turn, or its result if it is over."""
    app.menu_title = "Jarmo"
    if app.game.result() is not None:
        app.goto(S_RESULT)
    else:
        app.next_turn()


def _resumable(app):
    """0 no game; 1 a game to resume; 2 one that goes on and may have a hint
    (Allow hints on: off means no hints in any game, as a player expects of
    it, against the AI too)."""
    g = app.game
    if g is None:
        return 0
    return 2 if g.result() is None and app.settings[HINTS - RULE] else 1


# ---------------------------------------------------------------- the menu

# The menu: the item under the cursor; its title line is App.menu_title
# ("Jarmo", or "Saved game found" after a start-up that found one). Made
# on demand (app_base.SCREENS): made again each time it opens.
class Menu(State):
    def __init__(self):
        self.item = NEW
        self.offer = False      # the linked board's offer is shown in the title
        self.asked = False      # New game asked: it would throw the running game away

    def enter(self, app, item):
        """Open on `item` (None: Resume with a game, else New game)."""
        if item is None or not visible(app.settings, item, _resumable(app)):
            item = RESUME if app.game is not None else NEW
        self.item = item
        self.asked = False
        self._text(app)

    def tick(self, app):
        # The AI's tables follow the menu: those of the game against the AI
        # it would resume (else start) are built here, half a pass, and the
        # other game kind's are forgotten (RAM). Only where jarmo.ai is already loaded (the
        # device imports it after start-up): the menu never imports it.
        s = app.settings
        if opponent(s[OPPONENT - RULE], NEEDS) & LINKED and app.line is not None:
            # the link listens from the menu on: an offer shows in the title
            offer = app.get_link().offered(app.now) is not None
            if offer != self.offer:
                self.offer = offer
                self._text(app)
        g = app.game
        # the board's tables of the game it would resume (else start), a side
        # a pass: the start-up preloads standard's only (a forward rule set's two
        # keep 1.1 KB that a game of another kind never uses)
        if not prepare_tables_step(RULES[s[0]] if g is None else g.rules):
            return
        ai = sys.modules.get("jarmo.ai")
        if ai is not None:
            s = app.settings
            if g is not None and app.opponent.level >= 0:
                ai.prepare_tables_step(g.rules)
            elif opponent(s[OPPONENT - RULE], MAKER + 1) == "ai":
                ai.prepare_tables_step(RULES[s[0]])     # (no AI plays a linked game)

    def refresh(self, app):
        self._text(app)

    def _items(self, app):
        s = app.settings
        resumable = _resumable(app)
        return [i for i in ORDER if visible(s, i, resumable)]

    def _text(self, app):
        if self.asked:
            app.set_text((label(app.settings, NEW) + "?", "The game in play is",
                          "left unfinished.", "SELECT again: yes", "Other buttons: no"))
            return
        items = self._items(app)
        k = items.index(self.item) if self.item in items else 0
        first = max(0, min(k - 1, len(items) - 4))
        # while a game can be resumed, the game's settings are for the next one
        lines = ["For the next game:" if app.game is not None and RULE <= self.item <= MATCH
                 else "Link offers a game" if self.offer else app.menu_title]
        for i in items[first:first + 4]:
            lines.append((">" if i == self.item else " ") + label(app.settings, i))
        app.set_text(tuple(lines))

    def press(self, app, b, player):
        s = app.settings
        items = self._items(app)
        k = items.index(self.item) if self.item in items else 0
        item = items[k]
        if self.asked:
            # the answer: SELECT again is yes, any other button no (and only that)
            self.asked = False
            if b == SELECT:
                new_game(app)
                return
        elif b == NEXT or b == DOWN:
            self.item = items[(k + 1) % len(items)]
        elif b == UP:
            self.item = items[(k - 1) % len(items)]
        elif b == PREV or b == BACK or b == MENU:
            if app.game is not None:
                resume(app)
                return
        elif not ITEMS[item * ITEM + VALUES]:     # Resume, New game, Statistics, How to play, ...
            if b == SELECT:
                g = app.game
                m = app.match
                if item == RESUME:
                    resume(app)
                elif item == NEW and app.battle >= 0 and app.game.result() is None:
                    app.goto(S_CAMPAIGN, -1)    # the battle would be left unfinished: ask there
                elif item == NEW and app.battle < 0 and g is not None and (
                        g.result() is None or m is not None and not m.over()):
                    # a game still played, or a match with games to come,
                    # would be thrown away: ask first
                    self.asked = True
                elif item == NEW:
                    new_game(app)
                elif item == HINT:
                    from jarmo.app_assist import ask
                    ask(app)
                    resume(app)
                else:
                    app.goto(ITEMS[item * ITEM + OPENS])    # the screen the item opens
                if not self.asked:
                    return
        else:
            change(s, item, -1 if b == LEFT else 1)
            while item == OPPONENT and opponent(s[OPPONENT - RULE], NEEDS) & LINKED \
                    and app.line is None:
                change(s, item, -1 if b == LEFT else 1)     # no cable on this board
            save_settings(app)      # a change survives a power-off in the menu
            apply_brightness(app)
        self._text(app)

    def draw(self, app, buf):
        """The board behind the menu; without a display, the LED-only menu:
        one white LED at the item's fixed place (ITEMS) says which item, and
        its value is a count of LEDs lit from a1."""
        if self.asked:
            # the question: every LED flashes red (the refusal's colour)
            V.clear(buf)
            if V.blink(app.now, 512):
                V.draw_count(buf, 0, 25, V.RED)
            return
        if app.has_display:
            app.board.draw(buf, app.now)
            return
        V.clear(buf)
        item = self.item
        spot = ITEMS[item * ITEM + SPOT]
        v = value(app.settings, item)
        if v < 0:
            # an action item: its LED blinks
            V.put_k(buf, spot, V.WHITE, 255 if V.blink(app.now, 512) else 40)
            if item == NEW and app.game is None:
                # the first screen's pointer to the lesson, as the display's
                # "First game (lesson)": its LED lit in the lesson's colour
                V.put(buf, ITEMS[LESSON * ITEM + SPOT], V.HINT_COLOUR)
            return
        V.put(buf, spot, V.WHITE)
        if item == MATCH:
            v = GAMES[v] - 1
        V.draw_count(buf, 0, v + 1, V.SIDE_COLOURS[v] if item == SIDE else 0x707070)
