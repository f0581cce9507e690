"""The fault campaign of linked games: two Apps on a simulated wire (PC).

    python tools/bench_link.py                  # 30 games of each fault kind: 270 games
    python tools/bench_link.py --games 5        # 5 of each
    python tools/bench_link.py --seed 7000      # other recorded seeds

Each game is played from a recorded seed (tests/app/linkcampaign.py: the
fault kinds and what counts as stuck or divergent); the table gives, per
fault kind, the games, the faults applied, the failures (stuck, divergent)
and the simulated time. A failed game is printed with its seed, so that it
can be played again alone. Exits non-zero if any game failed.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def main(argv):
    from tests.app.linkcampaign import KINDS, Campaign
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30, help="games of each fault kind")
    ap.add_argument("--seed", type=int, default=1, help="the first seed")
    ap.add_argument("--kinds", default=",".join(KINDS), help="fault kinds, comma-separated")
    args = ap.parse_args(argv)
    kinds = args.kinds.split(",")
    print("Linked games under faults (two Apps on a simulated wire), %d of each kind from seed %d"
          % (args.games, args.seed))
    print("%-8s %6s %7s %6s %6s %9s %9s" % ("fault", "games", "faults", "stuck", "diverg", "failures",
                                          "sim min"))
    total = failed = 0
    t0 = time.time()
    notes = []
    for k in range(len(kinds)):
        games = faults = stuck = divergent = sim = 0
        for i in range(args.games):
            seed = args.seed + 1000 * KINDS.index(kinds[k]) + i
            c = Campaign(kinds[k], seed)
            verdict = c.play()
            games += 1
            faults += c.faults_done
            sim += c.now
            if verdict == "stuck":
                stuck += 1
            elif verdict == "divergent":
                divergent += 1
            if verdict != "ok":
                notes.append(c.describe())
        total += games
        failed += stuck + divergent
        print("%-8s %6d %7d %6d %6d %9d %9.1f" % (kinds[k], games, faults, stuck, divergent,
                                                  stuck + divergent, sim / 60000.0), flush=True)
    print("%-8s %6d %7s %6s %6s %9d" % ("all", total, "", "", "", failed))
    print("host time %.0f s" % (time.time() - t0))
    for n in notes:
        print(n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
