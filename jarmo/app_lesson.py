# Lesson: the guided first game - a short scripted standard game the player plays as South.
#
# SCRIPT is a whole game, played through the Game API: North's actions are
# played by the lesson (0.7 s apart), South's are the player's, one lesson
# step each, with a few words (STEPS) on the display and the point to pick
# next blinking on the LEDs in the hint colour. The steps walk through
# moving along a line, taking (the archer turns guard), being taken, a guard
# entering the enemy camp and bringing a piece back, placing it, and the end
# of a game (North wiped out). The cursor moves as in a game (NEXT over the
# pieces that can act, or the joystick); a pick that is not the lit one gets
# a hint and a red flash, never a refusal of the game. BACK, MENU (and PREV
# with nothing selected) leave the lesson for the menu; the menu's First
# game starts it again. Imported when it opens and forgotten when it closes
# (App.goto): it keeps its own Game and board, so a saved game is untouched.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo import app_turn as T
from jarmo import app_view as V
from jarmo.app_base import S_MENU, State, wrap
from jarmo.app_buttons import BACK, DOWN, LEFT, MENU, NEXT, PREV, RIGHT, SELECT, UP
from jarmo.board import NAMES
from jarmo.game import Game
from jarmo.notation import parse_action

_REPLY = const(700)     # ms before each of North's actions
_FLASH = const(600)
_SOURCE = const(3)
_TARGET = const(8)
_KIND_BITS = const(7)
_POINT_BITS = const(31)
_MOVE = const(0)

SCRIPT = ("e1-d3 b5-a3 b1-a3 e5-d3 c1-d3 a5-b3 a1-b3 d5-b4 b3-c5 @c1 b4-d3 c1-d3").split()
# The words of each of South's actions in SCRIPT, then the end (at most 3 lines of 21).
STEPS = (
    "Pieces move along the lines. Move e1 to d3.",
    "Land on an enemy to take it: b1 takes a3 and turns guard.",
    "North took d3. Take it back from c1.",
    "Guards shine bright. Now take b3 with a1.",
    "A guard entering the enemy camp gets a piece back: b3 to c5.",
    "Place the piece you got back on your camp: c1.",
    "Take North's last piece to win the game.",
    "You won: North has no pieces. All yours in its camp wins too.",
)


# The lesson: its game, how far the script got, the step's expected picks,
# the selection and the board as shown.
class Lesson(State):
    def __init__(self):
        self.game = None
        self.board = V.Board()
        self.choices = T.Choices()

    def enter(self, app, arg):
        self.game = Game("standard")
        self.i = 0              # the next action of SCRIPT
        self.step = 0           # the player's step (index into STEPS)
        self.board.reset()
        self.board.read(self.game)
        self.msg = ""
        self._next(app)

    def exit(self, app):
        self.game = None

    def _next(self, app):
        """What comes now: North's reply, the player's next step, or the end."""
        g = self.game
        self.sel = -1
        self.first = self.second = -1
        if g.result() is None and g.turn == "north":
            self.due = V.ticks_add(app.now, _REPLY)
        elif g.result() is None:
            ch = self.choices
            ch.build(g.legal_codes())
            code = parse_action(SCRIPT[self.i])
            self.first, self.second = T.encode(code, ch.placements())
            b = self.board
            if not (b.cursor < 25 and ch.firsts >> b.cursor & 1):
                b.cursor = T.cycle(ch.firsts & T.POINTS, -1)
        self._text(app)

    def tick(self, app):
        g = self.game
        if g.result() is None and g.turn == "north" and V.ticks_diff(app.now, self.due) >= 0:
            self._play(app, parse_action(SCRIPT[self.i]), 0)

    def _play(self, app, code, step):
        b = self.board
        b.trail = code >> _SOURCE & _POINT_BITS if code & _KIND_BITS == _MOVE else -1
        self.game.play_code(code)
        self.i += 1
        b.read(self.game)
        app.dirty = True
        self.step += step
        self._next(app)

    def press(self, app, b, player):
        if b == BACK or b == MENU or (b == PREV and self.sel < 0):
            app.goto(S_MENU)
            return
        g = self.game
        self.msg = ""
        if g.result() is not None:
            if b == SELECT or b == NEXT:
                app.goto(S_MENU)
            return
        if g.turn == "north":
            return
        ch = self.choices
        board = self.board
        mask = ch.targets(self.sel) if self.sel >= 0 else ch.firsts & T.POINTS
        if b == NEXT:
            board.cursor = T.cycle(mask, board.cursor)
        elif b == PREV:
            board.cursor = self.sel
            self.sel = -1
        elif UP <= b <= RIGHT:
            dx = -1 if b == LEFT else 1 if b == RIGHT else 0
            dy = -1 if b == DOWN else 1 if b == UP else 0
            board.cursor = T.step(board.cursor, dx, dy, 0)
        elif b == SELECT:
            self._pick(app, board.cursor)
            return
        board.cur_t = app.now & ~127   # a slot's start: its blink changes where
        # a still picture is drawn again (jarmo/app.py _SLOT)
        self._text(app)

    def _pick(self, app, c):
        want = self.second if self.sel >= 0 else self.first
        if c != want:
            self.msg = "Not that: the lit one"
            b = self.board
            b.flash = c
            b.flash_t = app.now
            self._text(app)
            return
        if self.sel < 0 and self.second != T.NONE:
            self.sel = c
            self.board.cursor = T.cycle(self.choices.targets(c), c)
            self._text(app)
            return
        self._play(app, self.choices.action(self.first, self.second), 1)

    def cursor(self):
        """The point under the cursor while the player picks, else -1 (App.cursor)."""
        c = self.board.cursor
        return c if self.first >= 0 and self.game.result() is None and c < 25 else -1

    def _wanted(self):
        """The point to pick next, or -1 (North's turn, the end)."""
        if self.first < 0:
            return -1
        return self.second if self.sel >= 0 else self.first

    def _text(self, app):
        g = self.game
        k = min(self.step, len(STEPS) - 1)
        if g.result() is not None:
            last = "SELECT: menu"
        elif g.turn == "north":
            last = "North moves..."
        else:
            c = self.board.cursor
            last = self.msg or "Cursor %s: " % T.choice_name(c) + (
                "SELECT" if c == self._wanted() else "go to " + NAMES[self._wanted()])
        n = len(STEPS) - 1
        title = "First game %d/%d" % (k + 1, n) if k < n else "First game: done"
        app.set_text((title,) + wrap(STEPS[k], 21, 3) + (last,))

    def draw(self, app, buf):
        b = self.board
        now = app.now
        b.draw(buf, now, b.trail)
        if self.sel >= 0:
            V.put(buf, self.sel, V.SELECTED)
        w = self._wanted()
        on = V.blink(now, 512)
        if w >= 0 and on:
            V.put(buf, w, V.HINT_COLOUR)
        if self.first >= 0 and not on and b.cursor < 25:
            V.put(buf, b.cursor, V.CURSOR[0])
        if b.flash >= 0:
            if V.ticks_diff(now, b.flash_t) >= _FLASH:
                b.flash = -2
            elif not V.ticks_diff(now, b.flash_t) & 128:
                V.put(buf, b.flash, V.RED)
