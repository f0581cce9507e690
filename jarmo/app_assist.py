# Assist: the move timer and the hint - the human's turn (Play) with a clock and an adviser.
#
# Assisted is Play with both: App puts one in place of the play state when a
# turn begins with the timer on (install) or the menu's Hint is chosen
# (ask), and a plain Play comes back with the next game (App.set_game), so
# neither costs RAM in a game without them: this module is imported then and
# forgotten with it.
#
# Timer: `limit` ms for each human turn (both seats of a two-player game;
# against the AI only the human's). The top line of the display ends with
# the seconds left; in the last 5 s the dark points of rank 3 (a3..) count
# them down in dim red, one point a second, so pieces, targets and markers
# stay visible. The clock runs only while the player can see the turn and
# act on it: it stands still before the player's first button since start-up
# (a game started or resumed by itself), while the game is out of sight
# (app.hidden: the simulator's rules pager; any screen over the game) and
# while another state is shown (the menu, How to play). When time runs out
# the selection is dropped and an AI plays the turn for the player: greedy
# by default, or a random turn (setting "Time out").
#
# Hint: the AI at the opponent's level (greedy in a two-player game) thinks
# about the player's turn in slices, one Player.step() a pass (under 30 ms
# on an RP2040), so the buttons stay live; then the display says the turn
# in words ("Hint: move d3 to e5, then place a piece on a1.") and the LEDs
# light its points in order (piece, then target; a placement's point),
# 0.5 s each, in reddish purple, without playing it.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo import app_view as V
from jarmo.app_base import RULE, S_PLAY, TIMEOUT, TIMER, TIMER_S, wrap
from jarmo.app_buttons import MENU
from jarmo.app_play import Play, _subject, title_line
from jarmo.board import NAMES

_DIM_RED = const(0x500000)
# action kinds (mirrors of jarmo/codes.py, inlined by MicroPython)
_MOVE = const(0)
_RECALL = const(1)
_DONE = const(3)
_FLIP = const(4)
_FLIP_PLACE = const(5)
_SOURCE = const(3)
_TARGET = const(8)
_KIND_BITS = const(7)
_POINT_BITS = const(31)
_COUNTDOWN = const(5000)    # ms: the LEDs count the last seconds down
_SHOW = const(500)          # ms each hint point is lit

_IDLE = const(0)
_ASKED = const(1)           # a hint was asked: it starts with the human's turn
_HINTING = const(2)         # the AI thinks about the hint
_SHOWN = const(3)
_TIMED_OUT = const(4)       # an AI thinks about the turn it will play for the player

# A hint's actions in words, by kind (jarmo.codes): {0} the piece, {1} the
# point. A player who has not read the rules knows no notation ("d3-e5
# @a1"): the hint says what to do, as the events say what was done.
_SAY = ("move {0} to {1}|recall an archer to {1} with {0}|place a piece on {1}|done|"
        "flip the guard on {0}|flip the guard on {0}, place on {1}|redeploy to {1}")


def install(app):
    """The assisted play state of the running game, following the settings
    Timer and Time out (App.next_turn calls it before each human turn)."""
    p = app.states[S_PLAY]
    if not isinstance(p, Assisted):
        p = app.states[S_PLAY] = Assisted()
    s = app.settings
    limit = TIMER_S[s[TIMER - RULE]] * 1000
    if limit != p.limit:
        # a change in the menu applies to the turn in progress, with the whole new time
        p.limit = p.left = limit
    p.timeout_level = 1 - s[TIMEOUT - RULE]         # greedy, or random
    return p


def ask(app):
    """The menu's Hint: the next human turn (or this one) gets one."""
    install(app).mode = _ASKED


# A human's turn with the timer and the hint: the turn the clock belongs to
# (game, plies, side), the ms left while the menu is open, the Player
# thinking now, and the hint's points.
class Assisted(Play):
    def __init__(self):
        Play.__init__(self)
        self.limit = 0                  # ms per turn, 0: no timer
        self.timeout_level = 1          # jarmo.ai level playing a timed-out turn
        self.left = 0
        self.deadline = 0
        self.running = False            # the clock runs (set by the first tick it may run)
        self.game = None
        self.plies = -1
        self.side = -1
        self.mode = _IDLE
        self.player = None              # the Player thinking now
        self.helper_level = -1          # the level of our own Player, while it thinks
        self.points = bytearray(20)     # the hint's points in order
        self.n = 0
        self.t0 = 0
        self.shown = -1                 # the seconds last shown

    # ------------------------------------------------------------ the turn

    def enter(self, app, arg):
        g = app.game
        side = app.turn_side()
        if g is not self.game or g.plies != self.plies or side != self.side:
            self.game = g                   # a new turn: the whole time again
            self.plies = g.plies
            self.side = side
            self.left = self.limit
            if self.mode != _ASKED:
                self.mode = _IDLE
        # The deadline is set by the first tick: a turn entered before the
        # clock's first reading (a game started or resumed at start-up, when
        # app.now is still 0) must not lose its time to that jump.
        self.running = False
        self.deadline = V.ticks_add(app.now, self.left)
        if self.mode == _ASKED:
            self._think(app, self._hint_player(app))
            self.mode = _HINTING
            app.msg = ("Hint: thinking...",)
        Play.enter(self, app, arg)

    def exit(self, app):
        Play.exit(self, app)
        self._stop(app)
        if self.mode == _HINTING or self.mode == _TIMED_OUT:
            self.mode = _IDLE       # thought over when asked again
        self.player = None

    def press(self, app, b, player):
        if self.mode != _TIMED_OUT or b == MENU:
            Play.press(self, app, b, player)

    def busy(self, app):
        return self.player is not None      # a hint or a timed-out turn thinking

    def human(self, app, code):
        if self.mode == _SHOWN:
            self.mode = _IDLE       # the hint is out of date once you act
        Play.human(self, app, code)

    def _stop(self, app):
        """The clock stops with the time it has left."""
        if self.running:
            self.running = False
            self.left = max(0, V.ticks_diff(self.deadline, app.now))

    def _clock(self, app):
        """Run the clock only while the player can see the turn and act on it."""
        if app.hidden or not app.attended:
            self._stop(app)
            self.deadline = V.ticks_add(app.now, self.left)     # standing still
        elif not self.running:
            self.running = True
            self.deadline = V.ticks_add(app.now, self.left)

    def tick(self, app):
        self._clock(app)
        Play.tick(self, app)
        mode = self.mode
        if mode == _HINTING or mode == _TIMED_OUT:
            # one slice a pass (at most jarmo.ai.SLICE actions: under 30 ms
            # on an RP2040), so the buttons and the LEDs stay live
            answer = self.player.step(app.now)
            if answer is not None:
                self.player = None          # our own Player (if any) leaves RAM
                if mode == _HINTING:
                    self._show(app, answer)
                else:
                    self._play(app, answer)
                return
        if self.limit and mode != _TIMED_OUT:
            left = V.ticks_diff(self.deadline, app.now)
            if left <= 0:
                self.drop()
                # the opponent's AI makes room (made again at its turn; it
                # starts every turn afresh anyway)
                app.opponent.drop()
                self._think(app, self._helper(app, self.timeout_level))
                self.mode = _TIMED_OUT
                app.msg = ("Time is up: the AI", "plays your turn")
                self.text(app)
            elif (left + 999) // 1000 != self.shown:
                self.text(app)
                app.dirty = True

    def text(self, app):
        """Play's lines; with the timer, the title on top ending with the
        seconds left."""
        if not self.limit:
            return Play.text(self, app)
        s = (max(0, V.ticks_diff(self.deadline, app.now)) + 999) // 1000
        self.shown = s
        clock = " %d s" % s
        Play.text(self, app, title_line(app, 21 - len(clock)) + clock)

    def draw(self, app, buf):
        Play.draw(self, app, buf)
        now = app.now
        if app.board.cursor >= 25:
            return                  # an icon fills the board
        if self.mode == _SHOWN and self.n:
            k = V.ticks_diff(now, self.t0) // _SHOW % (self.n + 1)
            if k < self.n:
                V.put(buf, self.points[k], V.HINT_COLOUR)
        if self.limit and self.mode != _TIMED_OUT:
            left = V.ticks_diff(self.deadline, now)
            if 0 < left <= _COUNTDOWN and left % 1000 > 300:
                for i in range(10, 10 + (left + 999) // 1000):
                    j = i * 3
                    if not (buf[j] or buf[j + 1] or buf[j + 2]):
                        V.put(buf, i, _DIM_RED)

    # ------------------------------------------------------------ thinking

    def _hint_player(self, app):
        """The opponent's AI against the AI; a greedy one otherwise."""
        o = app.opponent
        if o is not None and o.level >= 0 and app.opponent_ready():
            return o.engine()
        return self._helper(app, 1)

    def _helper(self, app, level):
        """A Player of our own, kept only while it thinks (RAM)."""
        from jarmo.ai import Player
        self.helper_level = level
        return Player(level, seed=app.seed + app.game.plies)

    def _think(self, app, player):
        self.player = player
        player.start(app.game, app.now)

    def _show(self, app, answer):
        pts = self.points
        n = 0
        for code in answer:
            kind = code & _KIND_BITS
            if kind == _DONE:           # nothing to light
                continue
            if kind == _MOVE or kind == _RECALL or kind == _FLIP or kind == _FLIP_PLACE:
                pts[n] = code >> _SOURCE & _POINT_BITS     # the piece
                n += 1
            if kind != _FLIP:
                pts[n] = code >> _TARGET & _POINT_BITS     # where it goes
                n += 1
        self.n = n
        self.t0 = app.now
        self.mode = _SHOWN
        said = [_SAY.split("|")[c & _KIND_BITS].format(NAMES[c >> _SOURCE & _POINT_BITS],
                                                    NAMES[c >> _TARGET & _POINT_BITS])
                for c in answer]
        if len(said) > 1:
            said[-1] = "then " + said[-1]
        said = "Hint: " + ", ".join(said) + "."
        if len(wrap(said, 21, 4)) > 3:
            said = said.replace("a piece ", "")     # a long turn: "place on b1", never cut
        app.msg = wrap(said, 21, 3)
        self.text(app)

    def _play(self, app, answer):
        """The timed-out turn: play the AI's actions as the player's picks would."""
        self.mode = _IDLE
        app.msg = ()
        g = app.game
        plies = g.plies
        # the turn's words begin by saying so: "South ran out of time. The AI ..."
        board = app.board
        side = board.events_side = app.turn_side()
        board.events[side] = [_subject(app, side) + " ran out of time. The AI played the turn."]
        board.page = -1
        board.page_t = app.now
        for code in answer:
            if g.plies != plies or g.result() is not None or app.game is not g:
                break
            self.human(app, code)
        if g.plies == plies and g.result() is None and app.game is g:
            # the answer left the turn open (cannot happen with a whole turn): think again
            self._think(app, self._helper(app, self.timeout_level))
            self.mode = _TIMED_OUT
