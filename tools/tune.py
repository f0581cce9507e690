#!/usr/bin/env python3
"""Fit the scored evaluation's weights to game outcomes (Texel-style):
`python3 run.py tune`.

    python3 run.py tune positions --rules standard --games 3000   # self-play: .cache/tune-standard.jsonl
    python3 run.py tune fit --rules standard                      # the weights that fit them best
    python3 run.py tune match --rules standard --weights 196,50,...  # those against the shipped ones

jarmo/evaluation.py's eval_scored is a sum of terms, each a count of one
side's pieces less the other's (off and on the enemy camp, 1..4 moves from
a free camp point, guards that would recover a piece, ready recalls, held,
recoverable) times a weight, plus eighths of the best capture each side
has.  `positions` plays seeded self-play games (level 3's search at
--budget nodes, after up to --random-actions random opening actions, every
core) and keeps, at the start of every turn, the terms for the side to act
and how the game ended for it (1 won, 0.5 drawn, 0 lost).  `fit` finds the
scale K for which sigmoid(K * value / 100) best predicts those outcomes
with the --start weights (default: the shipped ones), then the weights that
predict them best at that K (mean squared error, Adam gradient descent; a
piece off the camp stays 100, and --fixed names others kept), so the
fitted values stay on the shipped scale; it prints them in the order of
WEIGHT_NAMES, the form --weights takes.  `match` plays --level with
--weights against --against-level (default the same) with --against
(default: the shipped weights), each on its node budget (--budget,
--against-budget), no book, no variety, sides alternating, seeds fixed by
--seed.  docs/AI.md, "Tuned weights", has the runs made with it.
"""

import argparse
import json
import math
import multiprocessing
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from host.opponents import make_player  # noqa: E402
from host.selfplay import game_seeds  # noqa: E402
from jarmo import ai, evaluation  # noqa: E402
from jarmo import rulesets as R  # noqa: E402
from jarmo.game import Game  # noqa: E402
from jarmo.rng import Rng  # noqa: E402

# The weights, in the order of the terms: the piece (fixed at 100), then
# WEIGHT_NAMES (--weights, --against and fit's output); the two gains are in
# eighths.
WEIGHT_NAMES = ("camp", "prog1", "prog2", "prog3", "prog4", "guard", "recall", "held",
                "held_full", "pool", "gain_own", "gain_other")
NAMES = ("piece",) + WEIGHT_NAMES
_LINEAR = 11          # the first 11 terms are counts (own less the other's)


def shipped(rules):
    """The weights eval_scored uses in the rule set: its constants, the rule
    set's row's worth of a piece on the enemy camp, and the 7/8 and 1/4 of
    the captures written in its return.  tests/test_tune.py checks that they
    give its values exactly."""
    return (evaluation._PIECE, R.row(rules)[R.AI_CAMP]) + tuple(evaluation._PROG[1:5]) + (
        evaluation._GUARD_RECOVERS, evaluation._RECALL_READY, evaluation._HELD,
        evaluation._HELD - 20, evaluation._POOL, 7, 2)


_NORTH = 2
_GUARD = 4
_MARK = 8
_WHOSE = 3


def terms(g, tables, side, w):
    """The eval's terms for the side to act (side: 0 South, 1 North): eleven
    counts (own less the other side's) and the two best captures (own, the
    other side's), each capture valued with the weights w."""
    masks0, masks1, dist0, dist1 = tables[:4]
    top = g.top
    pool = g.pool
    classic = g.marks
    free = [0, 0]
    camp_free = [False, False]
    for k in range(5):
        q = top[20 + k]
        if (q & _WHOSE) != 1:
            free[0] |= 1 << k
        if not q:
            camp_free[1] = True
        q = top[k]
        if (q & _WHOSE) != _WHOSE:
            free[1] |= 1 << k
        if not q:
            camp_free[0] = True
    counts = [[0] * _LINEAR, [0] * _LINEAR]
    att = [0, 0]
    own = [0, 0]
    vals = [0] * 25
    for p in range(25):
        q = top[p]
        if not q:
            continue
        s = 1 if q & _NORTH else 0
        c = counts[s]
        on_camp = p < 5 if s else p >= 20
        if on_camp:
            c[1] += 1
            v = w[1]
            if classic and pool[s] and camp_free[s] and q & _MARK:
                c[7] += 1
                v += w[7]
        else:
            att[s] |= (masks1 if s else masks0)[p]
            c[0] += 1
            v = w[0]
            d = (dist1 if s else dist0)[free[s] * 25 + p]
            if 1 <= d <= 4:
                c[1 + d] += 1
                v += w[1 + d]
            if q & _GUARD and pool[s] and not classic:
                c[6] += 1
                v += w[6]
        vals[p] = v
        own[s] |= 1 << p
    gains = [0, 0]
    for s in range(2):
        m = att[s] & own[1 - s]
        for p in range(25):
            if m >> p & 1:
                v = vals[p] - (w[0] if att[1 - s] >> p & 1 else 0)
                if v > gains[s]:
                    gains[s] = v
    held = g.held_count
    for s in range(2):
        counts[s][8 if camp_free[s] else 9] += held[s]
        counts[s][10] += pool[s]
    mine, theirs = counts[side], counts[1 - side]
    return [mine[i] - theirs[i] for i in range(_LINEAR)] + [gains[side], gains[1 - side]]


def value(t, w):
    """eval_scored's value from terms t and weights w (integer, as the device's)."""
    v = 0
    for i in range(_LINEAR):
        v += t[i] * w[i]
    return v + (t[11] * w[11] >> 3) - (t[12] * w[12] >> 3)


def weighted_eval(w, rules):
    """eval_scored with the weights w (no expansions), for the search: the
    shipped function where w are the rule set's shipped weights."""
    plain = evaluation.eval_scored
    if tuple(w) == shipped(rules):
        return plain

    def evaluate(g, tables, side):
        plain(g, tables, side)      # (sets TARGETS, the search's stuck test)
        return value(terms(g, tables, side, w), w)
    return evaluate


# ------------------------------------------------------------ positions

def _play_positions(task):
    rules, seed, index, budget, random_actions, ply_limit = task
    s1, s2 = game_seeds(seed, index)
    rng = Rng(s1 ^ 0x155555)
    players = [_player("3", s1, budget), _player("3", s2, budget)]
    game = Game(rules, (), ply_limit)
    tables = ai._tables(game)
    n = rng.below(random_actions + 1)
    while game.outcome is None and n > 0:     # a few random actions: variety
        codes = game.legal_codes()
        game.play_code(codes[rng.below(len(codes))])
        n -= 1
    rows = []
    while game.outcome is None:
        if not game.open_turn():
            side = game.mover
            rows.append((side, terms(game, tables, side, shipped(rules))))
        for code in players[game.mover].choose(game):
            game.play_code(code)
    w = game.outcome.winner
    out = []
    for side, t in rows:
        r = 0.5 if w is None else (1.0 if (w == "north") == (side == 1) else 0.0)
        out.append([r] + t)
    return out


def positions(args):
    path = args.data[0]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tasks = [(args.rules, args.seed, k, args.budget, args.random_actions, args.ply_limit)
             for k in range(args.games)]
    t0 = time.time()
    n = 0
    with open(path, "w") as f, multiprocessing.Pool(args.jobs) as pool:
        for k, rows in enumerate(pool.imap(_play_positions, tasks, chunksize=4)):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            n += len(rows)
            if (k + 1) % 100 == 0:
                print("%d games, %d positions, %.0f s" % (k + 1, n, time.time() - t0))
    print("%s: %d positions from %d games in %.0f s" % (path, n, args.games, time.time() - t0))


def _data_path(rules):
    return os.path.join(ROOT, ".cache", "tune-%s.jsonl" % rules)


# ------------------------------------------------------------ fit

def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                rows.append(json.loads(line))
    return rows


def _features(t):
    return [float(x) for x in t[:_LINEAR]] + [t[11] / 8.0, -t[12] / 8.0]


def _predict(w, x, k):
    """The outcome the weights w predict for features x at scale k."""
    v = 0.0
    for i in range(len(w)):
        v += w[i] * x[i]
    return 1.0 / (1.0 + math.exp(-k * v / 100.0))


def mse(data, w, k):
    e = 0.0
    for r, x in data:
        e += (_predict(w, x, k) - r) ** 2
    return e / len(data)


def fit_scale(data, w):
    lo, hi = 0.05, 5.0
    for _ in range(40):                       # golden-section search on K
        a = lo + (hi - lo) * 0.382
        b = lo + (hi - lo) * 0.618
        if mse(data, w, a) < mse(data, w, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit(args):
    rows = load(args.data)
    data = [(row[0], _features(row[1:])) for row in rows]
    w = [float(x) for x in _weights(args.start, args.rules)]
    k = fit_scale(data, w)
    print("%d positions; scale K %.4f; error with the starting weights %.6f"
          % (len(data), k, mse(data, w, k)))
    fixed = set(i for i, name in enumerate(NAMES) if name in args.fixed)
    m = [0.0] * len(w)
    v2 = [0.0] * len(w)
    lr = args.rate
    for epoch in range(1, args.epochs + 1):
        grad = [0.0] * len(w)
        for r, x in data:
            s = _predict(w, x, k)
            gsc = (s - r) * s * (1 - s)
            for i in range(len(w)):
                grad[i] += gsc * x[i]
        for i in range(len(w)):
            if i in fixed:
                continue
            g = grad[i] / len(data)
            m[i] = 0.9 * m[i] + 0.1 * g
            v2[i] = 0.999 * v2[i] + 0.001 * g * g
            mh = m[i] / (1 - 0.9 ** epoch)
            vh = v2[i] / (1 - 0.999 ** epoch)
            w[i] -= lr * mh / (math.sqrt(vh) + 1e-12)
        if epoch % 25 == 0 or epoch == args.epochs:
            print("epoch %d: error %.6f  %s" % (epoch, mse(data, w, k),
                                                 ",".join("%d" % round(x) for x in w[1:])))
    print("fitted (WEIGHT_NAMES): " + ",".join("%d" % round(x) for x in w[1:]))


# ------------------------------------------------------------ match

def _player(level, seed, budget):
    """A player of the level (or "3-legacy") without book or variety, on
    budget nodes a turn (None: its own budget)."""
    p = make_player(level, seed)
    p.book = None
    p.variety = 0
    if budget is not None:
        p.node_budget = budget
    return p


def _play_match(task):
    rules, seed, index, (level, budget), (other, other_budget), a_w, b_w, ply_limit = task
    s1, s2 = game_seeds(seed, index)
    pa = _player(level, s1, budget)
    pb = _player(other, s2, other_budget)
    evals = {id(pa): weighted_eval(a_w, rules), id(pb): weighted_eval(b_w, rules)}
    players = (pa, pb) if index % 2 == 0 else (pb, pa)
    game = Game(rules, (), ply_limit)
    while game.outcome is None:
        p = players[game.mover]
        ai.eval_scored = evals[id(p)]
        for code in p.choose(game):
            game.play_code(code)
    w = game.outcome.winner
    side_a = "south" if index % 2 == 0 else "north"
    return 0 if w is None else (1 if w == side_a else -1)


def _weights(text, rules):
    if not text:
        return shipped(rules)
    w = (100,) + tuple(int(x) for x in text.split(","))
    if len(w) != len(NAMES):
        raise SystemExit("--weights and --against take %d numbers: %s" % (
            len(NAMES) - 1, ",".join(NAMES[1:])))
    return w


def match(args):
    other = args.against_level or args.level
    other_budget = args.against_budget if args.against_level else args.budget
    tasks = [(args.rules, args.seed, k, (args.level, args.budget), (other, other_budget),
              _weights(args.weights, args.rules), _weights(args.against, args.rules),
              args.ply_limit) for k in range(args.games)]
    t0 = time.time()
    res = []
    with multiprocessing.Pool(args.jobs) as pool:
        for r in pool.imap_unordered(_play_match, tasks, chunksize=2):
            res.append(r)
            if len(res) % 20 == 0:
                _report(res, t0)
    _report(res, t0)


def _report(res, t0):
    win = res.count(1)
    loss = res.count(-1)
    d = res.count(0)
    print("--weights v --against: %d-%d-%d, %.1f %% of decided, score %.1f %%, %.0f s" % (
        win, d, loss, 100.0 * win / max(1, win + loss), 100.0 * (win + d / 2.0) / len(res),
        time.time() - t0))
    sys.stdout.flush()


def main(argv):
    ap = argparse.ArgumentParser(prog="python tools/tune.py", description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("positions", "fit", "match"))
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, help="nodes a turn (positions: 300; match: the "
                                                "level's own)")
    ap.add_argument("--level", default="3", help="match: the level of the --weights side")
    ap.add_argument("--against-level", help="match: the other side's level (default --level; "
                                            "also greedy, 2 or 3-legacy)")
    ap.add_argument("--against-budget", type=int, help="match: the other side's nodes a turn "
                                                       "(default: --budget for the same level, "
                                                       "else its own)")
    ap.add_argument("--random-actions", type=int, default=4)
    ap.add_argument("--ply-limit", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--rate", type=float, default=2.0)
    ap.add_argument("--start", help="fit: the weights to start from (default: shipped)")
    ap.add_argument("--fixed", default="piece", help="fit: the weights kept as they start")
    ap.add_argument("--data", help="the positions' file(s), comma-separated "
                                   "(default .cache/tune-RULES.jsonl)")
    ap.add_argument("--weights", help="match: the weights to try (WEIGHT_NAMES)")
    ap.add_argument("--against", help="match: the other side's weights (default: shipped)")
    args = ap.parse_args(argv)
    args.fixed = args.fixed.split(",")
    args.data = (args.data or _data_path(args.rules)).split(",")
    if args.what == "positions" and args.budget is None:
        args.budget = 300
    {"positions": positions, "fit": fit, "match": match}[args.what](args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
