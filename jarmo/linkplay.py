# Link play: the link (jarmo/link.py) in the App - its game, its player, what it shows.
#
# Loaded only when link play is used (App.get_link: the menu's Versus is
# Link, or a linked game was saved), so a board that never links pays no RAM
# for it. AppLink is the protocol's Link with the App's side of it: each
# pass it tells the link the running game (if it is a linked one), polls it,
# and puts a change of its status on the display (app.msg) and the LEDs
# (red corners blinking while it is down). LinkPlayer is the opponent kind
# of a linked game (jarmo/app_players.py's interface): it answers with the
# other board's actions.
#
# A linked game is over only when both boards hold its last action. A
# finished game the App lets go of (its player left the result, or started
# another game) stays bound to the link, "kept", and its last turn goes out
# until the other board has it; on flash it stays the store's game until the
# other board says it knows this board holds it all (HELLO's DONE), and a
# start-up hands a finished linked game found there to the link again
# (jarmo/app_start.py). While the last turn is on its way the result and
# the menu say so, and the corner LEDs blink white. A board without the
# linked game (its save torn by a power cut) takes it from the other board
# (adopt): the game is started from the other board's description and its
# actions come back as a resync.
#
# The link wait (jarmo/app_link.py) and the result's words (jarmo/app_end.py)
# reach this module through the App's link (app.get_link(), app.link), never
# by importing it: this module imports app_link for its rare paths, and an
# import back would close a cycle (tests/layers.py: APP_STEPS).

import sys

from jarmo import app_view as V
from jarmo.app_base import S_AI, S_LINK, S_MENU, S_PLAY, S_RESULT
from jarmo.link import Link
from jarmo.unload import forget_module

_SETTLE = 600           # ms a trouble lasts before it is said (a board starting up)
# On a microcontroller (MicroPython, CircuitPython) the heap is the budget: a
# linked game lets jarmo.ai go. CPython keeps it (a PC has RAM to spare, and
# a module imported twice would be two modules to the tests that hold it).
_LEAN = sys.implementation.name != "cpython"

# What the link's status (Link.status) means, in words, by its number.
NOTES = (None, "Link: no cable?", "Link lost: cable?", "Link: other version",
         "Link: other game", "Link: games differ")


class LinkPlayer:
    local = False
    level = -1
    name = "Link"
    pause = 0           # the other board's turn shows at once
    verb = " moves"

    def __init__(self, link):
        self.link = link

    def start(self, game, now):
        pass

    def step(self, now):
        return self.link.take()

    def drop(self):
        pass


def _app_link():
    # the rare paths (a game taken from the other board, own turns back)
    # live in the link wait's module, loaded when needed
    from jarmo import app_link
    return app_link


class _Silent:
    # the line of a board without a link cable: nothing comes, nothing goes
    def readinto(self, buf):
        return 0

    def write(self, data):
        pass


def make(app):
    """The App's link on its line (a silent one on a board without a cable)."""
    line = app.line
    if callable(line):
        line = line()           # a board's cable, opened now (code.py)
    if line is None:
        line = _Silent()
    return AppLink(line, (app.seed ^ app.now) & 0xFFFF, getattr(line, "ident", b""))


class AppLink(Link):
    ON_ITS_WAY = "Last turn on its way"     # the result's line and the menu's title meanwhile

    def __init__(self, transport, nonce, ident=b""):
        Link.__init__(self, transport, nonce, ident)
        self.shown = None       # the note on the display now (None: up)
        self.since = 0          # when the link was last seen up
        self.game_id = -1       # the store's id of the bound game (its GAME record)
        self.on_flash = False   # a kept game is still the store's game
        self.waiting = False    # the last turn of a finished game is on its way

    def player(self):
        return LinkPlayer(self)

    def note(self, status):
        """What a status (Link.status) means, in words; None: the link is up."""
        return NOTES[status]

    def lean(self, app):
        """No AI plays a linked game: on a microcontroller its code and tables
        leave RAM while one is on or about to start (a hint or a timed-out turn
        imports it again, for as long as it needs it)."""
        if _LEAN and not app.busy and "jarmo.ai" in sys.modules:
            forget_module("jarmo.ai")

    def tick(self, app, now):
        """Every pass: bind the running game, poll, say a change of status."""
        g = app.game
        linked = g if app.linked else None
        if self.game is linked:
            self.game_id = app.game_id
        elif linked is not None:
            self._bind(app)
        elif self.game is not None and not self.kept:
            self.keep()         # the App let go of it (another game, or none)
        self.poll(now)
        if self.kept:
            self._deliver(app)
        elif g is None and app.sid in (S_MENU, S_LINK) and self.up(now):
            desc = self.offers_game()
            # a match's later game: once its earlier results came (PAST)
            if desc is not None and (desc[3] <= 1 or self.peer_past[:7] == desc):
                _app_link().adopt(app, desc)
                return
        if self.game is not None and self.game is g and app.sid == S_PLAY and self.take():
            _app_link().catch_up(app)
        self._say_waiting(app)
        # while the other board's turn is awaited, the main loop's naps are
        # short and end when the cable's bytes come (hardware/mainloop.py)
        app.listening = app.sid == S_AI and app.linked
        if app.linked or app.sid == S_LINK:
            self.lean(app)
        if app.linked and app.game is not None:
            note = NOTES[self.status(now)]
            if note is None:
                self.since = now
            elif V.ticks_diff(now, self.since) < _SETTLE:
                note = self.shown       # not yet (a game just started or resumed)
            if note is not self.shown:
                # the link went down or came back: said on the display
                if note is not None:
                    app.msg = (note, "Game kept; Back: menu")
                elif app.msg and app.msg[0] == self.shown:
                    app.msg = ()
                self.shown = note
                app.dirty = True
                app.states[app.sid].refresh(app)
        else:
            self.shown = None

    def keep(self):
        """The App lets go of the bound game: kept until the other board
        holds it all, if it is over; else the link lets go too."""
        g = self.game
        if g is not None and g.result() is not None:
            self.kept = True
            self.on_flash = self.game_id >= 0
        else:
            self.bind(None, None)

    def holds_flash(self):
        """True while the store must keep the finished linked game: the
        other board may not know yet that this board holds all of it."""
        return not self.delivered()

    def _deliver(self, app):
        # a kept game: once the other board knows both hold it all, the
        # store's copy ends (if it is still the store's game)
        if self.on_flash and not self.holds_flash():
            self.on_flash = False
            _app_link().release(app, self.game_id)

    def _say_waiting(self, app):
        # the result's line and the menu's title while the last turn is on its way
        g = self.game
        waiting = g is not None and g.result() is not None and not self.delivered()
        if waiting != self.waiting:
            self.waiting = waiting
            if app.menu_title in ("Jarmo", self.ON_ITS_WAY):
                app.menu_title = self.ON_ITS_WAY if waiting else "Jarmo"
            if app.sid == S_RESULT or app.sid == S_MENU:
                app.states[app.sid].refresh(app)
            app.dirty = True

    def _bind(self, app):
        self.since = app.now
        g = app.game
        from jarmo.game import EXPANSIONS
        from jarmo.rulesets import RULE_SETS
        bits = 0
        for k in range(len(EXPANSIONS)):
            if EXPANSIONS[k] in g.expansions:
                bits |= 1 << k
        m = app.match
        tag = app.link_tag & 0xFFFF
        self.bind(g, bytes((RULE_SETS.index(g.rules), bits, 0 if m is None else m.games,
                            0 if m is None else m.number, app.human_side(), tag >> 8, tag & 255)))
        self.game_id = app.game_id
        if m is not None and m.number > 1:
            # the results before this game: for the other board, should it lose the match
            from jarmo.store_game import results_bytes
            self.past = results_bytes(m)
            forget_module("jarmo.store_game")

    def lost(self):
        """True while a linked game's link is not up."""
        return self.shown is not None

    def overlay(self, app, buf):
        """Over the state's LEDs: red corners blink while the link is down;
        white ones while a finished game's last turn is on its way (in turn
        with the red when both)."""
        on = V.blink(app.now, 1024)
        if self.shown is not None and on:
            colour = V.RED
        elif self.waiting and (on or self.shown is not None):
            colour = V.WHITE
        else:
            return
        for i in (0, 4, 20, 24):
            V.put(buf, i, colour)
