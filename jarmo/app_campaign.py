# Campaign screen: the ladder of battles, where you stand, and the start of a battle.
#
# Imported when the screen opens and forgotten when it closes (App.goto), with
# jarmo.store_campaign, so the ladder costs RAM only while it is shown. NEXT (DOWN,
# RIGHT) and PREV (UP, LEFT) step through the battles, PREV on the first one,
# BACK and MENU go back to the menu; SELECT starts an open battle as a saved
# game that remembers its battle (app.battle), or says what opens a locked
# one. Without a display the 25 LEDs show the ladder from a1 on: won battles
# bluish green, open ones breathing white, locked ones dim red, the cursor
# blinking in South's cursor colour.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo import app_view as V
from jarmo.app_base import S_MENU, SIDE_WORDS, State, opponent, opponent_row
from jarmo.app_buttons import BACK, DOWN, LEFT, MENU, NEXT, PREV, RIGHT, SELECT, UP
from jarmo.game import Game
from jarmo.store_campaign import BATTLES, Progress

WON = const(0x009E73)       # Okabe-Ito bluish green
OPEN = const(0xC8C8C8)      # breathes
LOCKED = const(0x300000)


def describe(k):
    """Battle k in words: ("4: standard+H North", "vs AI 2 greedy"), each at
    most 21 characters (the longest: "10: legendary+H North")."""
    rules, expansions, level, side = BATTLES[k]
    t = "%d: %s" % (k + 1, rules)
    for e in expansions:
        t += "+" + e[0].upper()
    return t + " " + SIDE_WORDS[side], "vs " + opponent(opponent_row(level + 1))


# The ladder: the battle under the cursor, the progress read when it opened,
# and what SELECT does after a question (the battle in progress would be left
# unfinished): 1 start the battle under the cursor, 2 the menu's New game
# (which opens the ladder with arg -1 during a battle, to ask).
class Campaign(State):
    def __init__(self):
        self.k = 0
        self.progress = None
        self.msg = ""
        self.ask = 0

    def enter(self, app, arg):
        self.progress = p = Progress(app.store)
        self.ask = 0
        self.msg = "Progress was unreadable" if p.problem else ""
        if arg == -1:
            arg = app.battle
            self.ask = 2
            self.msg = "is left unfinished."
        self.k = p.first_open() if arg is None else min(arg, len(BATTLES) - 1)
        self._text(app)

    def exit(self, app):
        self.progress = None

    def press(self, app, b, player):
        n = len(BATTLES)
        if b == BACK or b == MENU or (b == PREV and self.k == 0):
            app.goto(S_MENU)
            return
        self.msg = ""
        asked = self.ask
        self.ask = 0
        if b == SELECT and asked == 2:
            app.new_game()                  # the menu's New game, the battle left
            return
        if b == NEXT or b == DOWN or b == RIGHT:
            self.k = (self.k + 1) % n
        elif b == PREV or b == UP or b == LEFT:
            self.k = (self.k - 1) % n
        elif b == SELECT:
            # the battle in progress (app.battle is -1 outside one), while not over
            running = app.battle if app.battle >= 0 and app.game.result() is None else -1
            # a running game or match left unfinished by the battle (the
            # menu's unfinished(); a battle is one game, never a match)
            g = app.game
            m = app.match
            left = g is not None and (g.result() is None or m is not None and not m.over())
            if running == self.k:
                app.next_turn()             # the battle in progress: back to it
                return
            if self.progress.is_open(self.k) and (asked or not left):
                start(app, self.k)
                return
            if self.progress.is_open(self.k):
                self.ask = 1                # it would leave the running game unfinished
                self.msg = "Battle %d unfinished" % (running + 1) if running >= 0 else \
                    "Game unfinished"
            else:
                self.msg = "Win battle %d first" % self.k
        self._text(app)

    def _text(self, app):
        p = self.progress
        k = self.k
        if p.won(k):
            state = "Won in %d turns" % p.best[k]
        elif p.is_open(k):
            state = "Open: SELECT plays"
        else:
            state = "Locked"
        app.set_text(("New game? This battle" if self.ask == 2 else
                      "Campaign: %d/%d won" % (p.wins(), len(BATTLES)),)
                     + describe(k) + (self.msg or state, ("NEXT/PREV: battles", "SELECT again: leave",
                                                          "SELECT: yes, BACK: no")[self.ask]))

    def draw(self, app, buf):
        """The ladder on the LEDs (behind the text on a display too)."""
        p = self.progress
        now = app.now
        if self.ask and V.blink(now, 512):
            V.draw_count(buf, 0, 25, V.RED)     # asked: red flashes between the ladder's frames
            return
        V.clear(buf)
        breathe = 48 + (V.tri(now, 2048) >> 1)
        for k in range(len(BATTLES)):
            if k == self.k and V.blink(now, 512):
                V.put(buf, k, V.CURSOR[0])
            elif p.won(k):
                V.put(buf, k, WON)
            elif p.is_open(k):
                V.put_k(buf, k, OPEN, breathe)
            else:
                V.put(buf, k, LOCKED)


def start(app, k):
    """Start battle k: a new game against its AI, saved with its battle."""
    rules, expansions, level, side = BATTLES[k]
    app.set_game(Game(rules, expansions), None, opponent_row(level + 1), side, False)
    app.battle = k
    app.start_game()
