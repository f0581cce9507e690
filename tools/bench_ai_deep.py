#!/usr/bin/env python3
"""Level 4 against a deeper search: `python3 run.py bench --ai`.

    python tools/bench_ai_deep.py                       # the table below, 30 games a row
    python tools/bench_ai_deep.py --games 40 --rules standard --tables frozen
    python tools/bench_ai_deep.py --no-book              # level 4 without its opening book
    python tools/bench_ai_deep.py --checks               # also the level checks (see below)

The device's level 4 (its node budget, the transposition tables and hash
numbers of one firmware kind: --tables stock, frozen or both, and its
opening book, jarmo/book.bin) plays the same search given --factor times
the nodes (default 20) with no book and no variety margin. Game k of a row
takes the seeds of host.selfplay.game_seeds(--seed, k), fixed before the
run, and level 4 plays South in the even games, North in the odd ones.
Games run on --jobs processes (default: every core). A row: wins, draws
and losses of level 4, its share of the decided games and its score share
(wins + draws / 2, of all games).

--checks adds the level checks (docs/AI.md, "Strength"): every level plays
only legal turns (a few games of each level against each lower one, every
turn played through Game.play_code, which refuses an illegal action),
level 4 against level 3 in standard (target >= 85 % of the decided games),
the distinct games among 20 of level 4 against level 3 from 20 seeds
(target >= 15), and each level against greedy (no target: compare with
docs/AI.md). Exits 1 if a target is missed.
"""

import argparse
import multiprocessing
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from host.selfplay import DEFAULT_PLY_LIMIT, game_seeds  # noqa: E402
from jarmo import ai  # noqa: E402
from jarmo import rulesets as R  # noqa: E402
from jarmo.game import Game  # noqa: E402

TARGET_L4_L3 = 85.0
TARGET_DISTINCT = 15


def make(level, seed, tables, factor=1, book=True):
    """A player as the device makes it (tables: "stock" or "frozen"), or with
    factor times its node budget; book False: no opening book, no variety."""
    ai.use_tables(tables == "frozen")
    p = ai.Player(level, seed)
    if not book:
        p.book = None
        p.variety = 0
    elif VARIETY and p.level == 4:
        p.variety = VARIETY[0]
    if factor != 1:
        p.factor = factor
    return p


def _budget(p, game):
    factor = getattr(p, "factor", 1)
    if factor != 1:
        row = game.row
        base = row[R.AI_NODES4] if p.level == 4 else (row[R.AI_NODES3] if p.level == 3
                                                      else ai._BUDGET[p.level])
        p.node_budget = base * factor


def play(task):
    """One game. task: (rules, expansions, a, b, seed, index, tables, ply limit); a and b
    are (level, factor, book). a plays South in even games. Returns a dict:
    index, result of a (1 win, 0 draw, -1 loss), plies, the game's actions."""
    rules, expansions, a, b, seed, index, tables, ply_limit = task
    s1, s2 = game_seeds(seed, index)
    pa = make(a[0], s1, tables, a[1], a[2])
    pb = make(b[0], s2, tables, b[1], b[2])
    players = (pa, pb) if index % 2 == 0 else (pb, pa)
    game = Game(rules, expansions, ply_limit)
    while game.outcome is None:
        p = players[game.mover]
        _budget(p, game)
        for code in p.choose(game):
            game.play_code(code)      # refuses an illegal action (ValueError)
    w = game.outcome.winner
    side_a = "south" if index % 2 == 0 else "north"
    score = 0 if w is None else (1 if w == side_a else -1)
    return {"index": index, "score": score, "plies": game.plies,
            "line": tuple(game.history_codes())}


LOG = []      # a file to write each game's result to as it ends (--log)
VARIETY = []  # level 4's variety margin when not its own (--variety)


def run_row(pool, rules, expansions, a, b, games, seed, tables, ply_limit=DEFAULT_PLY_LIMIT):
    tasks = [(rules, expansions, a, b, seed, k, tables, ply_limit) for k in range(games)]
    records = []
    for rec in pool.imap_unordered(play, tasks, chunksize=1):
        records.append(rec)
        for log in LOG:
            log.write("%s %s %s v %s game %d: %+d, %d plies\n" % (
                rules, tables, a, b, rec["index"], rec["score"], rec["plies"]))
            log.flush()
    return sorted(records, key=lambda r: r["index"])


def tally(records):
    w = sum(1 for r in records if r["score"] > 0)
    loss = sum(1 for r in records if r["score"] < 0)
    d = len(records) - w - loss
    decided = 100.0 * w / (w + loss) if w + loss else 0.0
    share = 100.0 * (w + d / 2.0) / len(records) if records else 0.0
    return w, d, loss, decided, share


def row_text(label, records, seconds, extra=""):
    w, d, loss, decided, share = tally(records)
    plies = sum(r["plies"] for r in records) / float(len(records))
    return "%-34s %3d-%d-%-3d %8.1f %% %8.1f %% %6.1f %6.0f%s" % (
        label, w, d, loss, decided, share, plies, seconds, extra)


HEADER = "%-34s %-9s %10s %10s %6s %6s" % ("row", "W-D-L", "decided", "score", "plies", "s")


def deep_table(pool, args, out):
    book = not args.no_book
    out.write("Level 4 (device budget%s) against the same search with %dx the nodes, no book;\n"
              "%d games a row, seed %d, sides alternating, ply limit %d, %d jobs\n" % (
                  ", its book and variety" if book else ", no book, no variety", args.factor,
                  args.games, args.seed, args.ply_limit, args.jobs))
    out.write(HEADER + "\n")
    for rules in args.rules:
        for tables in args.tables:
            t0 = time.time()
            recs = run_row(pool, rules, (), ("4", 1, book), ("4", args.factor, False),
                           args.games, args.seed, tables, args.ply_limit)
            out.write(row_text("%s, %s tables" % (rules, tables), recs, time.time() - t0) + "\n")
            out.flush()


def checks(pool, args, out):
    ok = True
    book = not args.no_book
    out.write("\nLevel checks (stock tables unless named; %s)\n" % ("level 4's book and variety" if book else
                                                        "no book, no variety") + HEADER + "\n")
    levels = ("random", "greedy", "2", "3", "4")
    for rules in R.RULE_SETS if args.legal else ():   # every level legal: 2 games v each lower level
        t0 = time.time()
        recs = []
        for i, a in enumerate(levels[1:]):
            for b in levels[:i + 1]:
                recs += run_row(pool, rules, (), (a, 1, book), (b, 1, book), 2, args.seed, "stock")
        out.write(row_text("%s: each level v lower, legal" % rules, recs, time.time() - t0) + "\n")
    t0 = time.time()
    recs = run_row(pool, "standard", (), ("4", 1, book), ("3", 1, book), args.l4_games, args.seed,
                   args.l4_tables)
    share = tally(recs)[3]
    hit = share >= TARGET_L4_L3
    ok = ok and hit
    out.write(row_text("4 v 3, %s tables (target %.0f %%)" % (args.l4_tables, TARGET_L4_L3), recs,
                       time.time() - t0,
                       "" if hit else "  MISSED") + "\n")
    for rules in args.check_rules:
        t0 = time.time()
        recs = pool.map(play, [(rules, (), ("4", 1, book), ("3", 1, book), args.seed + 1000 + k, 0,
                                "stock", DEFAULT_PLY_LIMIT) for k in range(20)], chunksize=1)
        distinct = len(set(r["line"] for r in recs))
        hit = distinct >= TARGET_DISTINCT
        ok = ok and hit
        out.write(row_text("%s 4 v 3: %d distinct in 20" % (rules, distinct), recs,
                           time.time() - t0, "" if hit else "  MISSED") + "\n")
    for rules in args.check_rules:
        for a in args.greedy_levels:
            t0 = time.time()
            recs = run_row(pool, rules, (), (a, 1, book), ("greedy", 1, book), args.greedy_games,
                           args.seed, "stock")
            out.write(row_text("%s %s v greedy" % (rules, a), recs, time.time() - t0) + "\n")
            out.flush()
    return ok


def main(argv):
    ap = argparse.ArgumentParser(prog="python tools/bench_ai_deep.py",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--rules", default="standard,classic")
    ap.add_argument("--tables", default="stock,frozen", help="stock, frozen or both")
    ap.add_argument("--factor", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-book", action="store_true",
                    help="level 4 as it was without a book: no book, no variety margin")
    ap.add_argument("--ply-limit", type=int, default=DEFAULT_PLY_LIMIT,
                    help="turns after which a game is scored as it stands (default %d)"
                         % DEFAULT_PLY_LIMIT)
    ap.add_argument("--checks", action="store_true", help="also the level checks")
    ap.add_argument("--log", help="a file to write each game's result to as it ends")
    ap.add_argument("--variety", type=int, help="level 4's variety margin (default its own)")
    ap.add_argument("--only-checks", action="store_true")
    ap.add_argument("--l4-games", type=int, default=100, help="games of 4 v 3 (--checks)")
    ap.add_argument("--l4-tables", default="frozen", help="the tables of 4 v 3 (default frozen)")
    ap.add_argument("--no-legal", dest="legal", action="store_false",
                    help="no legality games in the checks")
    ap.add_argument("--greedy-games", type=int, default=40, help="games of each level v greedy")
    ap.add_argument("--greedy-levels", default="2,3,4", help="the levels played against greedy")
    ap.add_argument("--check-rules", default="standard,classic",
                    help="rule sets of the distinct-games and greedy checks")
    args = ap.parse_args(argv)
    args.rules = args.rules.split(",")
    args.tables = args.tables.split(",")
    args.greedy_levels = args.greedy_levels.split(",")
    args.check_rules = args.check_rules.split(",")
    out = sys.stdout
    ok = True
    if args.log:
        LOG.append(open(args.log, "a"))
    if args.variety is not None:
        VARIETY.append(args.variety)
    with multiprocessing.Pool(args.jobs) as pool:
        if not args.only_checks:
            deep_table(pool, args, out)
        if args.checks or args.only_checks:
            ok = checks(pool, args, out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
