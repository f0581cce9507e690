"""A fault campaign of linked games: two whole Apps on a simulated wire.

Each game is played from a recorded seed by two boards (the App on its own
flash model, tests/app/cutflash.py, that a power cut can tear mid-write),
joined by tests/core/linkwire.py's wire, both players pressing buttons.
Faults come at random instants from the seed, by kind:

    clean   none
    cable   the cable pulled, 20 ms to 60 s at a time
    noise   random bytes into either board's receiver
    power   a power cut on a board, often tearing the write in progress;
            off for up to 5 s
    reset   a board restarted (its flash intact)
    leave   the last turn played with the cable out; the winner's player
            leaves the result at once, and its board may be reset or lose
            power before the cable is back
    tie     both boards with the same seed choose New game in the same
            millisecond with the same settings (then the cable and noise
            faults)
    mixed   all of these in one game
    match   a match of 2, 4 or 6 games under all of these, and a board's
            flash lost whole (settings, match and all) while the other
            board holds all of its game: it takes the match up again

A game passes when both boards end it with the same actions and the same
result (a match: every game's result, and its last game's actions). It
is *stuck* when, after the faults stop (the cable in, every board
powered), a board never ends it; *divergent* when they end it
differently (or the link says the games differ). No pytest imports: the
benchmark tools/bench_link.py runs it too.
"""

from jarmo.app import App
from jarmo.app_buttons import SELECT
from jarmo.game import RULE_SETS
from jarmo.rng import Rng
from jarmo.store_log import Store
from tests.app.cutflash import CutFlash, PowerCut
from tests.app.drive import menu_to, picks
from tests.core.linkwire import wire

KINDS = ("clean", "cable", "noise", "power", "reset", "leave", "tie", "mixed", "match")
STEP = 10               # ms a pass
GAME_MS = 900000        # the faults' phase at the longest (simulated)
SETTLE_MS = 60000       # then without faults, until both boards end the game


class Board:
    """One handheld: its flash, its App, its player's habits."""

    def __init__(self, name, end, seed, rng):
        self.name = name
        self.end = end
        self.seed = seed
        self.rng = rng
        self.flash = CutFlash(seed=rng.below(65536))
        self.offset = rng.below(1 << 20)    # its own clock
        self.app = None
        self.off_until = None   # powered off until then (ms), None: on
        self.final = None       # (actions, result) when its game ended here
        self.plan = []          # the actions of the turn its player is playing
        self.next_at = 0        # when its player acts next
        self.boots = 0
        self.leave_at_once = False
        self.boot(0)

    def boot(self, now):
        self.flash.reboot()
        self.app = App(store=Store(self.flash), seed=self.seed, line=self.end)
        self.off_until = None
        self.plan = []
        self.boots += 1
        self.tick(now)

    def clock(self, now):
        return (now + self.offset) & 0x1FFFFFFF

    def tick(self, now):
        if self.off_until is not None:
            return
        try:
            self.app.tick(self.clock(now))
        except PowerCut:
            self.power_off(now, 0)

    def press(self, button, now):
        if self.off_until is not None:
            return
        try:
            self.app.press(button, self.app.turn_side() if self.app.game is not None else 0)
            self.app.tick(self.clock(now))
        except PowerCut:
            self.power_off(now, 0)

    def power_off(self, now, ms):
        self.off_until = now + ms
        self.app = None

    def note_final(self):
        app = self.app
        if app is None or app.game is None or app.opp != 6:
            return
        r = app.game.result()
        m = app.match
        if r is not None and app.state in ("end", "result") and (m is None or m.over()):
            self.final = (tuple(app.game.history_codes(0)), (r.winner, r.points, r.reason),
                          () if m is None else tuple((x.winner, x.points, x.reason) for x in m.results))


class Campaign:
    def __init__(self, kind, seed):
        self.kind = kind
        self.seed = seed
        self.rng = Rng(seed)
        r = self.rng
        self.ea, self.eb = wire(late=True)
        same = kind == "tie"
        seed_a = r.below(65536)
        self.a = Board("a", self.ea, seed_a, Rng(r.below(1 << 30)))
        self.b = Board("b", self.eb, seed_a if same else r.below(65536), Rng(r.below(1 << 30)))
        if same:
            self.b.offset = self.a.offset       # the same millisecond on both
        self.now = 0
        self.next_fault = r.below(3000)
        self.plug_at = None     # the cable is out until then
        self.faults = True
        self.rules = RULE_SETS[r.below(len(RULE_SETS))] if kind != "tie" else "classic"
        self.games = (2, 4, 6)[r.below(3)] if kind == "match" else 1
        self.log = []

    # ------------------------------------------------------------ the wire

    def pull(self, ms):
        self.ea.cut = self.eb.cut = True
        t = self.now + ms
        self.plug_at = t if self.plug_at is None else max(self.plug_at, t)

    def plug(self):
        self.ea.cut = self.eb.cut = False
        self.plug_at = None

    # ------------------------------------------------------------ a game

    def start(self):
        """Both players set Versus: Link and the same rules; a proposes, b
        accepts (tie: both in the same millisecond, the same settings)."""
        r = self.rng
        side = "North" if r.below(2) else "South"
        for board in (self.a, self.b):
            self._settings(board, side)
        tie = self.kind == "tie"
        if tie:
            self.b.app.seed = self.a.app.seed
        for board in (self.a, self.b):
            menu_to(_Presser(self, board), "New")
        self.a.press(SELECT, self.now)
        if tie:
            self.b.press(SELECT, self.now)
        else:
            self.run(r.below(1500) + 10)
            self.b.press(SELECT, self.now)

    def _settings(self, board, side):
        from tests.app.drive import set_option
        p = _Presser(self, board)
        for item, value in (("Rules", self.rules), ("Versus", "Link"), ("Side", side),
                            ("Match", "%d games" % self.games if self.games > 1 else "1 game")):
            try:
                set_option(p, item, value)
            except AssertionError:
                if board.app is None or board.app.state != "menu":
                    return      # Link set: a board without a game took the other's at once
                raise

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.pass_()

    def pass_(self):
        self.now += STEP
        now = self.now
        self.ea.arrive()
        self.eb.arrive()
        if self.plug_at is not None and now >= self.plug_at:
            self.plug()
        for board in (self.a, self.b):
            if board.off_until is not None and now >= board.off_until:
                board.boot(now)
            board.tick(now)
            self.player(board)
            board.note_final()
        if self.faults:
            self.fault()

    def player(self, board):
        """The board's player: plays its turns an action at a time, leaves
        the result (at once, or after a while), takes notices away."""
        app = board.app
        now = self.now
        if app is None or now < board.next_at:
            return
        r = board.rng
        state = app.state
        if state == "play" and app.game is not None and app.opp == 6:
            if not board.plan:
                board.plan = self.plan_turn(app.game, r)
                if self.kind in ("leave", "mixed", "match") and _ends_with(app, board.plan) \
                        and (self.kind == "leave" or r.below(2)):
                    self.last_turn_unplugged(board)
            code = board.plan.pop(0)
            from jarmo.notation import action_text
            text = action_text(code)
            if text not in app.game.legal():
                board.plan = []
                return
            for c in picks(app, text):
                self._goto(board, c)
                board.press(SELECT, now)
                if board.app is not app:
                    return
            board.next_at = now + 100 + r.below(1500)
        elif state in ("end", "result"):
            if board.leave_at_once or r.below(100) < 3:
                board.press(SELECT, now)
                board.next_at = now + 50
        elif state == "notice":
            board.press(SELECT, now)
        elif state == "menu" and app.game is None and board.final is None:
            # no game here (the board restarted while it waited, or lost its
            # save): its player chooses New game against the link again
            if app.link is None:
                self._settings(board, "South")     # its settings were lost: Link again
                if board.app is not app or app.state != "menu":
                    return      # it took the other board's game
            menu_to(_Presser(self, board), "New")
            board.press(SELECT, now)
            board.next_at = now + 500 + r.below(2000)
        elif state == "menu" and app.game is not None and app.opp == 6:
            menu_to(_Presser(self, board), "Resume")
            board.press(SELECT, now)

    def _goto(self, board, c):
        from jarmo.app_buttons import NEXT
        for _ in range(40):
            app = board.app
            if app is None or app.board.cursor == c:
                return
            board.press(NEXT, self.now)

    @staticmethod
    def plan_turn(game, r):
        """A whole turn: the first legal action mostly, a random one at times."""
        plies = game.plies
        out = []
        while game.plies == plies and game.result() is None:
            legal = game.legal_codes()
            code = legal[r.below(len(legal))] if r.below(4) == 0 else legal[0]
            game.play_code(code)
            out.append(code)
        for _ in out:
            game.undo()
        return out

    def last_turn_unplugged(self, board):
        """The winner's last turn goes with the cable out: its player leaves
        the result at once, and its board may be reset or cut off."""
        r = self.rng
        self.pull(500 + r.below(20000))
        self.faults_done += 1
        board.leave_at_once = True
        k = r.below(3)
        if k:
            self.pending_cut = (board, k, self.now + 300 + r.below(3000))
        self.log.append("last turn unplugged on %s, then %s" % (
            board.name, ("leave", "reset", "power cut")[k]))

    # ------------------------------------------------------------ faults

    pending_cut = None

    next_fault = 0
    faults_done = 0

    def fault(self):
        r = self.rng
        now = self.now
        pc = self.pending_cut
        if pc is not None and now >= pc[2]:
            self.pending_cut = None
            self.cut(pc[0], pc[1] == 2)
        if now < self.next_fault or self.kind in ("clean", "leave"):
            return
        # the next fault at a random instant: noise often, the others every few seconds
        kind = self.kind
        if kind in ("mixed", "match"):
            kind = KINDS[1 + r.below(4)]
        elif kind == "tie":
            kind = ("cable", "noise")[r.below(2)]
        self.next_fault = now + (50 + r.below(1500) if kind == "noise" else 500 + r.below(8000))
        self.faults_done += 1
        if kind == "cable":
            k = r.below(4)
            self.pull((20, 200, 1500, 10000)[k] + r.below((180, 1300, 8500, 50000)[k]))
        elif kind == "noise":
            end = self.ea if r.below(2) else self.eb
            end.inq.extend(bytes(r.below(256) for _ in range(1 + r.below(40))))
        else:
            board = self.a if r.below(2) else self.b
            if self.kind == "match" and r.below(3) == 0 and self.wipe(board):
                return
            self.cut(board, kind == "power")

    def wipe(self, board):
        """The board's flash lost whole, and the board restarted: only while
        the other board has saved every action of its game (else nothing
        could give them back: two faults, on both boards, at once). True if
        it was done."""
        app = board.app
        other = (self.b if board is self.a else self.a).app
        if app is None or app.game is None or other is None or other.game is None:
            return False
        number = app.match.number if app.match is not None else 0
        if (other.link_tag != app.link_tag or other.saved < app.game.actions
                or number != (other.match.number if other.match is not None else 0)):
            return False
        self.log.append("%s: flash lost at %d (game %s)" % (
            board.name, self.now, app.match.number if app.match is not None else "-"))
        board.flash = CutFlash(seed=board.rng.below(65536))
        board.power_off(self.now, 0)
        return True

    def cut(self, board, power):
        """A power cut (the next flash write torn, or at a pass's end) or a
        reset; the board comes back after a while."""
        r = self.rng
        if board.off_until is not None:
            return
        if power and r.below(2):
            board.flash.cut_after(r.below(3))   # tears one of its next writes
            self.log.append("%s: power cut in a write at %d" % (board.name, self.now))
            return
        self.log.append("%s: %s at %d" % (board.name, "power cut" if power else "reset", self.now))
        board.power_off(self.now, r.below(5000) if power else 0)

    # ------------------------------------------------------------ verdict

    def play(self):
        self.start()
        boards = (self.a, self.b)
        while self.now < GAME_MS * self.games and not all(b.final for b in boards):
            self.pass_()
        # the faults stop: the cable in, power on, a torn write no longer due
        self.faults = False
        self.plug()
        for board in boards:
            board.flash.cut_after(-1)
        t = self.now + SETTLE_MS
        while self.now < t and not all(b.final for b in boards):
            self.pass_()
        return self.verdict()

    def verdict(self):
        a, b = self.a, self.b
        for board in (a, b):
            link = board.app.link if board.app is not None else None
            if link is not None and link.diverged:
                return "divergent"
        if not a.final or not b.final:
            return "stuck"
        if a.final != b.final:
            return "divergent"
        return "ok"

    def describe(self):
        out = ["kind %s seed %d rules %s games %d: %s" % (self.kind, self.seed, self.rules, self.games,
                                                          self.verdict())]
        for board in (self.a, self.b):
            app = board.app
            out.append("  %s: boots %d, state %s, final %s, text %r" % (
                board.name, board.boots, app and app.state,
                board.final and len(board.final[0]), app and app.text))
        out.extend("  " + x for x in self.log[-8:])
        return "\n".join(out)


class _Presser:
    # the drive helpers' clock (press, app) for a board of the campaign
    def __init__(self, campaign, board):
        self.c = campaign
        self.board = board

    @property
    def app(self):
        return self.board.app

    def press(self, button, player=0):
        self.board.press(button, self.c.now)


def _ends_with(app, plan):
    g = app.game
    n = 0
    for code in plan:
        g.play_code(code)
        n += 1
    over = g.result() is not None
    for _ in range(n):
        g.undo()
    return over


def campaign(kinds, per_kind, first_seed=1):
    """Play per_kind games of each kind; {kind: (games, failures, [descriptions])}."""
    out = {}
    for k in range(len(kinds)):
        kind = kinds[k]
        games = fails = 0
        notes = []
        for i in range(per_kind):
            seed = first_seed + 1000 * k + i
            c = Campaign(kind, seed)
            v = c.play()
            games += 1
            if v != "ok":
                fails += 1
                notes.append(c.describe())
        out[kind] = (games, fails, notes)
    return out
