# AI: the opponents - random, greedy and alpha-beta lookahead, thinking in slices.
#
#     from jarmo.ai import Player
#     p = Player("greedy", seed=1)         # "random" (0), "greedy" (1), 2, 3, 4
#     turn = p.choose(game)                # action codes (ints, jarmo/codes.py), e.g. the
#                                          # codes of ["b4-c5", "@a1"]; game unchanged
#     p.start(game)                        # or think in bounded slices:
#     while (turn := p.step()) is None:    #   each step() applies at most SLICE
#         ...                              #   actions in the search
#     p.start(game, now_ms)                # to a time budget: the caller's clock
#     turn = p.step(now_ms)                #   in ms, at start() and every step()
#
# The search runs on a private copy of the game (synchronised field by field
# in start(), not replayed), so the caller's game is never touched and can be
# drawn between slices.  It walks the tree action by action with an explicit
# stack: one preallocated action buffer per depth, no per-node objects, so it
# can stop after any action and go on in the next step().  A value is always
# from the point of view of the side that acts at that node; it changes sign
# only where the turn passes to the other side (negamax over actions).
#
# The static evaluation at the leaves is jarmo/evaluation.py's.  docs/AI.md
# describes the evaluation, the levels and the measured costs.

from array import array

from jarmo import rulesets as R
from jarmo.board import HOME_ROW, ROW
from jarmo.evaluation import TARGETS, eval_race, eval_scored
from jarmo.game import Game, frozen
from jarmo.rng import Rng

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

# The bit contract (jarmo/codes.py): private mirrors, inlined by MicroPython
# (tests/test_core_imports.py checks their values).
_PRESENT = const(1)
_NORTH = const(2)
_MOVE = const(0)
_RECALL = const(1)
_PLACE = const(2)
_DONE = const(3)
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
_FLAGS = const(2)
_AFTER = const(2)
# The widths codes.py writes as numbers ("entry >> STAGE & 3", ...).
_STAGE_BITS = const(3)      # entry >> _STAGE & _STAGE_BITS: the stage before the action
_BYTE_BITS = const(31)      # a piece byte: entry >> _CAPTURED & _BYTE_BITS, the one captured
_FLAG_BITS = const(7)       # entry >> _MOVER & _FLAG_BITS and byte >> _FLAGS & _FLAG_BITS
# The distance tables' row of a side with all 5 enemy-camp points free
# (31 * 25: the plain distance; as jarmo.evaluation's _FREE_ALL).
_FREE_ALL = const(775)
_UNREACHABLE = const(9)     # a distance where there is no way (as jarmo.evaluation's)

# The position key (_hash): the pieces' hash numbers XORed with the counts:
# held, captured and out per side, _KEY_COUNT bits each from bit 0 (k-th
# count at k * _KEY_COUNT), then from bit _KEY_FLAGS one bit each: golden
# held South, North, golden captured South, North, the side to act, the
# markers and the stage (+0 .. +6).  The hash numbers: code in RAM has
# _Z_BYTE + 32 (z[p] per point p, z[_Z_BYTE + q] per piece byte q), frozen
# code _Z_FULL (z[p << _Z_ROW | q], a number per point and byte).
_KEY_COUNT = const(3)
_KEY_FLAGS = const(18)
_Z_BYTE = const(25)
_Z_ROW = const(5)                 # a piece byte has 5 bits: 32 numbers a point
_Z_FULL = const(800)              # 25 points << _Z_ROW
# A transposition table entry's _ttdf byte: turns searched << _TT_DEPTH | bound.
_TT_DEPTH = const(2)
_TT_BOUND = const(3)
_TT_FOLD = const(12)              # index: (key ^ key >> _TT_FOLD) & mask

SLICE = const(6)           # actions applied per step() by default: see docs/AI.md
_INF = const(1000000)
_WIN = const(100000)       # a won game; minus the depth, so sooner is better
_MAXACT = const(9)         # most actions one turn can take (place, move, redeploy, 5 x place, done)
_PVW = const(11)           # _MAXACT + 2: the first turn's depths and line length
# Most legal actions in one position: 35 (5 pieces x 6 neighbours, or fewer
# moves and a recall or flip per frozen piece, plus 5 placements); the
# buffers hold 40 (tests/core/test_ai.py checks the bound).
_MAXGEN = const(40)
# Most actions on one search path (the stacks' size): 8 turns could take 74,
# searches reach about 12; a path that would go deeper is evaluated there.
_STACK = const(32)

# Per level: most turns searched, the node budget (actions applied) per turn
# without a clock, and with a clock (start(game, now_ms)) the time budget in
# ms and a node cap.  (The benchmarks' "3-legacy" opponent is host-side:
# host/opponents.py.)
LEVELS = ("random", "greedy", "2", "3", "4")
_DEPTH = (0, 1, 2, 8, 8)
_BUDGET = (0, 1000000, 1500, 510, 1950)   # per level (3 and 4: the rule set's row)
# Levels 3 and 4 take their node budgets (the nodes the emulated Pico
# applies in their time budgets) and level 3 its time from the rule set's
# row (jarmo/rulesets.py; docs/AI.md, "Measured"): level 3 thinks 650 ms in
# classic, where more nodes made it weaker (docs/AI.md, Strength).
TIME_MS = (0, 0, 130, 900, 2800)
_CAP = (0, 1000000, 1500, 12000, 40000)


FROZEN = frozen(globals().get("__file__"))
# Transposition table entries per level (a power of 2; 0: none).  Code in
# RAM keeps them small for the Pico's heap; frozen code runs from flash and
# leaves its heap to the game, so its tables are 4 times larger (with the
# 800 hash numbers of _zobrist_step), where level 4 is stronger (docs/AI.md,
# "Memory": 1024 entries for level 4 played no better).
TT_STOCK = (0, 0, 0, 128, 128)
TT_FROZEN = (0, 0, 0, 512, 512)


def use_tables(frozen, steps=False):
    """Size the AI's tables for frozen code (True: TT_FROZEN and 800 hash
    numbers) or code in RAM (False: TT_STOCK and 57): the transposition
    tables of the players made after, and the keys of every search after;
    and the node budgets of levels 3 and 4 (the rule set's row: what each
    firmware kind applies in their thinking times).
    Done at import by FROZEN; the host's benchmarks and tests switch.
    steps: the hash numbers are drawn later, _Z_STEP at a time
    (_zobrist_step: the menu's passes, or a player's first steps), not now:
    at import on Jarmo's firmware the 800 took 27 ms, with the import a
    pass of 46 ms."""
    global _TT, _ZOBRIST, _ZDRAW, _NODES, _CAP3
    _TT = TT_FROZEN if frozen else TT_STOCK
    _NODES = (R.AI_FROZEN3, R.AI_FROZEN4) if frozen else (R.AI_NODES3, R.AI_NODES4)
    # Level 3 under a clock stops at its node budget too where the code is
    # fast enough to pass it (Jarmo's firmware): the same opponent as on stock
    _CAP3 = R.AI_FROZEN3 if frozen else -1
    n = _Z_FULL if frozen else _Z_BYTE + 32
    _ZOBRIST = array("l", [0] * n)
    _ZDRAW = [Rng(20240609), 0]
    if not steps:
        _zobrist_step(n)


_Z_STEP = const(200)        # hash numbers drawn a step (about 7 ms on Jarmo's firmware)
_ZDRAW = None               # [the generator, the next number's index] until all are drawn
_NODES = None               # the row's fields of the node budgets of levels 3 and 4 (use_tables)
_CAP3 = -1                  # the row's field that caps level 3 under a clock, or -1 (use_tables)


def _zobrist_step(most=_Z_STEP):
    """Draw up to `most` more of the hash numbers; True once all are there.

    n = 57 (code in RAM): a random 29-bit number per point (0..24) and per
    piece byte (25 + byte), a piece byte q on point p adding z[p] + z[25 +
    q] (below 2**30, a small int) to the key: 0.2 KB where a table per point
    and byte takes 3.2 KB.  n = 800 (frozen code: TT_FROZEN), that table, a
    30-bit number per point and byte, z[p * 32 + q]: with it and 512-entry
    tables level 4 beat level 3 in standard in 87.1 % of the decided games,
    with the 57 numbers 64.7 % (docs/AI.md, "Memory").  The same numbers
    however many steps draw them."""
    global _ZDRAW
    draw = _ZDRAW
    if draw is None:
        return True
    z = _ZOBRIST
    n = len(z)
    rng = draw[0]
    k = draw[1]
    end = k + most if k + most < n else n
    while k < end:
        x = rng.next()
        z[k] = x if n == _Z_FULL else x >> 1
        k += 1
    draw[1] = k
    if k < n:
        return False
    _ZDRAW = None
    return True


# The caller's ms clock wraps here (supervisor.ticks_ms): a private mirror of
# jarmo.app_base.TICKS_MASK (the core imports nothing of the app;
# tests/app/test_app_ai.py checks that the two agree).
_TICKS_MASK = const(0x1FFFFFFF)
_EXACT = const(1)           # transposition table bounds (low 2 bits of _ttdf)
_LOWER = const(2)
_UPPER = const(3)
# History table entries per side: a move from f to a neighbour t (t - f is
# -6, -5, -4, -1, 1, 4, 5 or 6) at f * 13 + (t - f + 6) = f * 12 + t + 6.
_HIST = const(319)
_HIST_MAX = const(200)      # a history entry, in halves: ordering adds at most 400
# Late-move reductions (levels 3, 4): from the node's k-th action, k the
# rule set's row's AI_LMR (standard 2nd, legendary 4th, 99: none, in
# classic and jasyr); when 2+ turns would be left. No 3-turn iteration
# (levels 3, 4; the rule sets without points): deepen 1, 2, 4, 5, ...
# (A plain global: the tests switch it off.)
_LMR_MIN = const(2)
_SKIP3 = 1
# Variety (level 4): every whole first turn's value gets a seeded bonus of
# 0 .. _VARIETY (1/100 points), a hash of its actions and a salt drawn at
# start() (below _NOISE_MOD: small ints), the same all through one answer,
# so the answer is one of the turns within _VARIETY of the best (docs/AI.md,
# "Opening book and variety").
_VARIETY = const(10)
_NOISE_MOD = const(999983)
# Level 4 asks the opening book (jarmo/book.py) while the game has fewer
# plies than this (the builder's deepest book position is below it).
_BOOK_PLIES = const(24)


_TABLES = {}


def _bonus(salt, bufs, ii, d, a, var):
    """The variety bonus (0 .. var - 1) of the first turn whose actions are
    those in progress at depths 0 .. d - 1 and then a."""
    h = salt
    for k in range(d):
        h = (h * 31 + bufs[k][ii[k] - 1]) % _NOISE_MOD
    return (h * 31 + a) % _NOISE_MOD % var


use_tables(FROZEN, steps=FROZEN)


def _hash(g, z):
    """A 30-bit key of the position (not of its history), for the transposition table."""
    top = g.top
    under = g.under
    h = 0
    p = -1
    if len(z) == _Z_FULL:     # a number per point and piece byte (frozen code)
        for q in top:
            p += 1
            if q:
                h ^= z[p << _Z_ROW | q]
                q = under[p]
                if q:
                    h ^= z[p << _Z_ROW | (q ^ _PRESENT)]
    elif g.heroes:           # (only the Golden Soldier is ever a hostage)
        for q in top:         # (iterating over the bytes is cheaper than indexing)
            p += 1
            if q:
                h ^= z[p] + z[_Z_BYTE + q]
                q = under[p]
                if q:
                    # (a hostage: its byte without _PRESENT, which no piece on top lacks)
                    h ^= z[p] + z[_Z_BYTE + (q ^ _PRESENT)]
    else:
        for q in top:
            p += 1
            if q:
                h ^= z[p] + z[_Z_BYTE + q]
    held = g.held_count
    pool = g.pool
    out = g.out_count
    return h ^ (held[0] | held[1] << _KEY_COUNT | pool[0] << 2 * _KEY_COUNT
                | pool[1] << 3 * _KEY_COUNT | out[0] << 4 * _KEY_COUNT | out[1] << 5 * _KEY_COUNT
                | g.held_gold[0] << _KEY_FLAGS | g.held_gold[1] << _KEY_FLAGS + 1
                | g.pool_gold[0] << _KEY_FLAGS + 2 | g.pool_gold[1] << _KEY_FLAGS + 3
                | g.mover << _KEY_FLAGS + 4 | g.markers_on << _KEY_FLAGS + 5
                | g.stage << _KEY_FLAGS + 6)


def _tables(game, part=False):
    """Per side: (target mask of every point, distances to the enemy camp).

    Distances are a flat bytes(32 * 25): entry free * 25 + p is the fewest
    moves from p to a point of the enemy camp in the 5-bit set `free` (the
    camp points not taken by the side's own pieces), never passing through
    the camp on the way; _UNREACHABLE where there is no way.  free = 31 is
    the plain distance.  Built on first use, about 2 KB a game kind.

    With part=True only one side's half is built per call (about 23 ms on
    the Pico; a step() each): None until both halves are there.
    """
    key = game.forward         # the game kind: its neighbour tables
    tables = _TABLES.get(key)
    if tables is None:
        half = _HALVES.get(key)
        if half is None:
            half = _HALVES[key] = _side_tables(game, 0)
            if part:
                return None
        other = _side_tables(game, 1)
        del _HALVES[key]
        tables = (half[0], other[0], half[1], other[1], half[2], other[2])
        _TABLES[key] = tables
    return tables


_HALVES = {}


def prepare_tables_step(rules):
    """One idle pass's share of the tables of `rules`' game kind (half of
    them, about 23 ms on an RP2040; nothing once built); forgets the other
    kind's, 2.2 KB that a game of this kind never reads. True once built.
    The menu calls it every pass, so the tables of the game it would start
    or resume are there before the AI's first turn (greedy: at most 50 ms)."""
    key = bool(R.row(rules)[R.FEATURES] & R.FORWARD)
    other = not key
    if other in _TABLES:
        del _TABLES[other]
    if other in _HALVES:
        del _HALVES[other]
    if not _zobrist_step():     # the hash numbers first, a part a pass
        return False
    if key in _TABLES:
        return True
    return _tables(Game(rules), part=True) is not None


def prepare_tables(rules):
    """Build the distance tables of a rule set's kind now rather than in the
    first AI turn of that kind (about 46 ms on an RP2040, more than a greedy
    turn may take). The device's menu builds them with prepare_tables_step,
    half a pass at a time; this is for tests and benchmarks."""
    _tables(Game(rules))


def _side_tables(game, side):
    """(target masks, flat distances, distances to each camp point) of a side."""
    table = game.neighbours[side]
    m = []
    for f in range(25):
        bits = 0
        for t in table[f]:
            bits |= 1 << t
        m.append(bits)
    first = HOME_ROW[1 - side] * 5
    back = [[] for _ in range(25)]    # back[t]: the points one move before t
    for f in range(25):
        if ROW[f] * 5 != first:       # a piece on the enemy camp is frozen
            for t in table[f]:
                back[t].append(f)
    single = []
    for k in range(5):                # breadth first from each camp point
        d = bytearray([_UNREACHABLE] * 25)
        d[first + k] = 0
        todo = [first + k]
        for t in todo:
            for f in back[t]:
                if d[f] == _UNREACHABLE and f != first + k:
                    d[f] = d[t] + 1
                    todo.append(f)
        single.append(d)
    flat = bytearray(32 * 25)         # free = 0: no way, except from the camp itself
    for p in range(25):
        flat[p] = 0 if ROW[p] * 5 == first else _UNREACHABLE
    for free in range(1, 32):
        k = 0
        while not free >> k & 1:
            k += 1
        # The nearest point of a set: of its lowest point and of the others
        # (an element-wise minimum, looped in C by map()).
        rest = (free ^ (1 << k)) * 25
        flat[free * 25:free * 25 + 25] = bytes(map(min, flat[rest:rest + 25], single[k]))
    # entry p * 5 + k: moves from p to camp point k (for _match)
    return (tuple(m), bytes(flat),
            bytes(single[k][p] for p in range(25) for k in range(5)))


# ----------------------------------------------------------------- player

def level_number(level):
    """0..4 for "random", "greedy", 0..4 or "0".."4"; ValueError otherwise."""
    if isinstance(level, str):
        name = level.strip().lower()
        if name in LEVELS:
            return LEVELS.index(name)
        if name in ("0", "1"):
            return int(name)
    elif type(level) is int and 0 <= level <= 4:
        return level
    raise ValueError("unknown AI level %r: expected random, greedy, 2, 3 or 4" % (level,))


# An AI player of one level; seed fixes its tie-breaks (same seed, same game).
class Player:
    # The quiet-move fast path of the search (Player._search); off, every
    # action runs through Game.do_code: the same tree, only slower (the
    # differential test, tests/test_fast_path.py, turns it off).
    fast_path = True

    def __init__(self, level="greedy", seed=0, slice_nodes=SLICE):
        self.level = level_number(level)
        self.slice_nodes = slice_nodes   # actions applied per step()
        self.seed = seed
        self.rng = Rng(seed)
        self.depth = _DEPTH[self.level]
        # The opening book (level 4): True the shipped one (jarmo.book.shipped),
        # a book's bytes or file path, or None: none (book_problem: why it was
        # not used, after a look-up).  The variety margin (see _VARIETY).
        self.book = True if self.level == 4 else None
        self._book_step = 0            # 1, 2: the book's slices to come (_book_slice)
        self._book_turn = None         # the book's answer, between them
        self.variety = _VARIETY if self.level == 4 else 0
        self.lmr_from = None           # late-move reductions from this action (None: the
                                       # rule set's row; 99: none)
        self.node_budget = None        # without a clock: None for the level's
        self.budget = _BUDGET[self.level]   # of the turn in hand
        self.time_ms = TIME_MS[self.level]   # with a clock: think this long at most
        self._t0 = -1                  # the clock at start(), -1: no clock (node budget)
        # History heuristic (levels 2 to 4): per side and move (f * 12 + t + 6),
        # how much cut-offs that move made this turn, in halves up to
        # _HIST_MAX (ordering adds twice the entry: at most 400).
        self._hist = bytearray(2 * _HIST) if 2 <= self.level <= 4 else None
        # Transposition table (levels 3 and 4), probed where a turn begins:
        # key, value, first action of the best turn, and depth << 2 | bound.
        tt = _TT[self.level]
        self._ttmask = tt - 1
        if tt:
            self._ttkey = array("l", [0] * tt)
            self._ttval = array("l", [0] * tt)
            self._ttmv = array("H", [0] * tt)
            self._ttdf = bytearray(tt)
        self.nodes = 0                 # actions applied for the last answer
        self.completed_depth = 0       # turns fully searched for the last answer
        self._g = None
        self._answer = None
        size = min(_MAXACT * max(self.depth, 1) + 2, _STACK)
        self._size = size
        self._bufs = [None] * size     # action buffers, allocated on first use
        self._keys = [None] * size     # ordering keys (levels 2+), same
        self._n = bytearray(size)      # actions at each depth (at most _MAXGEN)
        self._i = bytearray(size)
        self._alpha = [0] * size
        self._beta = [0] * size
        self._best = [0] * size
        self._tdep = bytearray(size)
        self._mover = bytearray(size)
        self._neg = bytearray(size)    # 1: the turn passed on entering this node
        self._ft = bytearray(size)     # 1: this node is inside the first turn
        # The best line found below each node of the first turn: row d (of
        # _PVW actions) holds node d's, from index d on.
        self._pvcode = array("H", [0] * (_PVW * _PVW))
        self._pvlen = [0] * _PVW
        self._prev = array("H", [0] * _PVW)   # best line of the last iteration
        self._prevlen = 0
        self._killer = array("H", [0] * (2 * size))
        self._hash = [0] * size        # the position's key at nodes where a turn begins
        self._alpha0 = [0] * size      # alpha on entering the node
        self._bmv = array("H", [0] * size)   # the node's best action so far
        self._nw = bytearray(size)     # 1: the action in progress got a null window
        self._redo = bytearray(size)   # 1: search the next action again, full window
        self._ttmove = -1              # for _order: the table's best action here
        self._lmr = 99                 # late-move reduction from this action index
        self._skip3 = False            # deepen 1, 2, 4: no 3-turn iteration
        self._d = -1
        self._tables = None

    # ---------------------------------------------------------- public API

    def choose(self, game):
        """The whole turn to play now, as a list of action codes (ints: play them
        with Game.play_code, show them with notation.action_text); game unchanged."""
        self.start(game)
        answer = self.step()
        while answer is None:
            answer = self.step()
        return answer

    def start(self, game, now_ms=None):
        """Begin thinking about game's position; then call step() until it answers.

        now_ms (the caller's clock in ms, wrapping at 2**29 like
        supervisor.ticks_ms) makes the player think to a time budget: pass
        the clock to every step() as well; it answers with the best turn of
        the last finished look-ahead once time_ms have passed.  Without it
        the node budget alone bounds the search: the same seed then gives
        the same turn on every interpreter."""
        self._sync(game)
        self._answer = None
        self.nodes = 0
        self.completed_depth = 0
        g = self._g
        row = g.row
        self.time_ms = row[R.AI_TIME3] if self.level == 3 else TIME_MS[self.level]
        if now_ms is None or not self.time_ms:
            self._t0 = -1
            b = self.node_budget
            if b is None:
                b = _BUDGET[self.level]
                if self.level == 3 or self.level == 4:
                    b = row[_NODES[self.level - 3]]
            self.budget = b
        else:
            self._t0 = now_ms & _TICKS_MASK
            self.budget = _CAP[self.level]
            if self.level == 3 and _CAP3 >= 0:
                self.budget = row[_CAP3]
        hist = self._hist
        if hist is not None:
            for k in range(2 * _HIST):
                hist[k] = 0
        if self._ttmask >= 0:
            df = self._ttdf
            for k in range(self._ttmask + 1):
                df[k] = 0
        if g.outcome is not None:
            self._answer = []
            return
        if self.level == 0:
            self._answer = self._random_turn()
            return
        self._prevlen = 0
        # Per rule set (docs/AI.md, "Late-move reductions"): measured to help
        # only where enabled.
        tt = self._ttmask >= 0
        self._skip3 = _SKIP3 and tt and not g.scored
        lmr = row[R.AI_LMR] if self.lmr_from is None else self.lmr_from
        self._lmr = lmr if tt else 99
        self._tables = _TABLES.get(g.forward)
        # The first steps ask the book (level 4) and build the tables: slices
        # of their own.
        self._book_step = 1 if self.book is not None and g.ply_count < _BOOK_PLIES else 0
        if self._book_step or self._tables is None or (tt and _ZDRAW is not None):
            self._iter = 0        # (only a TT reads the hash numbers)
            self._d = 0
            return
        self._iter = 1
        self._begin_iteration()

    def step(self, now_ms=None):
        """One bounded slice of thinking (at most slice_nodes actions applied):
        None while still thinking, then the turn as a list of action codes.
        After start(game, now_ms), pass the clock: once time_ms have passed
        since start() it answers at once."""
        if self._answer is not None:
            return self._answer
        if self._d < 0:
            raise RuntimeError("Player.step() before Player.start(game)")
        if not self._iter:
            if self._book_step:
                self._book_slice()
                return self._answer
            if _ZDRAW is not None and self._ttmask >= 0:
                _zobrist_step()                         # the hash numbers, a part
            elif self._tables is None:
                self._tables = _tables(self._g, True)   # half of them
            else:
                self._iter = 1
                self._begin_iteration()
            return None
        if (self._t0 >= 0 and now_ms is not None and self._iter > 1
                and ((now_ms - self._t0) & _TICKS_MASK) >= self.time_ms):
            status = 2        # time is up: as if out of budget
        else:
            status = self._search(self.slice_nodes)
        if status == 0:
            return None
        if status == 1:   # an iteration finished
            self._keep_line()
            self.completed_depth = self._iter
            if self._iter < self.depth and self.nodes < self.budget:
                self._iter += 1
                if self._iter == 3 and self._skip3 and self.depth > 3:
                    self._iter += 1
                self._begin_iteration()
                return None
        else:             # out of budget: the partial iteration's line if it has one
            if self._pvlen[0]:
                self._keep_line()
        self._d = -1
        self._answer = [self._prev[k] for k in range(self._prevlen)]
        return self._answer

    # ----------------------------------------------------------- internals

    def _book_slice(self):
        """Level 4's opening book, a slice a step (docs/AI.md, "Slices"): the
        reader loaded and asked; then, on code in RAM, forgotten and its heap
        collected, and the book's turn, if it had one, is the answer."""
        import gc

        import jarmo.book  # (binds the package: no name here holds the module)
        if self._book_step == 1:
            self._book_step = 2
            self._book_turn = jarmo.book.ask(self, self._g, self._buffer(0))
            return
        self._book_step = 0
        if jarmo.book.forget():
            gc.collect()      # the reader, its file and buffers: the game's heap keeps none
        self._answer = self._book_turn
        self._book_turn = None

    def _sync(self, game):
        """Make the private game equal to game (state and recent log)."""
        g = self._g
        if (g is None or g.rules != game.rules or g.expansions != game.expansions
                or g.ply_limit != game.ply_limit):
            g = self._g = Game(game.rules, game.expansions, game.ply_limit)
        g.sync_from(game)

    def _random_turn(self):
        g = self._g
        buf = self._buffer(0)
        rng = self.rng
        mover = g.mover
        line = []
        while g.outcome is None and g.mover == mover:
            n = g.gen_into(buf)
            code = buf[rng.below(n)]
            line.append(code)
            g.do_code(code)
            self.nodes += 1
        return line

    def _buffer(self, d):
        buf = self._bufs[d]
        if buf is None:
            buf = self._bufs[d] = array("H", [0] * _MAXGEN)
        return buf

    def _begin_iteration(self):
        g = self._g
        self._d = 0
        if self._iter == 1:   # (after the book's draw: the same games as a one-call answer)
            self._salt = self.rng.below(_NOISE_MOD) if self.variety else 0   # (read by _search)
        self._enter(0, g.mover, -_INF, _INF, self._iter, 0, 1)

    def _keep_line(self):
        n = self._pvlen[0]
        line = self._pvcode             # (row 0)
        prev = self._prev
        for k in range(n):
            prev[k] = line[k]
        self._prevlen = n

    def _enter(self, d, mover, alpha, beta, tdep, neg, ft):
        """Set up node d for the private game's current position."""
        g = self._g
        buf = self._bufs[d]
        if buf is None:
            buf = self._buffer(d)
        n = g.gen_into(buf)
        if d and not g.one_action and (g.stage or g.held_count[mover]):
            n = self._prune(g, buf, n)     # (nothing to prune without held pieces)
        self._n[d] = n
        self._i[d] = 0
        self._alpha[d] = alpha
        self._alpha0[d] = alpha
        self._beta[d] = beta
        self._best[d] = -_INF
        self._tdep[d] = tdep
        self._mover[d] = mover
        self._neg[d] = neg
        self._ft[d] = ft
        if ft:
            self._pvlen[d] = d
            rng = self.rng
            k = n - 1
            while k > 0:       # shuffle: the seeded tie-break between equal turns
                j = rng.below(k + 1)
                c = buf[k]
                buf[k] = buf[j]
                buf[j] = c
                k -= 1
        if self.level >= 2:
            self._order(d, buf, n, mover, ft)

    def _prune(self, g, buf, n):
        """Drop action orders that only repeat another order's turn.

        One placement before the move is kept only if the move then starts
        from the placed point (placing first and moving another piece gives
        the same turn as moving and placing after); after the move a redeploy
        comes before placements, and placements go in increasing point
        order.  Falls back to all actions if nothing would be left.
        """
        stage = g.stage
        log = g.undo_log
        last = log[-1] if log else 0
        k = 0
        if stage == 0:
            top = g.top
            nbrs = g.neighbours[g.mover]
            sidebit = g.mover * _NORTH
            for j in range(n):
                c = buf[j]
                if c & _KIND_BITS == _PLACE:
                    ok = False
                    for t in nbrs[c >> _TARGET]:
                        q = top[t]
                        if not q or (q & _NORTH) != sidebit:
                            ok = True
                            break
                    if not ok:
                        continue
                buf[k] = c
                k += 1
        elif stage == 1:
            if last & _KIND_BITS != _PLACE:
                return n
            x = (last >> _TARGET) & _POINT_BITS
            for j in range(n):
                c = buf[j]
                if c & _KIND_BITS == _MOVE and (c >> _SOURCE) & _POINT_BITS == x:
                    buf[k] = c
                    k += 1
        else:
            if last & _KIND_BITS != _PLACE or (last >> _STAGE) & _STAGE_BITS < _AFTER:
                return n
            # After a placement: further placements on later points only, and
            # no redeploy (redeploying first gives the same turn).
            x = (last >> _TARGET) & _POINT_BITS
            for j in range(n):
                c = buf[j]
                kind = c & _KIND_BITS
                if kind == _DONE or (kind == _PLACE and c >> _TARGET > x):
                    buf[k] = c
                    k += 1
        return k if k else n

    def _order(self, d, buf, n, mover, ft):
        """Ordering keys: the last iteration's line, captures, killers, progress."""
        keys = self._keys[d]
        if keys is None:
            keys = self._keys[d] = array("h", [0] * _MAXGEN)
        g = self._g
        top = g.top
        scored = g.scored
        dist = self._tables[2 + mover]
        k1 = self._killer[2 * d]
        k2 = self._killer[2 * d + 1]
        hist = self._hist
        hbase = mover * _HIST + 6
        ttmove = self._ttmove
        self._ttmove = -1
        pv = -1
        if ft and d < self._prevlen:
            # On the last iteration's line so far?  Then its next action first.
            prev = self._prev
            pv = prev[d]
            bufs = self._bufs
            ii = self._i
            for k in range(d):
                if bufs[k][ii[k] - 1] != prev[k]:     # the action taken at depth k
                    pv = -1
                    break
        # (Everything the loop needs in locals: globals and attributes cost a
        # look-up each time on MicroPython.)
        camp = 0 if mover else 20          # the mover's enemy camp: camp..camp + 4
        take = 200 if scored else -50      # a capture (scored: +100 on the enemy camp)
        usehist = hist is not None
        if scored:
            kdone, kplace, kother = 0, 50, 60
        else:
            kdone, kplace, kother = 5, -100, -100
        for j in range(n):
            c = buf[j]
            kind = c & _KIND_BITS
            if kind == _MOVE:
                f = (c >> _SOURCE) & _POINT_BITS
                t = c >> _TARGET
                key = (dist[_FREE_ALL + f] - dist[_FREE_ALL + t]) * 10
                if top[t]:
                    key += take
                    if scored and 0 <= t - camp < 5:
                        key += 100
                if usehist:
                    key += hist[hbase + f * 12 + t] << 1
            elif kind == _DONE:
                key = kdone
            elif kind == _PLACE or kind == _RECALL:
                key = kplace
            else:
                key = kother
            if c == k1:
                key += 1000
            elif c == k2:
                key += 900
            if c == ttmove:
                key = 5000
            if c == pv:
                key = 10000
            keys[j] = key

    # The search's state between step() calls: per-depth arrays, made by
    # __init__ (size _size <= _STACK), never reallocated.
    #
    # Index d is a depth on the current path: node d is the private game's
    # position after the first d actions of the path (node 0: the position
    # of start()).  self._d is the deepest node on the path (where a paused
    # search goes on; -1 once answered).  Entries of depths above self._d
    # are stale: _enter(d, ...) rewrites all of node d's before it is used.
    # Only nodes 0..self._d are valid, and the game holds node self._d's
    # position (its log has one entry per action on the path, plus the
    # actions applied before start()).
    #
    # _bufs[d]    node d's actions, entries 0 .. _n[d]-1 (generated, pruned,
    #             shuffled inside the first turn by _enter); the selection in
    #             _search swaps the best remaining one to index _i[d].  An
    #             array('H') of _MAXGEN made on first use and kept.
    # _keys[d]    their ordering keys (levels 2+, _order), swapped with them:
    #             entries _i[d] .. _n[d]-1 are those of the untried actions.
    # _n[d]       how many actions node d has.
    # _i[d]       how many have been taken: _bufs[d][_i[d] - 1] is the action
    #             in progress below node d.  A cut-off sets it to
    #             _n[d] (node done); a re-search steps it back by one.
    # _alpha[d], _beta[d]  node d's window, for node d's mover: alpha rises
    #             with each better value, beta is fixed.  A child in the same
    #             turn gets (alpha, beta), a child where the turn passes
    #             (-beta, -alpha); with a null window beta is alpha + 1.
    # _alpha0[d]  alpha on entering: a value <= it is only an upper bound.
    # _best[d], _bmv[d]  the best value of the actions taken so far (-_INF
    #             on entering) and its action; when the node is left, its
    #             value and best action (stored in the transposition table).
    # _tdep[d]    turns left to search from node d, this one included: a
    #             turn passing at _tdep 1 gets the static evaluation.  One
    #             less in a child where the turn passes (two less with a
    #             late-move reduction), the same in a child of the same turn.
    # _mover[d]   the side that acts at node d; values at node d are its.
    # _neg[d]     1: the action into node d passed the turn (node d begins a
    #             turn): its value is negated on the way back to d - 1.
    # _ft[d]      1: node d is inside the first turn (the root's mover's):
    #             its actions are shuffled (the seeded tie-break), the line
    #             of the last iteration is tried first, the best line kept.
    # _pvcode, _pvlen  for first-turn nodes: the best line below node d,
    #             _pvcode[d * _PVW + k] the action at depth k for k in
    #             d .. _pvlen[d] - 1 (_pvlen[d] = d on entering: none yet).
    #             Row 0 is the best first turn so far; _keep_line copies it
    #             to _prev/_prevlen, which the next iteration tries first.
    # _killer[2d], _killer[2d + 1]  the last two moves that cut off at
    #             depth d (any node there; kept from turn to turn).
    # _hash[d]    (levels 3, 4) the position key of node d, valid where
    #             _neg[d] and not _ft[d]: set by the parent before entering,
    #             read when the node is left (to store it) and by the
    #             key update of a one-move turn from node d.
    # _nw[d]      1 while the action in progress at node d is searched with a
    #             null window: when it comes back better than alpha (and
    #             below beta) it is searched again: _redo[d] = 1.
    # _redo[d]    1: the next action (the same one again) gets the full
    #             window and the full depth.
    # _ttmove     the table's best action for the node being entered (read
    #             and cleared by _order); -1: none.
    def _search(self, limit):
        """Run the search for up to `limit` actions applied.

        0: paused (call again), 1: the iteration finished, 2: out of budget.
        The per-depth arrays' invariants are in the comment above.
        """
        g = self._g
        do = g.do_code
        undo = g.undo_code
        bufs = self._bufs
        keysd = self._keys
        nn = self._n
        ii = self._i
        alpha = self._alpha
        beta = self._beta
        best = self._best
        tdep = self._tdep
        mov = self._mover
        neg = self._neg
        ft = self._ft
        pvcode = self._pvcode
        pvlen = self._pvlen
        tables = self._tables
        evalf = eval_scored if g.scored else eval_race
        ordered = self.level >= 2
        ttmask = self._ttmask
        if ttmask >= 0:
            ttkey = self._ttkey
            ttval = self._ttval
            ttmv = self._ttmv
            ttdf = self._ttdf
            zob = _ZOBRIST
            ztab = len(zob) == 800
        hashes = self._hash
        pvs = ttmask >= 0
        nw = self._nw
        redo = self._redo
        alpha0 = self._alpha0
        bmv = self._bmv
        budget = self.budget
        nodes = self.nodes
        stop = nodes + limit
        top = g.top
        lmr = self._lmr
        under = g.under
        held = g.held_count
        log = g.undo_log
        canmove = g.can_move
        turn_end = g.turn_end
        scored = g.scored
        targets = TARGETS
        classic = g.ban            # the back-and-forth ban, no repetition, no wipe-out
        jasyr = g.one_action       # a placement is a whole turn
        plim = g.ply_limit - 1 if g.ply_limit else 0x20000000   # 2**29: more than any game
        size = self._size
        fastpath = self.fast_path
        var = self.variety + 1          # (1: no variety, every bonus 0)
        salt = self._salt
        d = self._d
        while True:
            i = ii[d]
            if i < nn[d]:
                if nodes >= stop:
                    self.nodes = nodes
                    self._d = d
                    return 0
                if nodes >= budget and self._iter > 1:
                    self.nodes = nodes       # (a one-turn look always completes)
                    return 2
                buf = bufs[d]
                n = nn[d]
                if ordered:
                    keys = keysd[d]
                    j = i
                    kb = keys[i]
                    for k in range(i + 1, n):
                        if keys[k] > kb:
                            kb = keys[k]
                            j = k
                    if j != i:
                        c = buf[j]
                        buf[j] = buf[i]
                        buf[i] = c
                        kb = keys[j]
                        keys[j] = keys[i]
                        keys[i] = kb
                a = buf[i]
                ii[d] = i + 1
                m = mov[d]
                # The window for what follows: after the first action only a
                # null window (is it better than alpha?), with levels 3 and 4.
                lo = alpha[d]
                if pvs and i and not redo[d]:
                    hi = lo + 1
                    null = 1
                else:
                    hi = beta[d]
                    null = 0
                redo[d] = 0
                nw[d] = 0         # (a leaf's value is exact, whatever the window)
                # Late-move reduction (levels 3, 4): a late quiet action under a
                # null window looks one turn less deep; if it then beats alpha,
                # the redo searches it again at full depth and window.
                red = 0
                if null and i >= lmr and not (a & _KIND_BITS == _MOVE and top[a >> _TARGET]):
                    red = 1
                # The quiet-move fast path: a move that takes nothing, does
                # not enter the enemy camp and leaves nothing to do after it
                # ends the turn with no result (the ply limit is checked here,
                # the wipe-out, camp and repetition tests by Game.turn_end,
                # the stuck test by Game.can_move; where one might find
                # something, Game.do_code runs).  At the last turn searched
                # such a move is a leaf, played on the board only for the
                # evaluation (fast = 1); deeper, it is played as
                # Game.do_code would (Game.end_quiet_turn), and taken back by
                # Game.undo_code (fast = 2).  Searches with and without it
                # agree node for node (tests/test_fast_path.py), and
                # perft() counts through it (tests/test_perft.py).
                fast = 0
                t = a >> _TARGET
                quiet = (not a & _KIND_BITS and not top[t] and (t < 20 if m == 0 else t > 4)
                         and not under[(a >> _SOURCE) & _POINT_BITS])
                if fastpath and ((quiet or (scored and not a & _KIND_BITS and tdep[d] <= 1))
                        and (jasyr or not held[m]) and not g.markers_on and g.ply_count < plim):
                    f = (a >> _SOURCE) & _POINT_BITS
                    e = a | m << _SIDE_BIT | g.stage << _STAGE | g.move_piece(m, f, t)
                    o = 1 - m
                    # A move that is not quiet (a leaf in classic and
                    # standard) may recover a piece: then the turn goes on
                    # (Game.do_code).
                    if (quiet or jasyr or not held[m]) and not turn_end(m, e, 0):
                        if quiet and tdep[d] > 1:
                            # Stuck?  Game.can_move tells (if so: Game.do_code).
                            if canmove(o):
                                g.end_quiet_turn(e)
                                fast = 2
                        else:
                            v = -evalf(g, tables, o)
                            # Stuck?  With a point to move to (two in
                            # classic, where one move may be banned) the
                            # other side is not; else Game.can_move tells.
                            x = targets[0] if scored else 0
                            if (x & (x - 1) if classic else x) or canmove(o):
                                nodes += 1
                                fast = 1
                    if fast != 2:
                        g.unmove_piece(m, f, t, e)
                if fast != 1:
                    if not fast:
                        do(a)
                    nodes += 1
                    res = g.outcome
                    if res is not None:
                        w = res.winner
                        if w is None:
                            v = 0
                        elif (w == "north") == (m == 1):
                            v = _WIN - d
                        else:
                            v = d - _WIN
                    elif g.mover == m:
                        if d + 1 < size:
                            nw[d] = null
                            d += 1
                            self._enter(d, m, lo, hi, tdep[d - 1], 0, ft[d - 1])
                            continue
                        v = evalf(g, tables, m)     # a path too long for the stacks
                    elif tdep[d] <= 1 or d + 1 >= size:
                        v = -evalf(g, tables, 1 - m)
                    else:
                        td = tdep[d] - 1
                        if red and td >= _LMR_MIN:
                            td -= 1
                        if ft[d] and var > 1:
                            # The first turn ends here: the window its variety
                            # bonus leaves (added back on the way up).
                            x = _bonus(salt, bufs, ii, d, a, var)
                            lo -= x
                            hi -= x
                        t = -1
                        if ttmask >= 0:
                            e = log[-1]
                            # (an entry without kind or captured bits: a move
                            # that took nothing)
                            if (neg[d] and not e & (_KIND_BITS | _BYTE_BITS << _CAPTURED)
                                    and not e >> _WHERE
                                    and not top[e >> _SOURCE & _POINT_BITS]):
                                # A turn of one quiet move from where the last
                                # began: update that key (the piece leaves its
                                # point, lands on another, the turn passes).
                                f = (e >> _SOURCE) & _POINT_BITS
                                t = e >> _TARGET & _POINT_BITS
                                q = _PRESENT | m * _NORTH | (e >> _MOVER & _FLAG_BITS) << _FLAGS
                                if ztab:
                                    h = (hashes[d] ^ zob[f << _Z_ROW | q]
                                         ^ zob[t << _Z_ROW | top[t]] ^ 1 << _KEY_FLAGS + 4)
                                else:
                                    h = (hashes[d] ^ (zob[f] + zob[_Z_BYTE + q])
                                         ^ (zob[t] + zob[_Z_BYTE + top[t]]) ^ 1 << _KEY_FLAGS + 4)
                            else:
                                h = _hash(g, zob)
                            t = (h ^ (h >> _TT_FOLD)) & ttmask
                            x = ttdf[t]
                            if x and ttkey[t] == h:
                                val = ttval[t]
                                x2 = x & _TT_BOUND
                                if x >> _TT_DEPTH >= td and (x2 == _EXACT
                                                     or (x2 == _LOWER and val >= -lo)
                                                     or (x2 == _UPPER and val <= -hi)):
                                    t = -2          # known well enough: no need to look again
                                else:
                                    self._ttmove = ttmv[t]
                            hashes[d + 1] = h
                        nw[d] = null
                        if t == -2:
                            v = -val
                        else:
                            d += 1
                            self._enter(d, 1 - m, -hi, -lo, td, 1, 0)
                            continue
                    undo()
                child_ft = 0
            else:
                v = best[d]
                if d == 0:
                    self.nodes = nodes
                    self._d = 0
                    return 1
                child_ft = ft[d]
                if neg[d]:
                    if ttmask >= 0 and not ft[d]:
                        # A turn began here: keep what the search found.
                        h = hashes[d]
                        t = (h ^ (h >> _TT_FOLD)) & ttmask
                        x = ttdf[t]
                        if ttkey[t] != h or x >> _TT_DEPTH <= tdep[d]:
                            ttkey[t] = h
                            ttval[t] = v
                            ttmv[t] = bmv[d]
                            if v <= alpha0[d]:
                                x = _UPPER
                            elif v >= beta[d]:
                                x = _LOWER
                            else:
                                x = _EXACT
                            ttdf[t] = tdep[d] << _TT_DEPTH | x
                    v = -v
                    child_ft = 0
                d -= 1
                a = bufs[d][ii[d] - 1]
                undo()
            # Back at node d with action a worth v to its mover.
            if ft[d] and not child_ft and var > 1 and -_WIN // 2 < v < _WIN // 2:
                v += _bonus(salt, bufs, ii, d, a, var)      # a whole first turn's variety bonus
            if nw[d]:
                nw[d] = 0
                if alpha[d] < v < beta[d]:
                    ii[d] -= 1                 # better than alpha: look again, full window
                    redo[d] = 1
                    continue
            if v > best[d]:
                best[d] = v
                bmv[d] = a
                if ft[d]:
                    row = d * _PVW
                    pvcode[row + d] = a
                    if child_ft:
                        e = pvlen[d + 1]
                        for k in range(row + d + 1, row + e):
                            pvcode[k] = pvcode[k + _PVW]
                        pvlen[d] = e
                    else:
                        pvlen[d] = d + 1
                if v > alpha[d]:
                    alpha[d] = v
                    if v >= beta[d]:
                        ii[d] = nn[d]          # cut-off
                        if ordered and a & _KIND_BITS == _MOVE:
                            kill = self._killer
                            if kill[2 * d] != a:
                                kill[2 * d + 1] = kill[2 * d]
                                kill[2 * d] = a
                            hist = self._hist
                            if hist is not None:
                                h = mov[d] * _HIST + ((a >> _SOURCE) & _POINT_BITS) * 12 + (a >> _TARGET) + 6
                                x = hist[h] + tdep[d] * tdep[d] * 2
                                hist[h] = x if x < _HIST_MAX else _HIST_MAX


def perft(g, depth, fast=True):
    """The leaves of g's tree of legal actions `depth` actions deep (perft:
    tests/test_perft.py), each action played as the search's fast path
    plays it: a move after which the turn passes with no result (the fast
    path's tests: nothing held, no markers, below the ply limit,
    Game.turn_end and Game.can_move find nothing) by Game.move_piece and
    Game.end_quiet_turn, any other action by Game.do_code; each taken back
    by Game.undo_code.  It takes every move the tests allow, not only the
    quiet ones the search takes deeper than its last turn, so a count that
    differs from Game.do_code's says a test missed an end.  fast False:
    every action by Game.do_code.  g is left as it was."""
    bufs = [array("H", [0] * _MAXGEN) for _ in range(depth)]
    return _perft(g, depth, bufs, fast)


def _perft(g, depth, bufs, fast):
    if not depth:
        return 1
    buf = bufs[depth - 1]             # (the deeper levels use the ones below)
    n = g.gen_into(buf)
    if depth == 1:
        return n
    total = 0
    m = g.mover
    held = g.held_count
    plim = g.ply_limit - 1 if g.ply_limit else 0x20000000   # (as the search's)
    for i in range(n):
        a = buf[i]
        if (fast and not a & _KIND_BITS and (g.one_action or not held[m])
                and not g.markers_on and g.ply_count < plim):
            f = (a >> _SOURCE) & _POINT_BITS
            t = a >> _TARGET
            e = a | m << _SIDE_BIT | g.stage << _STAGE | g.move_piece(m, f, t)
            if (g.one_action or not held[m]) and not g.turn_end(m, e, 0) and g.can_move(1 - m):
                g.end_quiet_turn(e)
            else:
                g.unmove_piece(m, f, t, e)
                g.do_code(a)
        else:
            g.do_code(a)
        total += _perft(g, depth - 1, bufs, fast)
        g.undo_code()
    return total
