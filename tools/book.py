#!/usr/bin/env python3
"""The opening book builder: `python3 run.py book` writes jarmo/book.bin.

    python3 run.py book                          # grow the book (resumes its work file)
    python3 run.py book --plies 6 --replies 2 --mixes standard,classic
    python3 run.py book --jobs 2 --seed 1 --factor 20 --seeds 2
    python3 run.py book --write-only             # the book from the work file as it is

A tree per rule set and expansion mix (the menu's mixes, the campaign's
level-4 battles first: MIXES), from the opening position to --plies turns
(the campaign's level-4 mixes and classic; the others --plies-other):
every position in it is searched by level 4's search with --factor times
level 4's node budget, Jarmo's firmware tables, no book (the `deep search`),
once per search seed (--seeds), and the turns it chooses become the
position's book entries, weighted by how many seeds chose each (the search
draws among turns within its variety margin, so seeds differ only where
turns are that close). A position's children: those turns and the --replies
best other turns by the one-turn evaluation (what a player is likely to
answer). The device looks up both sides' positions, so one tree serves the
device as South and as North.

Every core works (--jobs, default all; multiprocessing), one ply of the tree
at a time. Every search's result is appended to a work file as it comes
(--work, default .cache/book-work.jsonl in the repository), so an
interrupted run resumes where it stopped; the seeds of a position's searches
derive from --seed and the position's key, and the book's records are
sorted, so the same arguments give the same book byte for byte, however
the work was split or interrupted. Turns longer than 4 actions are not
stored (the device searches there). docs/AI.md ("Opening book") has the
run times measured on a 2-core machine.
"""

import argparse
import json
import multiprocessing
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from jarmo import ai  # noqa: E402
from jarmo import book as B  # noqa: E402
from jarmo import rulesets as R  # noqa: E402
from jarmo.evaluation import eval_race, eval_scored  # noqa: E402
from jarmo.game import Game  # noqa: E402

BOOK = os.path.join(ROOT, "jarmo", B.FILE)
WORK = os.path.join(ROOT, ".cache", "book-work.jsonl")
_EXPS = ((), ("heroes",), ("challenges",), ("heroes", "challenges"))
# The campaign's level-4 battles first (jarmo/store_campaign.py), then the menu's other mixes.
MIXES = (("standard", ()), ("jasyr", ("heroes", "challenges")), ("classic", ())) + tuple(
    (rules, exps) for rules in ("standard", "legendary", "jasyr") for exps in _EXPS
    if (rules, exps) not in (("standard", ()), ("jasyr", ("heroes", "challenges"))))
_BIG = 1 << 30


def mix_name(rules, exps):
    return "+".join((rules,) + tuple(exps))


def parse_mix(text):
    parts = text.split("+")
    return parts[0], tuple(e for e in ("heroes", "challenges") if e in parts[1:])


def replay(rules, exps, line):
    g = Game(rules, exps)
    for c in line:
        g.do_code(c)
    return g


def key_text(g):
    """g's position named in the work file, and the seed of its searches:
    every byte of the position hashed, even what the book's key leaves out
    where a mix cannot have it (hostages and golden flags without the
    heroes), so the key's format may change without changing what the
    builder searches and chooses."""
    return "%06x%06x" % B.position_key(g, True)


def whole_turns(g, buf_depth=0, bufs=None):
    """Every whole turn of the side to act, one per resulting position: a list
    of code lists (the search's action order, first found kept)."""
    if bufs is None:
        bufs = [[0] * 40 for _ in range(12)]
    seen = {}
    mover = g.mover
    path = []

    def walk(depth):
        buf = bufs[depth]
        n = g.gen_into(buf)
        for k in range(n):
            c = buf[k]
            g.do_code(c)
            path.append(c)
            if g.outcome is not None or g.mover != mover or depth + 1 >= len(bufs):
                snap = g.snapshot()
                if snap not in seen:
                    seen[snap] = list(path)
            else:
                walk(depth + 1)
            path.pop()
            g.undo_code()
    walk(0)
    return list(seen.values())


def ranked_replies(g, count, exclude):
    """The count best whole turns by the one-turn evaluation, not in exclude."""
    tables = ai._tables(g)
    evalf = eval_scored if g.scored else eval_race
    mover = g.mover
    scored = []
    for turn in whole_turns(g):
        if turn in exclude:
            continue
        for c in turn:
            g.do_code(c)
        res = g.outcome
        if res is not None:
            w = res.winner
            v = 0 if w is None else (_BIG if (w == "north") == (mover == 1) else -_BIG)
        else:
            v = -evalf(g, tables, 1 - mover)
        for _c in turn:
            g.undo_code()
        scored.append((-v, turn))
    scored.sort()
    return [t for _v, t in scored[:count]]


def search_seed(seed, key, k):
    return (seed * 1000003 + int(key, 16) % 999983 * 31 + k) % 0x3FFFFFF0


def work_item(task):
    """Search one position: task (rules, exps, line, key, seeds, factor, seed, replies).
    Returns the work file's record: key, mix, line, turns (one per seed), replies."""
    rules, exps, line, key, seeds, factor, seed, replies = task
    ai.use_tables(True)               # Jarmo's firmware's tables: the stronger search
    g = replay(rules, exps, line)
    turns = []
    if g.outcome is None:
        for k in range(seeds):
            p = ai.Player(4, search_seed(seed, key, k))
            p.book = None
            p.node_budget = factor * g.row[R.AI_NODES4]
            turns.append(p.choose(g))
    others = ranked_replies(g, replies, turns) if g.outcome is None else []
    return {"key": key, "mix": mix_name(rules, exps), "line": line, "turns": turns,
            "replies": others, "args": [seeds, factor, seed, replies]}


def load_work(path):
    """The work file's records by (mix, key, args); a torn last line is dropped."""
    done = {}
    if not os.path.exists(path):
        return done
    with open(path) as f:
        for text in f:
            try:
                rec = json.loads(text)
            except ValueError:
                continue            # an interrupted write: searched again
            done[(rec["mix"], rec["key"], tuple(rec["args"]))] = rec
    return done


def children(rec):
    kids = []
    for turn in rec["turns"] + rec["replies"]:
        if turn not in kids:
            kids.append(turn)
    return kids


def build(args, out=sys.stdout):
    os.makedirs(os.path.dirname(args.work), exist_ok=True)
    done = load_work(args.work)
    wargs = (args.seeds, args.factor, args.seed, args.replies)
    t0 = time.time()
    searched = 0
    used = []                        # the tree's records, every mix
    with open(args.work, "a") as work, multiprocessing.Pool(args.jobs) as pool:
        for rules, exps in args.mixes:
            name = mix_name(rules, exps)
            frontier = [[]]
            seen = set()
            plies = args.mix_plies.get((rules, exps))
            if plies is None:
                plies = args.plies if (rules, exps) in MIXES[:3] else args.plies_other
            for ply in range(plies):
                todo = []
                level = []
                for line in frontier:
                    g = replay(rules, exps, line)
                    if g.outcome is not None:
                        continue
                    key = key_text(g)
                    if key in seen:
                        continue        # a transposition: searched once
                    seen.add(key)
                    rec = done.get((name, key, tuple(wargs)))
                    if rec is None:
                        if args.write_only:
                            continue    # not searched yet: not in this book
                        todo.append((rules, exps, line, key) + wargs)
                    level.append((name, key))
                for rec in pool.imap_unordered(work_item, todo, chunksize=1):
                    work.write(json.dumps(rec) + "\n")
                    work.flush()
                    done[(rec["mix"], rec["key"], tuple(rec["args"]))] = rec
                    searched += 1
                frontier = []
                for name_key in level:
                    rec = done[name_key + (tuple(wargs),)]
                    used.append(rec)
                    for turn in children(rec):
                        frontier.append(rec["line"] + turn)
                out.write("%-28s ply %2d: %4d positions (%d searched now), %.0f s\n" % (
                    name, ply, len(level), len(todo), time.time() - t0))
                out.flush()
    return used, searched, time.time() - t0


def record(key, weight, codes):
    """One record's bytes (jarmo/book.py; key as B.position_key gives it)."""
    a, b = key
    rec = bytearray(B.RECORD)
    rec[0:3] = bytes((a >> 16, a >> 8 & 255, a & 255))
    rec[3:6] = bytes((b >> 16, b >> 8 & 255, b & 255))
    rec[6] = weight << 3 | len(codes)
    for k, c in enumerate(codes):
        rec[7 + 2 * k] = c >> 8
        rec[8 + 2 * k] = c & 255
    rec[15] = B.check_byte(rec)
    return bytes(rec)


def header(count, plies):
    """The header record: magic, record count, the most plies of a position."""
    rec = bytearray(B.RECORD)
    rec[0:4] = B.MAGIC
    rec[4:8] = bytes((count >> 24 & 255, count >> 16 & 255, count >> 8 & 255, count & 255))
    rec[8] = plies
    rec[15] = B.check_byte(rec)
    return bytes(rec)


def book_bytes(records):
    """The book file: header and records sorted by key (entries weighted by
    how many seeds chose the turn); (bytes, the most plies of a position)."""
    rows = []
    plies = 0
    for rec in records:
        counts = []
        for turn in rec["turns"]:
            if len(turn) > 4:
                continue
            for entry in counts:
                if entry[1] == turn:
                    entry[0] += 1
                    break
            else:
                counts.append([1, turn])
        if not counts:
            continue
        mix = rec["mix"]
        rules, exps = parse_mix(mix)
        g = replay(rules, exps, rec["line"])
        key = B.position_key(g)
        plies = max(plies, g.ply_count + 1)
        for weight, turn in counts:
            rows.append(record(key, min(weight, 31), turn))
    rows = sorted(set(rows))
    return header(len(rows), plies) + b"".join(rows), plies


def main(argv):
    ap = argparse.ArgumentParser(prog="python3 run.py book", description=__doc__.split("\n")[0])
    ap.add_argument("--plies", type=int, default=8, help="turns deep from the opening (default 8)")
    ap.add_argument("--plies-other", type=int, default=4,
                    help="turns deep in the mixes after the campaign's and classic (default 4)")
    ap.add_argument("--replies", type=int, default=1,
                    help="other turns followed per position, best by the evaluation (default 1)")
    ap.add_argument("--factor", type=int, default=20,
                    help="the deep search's node budget in level 4's (default 20)")
    ap.add_argument("--seeds", type=int, default=1,
                    help="searches per position, each a weighted entry (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mixes", default="all",
                    help="all, or e.g. standard,jasyr+heroes+challenges:6 (MIX:N: N plies deep; "
                         "all,jasyr+heroes+challenges:6: every mix, that one 6 deep)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--work", default=WORK, help="the work file (resumed)")
    ap.add_argument("--out", default=BOOK, help="the book file (default jarmo/book.bin)")
    ap.add_argument("--write-only", action="store_true",
                    help="no searching: the book from the work file's searches of the tree")
    args = ap.parse_args(argv)
    args.mix_plies = {}
    mixes = []
    for item in args.mixes.split(","):
        name, _sep, plies = item.partition(":")
        for mix in MIXES if name == "all" else (parse_mix(name),):
            if mix not in mixes:
                mixes.append(mix)
            if plies:
                args.mix_plies[mix] = int(plies)
    args.mixes = tuple(mixes)
    if args.write_only:
        args.jobs = 1
    used, searched, seconds = build(args)
    data, plies = book_bytes(used)
    if plies > ai._BOOK_PLIES:
        sys.stderr.write("book: positions up to ply %d, but the AI asks it below ply %d\n"
                         % (plies, ai._BOOK_PLIES))
        return 1
    with open(args.out + ".tmp", "wb") as f:
        f.write(data)
    os.replace(args.out + ".tmp", args.out)
    print("book: %d positions, %d searched in this run, %d records, %d bytes, %.0f s: %s"
          % (len(used), searched, (len(data) // B.RECORD) - 1, len(data), seconds, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
