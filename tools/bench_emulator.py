#!/usr/bin/env python3
"""The device harness's own speed: emulated cycles a CPU second.

    python3 tools/bench_emulator.py              # 3 runs of each decoder
    python3 tools/bench_emulator.py --runs 5

Boots the stock Pico firmware (firmware/artifacts.json) in tests/device/emulator.mjs
(batch mode) with a fixed Python workload as code.py (arithmetic, a dict of
strings, a list sorted), once with rp2040js's own instruction decoder
(JARMO_PLAIN_CORE=1) and once with tests/device/fastcore.mjs's, and prints
the emulated cycles and the emulator's CPU seconds of each run. The two
must count the same cycles (fastcore changes the emulator's speed, never
the board's time); the device tests' wall time follows the cycles a CPU
second. Exits 1 if the cycles differ or a run fails.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMULATOR = os.path.join(ROOT, "tests", "device", "emulator.mjs")
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from tools.bench_ai_device import stock_firmware  # noqa: E402

WORKLOAD = """
def squares(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s
names = {}
for k in range(8):
    squares(20000)
    for i in range(2000):
        names[i] = str(i)
    sorted(names.values())
print("@@END")
"""
STATS = re.compile(r"\(([\d.]+) M cycles\).* \(([\d.]+) s CPU")


def run_once(folder, plain):
    """(M cycles, CPU s) of one run."""
    env = dict(os.environ, JARMO_PLAIN_CORE="1" if plain else "0")
    proc = subprocess.run(["node", EMULATOR, "--firmware", stock_firmware(), "--drive", folder,
                           "--end-marker", "@@END", "--timeout-s", "300"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    found = STATS.search(proc.stderr)
    if proc.returncode or not found:
        raise RuntimeError("emulator run failed (%d): %s" % (proc.returncode, proc.stderr[-400:]))
    return float(found.group(1)), float(found.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of each decoder (alternating)")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="jarmo_emubench_")
    with open(os.path.join(folder, "code.py"), "w") as f:
        f.write(WORKLOAD)
    runs = {True: [], False: []}
    for _ in range(args.runs):
        for plain in (True, False):
            runs[plain].append(run_once(folder, plain))
    print("emulated Pico, stock CircuitPython 10.3, a Python workload; %d runs each" % args.runs)
    print("%-28s %10s %10s %14s" % ("decoder", "M cycles", "CPU s", "M cycles/CPU s"))
    rate = {}
    for plain, label in ((True, "rp2040js's own"), (False, "fastcore (the harness's)")):
        cycles = runs[plain][0][0]
        cpu = statistics.median(c for _m, c in runs[plain])
        rate[plain] = cycles / cpu
        print("%-28s %10.1f %10.2f %14.1f" % (label, cycles, cpu, rate[plain]))
    print("fastcore: %.2f times as fast" % (rate[False] / rate[True]))
    same = len({m for plain in runs for m, _c in runs[plain]}) == 1
    if not same:
        print("the decoders counted different cycles: %r" % runs)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
