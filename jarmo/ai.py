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
# docs/AI.md describes the evaluation, the levels and the measured costs.

import os
from array import array

from jarmo import rulesets as R
from jarmo.board import HOME_ROW, ROW
from jarmo.game import Game
from jarmo.rng import Rng

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

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


def frozen(path):
    """True when the module whose __file__ is path was frozen into the
    firmware (python3 run.py firmware).  Its __file__ is then its path in
    the frozen set ("jarmo/ai.py") and no such file exists; a module loaded
    from a file names it (on CircuitPython "jarmo/ai.mpy" or "jarmo/ai.py",
    relative to "/", a PC an absolute path).  None (no __file__): False."""
    if not path:
        return False
    try:
        os.stat(path)
    except OSError:
        return True
    return False


FROZEN = frozen(globals().get("__file__"))
# Transposition table entries per level (a power of 2; 0: none).  Code in
# RAM keeps them small for the Pico's heap; frozen code runs from flash and
# leaves its heap to the game, so its tables are 4 times larger (with the
# 800 hash numbers of _zobrist), where level 4 is stronger (docs/AI.md,
# "Memory": 1024 entries for level 4 played no better).
TT_STOCK = (0, 0, 0, 128, 128)
TT_FROZEN = (0, 0, 0, 512, 512)


def use_tables(frozen):
    """Size the AI's tables for frozen code (True: TT_FROZEN and 800 hash
    numbers) or code in RAM (False: TT_STOCK and 57): the transposition
    tables of the players made after, and the keys of every search after.
    Done at import by FROZEN; the host's benchmarks and tests switch."""
    global _TT, _ZOBRIST
    _TT = TT_FROZEN if frozen else TT_STOCK
    _ZOBRIST = _zobrist(800 if frozen else 57)


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

# Action kinds (jarmo.game): move, recall, place, done, flip, flip+place, redeploy.
_MOVE = const(0)
_RECALL = const(1)
_PLACE = const(2)
_DONE = const(3)

# Evaluation weights (docs/AI.md).  Scored rule sets count in 1/100 points.
_PIECE = const(100)        # a piece on the board: 1 point
_CAMP = const(200)         # a piece on the enemy camp: 2 points
_PROG = b"\x00\x28\x16\x0a\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"   # 0 40 22 10 3 by distance
_HELD = const(80)
_POOL = const(12)
_GUARD_RECOVERS = const(25)  # standard: a guard that reaches the camp brings one back
_RECALL_READY = const(60)    # classic: a marked archer on the enemy camp, room to recall
_MARKER = const(15)          # challenges: standing on a remote-camp marker
_STEP = const(100)           # race rule sets: one move of the race
_HOSTAGE_STEPS = const(3)    # race: a hostage costs its owner this many moves more
_UNREACHABLE = const(9)
_BLOCKED = const(1)          # race: entering a camp point an enemy piece still holds

_TABLES = {}


def _zobrist(n):
    # The hash numbers: n = 57 (code in RAM), a random 29-bit number per point
    # (0..24) and per piece byte (25 + byte), a piece byte q on point p adding
    # z[p] + z[25 + q] (below 2**30, a small int) to the key: 0.2 KB where a
    # table per point and byte takes 3.2 KB.  n = 800 (frozen code: TT_FROZEN),
    # that table, a 30-bit number per point and byte, z[p * 32 + q]: with it
    # and 512-entry tables level 4 beat level 3 in standard in 87.1 % of the
    # decided games, with the 57 numbers 64.7 % (docs/AI.md, "Memory").
    z = array("l", [0] * n)
    x = Rng(20240609).state
    for k in range(n):
        x ^= (x & 0x7FFFFF) << 7      # Rng.next() written out
        x ^= x >> 9
        x ^= (x & 0xFFFFF) << 10
        z[k] = x if n == 800 else x >> 1
    return z


use_tables(FROZEN)


def _hash(g, z):
    """A 30-bit key of the position (not of its history), for the transposition table."""
    top = g._top
    under = g._under
    h = 0
    p = -1
    if len(z) == 800:         # a number per point and piece byte (frozen code)
        for q in top:
            p += 1
            if q:
                h ^= z[p << 5 | q]
                q = under[p]
                if q:
                    h ^= z[p << 5 | (q ^ 1)]
    elif g._heroes:           # (only the Golden Soldier is ever a hostage)
        for q in top:         # (iterating over the bytes is cheaper than indexing)
            p += 1
            if q:
                h ^= z[p] + z[25 + q]
                q = under[p]
                if q:
                    h ^= z[p] + z[25 + (q ^ 1)]    # (no piece byte lacks bit 1: a free slot)
    else:
        for q in top:
            p += 1
            if q:
                h ^= z[p] + z[25 + q]
    held = g._held
    pool = g._pool
    out = g._out
    return h ^ (held[0] | held[1] << 3 | pool[0] << 6 | pool[1] << 9 | out[0] << 12
                | out[1] << 15 | g._held_gold[0] << 18 | g._held_gold[1] << 19
                | g._pool_gold[0] << 20 | g._pool_gold[1] << 21 | g._turn << 22
                | g._markers_on << 23 | g._stage << 24)


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
    key = game._forward         # the game kind: its neighbour tables
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
    table = game._nbrs[side]
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


def _free(top, side):
    """5-bit set of the side's enemy-camp points not taken by its own pieces, times 25."""
    free = 0
    if side:
        for k in range(5):
            q = top[k]
            if not q or not q & 2:
                free |= 1 << k
    else:
        for k in range(5):
            q = top[20 + k]
            if not q or q & 2:
                free |= 1 << k
    return free * 25


# ------------------------------------------------------------- evaluation

def evaluate(g, tables):
    """Static value of the position for the side to act (g._turn)."""
    if g._scored:
        return _eval_scored(g, tables)
    return _eval_race(g, tables)


def _eval_scored(g, tables):
    """Classic and standard: points on the board (1 a piece, 2 on the enemy camp),
    progress, held and recoverable pieces, and the best capture the side to act
    has (it may play it now) against the best the other side threatens."""
    masks0, masks1, dist0, dist1, single0, single1 = tables
    top = g._top
    under = g._under
    pool = g._pool
    classic = g._marks          # recalls, no guards
    # Free points of each side's enemy camp (not taken by its own pieces), and
    # whether each side's own camp has an empty point.
    # (Written out: a loop costs more than the work.  A point is free for a
    # side unless one of its own pieces stands on it: q & 3 is 1 for South's,
    # 3 for North's.)
    a = top[20]
    b = top[21]
    c = top[22]
    e = top[23]
    f = top[24]
    off0 = (((a & 3) != 1) | ((b & 3) != 1) << 1 | ((c & 3) != 1) << 2
            | ((e & 3) != 1) << 3 | ((f & 3) != 1) << 4) * 25
    camp_free1 = not (a and b and c and e and f)
    a = top[0]
    b = top[1]
    c = top[2]
    e = top[3]
    f = top[4]
    off1 = (((a & 3) != 3) | ((b & 3) != 3) << 1 | ((c & 3) != 3) << 2
            | ((e & 3) != 3) << 3 | ((f & 3) != 3) << 4) * 25
    camp_free0 = not (a and b and c and e and f)
    guard0 = pool[0] and not classic
    guard1 = pool[1] and not classic
    recall0 = classic and pool[0] and camp_free0
    recall1 = classic and pool[1] and camp_free1
    vals = _VALUES
    prog = _PROG
    heroes = g._heroes
    score0 = score1 = 0
    att0 = att1 = 0
    own0 = own1 = 0
    # One pass: each piece's value (kept for the captures below), the points
    # each side attacks and where each side's pieces stand.  The two sides'
    # branches mirror each other on purpose: this runs at every leaf of the
    # search, and plain locals per side are much cheaper on MicroPython than
    # indexing per-side tuples.
    p = -1
    for q in top:             # (iterating over the bytes is cheaper than indexing)
        p += 1
        if q:
            if q & 2:
                if p >= 5:            # (not on its enemy camp, row 0)
                    att1 |= masks1[p]
                    v = _PIECE + prog[dist1[off1 + p]]
                    if q & 4 and guard1:
                        v += _GUARD_RECOVERS
                else:
                    v = _CAMP
                    if recall1 and q & 8:
                        v += _RECALL_READY
                score1 += v
                own1 |= 1 << p
            else:
                if p < 20:            # (not on its enemy camp, row 4)
                    att0 |= masks0[p]
                    v = _PIECE + prog[dist0[off0 + p]]
                    if q & 4 and guard0:
                        v += _GUARD_RECOVERS
                else:
                    v = _CAMP
                    if recall0 and q & 8:
                        v += _RECALL_READY
                score0 += v
                own0 |= 1 << p
            vals[p] = v
            if heroes:                # (only the Golden Soldier is ever a hostage)
                u = under[p]
                if u:
                    if u & 2:
                        score1 += _PIECE     # own Golden Soldier under it: counts
                    else:
                        score0 += _PIECE     # an enemy hostage: counts for its owner
    # The best capture of each side: the value of the piece taken, less a
    # piece if the victim is defended (the taker can be taken back).
    gain0 = gain1 = 0
    bit = _BIT
    m = att0 & own1
    while m:
        b = m & -m
        m ^= b
        v = vals[bit[b]]
        if att1 & b:
            v -= _PIECE
        if v > gain0:
            gain0 = v
    m = att1 & own0
    while m:
        b = m & -m
        m ^= b
        v = vals[bit[b]]
        if att0 & b:
            v -= _PIECE
        if v > gain1:
            gain1 = v
    held = g._held
    if held[0]:
        score0 += held[0] * (_HELD if camp_free0 else _HELD - 20)
    if held[1]:
        score1 += held[1] * (_HELD if camp_free1 else _HELD - 20)
    score0 += pool[0] * _POOL
    score1 += pool[1] * _POOL
    if g._markers_on:
        markers = g._markers
        for k in range(2):
            q = top[markers[k]]
            if q:
                if q & 2:
                    if pool[1]:
                        score1 += _MARKER
                elif pool[0]:
                    score0 += _MARKER
    # For the search's stuck test: the points the side to act can move to
    # (any piece off its enemy camp to a point without its own piece).
    if g._turn:
        _TARGETS[0] = att1 & ~own1
        return score1 - score0 + (gain1 * 7 >> 3) - (gain0 >> 2)
    _TARGETS[0] = att0 & ~own0
    return score0 - score1 + (gain0 * 7 >> 3) - (gain1 >> 2)


_VALUES = array("h", [0] * 25)   # each piece's value, for _eval_scored (not re-entrant)
_TARGETS = [0]                   # set by _eval_scored (not re-entrant)
_BIT = {}                        # 1 << p: p
for _p in range(25):
    _BIT[1 << _p] = _p


_SCRATCH = bytearray(10)    # outside pieces of each side, for _match (not re-entrant)


def _eval_race(g, tables):
    """Legendary and Jasyr: no points; whoever first has every piece on the
    board on the enemy camp wins.  Count the moves each side still needs (a
    captured piece needs none: captures help the victim, except the last
    piece), with the side to act half a move ahead."""
    masks0, masks1, dist0, dist1, single0, single1 = tables
    top = g._top
    under = g._under
    scratch = _SCRATCH
    heroes = g._heroes
    n0 = n1 = 0
    need0 = need1 = 0
    att0 = att1 = 0
    f = -1
    for q in top:             # (iterating over the bytes is cheaper than indexing)
        f += 1
        if q:
            if q & 2:
                if f >= 5:            # (not on its enemy camp, row 0)
                    att1 |= masks1[f]
                    if n1 < 5:
                        scratch[5 + n1] = f
                        n1 += 1
            elif f < 20:              # (not on its enemy camp, row 4)
                att0 |= masks0[f]
                if n0 < 5:
                    scratch[n0] = f
                    n0 += 1
            if heroes:  # (only the Golden Soldier is ever a hostage)
                u = under[f]
                if u:       # a hostage: it moves only once rescued
                    if u & 2:
                        need1 += dist1[775 + f] + _HOSTAGE_STEPS
                    else:
                        need0 += dist0[775 + f] + _HOSTAGE_STEPS
    need0 += _match(top, single0, dist1, 0, n0, _free(top, 0) // 25)
    need1 += _match(top, single1, dist0, 1, n1, _free(top, 1) // 25)
    side = g._turn
    if side:
        v = (need0 - need1) * _STEP + (_STEP >> 1)
    else:
        v = (need1 - need0) * _STEP + (_STEP >> 1)
    # A side with one piece left off the enemy camp and nothing in hand: the
    # side to act may capture it, which wipes it out (nothing else left: a
    # win) or leaves it without a legal action (a draw).
    held = g._held
    pool = g._pool
    if side == 0 and n1 == 1 and not held[1] and not pool[1]:
        f = scratch[5]
        if (att0 >> f) & 1 and not under[f] and not (g._taken_held and top[f] & 4):
            if 5 - pool[1] - g._out[1] == 1:
                v += _WIN >> 2
            elif v < 0:
                v = 0
    elif side == 1 and n0 == 1 and not held[0] and not pool[0]:
        f = scratch[0]
        if (att1 >> f) & 1 and not under[f] and not (g._taken_held and top[f] & 4):
            if 5 - pool[0] - g._out[0] == 1:
                v += _WIN >> 2
            elif v < 0:
                v = 0
    return v


_LEVELS = [0] * 11          # per cost 0..10: the (piece, point) pairs of that cost, for _match
_CLEAR = {}                  # bit of pair j = piece * 5 + point: the pairs left once it is taken
for _j in range(25):
    _CLEAR[1 << _j] = 0x1FFFFFF & ~((0x1F << (_j // 5 * 5)) | (0x108421 << (_j % 5)))


def _match(top, single, enemy_dist, side, n, free):
    """Moves the side's n outside pieces (in _SCRATCH) need to reach distinct
    free points of its enemy camp, pairing the cheapest first.  Entering a
    point held by an enemy piece captures it, which saves the enemy that
    piece's moves: that counts against the side.

    Each round takes the cheapest (piece, point) pair left, the first in
    (piece, point) order among equals.  The pairs are sorted into bit sets
    by cost (bit piece * 5 + point), so each round is the lowest set bit of
    the cheapest non-empty set."""
    if not n:
        return 0
    scratch = _SCRATCH
    levels = _LEVELS
    for c in range(11):
        levels[c] = 0
    base = side * 5
    first = 0 if side else 20
    b0 = b1 = b2 = b3 = b4 = 0       # +_BLOCKED for a free point an enemy piece holds
    if top[first]:
        b0 = _BLOCKED
    if top[first + 1]:
        b1 = _BLOCKED
    if top[first + 2]:
        b2 = _BLOCKED
    if top[first + 3]:
        b3 = _BLOCKED
    if top[first + 4]:
        b4 = _BLOCKED
    f0 = free & 1
    f1 = free & 2
    f2 = free & 4
    f3 = free & 8
    f4 = free & 16
    for i in range(n):
        p = scratch[base + i] * 5
        bit = 1 << (i * 5)
        if f0:
            c = single[p] + b0
            levels[c] |= bit
        if f1:
            c = single[p + 1] + b1
            levels[c] |= bit << 1
        if f2:
            c = single[p + 2] + b2
            levels[c] |= bit << 2
        if f3:
            c = single[p + 3] + b3
            levels[c] |= bit << 3
        if f4:
            c = single[p + 4] + b4
            levels[c] |= bit << 4
    clear = _CLEAR
    total = 0
    left = n
    avail = 0x1FFFFFF
    for c in range(11):
        m = levels[c] & avail
        while m:
            avail &= clear[m & -m]
            total += c
            left -= 1
            if not left:
                return total
            m &= avail
    return total + left * _UNREACHABLE


# ----------------------------------------------------------------- player

def level_number(level):
    """0..4 for "random", "greedy", 0..4 or "0".."4"; ValueError otherwise."""
    if isinstance(level, str):
        name = level.strip().lower()
        if name in LEVELS:
            return LEVELS.index(name)
        if name in ("0", "1"):
            return int(name)
        raise ValueError("unknown AI level %r: expected random, greedy, 2, 3 or 4" % (level,))
    if type(level) is int and 0 <= level <= 4:
        return level
    raise ValueError("unknown AI level %r: expected random, greedy, 2, 3 or 4" % (level,))


# An AI player of one level; seed fixes its tie-breaks (same seed, same game).
class Player:

    def __init__(self, level="greedy", seed=0, slice_nodes=SLICE):
        self.level = level_number(level)
        self.slice_nodes = slice_nodes   # actions applied per step()
        self.seed = seed
        self.rng = Rng(seed)
        self.depth = _DEPTH[self.level]
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
                    b = row[R.AI_NODES3 if self.level == 3 else R.AI_NODES4]
            self.budget = b
        else:
            self._t0 = now_ms & _TICKS_MASK
            self.budget = _CAP[self.level]
        hist = self._hist
        if hist is not None:
            for k in range(2 * _HIST):
                hist[k] = 0
        if self._ttmask >= 0:
            df = self._ttdf
            for k in range(self._ttmask + 1):
                df[k] = 0
        if g._result is not None:
            self._answer = []
            return
        if self.level == 0:
            self._answer = self._random_turn()
            return
        self._prevlen = 0
        # Per rule set (docs/AI.md, "Late-move reductions"): measured to help
        # only where enabled.
        tt = self._ttmask >= 0
        self._skip3 = _SKIP3 and tt and not g._scored
        lmr = row[R.AI_LMR] if self.lmr_from is None else self.lmr_from
        self._lmr = lmr if tt else 99
        self._tables = _TABLES.get(g._forward)
        if self._tables is None:
            self._iter = 0        # the first steps build the tables: slices of their own
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
            if self._tables is None:
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
        mover = g._turn
        line = []
        while g._result is None and g._turn == mover:
            n = g._gen(buf)
            code = buf[rng.below(n)]
            line.append(code)
            g._do(code)
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
        self._enter(0, g._turn, -_INF, _INF, self._iter, 0, 1)

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
        n = g._gen(buf)
        if d and not g._one_action and (g._stage or g._held[mover]):
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
        stage = g._stage
        log = g._log
        last = log[-1] if log else 0
        k = 0
        if stage == 0:
            top = g._top
            nbrs = g._nbrs[g._turn]
            sidebit = g._turn << 1
            for j in range(n):
                c = buf[j]
                if c & 7 == _PLACE:
                    ok = False
                    for t in nbrs[c >> 8]:
                        q = top[t]
                        if not q or (q & 2) != sidebit:
                            ok = True
                            break
                    if not ok:
                        continue
                buf[k] = c
                k += 1
        elif stage == 1:
            if last & 7 != _PLACE:
                return n
            x = (last >> 8) & 31
            for j in range(n):
                c = buf[j]
                if c & 7 == _MOVE and (c >> 3) & 31 == x:
                    buf[k] = c
                    k += 1
        else:
            if last & 7 != _PLACE or (last >> 14) & 3 < 2:
                return n
            # After a placement: further placements on later points only, and
            # no redeploy (redeploying first gives the same turn).
            x = (last >> 8) & 31
            for j in range(n):
                c = buf[j]
                kind = c & 7
                if kind == _DONE or (kind == _PLACE and c >> 8 > x):
                    buf[k] = c
                    k += 1
        return k if k else n

    def _order(self, d, buf, n, mover, ft):
        """Ordering keys: the last iteration's line, captures, killers, progress."""
        keys = self._keys[d]
        if keys is None:
            keys = self._keys[d] = array("h", [0] * _MAXGEN)
        g = self._g
        top = g._top
        scored = g._scored
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
            for k in range(d):
                if self._pvpath(k) != prev[k]:
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
            kind = c & 7
            if kind == _MOVE:
                f = (c >> 3) & 31
                t = c >> 8
                key = (dist[775 + f] - dist[775 + t]) * 10
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

    def _pvpath(self, k):
        """The action taken at depth k on the current search path."""
        return self._bufs[k][self._i[k] - 1]

    def _search(self, limit):
        """Run the search for up to `limit` actions applied.

        0: paused (call again), 1: the iteration finished, 2: out of budget.
        """
        g = self._g
        do = g._do
        undo = g._undo
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
        evalf = _eval_scored if g._scored else _eval_race   # evaluate(), one call less
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
        top = g._top
        lmr = self._lmr
        under = g._under
        held = g._held
        log = g._log
        canmove = g._can_move
        scored = g._scored
        targets = _TARGETS
        pool = g._pool
        out = g._out
        classic = g._ban            # the back-and-forth ban, no repetition, no wipe-out
        jasyr = g._one_action       # a placement is a whole turn
        plim = g.ply_limit - 1 if g.ply_limit else 1 << 29
        size = self._size
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
                if null and i >= lmr and not (a & 7 == _MOVE and top[a >> 8]):
                    red = 1
                # The quiet-move fast path: a move that takes nothing, does
                # not enter the enemy camp and leaves nothing to do after it
                # ends the turn with no result (the repetition, ply limit and
                # stuck tests are checked here as Game._end_check does them;
                # where one might find something, Game._do runs).  At the
                # last turn searched such a move is a leaf, played on the
                # board only for the evaluation (fast = 1); deeper, it is
                # played as Game._do would, log entry included, and taken
                # back by Game._undo (fast = 2).
                fast = 0
                t = a >> 8
                quiet = (not a & 7 and not top[t] and (t < 20 if m == 0 else t > 4)
                         and not under[(a >> 3) & 31])
                if ((quiet or (scored and not a & 7 and tdep[d] <= 1))
                        and (jasyr or not held[m]) and not g._markers_on and g._plies < plim):
                    if not classic and len(log) >= 7:
                        e2 = log[-1]
                        e3 = log[-2]
                        if ((e2 | e3) & 7 or not (m ^ (e2 >> 13)) & 1 or (m ^ (e3 >> 13)) & 1
                                or e3 & 0x1FFF == ((a >> 3) & 31) << 8 | t << 3):
                            # Maybe a repetition: _end_check's full test.
                            log.append(a | m << 13)
                            if g._repeat_move(0) >= 0 and g._repeat_move(1) >= 0:
                                t = -1       # a repetition: the full path
                            log.pop()
                    if t >= 0 and not quiet:
                        # Any other move that ends the last turn (classic and
                        # standard): Game._move and _unmove, with the tests of
                        # Game._end_check that a capture or a move into the
                        # enemy camp calls for; where one finds a result or
                        # the turn goes on (a piece recovered), Game._do.
                        f = (a >> 3) & 31
                        e = a | m << 13 | g._stage << 14 | g._move(m, f, t)
                        o = 1 - m
                        if not ((held[m] and not jasyr)
                                or (not classic and (pool[o] + out[o] == 5 or pool[m] + out[m] == 5))
                                or ((t < 5 if m else t >= 20) and g._all_in_camp(m))
                                or (e >> 16 & 31 and g._all_in_camp(o))):
                            g._turn = o
                            v = -evalf(g, tables)
                            x = targets[0]
                            if (x & (x - 1) if classic else x) or canmove(o):
                                nodes += 1
                                fast = 1
                            g._turn = m
                        g._unmove(m, f, t, e)
                    elif t >= 0:
                        f = (a >> 3) & 31
                        p = top[f]
                        top[f] = 0
                        top[t] = p
                        if tdep[d] <= 1:
                            g._turn = 1 - m
                            v = -evalf(g, tables)
                            # Stuck?  With a point to move to (two in classic,
                            # where one move may be banned) the other side is
                            # not; else Game._can_move tells (if not: Game._do).
                            x = targets[0] if scored else 0
                            if (x & (x - 1) if classic else x) or canmove(1 - m):
                                nodes += 1
                                fast = 1
                            top[t] = 0
                            top[f] = p
                            g._turn = m
                        elif canmove(1 - m):
                            log.append(a | m << 13 | g._stage << 14 | ((p >> 2) & 7) << 21)
                            g._plies += 1
                            g._stage = 0
                            g._turn = 1 - m
                            fast = 2
                        else:
                            top[t] = 0
                            top[f] = p
                if fast != 1:
                    if not fast:
                        do(a)
                    nodes += 1
                    res = g._result
                    if res is not None:
                        w = res.winner
                        if w is None:
                            v = 0
                        elif (w == "north") == (m == 1):
                            v = _WIN - d
                        else:
                            v = d - _WIN
                    elif g._turn == m:
                        if d + 1 < size:
                            nw[d] = null
                            d += 1
                            self._enter(d, m, lo, hi, tdep[d - 1], 0, ft[d - 1])
                            continue
                        v = evalf(g, tables)     # a path too long for the stacks
                    elif tdep[d] <= 1 or d + 1 >= size:
                        v = -evalf(g, tables)
                    else:
                        td = tdep[d] - 1
                        if red and td >= _LMR_MIN:
                            td -= 1
                        t = -1
                        if ttmask >= 0:
                            e = log[-1]
                            if neg[d] and not e & 0x1F0007 and not e >> 24 and not top[e >> 3 & 31]:
                                    # A turn of one quiet move from where the last
                                # began: update that key (the piece leaves its
                                # point, lands on another, the turn passes).
                                f = (e >> 3) & 31
                                t = e >> 8 & 31
                                if ztab:
                                    h = (hashes[d] ^ zob[f << 5 | 1 | m << 1 | (e >> 21 & 7) << 2]
                                         ^ zob[t << 5 | top[t]] ^ 0x400000)
                                else:
                                    h = (hashes[d] ^ (zob[f] + zob[26 + (m << 1 | (e >> 21 & 7) << 2)])
                                         ^ (zob[t] + zob[25 + top[t]]) ^ 0x400000)
                            else:
                                h = _hash(g, zob)
                            t = (h ^ (h >> 12)) & ttmask
                            x = ttdf[t]
                            if x and ttkey[t] == h:
                                val = ttval[t]
                                x2 = x & 3
                                if x >> 2 >= td and (x2 == _EXACT
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
                        t = (h ^ (h >> 12)) & ttmask
                        x = ttdf[t]
                        if ttkey[t] != h or x >> 2 <= tdep[d]:
                            ttkey[t] = h
                            ttval[t] = v
                            ttmv[t] = bmv[d]
                            if v <= alpha0[d]:
                                x = _UPPER
                            elif v >= beta[d]:
                                x = _LOWER
                            else:
                                x = _EXACT
                            ttdf[t] = tdep[d] << 2 | x
                    v = -v
                    child_ft = 0
                d -= 1
                a = bufs[d][ii[d] - 1]
                undo()
            # Back at node d with action a worth v to its mover.
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
                        if ordered and a & 7 == _MOVE:
                            kill = self._killer
                            if kill[2 * d] != a:
                                kill[2 * d + 1] = kill[2 * d]
                                kill[2 * d] = a
                            hist = self._hist
                            if hist is not None:
                                h = mov[d] * _HIST + ((a >> 3) & 31) * 12 + (a >> 8) + 6
                                x = hist[h] + tdep[d] * tdep[d] * 2
                                hist[h] = x if x < _HIST_MAX else _HIST_MAX
