# Statistics screen: the win statistics of one rule set and opponent a page.
#
# Imported when the menu's Statistics opens and forgotten when it closes
# (App.goto), like How to play: it costs RAM only while it is shown. The
# counts themselves are jarmo.store_stats' (app.stats).

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo import app_view as V
from jarmo.app_base import IDENT, OPPONENT, RULE, S_MENU, STATS, State, opponent, opponent_row
from jarmo.app_buttons import BACK, LEFT, MENU, PREV, UP
from jarmo.game import RULE_SETS
from jarmo.store_stats import OLD

_YOURS = const(0xF0E442)    # your wins against the AI (yellow)
_THEIRS = const(0xCC79A7)   # the AI's wins (reddish purple)


# Statistics: one page per rule set and opponent with games (docs/APP.md);
# it opens on the rule set and opponent in the settings.
class StatsScreen(State):
    def __init__(self):
        self.rules = 1          # index into RULE_SETS
        self.opp = 0            # opponent key (jarmo.store_stats: the opponent's id)

    def enter(self, app, arg):
        self.rules = app.settings[0]
        self.opp = opponent(app.settings[OPPONENT - RULE], IDENT)
        self._step(app, 0)
        self._text(app)

    def press(self, app, b, player):
        if b == PREV or b == BACK or b == MENU:
            app.goto(S_MENU, STATS)
        else:
            self._step(app, -1 if b == LEFT or b == UP else 1)
            self._text(app)

    def _pages(self, app, r):
        """The opponent keys shown for rule set r: those with games, else the
        opponent in the settings (a page of zeros)."""
        return app.stats.keys(RULE_SETS[r]) or [opponent(app.settings[OPPONENT - RULE], IDENT)]

    def _step(self, app, step):
        """The next (step 1) or previous (-1) page; through a rule set's
        opponents, then on to the next rule set."""
        r = self.rules
        keys = self._pages(app, r)
        k = keys.index(self.opp) + step if self.opp in keys else 0
        if not 0 <= k < len(keys):
            r = (r + step) % len(RULE_SETS)
            keys = self._pages(app, r)
            k = 0 if step > 0 else len(keys) - 1
        self.rules = r
        self.opp = keys[k]

    def _text(self, app):
        app.set_text(app.stats.lines(RULE_SETS[self.rules], self.opp, _name(self.opp))
                     + ("NEXT: more PREV: back",))

    def draw(self, app, buf):
        """LED-only statistics: the rule set number on rank 5; the opponent on
        rank 4 (its id as white LEDs from a4, the AI's rung: 1..5, a kind
        past them its id less 5 in grey; two players: a4 South's colour, e4
        North's; earlier games: dark); ranks 1..3 the counts as fifths of the
        games: rank 1 South's wins (against an opponent: yours, yellow), rank 2
        draws (grey), rank 3 North's wins (the opponent's, reddish purple)."""
        opp = self.opp
        counts = app.stats.counts(RULE_SETS[self.rules], opp)
        V.clear(buf)
        V.draw_count(buf, 20, self.rules + 1, V.WHITE)
        versus = opp != 0 and opp != OLD
        if versus:
            V.draw_count(buf, 15, (opp - 1) % 5 + 1, V.WHITE if opp <= 5 else V.NEUTRAL)
        elif opp == 0:
            V.put(buf, 15, V.SIDE_COLOURS[0])
            V.put(buf, 19, V.SIDE_COLOURS[1])
        total = counts[0] + counts[1] + counts[2]
        rows = (0, 2, 1)      # South (you) -> rank 1, North (AI) -> rank 3, draws -> rank 2
        sides = V.SIDE_COLOURS
        colours = (_YOURS, _THEIRS, V.NEUTRAL) if versus else (sides[0], sides[1], V.NEUTRAL)
        for k in range(3 if total else 0):
            n = (counts[k] * 5 + total // 2) // total
            if counts[k] and not n:
                n = 1
            V.draw_count(buf, rows[k] * 5, n, colours[k])


def _name(opp):
    """The label of the opponent with that id ("AI level 2"; "#7" if no row
    has it now), None for two at the table and the earlier games."""
    if opp == 0 or opp == OLD:
        return None
    row = opponent_row(opp)
    return opponent(row) if row >= 0 else "#%d" % opp
