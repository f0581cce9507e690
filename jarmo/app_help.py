# How to play: short pages of the rules on the display, lit examples on the LEDs.
#
# The state Help (docs/APP.md, How to play; the whole rules are
# docs/RULES.md). App imports this module when How to play opens and forgets
# it when it closes, so its pages take RAM only while someone reads them.
#
# The pages come in sections; the reader starts with the first page, then
# the board, then the rule set and expansions in play (the running game's,
# else the menu's), then a page "Other rules", whose NEXT leads on to the
# other rule sets and expansions. Each page is wrapped to the display's
# width (at most 4 lines of 21 characters under a title line "Standard
# 10/16": the section, then the page among the pages of its part: the rules
# in play, or the others). tests/app/test_help.py checks that every page fits.
#
# Buttons: NEXT (and RIGHT, DOWN) the next page; PREV (and LEFT, UP) the
# previous one, and from the first page back; SELECT, BACK and MENU back:
# to the turn it was opened from (the simulator's ? key), else to the menu.
#
# The LEDs play three examples over and over: a move, a capture and a camp
# entry. Without a display they are the whole help: NEXT and PREV step
# through the three examples.

from jarmo import app_view as V
from jarmo.app_base import HELP, S_AI, S_MENU, S_PLAY, State, expansions, wrap
from jarmo.app_buttons import DOWN, LEFT, NEXT, PREV, RIGHT, SELECT, UP
from jarmo.board import point
from jarmo.rulesets import RULE_SETS

# (title, pages): the general sections, a section per rule set (its
# jarmo.rulesets name, capitalised; tests/app/test_help.py checks that every
# rule set has one), then the expansions.
SECTIONS = (
    ("How to play", (
        "NEXT, PREV: turn the pages. SELECT: back where you were.",
        "Race your pieces into the enemy camp, the far row, taking enemy "
        "pieces on the way.",
        "Your turn: NEXT finds a piece, SELECT picks it, then NEXT and SELECT "
        "its target.",
        "PREV or BACK drops a picked piece; with none picked they open the "
        "menu.",
    )),
    ("Board", (
        "South starts on rank 1 (a1 to e1), North on rank 5. A side's home "
        "row is its camp.",
        "A move takes a piece along one printed line to the point at its "
        "other end.",
        "The lines are lopsided: the two sides do not have the same paths.",
        "Land on an enemy piece to take it. Taking is never forced.",
        "A piece that reaches the enemy camp is frozen: it never moves again.",
    )),
    ("Classic", (
        "Archers only. An archer that has taken a piece is marked (it "
        "breathes).",
        "Recall, a whole turn: a marked archer in the enemy camp brings a "
        "taken archer home.",
        "Select the marked archer, then a free point of your camp. It loses "
        "its mark.",
        "No piece may go back and forth along a line a third time in a row.",
        "Ends when a side is all in the enemy camp, or when a side cannot "
        "move.",
        "Points: 2 for each piece in the enemy camp, 1 for each other.",
    )),
    ("Standard", (
        "An archer that takes a piece outside that piece's camp becomes a "
        "guard.",
        "A guard entering the enemy camp turns archer and brings a taken piece "
        "back.",
        "Place held pieces on free points of your camp before or after the "
        "move, then done.",
        "Ends: a side all in the enemy camp or wiped out, back and forth, or "
        "no move.",
        "Points: 2 for each piece in the enemy camp, 1 for each other; wiped "
        "out: 0.",
        "A match is 2, 4 or 6 games, sides swapped each game, points added "
        "up.",
    )),
    ("Legendary", (
        "As standard, no points: win by moving your last piece into the enemy "
        "camp.",
        "Pieces in the enemy camp cannot be taken. A guard there stays a "
        "guard.",
        "Later, as a whole turn, flip it to an archer to get a taken piece "
        "back.",
        "Flip: select the guard twice, or select it and then a free camp "
        "point.",
        "No pieces left loses. Back and forth or no move: a draw.",
    )),
    ("Jasyr", (
        "As legendary, but no move goes back: only forward or sideways.",
        "The dotted line c3-b5 is a line too.",
        "A taken archer is out for good. A taken guard goes back to its "
        "owner: held.",
        "Placing a held piece takes a whole turn.",
    )),
    ("Heroes", (
        "The right corner piece (South e1, North a5) is a Golden Soldier, a "
        "guard.",
        "On the LEDs South's is tinted yellow, North's green.",
        "Taken as a guard it stays as a hostage under the taker.",
        "Take the piece on top of your hostage to free it.",
        "Taken as an archer it is out for good. Once an archer, never a guard "
        "again.",
    )),
    ("Challenges", (
        "Remote camps on b3 and d3: have pieces on both after a move to earn a "
        "redeploy.",
        "Redeploy: a taken piece comes back to a free camp point; both "
        "markers go.",
        "Pick the camp point (or redeploy, then the point), or say done.",
    )),
)

# LED examples: frames of "point+letter" items, 800 ms each. Letters:
# a g South archer and guard, n h North archer and guard, s the selected
# piece, t a target, w a capture's flash, r the point a move came from,
# p a free camp point where a held piece can go.
EXAMPLES = (
    # a move: b1 along its line to d2
    ("b1a e5n", "b1s e5n a3t d2t", "b1s e5n a3t d2t", "b1r d2a e5n", "d2a e5n"),
    # a capture: d2 takes b3 and becomes a guard
    ("d2a b3n", "d2s b3n b1t c2t d3t", "d2s b3t b1t c2t d3t", "d2r b3w", "d2r b3g", "b3g"),
    # a camp entry: the guard on d3 enters e5, turns archer, a piece comes back
    ("d3g c5n", "d3s c5n e5t", "d3r e5a c5n a1p b1p c1p d1p e1p", "e5a c5n a1p b1p c1p d1p e1p",
     "e5a c5n c1a"),
)
_FRAME = 800
_LETTERS = "agnhstwrp"
_COLOURS = (V.PIECE[0], V.PIECE[2], V.PIECE[5], V.PIECE[7], V.SELECTED, V.TARGET * 2,
            V.WHITE, V.TRAIL, V.PIECE[0])


def _section(title):
    for i in range(len(SECTIONS)):
        if SECTIONS[i][0] == title:
            return i
    return 0


def _title(name):
    # str.capitalize is CPython's only
    return name[:1].upper() + name[1:]


# The last page of the rules in play: the rest is one NEXT away, counted
# apart, so that the pages of the game in play are the whole count.
_OTHERS = ("Other rules", "NEXT: the rule sets and expansions not in this game. SELECT: back "
           "where you were.")


def _order(app):
    """Section indices in reading order: the first page and the board, the
    rule set and expansions in play (the running game's, else the menu's);
    then the rest. The first part's length is the second value."""
    g = app.game
    if g is not None:
        rules, exps = g.rules, g.expansions
    else:
        s = app.settings
        rules, exps = RULE_SETS[s[0]], expansions(s)
    first = [0, 1, _section(_title(rules))]
    for name in exps:
        first.append(_section(_title(name)))
    return first + [i for i in range(len(SECTIONS)) if i not in first], len(first)


def pages(app):
    """(title, text) of every page, in reading order: the rules in play first
    ("Standard 10/16": a player reads these, not the 38 pages of every rule
    set), ending with the page that leads to the others; then the others,
    numbered on their own ("Classic 1/23")."""
    order, first = _order(app)
    parts = ([], [])        # the rules in play, then the others
    for j in range(len(order)):
        title, texts = SECTIONS[order[j]]
        for text in texts:
            parts[1 if j >= first else 0].append((title, text))
    parts[0].append(_OTHERS)
    return [("%s %d/%d" % (part[k][0], k + 1, len(part)), part[k][1])
            for part in parts for k in range(len(part))]


# The state: the page read (or, LED-only, the example shown) and when it
# was turned to (the examples' frames count from there).
class Help(State):
    def __init__(self):
        self.page = 0
        self.t0 = 0
        self.back = S_MENU      # where leaving goes: the menu, or the turn it was opened in

    def enter(self, app, back):
        self.page = 0
        self.t0 = app.now
        self.back = back if back == S_PLAY or back == S_AI else S_MENU
        self._text(app)

    def _leave(self, app):
        g = app.game
        if self.back != S_MENU and g is not None and g.result() is None:
            app.next_turn()     # the turn again, as Resume: its clock has the time it had
        else:
            app.goto(S_MENU, HELP)

    def _text(self, app):
        if app.has_display:
            title, text = pages(app)[self.page]
            app.set_text((title,) + wrap(text, 21, 4))

    def tap_at_down(self, b):
        return b == SELECT      # held, it is MENU: back, as SELECT is

    def press(self, app, b, player):
        n = len(pages(app)) if app.has_display else len(EXAMPLES)
        if b == NEXT or b == RIGHT or b == DOWN:
            self.page = (self.page + 1) % n
        elif b == PREV or b == LEFT or b == UP:
            if not self.page:
                self._leave(app)
                return
            self.page -= 1
        else:                       # SELECT, BACK, MENU
            self._leave(app)
            return
        self.t0 = app.now
        self._text(app)

    def draw(self, app, buf):
        """One of the LED examples: without a display the page's, else each in
        turn."""
        t = V.ticks_diff(app.now, self.t0) // _FRAME
        ex = EXAMPLES[(t // 7 if app.has_display else self.page) % len(EXAMPLES)]
        t %= 7                      # up to 6 frames, then a dark one
        V.clear(buf)
        if t < len(ex):
            for item in ex[t].split():
                if item[2] != "p" or V.blink(app.now, 512):
                    V.put(buf, point(item[:2]), _COLOURS[_LETTERS.find(item[2])])
