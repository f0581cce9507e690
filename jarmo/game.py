# Game: one game of Jarmo under one rule set and its expansions - every rule of RULES.md.
#
# State is a handful of bytearrays and small ints. Pieces are one byte each,
# an action is a small int, and every played action leaves one small int on
# the undo log that holds all that is needed to take it back, so undo is
# exact and costs 4 bytes a ply: jarmo/codes.py is the written contract of
# those bits. The app and the AI talk to a Game in ints (legal_codes,
# play_code, piece_at, under_at); text (legal, play, history, piece) is the
# edge for people and save files, through jarmo.notation's one parser.

from jarmo import rulesets as R
from jarmo.board import HOME_ROW, MARKERS, ROW, SIDE_NAMES, neighbours, point
from jarmo.notation import IllegalMove, action_text, parse_action, piece_text
from jarmo.rulesets import RULE_SETS  # noqa: F401  (jarmo.game.RULE_SETS: the names, in order)

try:
    from micropython import const
except ImportError:  # CPython: const is only a hint to the MicroPython compiler
    def const(value):
        return value

# Private mirrors of jarmo.codes: MicroPython inlines a const() only inside
# the module that declares it, and only a _private one costs no RAM (this is
# the hot path of the AI's search). tests/test_core_imports.py checks each
# against the contract.
_PRESENT = const(1)
_NORTH = const(2)
_GUARD = const(4)
_MARK = const(8)
_GOLD = const(16)

_MOVE = const(0)
_RECALL = const(1)
_PLACE = const(2)
_DONE = const(3)
_FLIP = const(4)
_FLIP_PLACE = const(5)
_REDEPLOY = const(6)

_START = const(0)
_PLACED = const(1)
_AFTER = const(2)
_AFTER_R = const(3)

_TO_POOL = const(0)
_TO_OUT = const(1)
_TO_HELD = const(2)
_TO_HOSTAGE = const(3)

_ACTION_BITS = const(0x1FFF)
_KIND_BITS = const(7)
_SOURCE = const(3)
_TARGET = const(8)
_POINT_BITS = const(31)
_SIDE_BIT = const(13)
_STAGE = const(14)
_CAPTURED = const(16)
_MOVER = const(21)
_WHERE = const(24)
_BROUGHT = const(26)
_FLAGS = const(2)

# The names a game is made of, each defined once (the app, the save formats
# and the tools import them): the rule sets are jarmo/rulesets.py's rows.
EXPANSIONS = ("heroes", "challenges")

# Why a game ended (Result.reason).
CAMP = "camp"              # all pieces on the enemy camp
WIPEOUT = "wipeout"        # a side has no piece on the board or in hand
REPETITION = "repetition"  # both sides moved back and forth
STUCK = "stuck"            # the side to act has no legal action
LIMIT = "limit"            # the ply limit was reached
REASONS = (CAMP, WIPEOUT, REPETITION, STUCK, LIMIT)

_BUFFER_SIZE = const(96)   # more than the most actions any position offers

# What Game.turn_end finds at the end of a turn (0: nothing), in RULES.md
# section 2's order; _end_check makes the Result, the search's fast path
# only needs to know that there is none.
_MOVER_WIPES = const(1)      # the other side has no piece left: the mover wins
_OTHER_WIPES = const(2)      # the mover has no piece left: the other side wins
_MOVER_IN_CAMP = const(3)    # the mover's pieces all stand on its enemy camp
_OTHER_IN_CAMP = const(4)    # scored: the other side's do (a tally)
_REPEATED = const(5)         # both sides' last four moves went back and forth

_NEIGHBOUR_CACHE = {}


def _neighbour_tables(forward):
    """Per side, the neighbour table to move along (forward: no move goes
    back, jarmo.rulesets.FORWARD); shared by all games."""
    tables = _NEIGHBOUR_CACHE.get(forward)
    if tables is None:
        if forward:
            tables = (neighbours(True, 0), neighbours(True, 1))
        else:
            plain = neighbours()
            tables = (plain, plain)
        _NEIGHBOUR_CACHE[forward] = tables
    return tables


def prepare_tables(rules, side=None):
    """Build the neighbour tables of a rule set now rather than in its first
    Game() (about 45 ms on an RP2040: the device does it after start-up).
    side 0, then 1: a side's table a call (a forward rule set's two took 59
    ms in one step on the emulated Pico, more than a main-loop pass may)."""
    forward = bool(R.row(rules)[R.FEATURES] & R.FORWARD)
    if side is None or not forward:
        _neighbour_tables(forward)
    elif forward not in _NEIGHBOUR_CACHE:
        if side == 0 or not _HALF_TABLES:
            _HALF_TABLES[:] = [neighbours(True, 0)]
        else:
            _NEIGHBOUR_CACHE[forward] = (_HALF_TABLES.pop(), neighbours(True, 1))


_HALF_TABLES = []   # a forward table's side 0, until prepare_tables builds side 1


def prepare_tables_step(rules):
    """One step of prepare_tables(rules): a forward rule set's side a call
    (the menu's passes build those of the game it would start); True once
    they are built."""
    forward = bool(R.row(rules)[R.FEATURES] & R.FORWARD)
    if forward in _NEIGHBOUR_CACHE:
        return True
    prepare_tables(rules, 1 if forward and _HALF_TABLES else 0)
    return False


# How a game ended: winner ("south", "north" or None for a draw), points
# ((south, north), or None where the rule set has no points) and reason (one
# of REASONS).
class Result:
    def __init__(self, winner, points, reason):
        self.winner = winner
        self.points = points
        self.reason = reason

    def __eq__(self, other):
        return (isinstance(other, Result) and self.winner == other.winner
                and self.points == other.points and self.reason == other.reason)

    def __repr__(self):
        return "Result(%r, %r, %r)" % (self.winner, self.points, self.reason)


def frozen(path):
    """True when the module whose __file__ is path was frozen into the
    firmware (python3 run.py firmware).  Its __file__ is then its path in
    the frozen set ("jarmo/ai.py") and no such file exists; a module loaded
    from a file names it (on CircuitPython "jarmo/ai.mpy" or "jarmo/ai.py",
    relative to "/", a PC an absolute path).  None (no __file__): False.
    Here, in a module that jarmo.ai and jarmo.book both import, so that
    neither imports the other for it (the book is loaded by the AI)."""
    if not path:
        return False
    import os
    try:
        os.stat(path)
    except OSError:
        return True
    return False


def side_index(side):
    if side == "south":
        return 0
    if side == "north":
        return 1
    raise ValueError("side must be 'south' or 'north', not %r" % (side,))


def check_mix(rules, expansions):
    """ValueError naming what is wrong with a rule set and its expansions:
    the one statement of which mixes exist (Game, the simulator's and the
    self-play's options use it)."""
    row = R.row(rules)                  # ValueError for an unknown rule set
    for name in expansions:
        if name not in EXPANSIONS:
            raise ValueError("unknown expansion %r: expected %s"
                             % (name, " or ".join(EXPANSIONS)))
        if expansions.count(name) > 1:
            raise ValueError("expansion %r given twice" % (name,))
    if row[R.FEATURES] & R.NO_EXPANSIONS and expansions:
        raise ValueError("the %s rule set takes no expansions" % rules)


# One game of Jarmo under one rule set and its expansions.
class Game:
    def __init__(self, rules="classic", expansions=(), ply_limit=None):
        expansions = tuple(expansions)
        check_mix(rules, expansions)
        row = R.row(rules)
        if ply_limit is not None and (type(ply_limit) is not int or ply_limit < 1):
            raise ValueError("ply_limit must be a positive int or None")
        self.rules = rules
        self.expansions = tuple(e for e in EXPANSIONS if e in expansions)
        self.ply_limit = ply_limit
        # The rule set's row (jarmo/rulesets.py): its features as flags, read
        # where the rules differ; the AI reads the row's tuning.
        self.row = row
        f = row[R.FEATURES]
        self.scored = bool(f & R.SCORED)
        self.marks = bool(f & R.MARKS)
        self.ban = bool(f & R.BAN)
        self._ties_stand = bool(f & R.TIES_STAND)
        self.camp_safe = bool(f & R.CAMP_SAFE)
        self.guards_stay = bool(f & R.GUARDS_STAY)
        self.forward = bool(f & R.FORWARD)
        self.taken_held = bool(f & R.TAKEN_HELD)
        self.one_action = bool(f & R.ONE_ACTION)
        self.heroes = "heroes" in expansions
        self._challenges = "challenges" in expansions
        self.neighbours = _neighbour_tables(self.forward)
        self.marker_points = (point(MARKERS[0]), point(MARKERS[1]))
        self._buffer = [0] * _BUFFER_SIZE
        self._setup()

    def _setup(self):
        top = bytearray(25)
        for f in range(5):
            top[f] = _PRESENT
            top[20 + f] = _PRESENT | _NORTH
        if self.heroes:
            # Each side's right-hand corner piece is its Golden Soldier, guard up.
            top[4] |= _GOLD | _GUARD
            top[20] |= _GOLD | _GUARD
        self.top = top
        self.under = bytearray(25)     # the hostage under a stack, else 0
        # Per side: held, captured (recoverable), out for good, and whether
        # the Golden Soldier is among the held / captured pieces.
        self.held_count = bytearray(2)
        self.pool = bytearray(2)
        self.out_count = bytearray(2)
        self.held_gold = bytearray(2)
        self.pool_gold = bytearray(2)
        self.markers_on = self._challenges
        self.mover = 0
        self.stage = _START
        self.ply_count = 0
        self.undo_log = []
        self.outcome = None

    # ----------------------------------------------------------- queries

    @property
    def turn(self):
        """The side that acts now: "south" or "north"."""
        return SIDE_NAMES[self.mover]

    @property
    def plies(self):
        """Completed turns so far."""
        return self.ply_count

    def piece(self, name):
        """None, or the piece on a point as "S"/"N" + face; "top/bottom" for a stack."""
        p = self._point(name)
        top = self.top[p]
        if not top:
            return None
        under = self.under[p]
        if under:
            return piece_text(top) + "/" + piece_text(under)
        return piece_text(top)

    def held(self, side):
        return self.held_count[side_index(side)]

    def captured(self, side):
        return self.pool[side_index(side)]

    def out(self, side):
        return self.out_count[side_index(side)]

    def on_board(self, side):
        """Pieces of a side on the board (hostages included)."""
        s = side_index(side)
        return 5 - self.held_count[s] - self.pool[s] - self.out_count[s]

    def markers(self):
        """Names of the remote-camp markers still in play."""
        if self.markers_on:
            return MARKERS
        return ()

    def open_turn(self):
        """True when the mover has moved and may still place, redeploy or say done."""
        return self.stage >= _AFTER and self.outcome is None

    def result(self):
        """None while the game runs, else a Result."""
        return self.outcome

    def piece_at(self, p):
        """The piece byte (jarmo.codes flags) on point index p (0..24); 0 if empty.

        On a stack it is the top piece; under_at(p) is the hostage below."""
        if not 0 <= p < 25:
            raise ValueError("a point index is 0..24, not %r" % (p,))
        return self.top[p]

    def under_at(self, p):
        """The piece byte of the hostage under the stack on point p; 0 if none."""
        if not 0 <= p < 25:
            raise ValueError("a point index is 0..24, not %r" % (p,))
        return self.under[p]

    def legal_codes(self):
        """Every legal action now, as a new list of action codes, each once."""
        buf = self._buffer
        return buf[:self.gen_into(buf)]

    def legal(self):
        """Every legal action now, as notation strings, each once (the order
        of legal_codes())."""
        buf = self._buffer
        n = self.gen_into(buf)
        return [action_text(buf[i]) for i in range(n)]

    def history(self):
        """The actions played so far, in order, as notation strings."""
        return [action_text(entry & _ACTION_BITS) for entry in self.undo_log]

    def history_codes(self, start=0):
        """The action codes played so far from the start-th on, in order."""
        log = self.undo_log
        return [log[i] & _ACTION_BITS for i in range(start, len(log))]

    @property
    def actions(self):
        """How many actions have been played."""
        return len(self.undo_log)

    # ----------------------------------------------------------- actions

    def play(self, text):
        """Play one action given in notation: play_code(parse_action(text)),
        but a refusal quotes the text as given. IllegalMove says why not."""
        code = parse_action(text)
        if not self._is_legal(code):
            self._refuse(code, text)
        self.do_code(code)

    def play_code(self, code):
        """Play one action code; IllegalMove says why not (the game is unchanged)."""
        if not self._is_legal(code):
            self._refuse(code, None)
        self.do_code(code)

    def _refuse(self, code, text):
        """Raise IllegalMove for a code that is not legal now (text: as given)."""
        if text is None:
            if (type(code) is not int or not 0 <= code <= _ACTION_BITS
                    or code & _KIND_BITS > _REDEPLOY or (code >> _SOURCE & _POINT_BITS) > 24
                    or (code >> _TARGET) > 24
                    or parse_action(action_text(code)) != code):
                raise IllegalMove("%r is not an action code" % (code,))
            text = action_text(code)
        from jarmo.explain import why_illegal
        raise IllegalMove(why_illegal(self, code, text))

    def undo(self):
        """Take back the last action."""
        if not self.undo_log:
            raise IllegalMove("nothing to undo")
        self.undo_code()

    def _is_legal(self, code):
        buf = self._buffer
        n = self.gen_into(buf)
        for i in range(n):
            if buf[i] == code:
                return True
        return False

    def _point(self, name):
        p = point(name.strip().lower()) if isinstance(name, str) else -1
        if p < 0:
            raise ValueError("%r is not a point: expected a1..e5" % (name,))
        return p

    # ----------------------------------------------------- move generation

    def gen_into(self, buf, first_only=False):
        """Write the legal action codes into buf; return how many.

        With first_only it stops at the first one found (a stuck test).
        """
        if self.outcome is not None:
            return 0
        side = self.mover
        stage = self.stage
        top = self.top
        own_row = HOME_ROW[side]
        enemy_row = HOME_ROW[1 - side]
        n = 0
        if stage >= _AFTER:
            if stage == _AFTER_R:
                for b in range(own_row * 5, own_row * 5 + 5):
                    if not top[b]:
                        buf[n] = _REDEPLOY | b << _TARGET
                        n += 1
            if not self.one_action and self._can_place(side):
                n = self._gen_camp(buf, n, _PLACE, 0)
            buf[n] = _DONE
            return n + 1
        sidebit = side << 1
        nbrs = self.neighbours[side]
        camp_safe = self.camp_safe
        banned = self.repeat_move(side) if self.ban else -1
        row = ROW                 # (globals cost a look-up each time on MicroPython)
        f = -1
        for p in top:             # (iterating over the bytes is cheaper than indexing)
            f += 1
            if not p or (p & _NORTH) != sidebit or row[f] == enemy_row:
                continue   # empty, the enemy's, or frozen on the enemy camp
            for t in nbrs[f]:
                q = top[t]
                if q and ((q & _NORTH) == sidebit or (camp_safe and row[t] == own_row)):
                    continue
                code = f << _SOURCE | t << _TARGET
                if code != banned:
                    buf[n] = code
                    n += 1
            if n and first_only:
                return n
        if self._can_place(side) and (stage == _START or not self.one_action):
            n = self._gen_camp(buf, n, _PLACE, 0)
        if stage == _START and self.pool[side]:
            if self.marks:
                n = self._gen_sources(buf, n, _RECALL, _MARK, enemy_row, True)
            elif self.guards_stay:
                n = self._gen_sources(buf, n, _FLIP, _GUARD, enemy_row, False)
                if self._room(side):
                    n = self._gen_sources(buf, n, _FLIP_PLACE, _GUARD, enemy_row, True)
        return n

    def _gen_camp(self, buf, n, kind, a):
        """Actions of one kind for every empty point of the mover's camp."""
        top = self.top
        first = HOME_ROW[self.mover] * 5
        for b in range(first, first + 5):
            if not top[b]:
                buf[n] = kind | a << _SOURCE | b << _TARGET
                n += 1
        return n

    def _gen_sources(self, buf, n, kind, flag, enemy_row, to_camp):
        """Recalls or flips: one per own piece with `flag` on the enemy camp."""
        top = self.top
        sidebit = self.mover << 1
        for a in range(enemy_row * 5, enemy_row * 5 + 5):
            p = top[a]
            if p and (p & _NORTH) == sidebit and p & flag:
                if to_camp:
                    n = self._gen_camp(buf, n, kind, a)
                else:
                    buf[n] = kind | a << _SOURCE
                    n += 1
        return n

    def _room(self, side):
        """An empty point on the side's camp and fewer than 5 pieces on the board."""
        if self.held_count[side] + self.pool[side] + self.out_count[side] == 0:
            return False
        top = self.top
        first = HOME_ROW[side] * 5
        for b in range(first, first + 5):
            if not top[b]:
                return True
        return False

    def _can_place(self, side):
        return self.held_count[side] > 0 and self._room(side)

    def repeat_move(self, side):
        """The move x-y if the side's own last four moves were x-y, y-x, x-y, y-x."""
        moves = 0
        last = second = 0
        log = self.undo_log
        i = len(log) - 1
        while i >= 0 and moves < 4:
            entry = log[i]
            i -= 1
            if (entry >> _SIDE_BIT) & 1 != side:
                continue
            kind = entry & _KIND_BITS
            if kind == _DONE:
                continue
            if kind != _MOVE:
                return -1          # a recall, placement, flip or redeploy breaks it
            code = entry & _ACTION_BITS
            if moves == 0:
                last = code
            elif moves == 1:
                second = code
                if second != _reverse(last):
                    return -1
            elif code != (last if moves == 2 else second):
                return -1
            moves += 1
        return second if moves == 4 else -1

    # ------------------------------------------------------- making moves

    def do_code(self, code):
        """Apply a legal action code (unchecked) and settle the turn."""
        side = self.mover
        kind = code & _KIND_BITS
        a = (code >> _SOURCE) & _POINT_BITS
        b = code >> _TARGET
        entry = code | side << _SIDE_BIT | self.stage << _STAGE
        top = self.top
        ends_turn = True
        if kind == _MOVE:
            # The AI's hot path, written out: a quiet move (nothing taken, no
            # hostage left behind, not into the enemy camp) only moves the piece.
            p = top[a]
            if top[b] or self.under[a] or (b < 5 if side else b >= 20):   # (b on the enemy camp)
                entry |= self.move_piece(side, a, b)
            else:
                entry |= ((p >> _FLAGS) & 7) << _MOVER
                top[a] = 0
                top[b] = p
            if self.markers_on and self._redeploy_possible(side):
                self.stage = _AFTER_R
                ends_turn = False
            elif self.held_count[side] and not self.one_action and self._room(side):
                self.stage = _AFTER
                ends_turn = False
        elif kind == _PLACE:
            entry |= self._bring_back(self.held_count, self.held_gold, side, b) << _BROUGHT
            if self.stage >= _AFTER:
                ends_turn = not self._after_placing(side)
            elif not self.one_action:
                self.stage = _PLACED
                ends_turn = False
        elif kind == _DONE:
            pass
        elif kind == _RECALL:
            top[a] &= ~_MARK
            self.pool[side] -= 1
            top[b] = _PRESENT | side << 1
        elif kind == _FLIP:
            top[a] &= ~_GUARD
            entry |= self._recover(side) << _BROUGHT
        elif kind == _FLIP_PLACE:
            top[a] &= ~_GUARD
            entry |= self._bring_back(self.pool, self.pool_gold, side, b) << _BROUGHT
        else:  # _REDEPLOY
            entry |= self._bring_back(self.pool, self.pool_gold, side, b) << _BROUGHT
            self.markers_on = False
            ends_turn = not self._after_placing(side)
        self.undo_log.append(entry)
        if ends_turn:
            # The turn passes (_end_turn written out: this runs after every
            # turn of the AI's search).
            self.ply_count += 1
            self.stage = _START
            other = 1 - side
            self.mover = other
            result = self._end_check(side)
            if result is None and not self.can_move(other) and not self.gen_into(self._buffer, True):
                result = self._stuck_result()
            if result is not None:
                self.outcome = result
        elif not self.gen_into(self._buffer, True):
            self.outcome = self._stuck_result()

    def end_quiet_turn(self, entry):
        """End the turn of a quiet move already made with move_piece (entry:
        its undo-log entry) as do_code would, but without _end_check: the
        search's fast path calls it where it has ruled out every result
        (tests/test_fast_path.py: the search plays the same with and
        without it).  undo_code takes it back."""
        self.undo_log.append(entry)
        self.ply_count += 1
        self.stage = _START
        self.mover = 1 - (entry >> _SIDE_BIT & 1)

    def move_piece(self, side, a, b):
        """Move the piece on a to b; return the undo fields of the move."""
        top = self.top
        under = self.under
        p = top[a]
        q = top[b]
        fields = q << _CAPTURED | ((p >> _FLAGS) & 7) << _MOVER
        u = under[a]
        if u:
            top[a] = u        # a hostage left behind is now the top piece
            under[a] = 0
        else:
            top[a] = 0
        if q:
            if self.heroes and q & _GOLD and q & _GUARD and not under[b]:
                under[b] = q & ~_GUARD   # the Golden Soldier becomes a hostage
                fields |= _TO_HOSTAGE << _WHERE
            else:
                fields |= self._capture(q) << _WHERE
            enemy_row = HOME_ROW[1 - side]
            if self.marks:
                p |= _MARK
            elif not p & (_GUARD | _GOLD) and ROW[b] != enemy_row:
                p |= _GUARD   # promotion: captured outside the enemy's own camp
        if ROW[b] == HOME_ROW[1 - side] and p & _GUARD and not self.guards_stay:
            p &= ~_GUARD      # a guard entering the enemy camp turns archer ...
            fields |= self._recover(side) << _BROUGHT   # ... and recovers a piece
        top[b] = p
        return fields

    def _capture(self, q):
        """Take the captured piece q off the board; return where it went."""
        owner = (q >> 1) & 1
        gold = q & _GOLD
        if gold and not q & _GUARD:
            where = _TO_OUT           # a Golden Soldier captured as an archer
        elif self.taken_held:
            where = _TO_HELD if q & _GUARD else _TO_OUT
        else:
            where = _TO_POOL
        if where == _TO_POOL:
            self.pool[owner] += 1
            if gold:
                self.pool_gold[owner] = 1
        elif where == _TO_HELD:
            self.held_count[owner] += 1
            if gold:
                self.held_gold[owner] = 1
        else:
            self.out_count[owner] += 1
        return where

    def _recover(self, side):
        """Move one captured piece to the hand; 0 if none, 1 ordinary, 2 golden."""
        pool = self.pool
        if not pool[side]:
            return 0
        pool[side] -= 1
        self.held_count[side] += 1
        if pool[side] < self.pool_gold[side]:   # only the Golden Soldier was left
            self.pool_gold[side] = 0
            self.held_gold[side] = 1
            return 2
        return 1

    def _bring_back(self, count, gold, side, b):
        """Put a held (count = held_count) or captured (pool) piece on b, archer
        face up, ordinary pieces before the Golden Soldier; 1 ordinary, 2 golden."""
        count[side] -= 1
        golden = count[side] < gold[side]
        if golden:
            gold[side] = 0
        self.top[b] = _PRESENT | side << 1 | (_GOLD if golden else 0)
        return 2 if golden else 1

    def _after_placing(self, side):
        """After a placement or redeploy in an open turn: True if it stays open.

        An earned redeploy stays on offer for the rest of the turn (RULES.md 8
        "in that turn"; docs/RULES-DECISIONS.md 3)."""
        if self.stage == _AFTER_R and self._redeploy_possible(side):
            return True
        if not self.one_action and self._can_place(side):
            self.stage = _AFTER
            return True
        return False

    def _redeploy_possible(self, side):
        if not self.markers_on or not self.pool[side] or not self._room(side):
            return False
        top = self.top
        sidebit = side << 1
        for m in self.marker_points:
            if not top[m] or (top[m] & _NORTH) != sidebit:
                return False
        return True

    # ------------------------------------------------------------- undo

    def undo_code(self):
        entry = self.undo_log.pop()
        side = (entry >> _SIDE_BIT) & 1
        if self.mover != side:
            self.ply_count -= 1      # the action had ended the turn
            self.mover = side
        self.stage = (entry >> _STAGE) & 3
        self.outcome = None
        kind = entry & _KIND_BITS
        a = (entry >> _SOURCE) & _POINT_BITS
        b = (entry >> _TARGET) & _POINT_BITS
        top = self.top
        if kind == _MOVE:
            # a capture, a recovery, a hostage left behind
            if entry >> _WHERE or (entry >> _CAPTURED) & _POINT_BITS or top[a]:
                self.unmove_piece(side, a, b, entry)
            else:                       # a quiet move (the AI's hot path)
                top[a] = _PRESENT | side << 1 | ((entry >> _MOVER) & 7) << _FLAGS
                top[b] = 0
            return
        which = (entry >> _BROUGHT) & 3
        if kind == _PLACE:
            self.held_count[side] += 1
            self.held_gold[side] |= which >> 1
            top[b] = 0
        elif kind == _RECALL:
            top[a] |= _MARK
            self.pool[side] += 1
            top[b] = 0
        elif kind == _FLIP:
            top[a] |= _GUARD
            self._unrecover(side, which)
        elif kind == _FLIP_PLACE or kind == _REDEPLOY:
            if kind == _FLIP_PLACE:
                top[a] |= _GUARD
            else:
                self.markers_on = True
            self.pool[side] += 1
            self.pool_gold[side] |= which >> 1
            top[b] = 0

    def unmove_piece(self, side, a, b, entry):
        top = self.top
        under = self.under
        q = (entry >> _CAPTURED) & _POINT_BITS
        if top[a]:                 # the mover had stood on a stack
            under[a] = top[a]
        top[a] = _PRESENT | side << 1 | ((entry >> _MOVER) & 7) << _FLAGS
        top[b] = q
        if q:
            where = (entry >> _WHERE) & 3
            owner = 1 - side
            gold = 1 if q & _GOLD else 0
            if where == _TO_HOSTAGE:
                under[b] = 0
            elif where == _TO_POOL:
                self.pool[owner] -= 1
                if gold:
                    self.pool_gold[owner] = 0
            elif where == _TO_HELD:
                self.held_count[owner] -= 1
                if gold:
                    self.held_gold[owner] = 0
            else:
                self.out_count[owner] -= 1
        if entry >> _BROUGHT:
            self._unrecover(side, (entry >> _BROUGHT) & 3)

    def _unrecover(self, side, which):
        if which:
            self.held_count[side] -= 1
            self.pool[side] += 1
            if which == 2:
                self.held_gold[side] = 0
                self.pool_gold[side] = 1

    # ------------------------------------------------------- end of game

    def can_move(self, side):
        """True if the side has a legal move now (a quick test at the start of
        its turn, for the stuck check: it runs after every turn of the AI's
        search).  Scans from the side's home row outwards, where its pieces
        usually are; False says only "no move", not "no action"."""
        top = self.top
        nbrs = self.neighbours[side]
        sidebit = side << 1
        own_row = HOME_ROW[side]
        enemy_row = HOME_ROW[1 - side]
        camp_safe = self.camp_safe
        ban = self.ban
        row = ROW
        found = -1                # with the ban: the first move found (it may be banned)
        if side:
            f, stop, step = 24, -1, -1
        else:
            f, stop, step = 0, 25, 1
        while f != stop:
            p = top[f]
            if p and (p & _NORTH) == sidebit and row[f] != enemy_row:
                for t in nbrs[f]:
                    q = top[t]
                    if q and ((q & _NORTH) == sidebit or (camp_safe and row[t] == own_row)):
                        continue
                    if not ban or found >= 0:
                        return True   # (two moves: the back-and-forth ban forbids one at most)
                    found = f << _SOURCE | t << _TARGET
            f += step
        return found >= 0 and found != self.repeat_move(side)

    def _end_check(self, mover):
        """RULES.md section 2 order: wipe-out, camp, repetition (turn_end),
        then the ply limit; None, or the Result."""
        end = self.turn_end(mover, self.undo_log[-1], 1)
        if end:
            if end == _MOVER_WIPES:
                return self._win(mover, WIPEOUT)
            if end == _OTHER_WIPES:
                return self._win(1 - mover, WIPEOUT)
            if end == _MOVER_IN_CAMP:
                return self._tally(CAMP) if self.scored else self._win(mover, CAMP)
            return self._tally(CAMP if end == _OTHER_IN_CAMP else REPETITION)
        limit = self.ply_limit
        if limit is not None and self.ply_count >= limit:
            return self._tally(LIMIT)
        return None

    def turn_end(self, mover, last, logged):
        """What ends the game at the end of mover's turn before the ply limit
        (RULES.md section 2 order: wipe-out, camp, repetition): 0 nothing,
        else _MOVER_WIPES .. _REPEATED.  last: the undo-log entry of the
        turn's last action; logged: 1 if it is the log's last entry
        (_end_check, from do_code), 0 for a move made with move_piece and not
        logged yet (the search's fast path, which ends the turn with
        end_quiet_turn only where this finds nothing).

        This runs at the end of every turn of the AI's search: the last
        action rules out most of it before the slower tests run (same
        results: tests/core/test_ai.py compares it with the full tests)."""
        other = 1 - mover
        ban = self.ban
        moved = not last & _KIND_BITS     # the turn ended with a move (_MOVE)
        took = last >> _CAPTURED & _POINT_BITS
        # Pieces leave the board and the hand only by captures: a turn that
        # ended with a move that took nothing made its only move (the turn
        # ends with the move or after it) and captured nothing.
        if not ban and (not moved or took):
            pool = self.pool
            out = self.out_count
            if pool[other] + out[other] == 5:   # nothing on board or held
                return _MOVER_WIPES
            if pool[mover] + out[mover] == 5:
                return _OTHER_WIPES
        # Legendary and Jasyr: a side wins at the end of *its* turn only.  A
        # move that ends outside the enemy camp leaves a piece outside.
        if (not moved or ROW[last >> _TARGET & _POINT_BITS] == HOME_ROW[other]) and self.all_in_camp(mover):
            return _MOVER_IN_CAMP
        # The other side was not all in camp after its own turn (the game would
        # have ended), and its pieces change since only by a capture: a last
        # action that is a move taking nothing was the turn's only move.
        if self.scored and (not moved or took) and self.all_in_camp(other):
            return _OTHER_IN_CAMP
        log = self.undo_log
        if not ban and len(log) + 1 - logged >= 8:     # a repetition takes 4 moves a side
            # Quick test: after three single-move turns (side bit 13), the
            # mover's last move must go back along its previous one.
            e2 = log[-1 - logged]
            e3 = log[-2 - logged]
            if ((last | e2 | e3) & _KIND_BITS or not (last ^ e2) >> _SIDE_BIT & 1
                    or (last ^ e3) >> _SIDE_BIT & 1
                    or e3 & _ACTION_BITS == _reverse(last & _ACTION_BITS)):
                if not logged:
                    log.append(last)
                found = self.repeat_move(0) >= 0 and self.repeat_move(1) >= 0
                if not logged:
                    log.pop()
                if found:
                    return _REPEATED
        return 0

    def _stuck_result(self):
        return self._tally(STUCK)

    def all_in_camp(self, side):
        """All the side's pieces on the board (at least one) stand on its enemy camp.

        The same as "its _score() points are twice its pieces in camp, and
        those are not none", but it stops at the first own piece (or hostage)
        outside the camp: this runs after every turn of the AI's search."""
        top = self.top
        under = self.under
        sidebit = side << 1
        if side:                          # North's enemy camp is row 1: points 0..4
            p, stop, step, camp = 24, 4, -1, 0
        else:
            p, stop, step, camp = 0, 20, 1, 20
        while p != stop:                  # from the side's home row, where its pieces start
            q = top[p]
            if q:                         # (a hostage is only ever under a piece)
                if (q & _NORTH) == sidebit:
                    return False
                q = under[p]
                if q and (q & _NORTH) == sidebit:
                    return False
            p += step
        for p in range(camp, camp + 5):
            q = top[p]
            if q:
                if (q & _NORTH) == sidebit:
                    return True
                q = under[p]
                if q and (q & _NORTH) == sidebit:
                    return True
        return False

    def _score(self, side):
        """(points, pieces on the enemy camp) of a side: 2 a piece there, 1 elsewhere."""
        enemy_row = HOME_ROW[1 - side]
        top = self.top
        under = self.under
        sidebit = side << 1
        points = in_camp = 0
        for p in range(25):
            # A stack holds two pieces: the top one and a hostage under it.
            q = top[p]
            count = 1 if q and (q & _NORTH) == sidebit else 0
            q = under[p]
            if q and (q & _NORTH) == sidebit:
                count += 1
            if count:
                if ROW[p] == enemy_row:
                    in_camp += count
                    points += 2 * count
                else:
                    points += count
        return points, in_camp

    def _tally(self, reason):
        """Score both sides; more points wins, then (unless ties stand) more pieces in camp."""
        if not self.scored:
            return Result(None, None, reason)
        south, south_camp = self._score(0)
        north, north_camp = self._score(1)
        if south == north and not self._ties_stand:
            lead = south_camp - north_camp
        else:
            lead = south - north
        winner = None if lead == 0 else ("south" if lead > 0 else "north")
        return Result(winner, (south, north), reason)

    def _win(self, side, reason):
        """An outright win: the winner scores its tally, the loser nothing."""
        points = None
        if self.scored:
            mine = self._score(side)[0]
            points = (mine, 0) if side == 0 else (0, mine)
        return Result(SIDE_NAMES[side], points, reason)

    # --------------------------------------------------------- save files

    def dump(self):
        """The game as a versioned, checksummed text; Game.load reads it back."""
        from jarmo.save import dump_game
        return dump_game(self)

    @staticmethod
    def load(text):
        """A Game from dump() text; ValueError with a reason if it is malformed."""
        from jarmo.save import load_game
        return load_game(text)

    def sync_from(self, other, log_tail=80):
        """Make this game's position equal to other's, reusing its buffers.

        The AI searches on such a private copy, so the game on show is never
        touched.  Only the last log_tail actions are kept: the back-and-forth
        rules look back four own moves per side at most, so undo and the
        rules work as long as a search stays within that many actions.
        """
        if (self.rules, self.expansions, self.ply_limit) != \
                (other.rules, other.expansions, other.ply_limit):
            raise ValueError("sync_from needs a game of the same rules and expansions")
        for name in ("top", "under", "held_count", "pool", "out_count", "held_gold", "pool_gold"):
            getattr(self, name)[:] = getattr(other, name)
        self.markers_on = other.markers_on
        self.mover = other.mover
        self.stage = other.stage
        self.ply_count = other.ply_count
        self.outcome = other.outcome
        log = self.undo_log
        src = other.undo_log
        del log[:]
        for k in range(max(0, len(src) - log_tail), len(src)):
            log.append(src[k])

    def snapshot(self):
        """The position as bytes, for comparing positions cheaply: the board
        (tops and hostages), each side's held, captured and out pieces (and
        where its Golden Soldier is), the side to act, the turn's stage and
        the markers. Not the history, the ply count or the result."""
        s = bytearray(self.top)
        s.extend(self.under)
        for counts in (self.held_count, self.pool, self.out_count, self.held_gold, self.pool_gold):
            s.extend(counts)
        s.append(self.mover)
        s.append(self.stage)
        s.append(1 if self.markers_on else 0)
        return bytes(s)

    def __repr__(self):
        return "<Game %s %s ply %d>" % (self.rules, "+".join(self.expansions) or "-",
                                        self.ply_count)


def _reverse(code):
    """The move code going the other way along the same line."""
    return (((code >> _TARGET) & _POINT_BITS) << _SOURCE
            | ((code >> _SOURCE) & _POINT_BITS) << _TARGET)
