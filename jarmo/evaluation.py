# Evaluation: the static value of a position for the side to act, in 1/100 points.
#
# The AI's search (jarmo/ai.py) calls eval_scored (classic, standard: the
# points on the board, progress, held and recoverable pieces, captures
# made and risked) or eval_race (legendary, jasyr: the moves each side
# still needs to the enemy camp) at the leaves.  Both take the distance
# tables jarmo.ai builds per game kind (ai._tables: per side the target
# masks of every point, the distances to each set of free enemy-camp
# points and to each camp point) and read the Game through the members
# jarmo.codes.SEARCH_MEMBERS declares.  Nothing here allocates: the
# scratch tables below are shared, so neither function is re-entrant.
#
# docs/AI.md ("Evaluation") gives the terms and their weights.

from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

# Piece bytes (jarmo/codes.py).
_PRESENT = const(1)
_NORTH = const(2)
_GUARD = const(4)
_MARK = const(8)
# q & _WHOSE of a piece byte: _PRESENT for a South piece, _WHOSE for a North one.
_WHOSE = const(_PRESENT | _NORTH)
# A set of camp points (of either camp) holds camp point k (a1 + k or a5 + k) as
# bit k: 1, _K1, _K2, _K3, _K4.  (*25: the row of the distance tables.)
_K1 = const(2)
_K2 = const(4)
_K3 = const(8)
_K4 = const(16)
_ALL_PAIRS = const(0x1FFFFFF)   # _match: every (piece, point) pair, bit piece * 5 + point
_PIECE_PAIRS = const(0x1F)      # a piece's 5 pairs (shifted by piece * 5)
_POINT_PAIRS = const(0x108421)  # a point's 5 pairs, one per piece (shifted by point)
_FREE_ALL = const(775)          # 31 * 25: the distance-table row of all 5 camp points free

_UNREACHABLE = const(9)      # a distance where there is no way (as jarmo.ai's tables)

# Evaluation weights (docs/AI.md).  Scored rule sets count in 1/100 points.
_PIECE = const(100)        # a piece on the board: 1 point
_AI_CAMP = const(8)        # a piece on the enemy camp: the rule set's row's
                           # (jarmo.rulesets.AI_CAMP; the tally's 2 points: 200,
                           # standard 187)
_PROG = b"\x00\x28\x16\x0a\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"   # 0 40 22 10 3 by distance
_HELD = const(80)
_POOL = const(12)
_GUARD_RECOVERS = const(25)  # standard: a guard that reaches the camp brings one back
_RECALL_READY = const(60)    # classic: a marked archer on the enemy camp, room to recall
_MARKER = const(15)          # challenges: standing on a remote-camp marker
_STEP = const(100)           # race rule sets: one move of the race
_HOSTAGE_STEPS = const(3)    # race: a hostage costs its owner this many moves more
_WIN = const(100000)         # a won game (as jarmo.ai's); race: taking the last piece, 1/4
_BLOCKED = const(1)          # race: entering a camp point an enemy piece still holds


def _free(top, side):
    """5-bit set of the side's enemy-camp points not taken by its own pieces, times 25."""
    free = 0
    if side:
        for k in range(5):
            q = top[k]
            if not q or not q & _NORTH:
                free |= 1 << k
    else:
        for k in range(5):
            q = top[20 + k]
            if not q or q & _NORTH:
                free |= 1 << k
    return free * 25


def eval_scored(g, tables, side):
    """Classic and standard: points on the board (1 a piece, 2 on the enemy camp),
    progress, held and recoverable pieces, and the best capture the side to act
    (side: 0 South, 1 North) has (it may play it now) against the best the other
    side threatens."""
    masks0, masks1, dist0, dist1, single0, single1 = tables
    top = g.top
    under = g.under
    pool = g.pool
    classic = g.marks          # recalls, no guards
    camp = g.row[_AI_CAMP]
    # Free points of each side's enemy camp (not taken by its own pieces), and
    # whether each side's own camp has an empty point.
    # (Written out: a loop costs more than the work.  A point is free for a
    # side unless one of its own pieces stands on it: q & _WHOSE is _PRESENT
    # for South's, _WHOSE for North's; camp point k is bit k of the set.)
    a = top[20]
    b = top[21]
    c = top[22]
    e = top[23]
    f = top[24]
    off0 = (((a & _WHOSE) != _PRESENT) | ((b & _WHOSE) != _PRESENT) * _K1
            | ((c & _WHOSE) != _PRESENT) * _K2 | ((e & _WHOSE) != _PRESENT) * _K3
            | ((f & _WHOSE) != _PRESENT) * _K4) * 25
    camp_free1 = not (a and b and c and e and f)
    a = top[0]
    b = top[1]
    c = top[2]
    e = top[3]
    f = top[4]
    off1 = (((a & _WHOSE) != _WHOSE) | ((b & _WHOSE) != _WHOSE) * _K1
            | ((c & _WHOSE) != _WHOSE) * _K2 | ((e & _WHOSE) != _WHOSE) * _K3
            | ((f & _WHOSE) != _WHOSE) * _K4) * 25
    camp_free0 = not (a and b and c and e and f)
    guard0 = pool[0] and not classic
    guard1 = pool[1] and not classic
    recall0 = classic and pool[0] and camp_free0
    recall1 = classic and pool[1] and camp_free1
    vals = _VALUES
    prog = _PROG
    heroes = g.heroes
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
            if q & _NORTH:
                if p >= 5:            # (not on its enemy camp, row 0)
                    att1 |= masks1[p]
                    v = _PIECE + prog[dist1[off1 + p]]
                    if q & _GUARD and guard1:
                        v += _GUARD_RECOVERS
                else:
                    v = camp
                    if recall1 and q & _MARK:
                        v += _RECALL_READY
                score1 += v
                own1 |= 1 << p
            else:
                if p < 20:            # (not on its enemy camp, row 4)
                    att0 |= masks0[p]
                    v = _PIECE + prog[dist0[off0 + p]]
                    if q & _GUARD and guard0:
                        v += _GUARD_RECOVERS
                else:
                    v = camp
                    if recall0 and q & _MARK:
                        v += _RECALL_READY
                score0 += v
                own0 |= 1 << p
            vals[p] = v
            if heroes:                # (only the Golden Soldier is ever a hostage)
                u = under[p]
                if u:
                    if u & _NORTH:
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
    held = g.held_count
    if held[0]:
        score0 += held[0] * (_HELD if camp_free0 else _HELD - 20)
    if held[1]:
        score1 += held[1] * (_HELD if camp_free1 else _HELD - 20)
    score0 += pool[0] * _POOL
    score1 += pool[1] * _POOL
    if g.markers_on:
        markers = g.marker_points
        for k in range(2):
            q = top[markers[k]]
            if q:
                if q & _NORTH:
                    if pool[1]:
                        score1 += _MARKER
                elif pool[0]:
                    score0 += _MARKER
    # For the search's stuck test: the points the side to act can move to
    # (any piece off its enemy camp to a point without its own piece).
    if side:
        TARGETS[0] = att1 & ~own1
        return score1 - score0 + gain1 * 7 // 8 - gain0 // 4
    TARGETS[0] = att0 & ~own0
    return score0 - score1 + gain0 * 7 // 8 - gain1 // 4


_VALUES = array("h", [0] * 25)   # each piece's value, for eval_scored (not re-entrant)
TARGETS = [0]                   # set by eval_scored (not re-entrant)
_BIT = {}                        # 1 << p: p


_SCRATCH = bytearray(10)    # outside pieces of each side, for _match (not re-entrant)


def eval_race(g, tables, side):
    """Legendary and Jasyr: no points; whoever first has every piece on the
    board on the enemy camp wins.  Count the moves each side still needs (a
    captured piece needs none: captures help the victim, except the last
    piece), with the side to act (side: 0 South, 1 North) half a move ahead."""
    masks0, masks1, dist0, dist1, single0, single1 = tables
    top = g.top
    under = g.under
    scratch = _SCRATCH
    heroes = g.heroes
    n0 = n1 = 0
    need0 = need1 = 0
    att0 = att1 = 0
    f = -1
    for q in top:             # (iterating over the bytes is cheaper than indexing)
        f += 1
        if q:
            if q & _NORTH:
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
                    if u & _NORTH:
                        need1 += dist1[_FREE_ALL + f] + _HOSTAGE_STEPS
                    else:
                        need0 += dist0[_FREE_ALL + f] + _HOSTAGE_STEPS
    need0 += _match(top, single0, dist1, 0, n0, _free(top, 0) // 25)
    need1 += _match(top, single1, dist0, 1, n1, _free(top, 1) // 25)
    if side:
        v = (need0 - need1) * _STEP + _STEP // 2
    else:
        v = (need1 - need0) * _STEP + _STEP // 2
    # A side with one piece left off the enemy camp and nothing in hand: the
    # side to act may capture it, which wipes it out (nothing else left: a
    # win) or leaves it without a legal action (a draw).
    held = g.held_count
    pool = g.pool
    if side == 0 and n1 == 1 and not held[1] and not pool[1]:
        f = scratch[5]
        if (att0 >> f) & 1 and not under[f] and not (g.taken_held and top[f] & _GUARD):
            if 5 - pool[1] - g.out_count[1] == 1:
                v += _WIN // 4
            elif v < 0:
                v = 0
    elif side == 1 and n0 == 1 and not held[0] and not pool[0]:
        f = scratch[0]
        if (att1 >> f) & 1 and not under[f] and not (g.taken_held and top[f] & _GUARD):
            if 5 - pool[0] - g.out_count[0] == 1:
                v += _WIN // 4
            elif v < 0:
                v = 0
    return v


_LEVELS = [0] * 11          # per cost 0..10: the (piece, point) pairs of that cost, for _match
_CLEAR = {}                  # bit of pair j = piece * 5 + point: the pairs left once it is taken
for _j in range(25):
    _BIT[1 << _j] = _j
    _CLEAR[1 << _j] = _ALL_PAIRS & ~((_PIECE_PAIRS << (_j // 5 * 5)) | (_POINT_PAIRS << (_j % 5)))


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
    f1 = free & _K1
    f2 = free & _K2
    f3 = free & _K3
    f4 = free & _K4
    for i in range(n):
        p = scratch[base + i] * 5
        bit = 1 << (i * 5)
        if f0:
            c = single[p] + b0
            levels[c] |= bit
        if f1:
            c = single[p + 1] + b1
            levels[c] |= bit * _K1
        if f2:
            c = single[p + 2] + b2
            levels[c] |= bit * _K2
        if f3:
            c = single[p + 3] + b3
            levels[c] |= bit * _K3
        if f4:
            c = single[p + 4] + b4
            levels[c] |= bit * _K4
    clear = _CLEAR
    total = 0
    left = n
    avail = _ALL_PAIRS
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


