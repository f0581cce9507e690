"""AI opponents: random, greedy and alpha-beta lookahead, thinking in slices.

    from jarmo.ai import Player
    p = Player("greedy", seed=1)         # "random" (0), "greedy" (1), 2, 3, 4
    turn = p.choose(game)                # e.g. ["b4-c5", "@a1"]; game unchanged
    p.start(game)                        # or think in bounded slices:
    while (turn := p.step()) is None:    #   each step() applies at most SLICE
        ...                              #   actions in the search

The search runs on a private copy of the game (synchronised field by field
in start(), not replayed), so the caller's game is never touched and can be
drawn between slices.  It walks the tree action by action with an explicit
stack: one preallocated action buffer per depth, no per-node objects, so it
can stop after any action and go on in the next step().  A value is always
from the point of view of the side that acts at that node; it changes sign
only where the turn passes to the other side (negamax over actions).

docs/AI.md describes the evaluation, the levels and the measured costs.
"""

from array import array

from jarmo.board import HOME_ROW, ROW
from jarmo.game import Game, action_text
from jarmo.rng import Rng

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

SLICE = const(8)           # actions applied per step() by default: see docs/AI.md
_INF = const(1000000)
_WIN = const(100000)       # a won game; minus the depth, so sooner is better
_MAXACT = const(9)         # most actions one turn can take (place, move, redeploy, 5 x place, done)

# Per level: turns searched and the node budget (actions applied) per turn.
LEVELS = ("random", "greedy", "2", "3", "4")
_DEPTH = (0, 1, 2, 4, 6)
_BUDGET = (0, 1000000, 1500, 3000, 12000)

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


def _tables(game):
    """Per side: (target mask of every point, distances to the enemy camp).

    Distances are a flat bytes(32 * 25): entry free * 25 + p is the fewest
    moves from p to a point of the enemy camp in the 5-bit set `free` (the
    camp points not taken by the side's own pieces), never passing through
    the camp on the way; _UNREACHABLE where there is no way.  free = 31 is
    the plain distance.  Built on first use, about 2 KB a game kind.
    """
    key = game._jasyr
    tables = _TABLES.get(key)
    if tables is None:
        nbrs = game._nbrs
        masks = []
        dists = []
        singles = []
        for side in (0, 1):
            table = nbrs[side]
            m = []
            for f in range(25):
                bits = 0
                for t in table[f]:
                    bits |= 1 << t
                m.append(bits)
            masks.append(tuple(m))
            first = HOME_ROW[1 - side] * 5
            single = []
            for k in range(5):
                d = bytearray([_UNREACHABLE] * 25)
                d[first + k] = 0
                changed = True
                while changed:
                    changed = False
                    for f in range(25):
                        if ROW[f] * 5 == first:
                            continue          # a piece on the enemy camp is frozen
                        for t in table[f]:
                            if d[t] + 1 < d[f]:
                                d[f] = d[t] + 1
                                changed = True
                single.append(d)
            flat = bytearray(32 * 25)
            for free in range(32):
                for p in range(25):
                    best = _UNREACHABLE
                    if ROW[p] * 5 == first:
                        best = 0
                    else:
                        for k in range(5):
                            if free >> k & 1 and single[k][p] < best:
                                best = single[k][p]
                    flat[free * 25 + p] = best
            dists.append(bytes(flat))
            singles.append(bytes(single[0] + single[1] + single[2] + single[3] + single[4]))
        tables = (masks[0], masks[1], dists[0], dists[1], singles[0], singles[1])
        _TABLES[key] = tables
    return tables


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
    att0 = att1 = 0
    for f in range(25):
        q = top[f]
        if q:
            if q & 2:
                if ROW[f]:
                    att1 |= masks1[f]
            elif ROW[f] != 4:
                att0 |= masks0[f]
    pool = g._pool
    classic = g._classic
    off0 = _free(top, 0)
    off1 = _free(top, 1)
    score0 = score1 = 0
    gain0 = gain1 = 0
    camp_free0 = camp_free1 = False
    for p in range(5):
        if not top[p]:
            camp_free0 = True
        if not top[20 + p]:
            camp_free1 = True
    # The two sides' branches below mirror each other on purpose: this runs at
    # every leaf of the search, and plain locals per side are much cheaper on
    # MicroPython than indexing per-side tuples.
    for p in range(25):
        q = top[p]
        if not q:
            continue
        r = ROW[p]
        if q & 2:
            if r == 0:
                v = _CAMP
                if classic and q & 8 and pool[1] and camp_free1:
                    v += _RECALL_READY
            else:
                v = _PIECE + _PROG[dist1[off1 + p]]
                if q & 4 and pool[1] and not classic:
                    v += _GUARD_RECOVERS
            if under[p]:
                if under[p] & 2:
                    score1 += _PIECE     # own Golden Soldier under it: counts
                else:
                    score0 += _PIECE     # an enemy hostage: counts for its owner
            score1 += v
            if (att0 >> p) & 1:
                loss = v
                if (att1 >> p) & 1:
                    loss -= _PIECE
                if loss > gain0:
                    gain0 = loss
        else:
            if r == 4:
                v = _CAMP
                if classic and q & 8 and pool[0] and camp_free0:
                    v += _RECALL_READY
            else:
                v = _PIECE + _PROG[dist0[off0 + p]]
                if q & 4 and pool[0] and not classic:
                    v += _GUARD_RECOVERS
            if under[p]:
                if under[p] & 2:
                    score1 += _PIECE
                else:
                    score0 += _PIECE
            score0 += v
            if (att1 >> p) & 1:
                loss = v
                if (att0 >> p) & 1:
                    loss -= _PIECE
                if loss > gain1:
                    gain1 = loss
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
    if g._turn:
        return score1 - score0 + (gain1 * 7 >> 3) - (gain0 >> 2)
    return score0 - score1 + (gain0 * 7 >> 3) - (gain1 >> 2)


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
    n0 = n1 = 0
    need0 = need1 = 0
    att0 = att1 = 0
    for f in range(25):
        q = top[f]
        if q:
            r = ROW[f]
            if q & 2:
                if r:
                    att1 |= masks1[f]
                    if n1 < 5:
                        scratch[5 + n1] = f
                        n1 += 1
            elif r != 4:
                att0 |= masks0[f]
                if n0 < 5:
                    scratch[n0] = f
                    n0 += 1
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
        if (att0 >> f) & 1 and not under[f] and not (g._jasyr and top[f] & 4):
            if 5 - pool[1] - g._out[1] == 1:
                v += _WIN >> 2
            elif v < 0:
                v = 0
    elif side == 1 and n0 == 1 and not held[0] and not pool[0]:
        f = scratch[0]
        if (att1 >> f) & 1 and not under[f] and not (g._jasyr and top[f] & 4):
            if 5 - pool[0] - g._out[0] == 1:
                v += _WIN >> 2
            elif v < 0:
                v = 0
    return v


def _match(top, single, enemy_dist, side, n, free):
    """Moves the side's n outside pieces (in _SCRATCH) need to reach distinct
    free points of its enemy camp, pairing the cheapest first.  Entering a
    point held by an enemy piece captures it, which saves the enemy that
    piece's moves: that counts against the side."""
    if not n:
        return 0
    scratch = _SCRATCH
    base = side * 5
    first = 0 if side else 20
    total = 0
    used = 0
    for _ in range(n):
        best = 99
        bi = bk = -1
        for i in range(n):
            if (used >> i) & 1:
                continue
            p = scratch[base + i]
            for k in range(5):
                if (free >> k) & 1:
                    c = single[k * 25 + p]
                    if top[first + k]:
                        c += _BLOCKED
                    if c < best:
                        best = c
                        bi = i
                        bk = k
        if bi < 0:
            total += _UNREACHABLE
            continue
        total += best
        used |= 1 << bi
        free &= ~(1 << bk)
    return total


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


class Player:
    """An AI player of one level; seed fixes its tie-breaks (same seed, same game)."""

    def __init__(self, level="greedy", seed=0, slice_nodes=SLICE):
        self.level = level_number(level)
        self.slice_nodes = slice_nodes   # actions applied per step()
        self.seed = seed
        self.rng = Rng(seed)
        self.depth = _DEPTH[self.level]
        self.budget = _BUDGET[self.level]
        self.nodes = 0                 # actions applied for the last answer
        self.completed_depth = 0       # turns fully searched for the last answer
        self._g = None
        self._answer = None
        size = _MAXACT * max(self.depth, 1) + 2
        self._bufs = [None] * size     # action buffers, allocated on first use
        self._keys = [None] * size     # ordering keys (levels 2+), same
        self._n = [0] * size
        self._i = [0] * size
        self._alpha = [0] * size
        self._beta = [0] * size
        self._best = [0] * size
        self._tdep = [0] * size
        self._mover = [0] * size
        self._neg = bytearray(size)    # 1: the turn passed on entering this node
        self._ft = bytearray(size)     # 1: this node is inside the first turn
        self._pvcode = [array("H", [0] * (_MAXACT + 2)) for _ in range(_MAXACT + 2)]
        self._pvlen = [0] * (_MAXACT + 2)
        self._prev = array("H", [0] * (_MAXACT + 2))   # best line of the last iteration
        self._prevlen = 0
        self._killer = array("H", [0] * (2 * size))
        self._d = -1
        self._tables = None

    # ---------------------------------------------------------- public API

    def choose(self, game):
        """The whole turn to play now, as a list of action strings; game unchanged."""
        self.start(game)
        answer = self.step()
        while answer is None:
            answer = self.step()
        return answer

    def start(self, game):
        """Begin thinking about game's position; then call step() until it answers."""
        self._sync(game)
        self._answer = None
        self.nodes = 0
        self.completed_depth = 0
        g = self._g
        if g._result is not None:
            self._answer = []
            return
        if self.level == 0:
            self._answer = self._random_turn()
            return
        self._tables = _tables(g)
        self._prevlen = 0
        self._iter = 1
        self._begin_iteration()

    def step(self):
        """One bounded slice of thinking (at most slice_nodes actions applied):
        None while still thinking, then the turn as a list of action strings."""
        if self._answer is not None:
            return self._answer
        if self._d < 0:
            raise RuntimeError("Player.step() before Player.start(game)")
        status = self._search(self.slice_nodes)
        if status == 0:
            return None
        if status == 1:   # an iteration finished
            self._keep_line()
            self.completed_depth = self._iter
            if self._iter < self.depth and self.nodes < self.budget:
                self._iter += 1
                self._begin_iteration()
                return None
        else:             # out of budget: the partial iteration's line if it has one
            if self._pvlen[0]:
                self._keep_line()
        self._d = -1
        self._answer = [action_text(self._prev[k]) for k in range(self._prevlen)]
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
            line.append(action_text(code))
            g._do(code)
            self.nodes += 1
        return line

    def _buffer(self, d):
        buf = self._bufs[d]
        if buf is None:
            buf = self._bufs[d] = array("H", [0] * 96)
        return buf

    def _begin_iteration(self):
        g = self._g
        self._d = 0
        self._enter(0, g._turn, -_INF, _INF, self._iter, 0, 1)

    def _keep_line(self):
        n = self._pvlen[0]
        line = self._pvcode[0]
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
        if d and not g._jasyr:
            n = self._prune(g, buf, n)
        self._n[d] = n
        self._i[d] = 0
        self._alpha[d] = alpha
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
            keys = self._keys[d] = array("h", [0] * 96)
        g = self._g
        top = g._top
        scored = g._scored
        dist = self._tables[2 + mover]
        k1 = self._killer[2 * d]
        k2 = self._killer[2 * d + 1]
        pv = -1
        if ft and d < self._prevlen:
            # On the last iteration's line so far?  Then its next action first.
            prev = self._prev
            pv = prev[d]
            for k in range(d):
                if self._pvpath(k) != prev[k]:
                    pv = -1
                    break
        for j in range(n):
            c = buf[j]
            kind = c & 7
            if kind == _MOVE:
                f = (c >> 3) & 31
                t = c >> 8
                key = (dist[775 + f] - dist[775 + t]) * 10
                q = top[t]
                if q:
                    if scored:
                        key += 300 if ROW[t] == HOME_ROW[1 - mover] else 200
                    else:
                        key -= 50
            elif kind == _DONE:
                key = 0 if scored else 5
            elif kind == _PLACE or kind == _RECALL:
                key = 50 if scored else -100
            else:
                key = 60 if scored else -100
            if c == k1:
                key += 1000
            elif c == k2:
                key += 900
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
        ordered = self.level >= 2
        budget = self.budget
        nodes = self.nodes
        stop = nodes + limit
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
                    d += 1
                    self._enter(d, m, alpha[d - 1], beta[d - 1], tdep[d - 1], 0, ft[d - 1])
                    continue
                elif tdep[d] <= 1:
                    v = -evaluate(g, tables)
                else:
                    d += 1
                    self._enter(d, 1 - m, -beta[d - 1], -alpha[d - 1], tdep[d - 1] - 1, 1, 0)
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
                    v = -v
                    child_ft = 0
                d -= 1
                a = bufs[d][ii[d] - 1]
                undo()
            # Back at node d with action a worth v to its mover.
            if v > best[d]:
                best[d] = v
                if ft[d]:
                    line = pvcode[d]
                    line[d] = a
                    if child_ft:
                        src = pvcode[d + 1]
                        e = pvlen[d + 1]
                        for k in range(d + 1, e):
                            line[k] = src[k]
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
