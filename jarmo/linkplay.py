# Link play: the link (jarmo/link.py) in the App - its game, its player, what it shows.
#
# Loaded only when link play is used (App.get_link: the menu's Versus is
# Link, or a linked game was saved), so a board that never links pays no RAM
# for it. AppLink is the protocol's Link with the App's side of it: each
# pass it tells the link the running game (if it is a linked one), polls it,
# and puts a change of its status on the display (app.msg) and the LEDs
# (red corners blinking while it is down). Player is the opponent kind of a
# linked game (jarmo/players.py's interface): it answers with the other
# board's actions.

import sys

from jarmo import app_view as V
from jarmo.app_base import LINK, S_AI, S_LINK
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


class Player:
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


class _Silent:
    # the line of a board without a link cable: nothing comes, nothing goes
    def readinto(self, buf):
        return 0

    def write(self, data):
        pass


def lean(app):
    """No AI plays a linked game: on a microcontroller its code and tables
    leave RAM while one is on or about to start (a hint or a timed-out turn
    imports it again, for as long as it needs it)."""
    if _LEAN and not app.busy and "jarmo.ai" in sys.modules:
        forget_module("jarmo.ai")


def make(app):
    """The App's link on its line (a silent one on a board without a cable)."""
    line = app.line
    if callable(line):
        line = line()           # a board's cable, opened now (code.py)
    return AppLink(line if line is not None else _Silent(), (app.seed ^ app.now) & 0xFFFF)


class AppLink(Link):
    def __init__(self, transport, nonce):
        Link.__init__(self, transport, nonce)
        self.shown = None       # the note on the display now (None: up)
        self.since = 0          # when the link was last seen up

    def player(self):
        return Player(self)

    def tick(self, app, now):
        """Every pass: bind the running game, poll, say a change of status."""
        if self.game is not app.game:
            self._bind(app)
        self.poll(now)
        # while the other board's turn is awaited, the main loop starts a
        # pass every 5 ms, not 20 (hardware/mainloop.py): its turn shows sooner
        app.listening = app.sid == S_AI and app.opp == LINK
        if app.opp == LINK or app.sid == S_LINK:
            lean(app)
        if app.opp == LINK and app.game is not None:
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

    def _bind(self, app):
        self.since = app.now
        g = app.game
        if g is None or app.opp != LINK:
            self.bind(None, None)
            return
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

    def lost(self):
        """True while a linked game's link is not up."""
        return self.shown is not None

    def overlay(self, app, buf):
        """Over the state's LEDs: red corners blink while the link is down."""
        if self.shown is not None and V.blink(app.now, 1024):
            for i in (0, 4, 20, 24):
                V.put(buf, i, V.RED)
