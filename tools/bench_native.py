#!/usr/bin/env python3
"""Nodes per second of the search on the emulated Pico: Jarmo's firmware
(the search's modules native code, tools/firmware.py NATIVE_MODULES)
against a baseline.

    python3 tools/bench_native.py                         # against stock CircuitPython + jarmo/*.mpy
    python3 tools/bench_native.py --baseline OLD.uf2      # against another Jarmo firmware (bytecode)
    python3 tools/bench_native.py --positions 3 --mixes standard,classic

Both run tools/device_bench/search_lines.py on the same seeded positions of
every mix (from the opening to the late game): levels 2, 3 and 4 search to
their node budgets without a clock (against a Jarmo firmware baseline the
same nodes and turns, which it says; stock takes smaller tables, so its
search differs a little).  Prints per mix and level the nodes and
milliseconds of each, their nodes per second and the speed-up.  Emulated
time: rp2040js counts Cortex-M0+ cycles at 125 MHz (it runs code from
flash as fast as from RAM).
"""

import argparse
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools import bench_ai_device as bench  # noqa: E402


def mix_positions(mixes, count):
    """[(rules, expansions, history)] of seeded games of each mix."""
    out = []
    for mix in mixes:
        rules, expansions = bench.split_mix(mix)
        for history in bench.positions(mix, count):
            out.append((rules, expansions, history))
    return out


def device_lines(firmware, positions, frozen, folder=None):
    """Run search_lines.py on the emulated Pico with `firmware` (frozen: the
    firmware holds jarmo/; else the drive does): its @@ lines; RuntimeError
    if the run fails."""
    folder = folder or tempfile.mkdtemp(prefix="jarmo_search_")
    bench.core_drive(folder, "search_lines.py", frozen)
    with open(os.path.join(folder, "positions.txt"), "w") as f:
        for rules, expansions, history in positions:
            f.write("P %s %s %s\n" % (rules, "+".join(expansions) or "-", " ".join(history)))
    rc, lines = bench.run_device(folder, 6000, firmware)
    if rc:
        raise RuntimeError("device run failed (exit %d):\n%s" % (rc, "\n".join(lines[-20:])))
    return [line for line in lines if line.startswith("@@")]


def rates(lines, positions):
    """{(mix, level): (nodes, ms)} summed over the positions of each mix."""
    nodes = {}
    out = {}
    for line in lines:
        parts = line.split()
        if parts[0] == "@@S":
            nodes[(int(parts[1]), parts[2])] = int(parts[3])
        elif parts[0] == "@@T":
            index, level = int(parts[1]), parts[2]
            rules, expansions, _history = positions[index]
            key = ("+".join((rules,) + tuple(expansions)), level)
            n, ms = out.get(key, (0, 0.0))
            out[key] = (n + nodes[(index, level)], ms + float(parts[3]))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", help="a UF2 with jarmo frozen in as bytecode (default: stock "
                    "CircuitPython with jarmo/*.mpy on the drive)")
    ap.add_argument("--positions", type=int, default=2, help="positions a mix (default 2)")
    ap.add_argument("--mixes", default=",".join(bench.MIXES))
    args = ap.parse_args(argv)
    from tests.device import stage
    positions = mix_positions(args.mixes.split(","), args.positions)
    native = device_lines(stage.firmware("pico", "frozen"), positions, True)
    if args.baseline:
        base, base_name = device_lines(args.baseline, positions, True), os.path.basename(args.baseline)
    else:
        base, base_name = device_lines(bench.stock_firmware(), positions, False), "stock + .mpy"
    same = [x for x in native if x.startswith("@@S")] == [x for x in base if x.startswith("@@S")]
    print("Search speed on the emulated Pico (125 MHz), %d positions a mix, node budgets, no clock" % (
        args.positions))
    print("native: Jarmo's firmware (%s); baseline: %s; %s" % (
        next(x for x in native if x.startswith("@@NATIVE")), base_name,
        "the same turns after the same nodes" if same else "different searches (other table sizes)"))
    print("%-28s %-5s %7s %8s %7s %8s %9s %9s %8s" % (
        "mix", "level", "nodes", "base ms", "nodes", "nat ms", "base n/s", "nat n/s", "speed-up"))
    fast, slow = rates(native, positions), rates(base, positions)
    total = [0, 0.0, 0, 0.0]
    order = args.mixes.split(",")
    for key in sorted(fast, key=lambda k: (order.index(k[0]), k[1])):
        row = slow[key] + fast[key]
        for k in range(4):
            total[k] += row[k]
        print(_row(key[0], key[1], row))
    print(_row("all", "", total))
    return 0


def _row(mix, level, row):
    base_n, base_ms, n, ms = row
    return "%-28s %-5s %7d %8.0f %7d %8.0f %9.0f %9.0f %7.2fx" % (
        mix, level, base_n, base_ms, n, ms, 1000 * base_n / base_ms, 1000 * n / ms,
        (n / ms) / (base_n / base_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
