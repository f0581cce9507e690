# Screens: the states around a game - the notice, the end of a game and its result.
#
# Each is a small State (app_base); they go back to the menu or on to the next
# game of a match through App.goto and App.start_game.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo import app_view as V
from jarmo.app_base import IDENT, NEW, S_CAMPAIGN, S_MENU, S_RESULT, State, opponent
from jarmo.app_buttons import BACK, MENU, NEXT, PREV, SELECT
from jarmo.board import SIDE_NAMES
from jarmo.unload import forget_module

_CELEBRATE = const(3000)    # ms of the end-of-game animation
_PAGE = const(4000)         # ms each page of the result stays


def forget(app):
    """The game or match is over and seen: nothing to resume any more. No
    compaction now: leaving a result is when a player switches off (the
    store compacts when the next game starts, App.start_game)."""
    link = app.link if app.linked else None
    app.set_game(None, None, 0, 0, False)
    store = app.store
    if link is not None:
        # a finished linked game stays the store's game until the other
        # board is known to hold all of it (jarmo/linkplay.py)
        link.keep()
        if link.on_flash and link.holds_flash():
            store = None
    if store is not None:
        try:
            store.end_game()
        except OSError:
            pass


def count(app):
    """The finished game into the statistics, naming its saved game."""
    g = app.game
    # under the opponent's id (its row's); two at the table count by side
    app.stats.record(g.rules, g.result().winner, opponent(app.opp, IDENT),
                     None if app.opponent.local else SIDE_NAMES[app.human_side()], app.game_id)
    app.counted = True


# What was found wrong at start-up (damaged saves, odd settings): four lines
# a page, a button turns the page and, after the last, opens the menu; a
# red X blinks.
class Notice(State):
    def __init__(self):
        self.lines = ()
        self.page = 0

    def enter(self, app, lines):
        self.lines = lines
        self.page = 0
        self._show(app)

    def _show(self, app):
        k = self.page * 4
        last = k + 4 >= len(self.lines)
        app.set_text(self.lines[k:k + 4] + ("Press any button" if last else "A button: more",))

    def tap_at_down(self, b):
        return True             # any button turns the page

    def press(self, app, b, player):
        if (self.page + 1) * 4 < len(self.lines):
            self.page += 1
            self._show(app)
        else:
            store = app.store
            if b == SELECT and store is not None and store.locked:
                store.start_afresh()        # a newer version's saves given up, by choice
            app.goto(S_MENU)

    def draw(self, app, buf):
        V.draw_icon(buf, V.ICON_CROSS, V.RED, app.now)


# ---------------------------------------------------------------- end, result

# The end of a game (its final position is saved): counted in the statistics
# when `record`, then 3 s of celebration. The count takes a pass of its own
# (tick, never the pass of the game's last turn): it imports jarmo.store_stats and
# loads the statistics (20 to 45 ms on the Pico; they leave RAM at every
# state change). A button ends the celebration in tick() too, after the
# count, so a press in the count's pass cannot add work to it. A win sets app.celebrate to the
# winner's colour and the LEDs breathe in it (hardware/leds.py) instead of
# showing the frame; a draw has no winner colour: the frame shows grey rings
# running out from c3.
class End(State):
    def __init__(self):
        self.t0 = 0
        self.record = False
        self.leave = False      # a button was pressed: on to the result
        self.told = False       # the result's words set (at the first tick)

    def enter(self, app, record):
        w = app.game.result().winner
        self.record = record
        self.leave = False
        self.t0 = app.now
        app.celebrate = None if w is None else V.SIDE_COLOURS[SIDE_NAMES.index(w)]
        # the words at the first tick: their module's import (tens of ms on
        # the stock boards) would hold back the pass that lights the end (a
        # linked game's last turn, shown on the other board)
        self.told = False

    def _count(self, app):
        self.record = False
        count(app)

    def exit(self, app):
        if self.record:
            self._count(app)
        app.celebrate = None

    def tap_at_down(self, b):
        return True             # any button leaves

    def press(self, app, b, player):
        self.leave = True       # in this pass's tick, once counted

    def tick(self, app):
        if not self.told:
            self.told = True
            result_text(app)
        elif self.record:
            self._count(app)
        elif self.leave or V.ticks_diff(app.now, self.t0) >= _CELEBRATE:
            app.goto(S_RESULT)

    def draw(self, app, buf):
        if app.celebrate is not None:
            return      # the LEDs breathe the winner's colour, not the frame
        phase = (V.ticks_diff(app.now, self.t0) >> 8) % 3
        for i in range(25):
            f = i % 5 - 2
            r = i // 5 - 2
            d = max(f if f > 0 else -f, r if r > 0 else -r)
            V.put_k(buf, i, V.NEUTRAL, 256 if d == phase else 24)


def result_text(app, page=0):
    """Show page `page` of the result; how many pages there are. The words
    are jarmo.app_end's, in RAM only while the end and the result are shown."""
    from jarmo.app_end import result_text as show
    return show(app, page)


# The result of a finished game (and the match totals): SELECT goes on to
# the next game of a match, or to the menu (after a campaign battle: to its
# ladder; the game is then forgotten). A battle's win is recorded here, also
# when a finished battle is resumed after a power cut (it is idempotent).
class ResultScreen(State):
    def __init__(self):
        self.page = 0
        self.pages = 1
        self.t0 = 0

    def enter(self, app, arg):
        if app.battle >= 0:
            from jarmo.store_campaign import record_battle
            record_battle(app)
        self.page = 0
        self.t0 = app.now
        self.pages = result_text(app)

    def exit(self, app):
        forget_module("jarmo.app_end")      # the end's words leave RAM

    def refresh(self, app):
        # the link's last turn arrived, or went on its way (jarmo/linkplay.py)
        result_text(app, self.page)

    def tick(self, app):
        if self.pages > 1 and V.ticks_diff(app.now, self.t0) >= _PAGE:
            self.page += 1          # the pages take turns: how it ended, why, the match
            self.t0 = app.now
            result_text(app, self.page)

    def press(self, app, b, player):
        if b == SELECT or b == NEXT:
            m = app.match
            if m is not None and not m.over():
                if app.linked and not app.link.delivered():
                    return      # the other board has not saved the last turn yet
                app.game = m.next_game()
                app.start_game()
            else:
                battle = app.battle
                forget(app)
                if battle < 0:
                    app.goto(S_MENU, NEW)
                else:
                    app.goto(S_CAMPAIGN)
        elif b == PREV or b == BACK or b == MENU:
            app.goto(S_MENU)

    def draw(self, app, buf):
        """The final position behind the text, the point the winning move
        came from dim grey (the trail); LED-only: South's points lit from a1
        up, North's from e5 down (at most 12 each); in a match every other
        4 s the match totals by side of the current game, marked by a white
        c3."""
        if app.has_display:
            app.board.draw(buf, app.now, app.board.trail)
            return
        m = app.match
        totals = m is not None and app.now & 4096
        if totals:
            s, n = m.totals
            if m.side_of("first") == "north":
                s, n = n, s
        else:
            r = app.game.result()
            if r.points is not None:
                s, n = r.points
            else:
                s = 5 if r.winner == "south" else 0
                n = 5 if r.winner == "north" else 0
        V.clear(buf)
        V.draw_count(buf, 0, min(s, 12), V.SIDE_COLOURS[0])
        V.draw_count(buf, 24, min(n, 12), V.SIDE_COLOURS[1], -1)
        if totals:
            V.put(buf, 12, V.WHITE)
        elif not s and not n:
            V.put(buf, 12, V.NEUTRAL)       # a draw without points
