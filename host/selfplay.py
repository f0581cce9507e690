"""AI self-play statistics: `python3 run.py selfplay` (python -m host.selfplay).

    python3 run.py selfplay --rules classic --games 1000 --south greedy --north greedy
                            [--seed S] [--jobs N] [--expansions heroes challenges]
                            [--ply-limit N] [--swap] [--quiet]

Prints wins for South and North and draws, each with its share (like the
online site's own table), the average game length in plies (completed
turns) and why the games ended.  --swap exchanges the players' sides after
every game and adds a line per player.  --jobs N plays on N processes
(os.fork and os.pipe; CPython on Linux or macOS).  tools/bench_ai.py plays
its strength table through run_games().
"""

import json
import os
import sys
import time

from host.opponents import check_level, make_player
from jarmo.game import REASONS, RULE_SETS, Game, check_mix

DEFAULT_PLY_LIMIT = 300
COLOURS = {"classic": ("White", "Black")}         # the online site's names (docs/RULES.md 3)
DEFAULT_COLOURS = ("vermillion", "sky blue")       # the handheld's, in the other rule sets

USAGE = """usage: python3 run.py selfplay [--rules R] [--games N] [--south LEVEL] [--north LEVEL]
                               [--seed S] [--jobs N] [--expansions E [E ...]]
                               [--ply-limit N] [--swap] [--quiet]

  --rules       classic | standard | legendary | jasyr (default classic)
  --games       number of games (default 100)
  --south       level of the player who starts as South: random, greedy, 2, 3, 4
                or 3-legacy (a benchmark opponent: host/opponents.py) (default greedy)
  --north       level of the other player (default greedy)
  --seed        base seed; game k uses seeds derived from it and k (default 0)
  --jobs        processes to spread the games over (default 1)
  --expansions  heroes and/or challenges (not with classic)
  --ply-limit   turns after which a game is scored as it stands (default %d)
  --swap        the players change sides after every game
  --quiet       no progress bar
""" % DEFAULT_PLY_LIMIT


class UsageError(ValueError):
    pass


def game_seeds(seed, index):
    """(south seed, north seed) of game number index: small ints on any port."""
    base = (seed * 7919 + index * 2) % 0x3FFFFFF0
    return base + 1, base + 2


def play_game(rules, expansions, ply_limit, south, north, seed=0, index=0, swap=False):
    """Play one game; return a dict: index, winner side, reason, plies, points,
    and which player (0 = the --south player, 1 = the other) won, or None."""
    first, second = south, north
    swapped = swap and index % 2 == 1
    if swapped:
        first, second = north, south
    s1, s2 = game_seeds(seed, index)
    players = (make_player(first, s1), make_player(second, s2))
    game = Game(rules, expansions, ply_limit)
    while game.result() is None:
        for code in players[0 if game.turn == "south" else 1].choose(game):
            game.play_code(code)
    result = game.result()
    winner_player = None
    if result.winner is not None:
        winner_player = 0 if result.winner == "south" else 1
        if swapped:
            winner_player = 1 - winner_player
    return {"index": index, "winner": result.winner, "reason": result.reason,
            "plies": game.plies, "points": list(result.points) if result.points else None,
            "player": winner_player, "swapped": swapped}


def _bar(done, total, started, stream):
    width = 30
    filled = width * done // total if total else width
    elapsed = time.time() - started
    stream.write("\r[%s%s] %d/%d %.0fs" % ("#" * filled, "." * (width - filled), done, total, elapsed))
    stream.flush()


def run_games(rules, games, south, north, seed=0, jobs=1, expansions=(), ply_limit=DEFAULT_PLY_LIMIT,
              swap=False, progress=None):
    """Play the games (on `jobs` processes); return the list of game dicts by index.

    progress(done, total) is called after every game when given.
    """
    if jobs <= 1 or games <= 1:
        records = []
        for k in range(games):
            records.append(play_game(rules, expansions, ply_limit, south, north, seed, k, swap))
            if progress:
                progress(len(records), games)
        return records
    if not hasattr(os, "fork"):
        raise UsageError("--jobs needs os.fork(), which this Python does not have; use --jobs 1")
    jobs = min(jobs, games)
    children = []
    for j in range(jobs):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:   # child: play games j, j + jobs, ... and write one JSON line each
            os.close(r)
            code = 0
            try:
                out = os.fdopen(w, "w")
                for k in range(j, games, jobs):
                    out.write(json.dumps(play_game(rules, expansions, ply_limit, south, north,
                                                   seed, k, swap)) + "\n")
                    out.flush()
                out.close()
            except BaseException as exc:   # report, and never fall back into the parent's code
                sys.excepthook(type(exc), exc, exc.__traceback__)
                code = 1
            os._exit(code)
        os.close(w)
        os.set_blocking(r, False)
        children.append([pid, r, b""])
    records = []
    open_fds = len(children)
    while open_fds:
        got = False
        for child in children:
            fd = child[1]
            if fd < 0:
                continue
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            got = True
            if not chunk:
                os.close(fd)
                child[1] = -1
                open_fds -= 1
                continue
            child[2] += chunk
            while b"\n" in child[2]:
                line, child[2] = child[2].split(b"\n", 1)
                records.append(json.loads(line))
                if progress:
                    progress(len(records), games)
        if not got:
            time.sleep(0.02)
    failed = 0
    for child in children:
        _, status = os.waitpid(child[0], 0)
        if status:
            failed += 1
    if failed or len(records) != games:
        raise RuntimeError("%d of %d worker processes failed; %d of %d games came back"
                           % (failed, len(children), len(records), games))
    records.sort(key=lambda rec: rec["index"])
    return records


def pct(part, whole):
    return 100.0 * part / whole if whole else 0.0


def summary(records, rules, south, north, swap=False):
    """The statistics table as a list of lines."""
    n = len(records)
    colours = COLOURS.get(rules, DEFAULT_COLOURS)
    wins_s = sum(1 for r in records if r["winner"] == "south")
    wins_n = sum(1 for r in records if r["winner"] == "north")
    draws = n - wins_s - wins_n
    lines = []
    lines.append("  %-23s %6d (%6.2f %%)" % ("south (%s) wins" % colours[0], wins_s, pct(wins_s, n)))
    lines.append("  %-23s %6d (%6.2f %%)" % ("north (%s) wins" % colours[1], wins_n, pct(wins_n, n)))
    lines.append("  %-23s %6d (%6.2f %%)" % ("draws", draws, pct(draws, n)))
    if swap:
        a = sum(1 for r in records if r["player"] == 0)
        b = sum(1 for r in records if r["player"] == 1)
        lines.append("  %-23s %6d (%6.2f %%)" % ("player A %s wins" % south, a, pct(a, n)))
        lines.append("  %-23s %6d (%6.2f %%)" % ("player B %s wins" % north, b, pct(b, n)))
        lines.append("  player A wins %.1f %% of the %d decided games" % (pct(a, a + b), a + b))
    if n:
        plies = [r["plies"] for r in records]
        lines.append("  average length %.1f plies (min %d, max %d)"
                     % (sum(plies) / n, min(plies), max(plies)))
    counts = {}
    for r in records:
        counts[r["reason"]] = counts.get(r["reason"], 0) + 1
    order = [x for x in REASONS if x in counts] + sorted(x for x in counts if x not in REASONS)
    lines.append("  ended by: " + ", ".join("%s %d (%.1f %%)" % (x, counts[x], pct(counts[x], n))
                                            for x in order))
    return lines


def parse_selfplay(argv):
    opts = {"rules": "classic", "games": 100, "south": "greedy", "north": "greedy", "seed": 0,
            "jobs": 1, "expansions": [], "ply_limit": DEFAULT_PLY_LIMIT, "swap": False,
            "quiet": False}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name = arg
        value = None
        if arg.startswith("--") and "=" in arg:
            name, value = arg.split("=", 1)
        key = name[2:].replace("-", "_") if name.startswith("--") else None
        if key in ("swap", "quiet"):
            opts[key] = True
            i += 1
            continue
        if key == "expansions":
            values = [value] if value is not None else []
            i += 1
            while value is None and i < len(argv) and not argv[i].startswith("--"):
                values.append(argv[i])
                i += 1
            opts["expansions"] = values
            continue
        if key not in opts:
            raise UsageError("unknown argument %r" % arg)
        if value is None:
            if i + 1 >= len(argv):
                raise UsageError("%s needs a value" % name)
            value = argv[i + 1]
            i += 1
        i += 1
        if key in ("games", "seed", "jobs", "ply_limit"):
            try:
                number = int(value)
            except ValueError:
                raise UsageError("%s takes a whole number, not %r" % (name, value)) from None
            if key == "ply_limit" and number <= 0:
                opts[key] = None          # --ply-limit 0: no limit
                continue
            if key in ("games", "jobs") and number < 1:
                raise UsageError("%s must be at least 1" % name)
            opts[key] = number
        else:
            opts[key] = value
    if opts["rules"] not in RULE_SETS:
        raise UsageError("--rules must be one of %s" % ", ".join(RULE_SETS))
    try:
        check_mix(opts["rules"], tuple(opts["expansions"]))
    except ValueError as err:
        raise UsageError("--expansions: %s" % err) from None
    for side in ("south", "north"):
        try:
            check_level(opts[side])
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    return opts


def selfplay(argv, stdout=None):
    stdout = stdout or sys.stdout
    opts = parse_selfplay(argv)
    tty = not opts["quiet"] and hasattr(stdout, "isatty") and stdout.isatty()
    started = time.time()
    progress = None
    if tty:
        def progress(done, total):
            _bar(done, total, started, stdout)
    records = run_games(opts["rules"], opts["games"], opts["south"], opts["north"], opts["seed"],
                        opts["jobs"], tuple(opts["expansions"]), opts["ply_limit"], opts["swap"],
                        progress)
    if tty:
        stdout.write("\r" + " " * 60 + "\r")
    title = "selfplay: %s%s, %d games, south %s, north %s%s, seed %d, ply limit %s, %.1fs" % (
        opts["rules"], "+" + "+".join(opts["expansions"]) if opts["expansions"] else "",
        opts["games"], opts["south"], opts["north"], " (sides swapped every game)" if opts["swap"] else "",
        opts["seed"], opts["ply_limit"] or "none", time.time() - started)
    stdout.write(title + "\n")
    for line in summary(records, opts["rules"], opts["south"], opts["north"], opts["swap"]):
        stdout.write(line + "\n")
    return records


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "-h" in argv or "--help" in argv:
        sys.stdout.write(USAGE)
        return 0
    try:
        selfplay(argv)
    except UsageError as exc:
        sys.stderr.write("python3 run.py selfplay: %s (python3 run.py selfplay --help: "
                         "every option)\n" % exc)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
