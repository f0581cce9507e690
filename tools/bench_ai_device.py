#!/usr/bin/env python3
"""AI turn times on real CircuitPython 10.3 firmware on an emulated Pico.

    python3 tools/bench_ai_device.py                      # every mix, greedy 2 3 4
    python3 tools/bench_ai_device.py --levels 3 --mixes classic,standard+heroes+challenges
    python3 tools/bench_ai_device.py --positions 4 --keep /tmp/aibench --raw
    python3 tools/bench_ai_device.py --frozen --levels 3,4 --mixes standard

Builds a CIRCUITPY folder (jarmo/ compiled with CircuitPython's mpy-cross
when it is there, else the .py files; tools/device_bench/ai_turns.py as
code.py; positions.txt with seeded positions from the opening to the late
game of every mix), boots it on the emulated Pico (run_device below: the
only part that knows the emulator) and prints a table of the turn times
per level and mix: median and max of whole turns, the longest step()
slice, and the nodes (actions applied).  --frozen: on Jarmo's firmware
for the Pico (tools/firmware.py; jarmo frozen in, with its bigger tables:
jarmo.ai.FROZEN), the drive holding only code.py and positions.txt.
The emulator runs at about half of real
time: a full sweep of levels 3 and 4 takes a long while.
Exits 1 if a limit of docs/AI.md is missed.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from jarmo import rulesets as R  # noqa: E402
from jarmo.ai import Player  # noqa: E402
from jarmo.game import EXPANSIONS, Game  # noqa: E402
from jarmo.rng import Rng  # noqa: E402


def stock_firmware():
    """The pinned stock CircuitPython for the Pico (firmware/artifacts.json:
    fetched or built on first use); SystemExit with the reason when it cannot be had."""
    from tests.device.device import firmware_path, firmware_skip_message
    path = firmware_path("raspberry_pi_pico")
    if path is None:
        raise SystemExit(firmware_skip_message("raspberry_pi_pico"))
    return path


# Every rule set, alone and with both expansions (where it takes them);
# ALL_MIXES: with every set of expansions.
_TAKES = tuple(r for r in R.RULE_SETS if not R.row(r)[R.FEATURES] & R.NO_EXPANSIONS)
MIXES = tuple(m for r in R.RULE_SETS for m in ((r, r + "+" + "+".join(EXPANSIONS)) if r in _TAKES else (r,)))
ALL_MIXES = tuple(m for r in R.RULE_SETS for m in (
    (r, r + "+heroes", r + "+challenges", r + "+heroes+challenges") if r in _TAKES else (r,)))
# Limits per level name (ms): any whole turn, and any step() slice.
LIMITS = {"greedy": 50, "2": 150, "3": 1000, "4": 3000}
SLICE_LIMIT = 30


def split_mix(mix):
    parts = mix.split("+")
    return parts[0], tuple(parts[1:])


def positions(mix, count):
    """count positions of seeded games (level 2 v level 2 after a few random
    actions), spread over each game from the opening to its late stage."""
    rules, expansions = split_mix(mix)
    found = []
    seed = 0
    while len(found) < count and seed < 50:
        seed += 1
        rng = Rng(seed * 977 + len(mix))
        g = Game(rules, expansions, 300)
        for _ in range(2 + seed % 3):           # a varied opening
            legal = g.legal()
            g.play(legal[rng.below(len(legal))])
        players = (Player(2, seed), Player(2, seed + 100))
        snaps = []
        while g.result() is None and g.plies < 160:
            snaps.append(list(g.history()))
            for code in players[g.mover].choose(g):
                g.play_code(code)
        if len(snaps) < 6:
            continue
        per_game = min(4, count - len(found))
        for k in range(per_game):
            found.append(snaps[(len(snaps) - 1) * (2 * k + 1) // (2 * per_game)])
    return found


def core_drive(folder, script, frozen=False):
    """Make folder a CIRCUITPY drive with tools/device_bench/`script` as
    code.py and the rules core (jarmo/ less the app; compiled with
    CircuitPython's mpy-cross when it is there); frozen: no jarmo/ at all
    (an empty folder would hide the firmware's package).  True if compiled."""
    if os.path.exists(folder):
        shutil.rmtree(folder)
    os.makedirs(os.path.join(folder, "jarmo") if not frozen else folder)
    src = os.path.join(ROOT, "jarmo")
    from tests.device.stage import mpy_cross_path
    cross = mpy_cross_path()
    for name in [] if frozen else sorted(os.listdir(src)):
        if not name.endswith(".py") or name.startswith("app"):
            continue
        if cross and name != "__init__.py":
            out = os.path.join(folder, "jarmo", name[:-3] + ".mpy")
            subprocess.check_call([cross, "-o", out, "-s", "jarmo/" + name,
                                   os.path.join(src, name)])
        else:
            shutil.copy(os.path.join(src, name), os.path.join(folder, "jarmo", name))
    shutil.copy(os.path.join(ROOT, "tools", "device_bench", script), os.path.join(folder, "code.py"))
    return cross is not None


def build(folder, levels, mixes, count, positions_from=None, frozen=False):
    """Fill folder as the CIRCUITPY drive (positions_from: reuse the P lines of
    an earlier positions.txt, to compare two versions on the same positions;
    frozen: no jarmo/, the firmware has it)."""
    compiled = core_drive(folder, "ai_turns.py", frozen)
    with open(os.path.join(folder, "positions.txt"), "w") as f:
        f.write("L %s\n" % " ".join(levels))
        if positions_from:
            with open(positions_from) as old:
                for line in old:
                    parts = line.split()
                    if parts and parts[0] == "P" and (
                            parts[1] + ("" if parts[2] == "-" else "+" + parts[2])) in mixes:
                        f.write(line)
            return compiled
        for mix in mixes:
            rules, expansions = split_mix(mix)
            exp = "+".join(expansions) or "-"
            for history in positions(mix, count):
                f.write("P %s %s %s\n" % (rules, exp, " ".join(history)))
    return compiled


def run_device(folder, timeout_s=3600, firmware=None):
    """Boot the folder on the emulated Pico; (exit code, stdout lines).

    The only part that knows the emulator: the project's device harness
    (tests/device/emulator.mjs, batch mode), which counts the same cycles as
    the shared runner and runs faster."""
    emulator = os.path.join(ROOT, "tests", "device", "emulator.mjs")
    proc = subprocess.run(["node", emulator, "--firmware", firmware or stock_firmware(), "--drive", folder,
                           "--end-marker", "@@END", "--timeout-s", str(timeout_s), "--quiet"],
                          capture_output=True, text=True, cwd=ROOT)
    return proc.returncode, proc.stdout.splitlines() + proc.stderr.splitlines()


def table(lines, out):
    """Print the @@AI lines as a table; True if every limit is met."""
    ok = True
    out.write("%-28s %-6s %3s %9s %9s %9s %7s %7s %8s\n" % (
        "mix", "level", "n", "median ms", "max ms", "slice ms", "nodes", "max", "nodes/s"))
    rate = node_rates(lines)
    for line in lines:
        if line.startswith("@@MEM"):
            out.write(line[2:] + "\n")
        if not line.startswith("@@AI "):
            continue
        mix, level, n, med, top, sl, nodes, most = line.split()[1:9]
        limit = LIMITS.get(level)
        miss = (limit is not None and float(top) > limit) or float(sl) > SLICE_LIMIT
        ok = ok and not miss
        out.write("%-28s %-6s %3s %9s %9s %9s %7s %7s %8.0f%s\n" % (
            mix, level, n, med, top, sl, nodes, most, rate.get((mix, level), 0), "  OVER" if miss else ""))
    return ok


def node_rates(lines):
    """{(mix, level): nodes per second over all its turns} from the @@TURN lines."""
    sums = {}
    for line in lines:
        if line.startswith("@@TURN "):
            parts = line.split()     # @@TURN mix level plies ms MS nodes N depth D
            key = (parts[1], parts[2])
            ms, nodes = sums.get(key, (0.0, 0))
            sums[key] = (ms + float(parts[5]), nodes + int(parts[7]))
    return {key: 1000.0 * nodes / ms for key, (ms, nodes) in sums.items() if ms}


def main(argv):
    levels = ["greedy", "2", "3", "4"]
    mixes = MIXES
    count = 8
    keep = None
    positions_from = None
    raw = False
    frozen = False
    timeout = 3600
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--levels":
            levels = argv[i + 1].split(",")
            i += 1
        elif arg == "--mixes":
            value = argv[i + 1]
            i += 1
            mixes = ALL_MIXES if value == "all" else tuple(value.split(","))
        elif arg == "--positions":
            count = int(argv[i + 1])
            i += 1
        elif arg == "--positions-from":
            positions_from = argv[i + 1]
            i += 1
        elif arg == "--keep":
            keep = argv[i + 1]
            i += 1
        elif arg == "--timeout":
            timeout = int(argv[i + 1])
            i += 1
        elif arg == "--raw":
            raw = True
        elif arg == "--frozen":
            frozen = True
        else:
            sys.stderr.write(__doc__)
            return 2
        i += 1
    folder = keep or tempfile.mkdtemp(prefix="jarmo_aibench_")
    compiled = build(folder, levels, mixes, count, positions_from, frozen)
    firmware = None
    if frozen:
        from tests.device import stage
        firmware = stage.firmware("pico", "frozen")
    print("AI turns on CircuitPython 10.3, emulated Pico 125 MHz (%s), %d positions a mix" % (
        "Jarmo's firmware: jarmo frozen in" if frozen else "jarmo/*.mpy" if compiled else "jarmo/*.py", count),
        flush=True)
    rc, lines = run_device(folder, timeout, firmware)
    if raw:
        print("\n".join(lines))
    ok = table(lines, sys.stdout)
    if rc:
        print("device run failed (exit %d):\n%s" % (rc, "\n".join(lines[-20:])))
        return 1
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
