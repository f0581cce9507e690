"""Jarmo's firmware runs some functions of the rules core in C (the _jarmo
module, firmware/_jarmo/kernels.c, put in their place by the frozen copies:
tools/firmware.py C_KERNELS); everything else runs their Python.  Both must
agree exactly: on the emulated Pico, in every position of seeded random
games of every rule set and expansion mix, the C and the Python generate
the same actions, evaluate alike, and leave the same position, turn,
outcome and undo log after every legal action and its undo
(tools/device_bench/kernels_check.py).  The search on top of them plays as
on CPython: tests/device/test_native_search.py.

Boots a board: full tier.
"""

import os

import pytest

from tests import needs
from tests.device import stage
from tools import bench_ai_device as bench

GAMES = 1          # seeded random games a mix
PLIES = 60         # turns a game at most


@pytest.mark.full
def test_the_c_kernels_play_as_the_python_they_replace_in_every_mix(tmp_path):
    needs.require(stage.firmware_unavailable("pico", "frozen"))
    folder = str(tmp_path / "drive")
    bench.core_drive(folder, "kernels_check.py", frozen=True)
    with open(os.path.join(folder, "kernels.txt"), "w") as f:
        for mix in bench.MIXES:
            rules, expansions = bench.split_mix(mix)
            f.write("M %s %s %d %d\n" % (rules, "+".join(expansions) or "-", GAMES, PLIES))
    rc, lines = bench.run_device(folder, 900, stage.firmware("pico", "frozen"))
    tail = "\n".join(lines[-30:])
    assert rc == 0 and "@@END" in lines, tail
    counts = [line.split() for line in lines if line.startswith("@@NATIVE ")]
    assert counts and all(int(n) > 0 for n in counts[0][1:]), tail     # the C is in place
    diffs = [line for line in lines if line.startswith("@@DIFF ")]
    assert not diffs, "\n".join(diffs[:20])
    mixes = {}
    for line in lines:
        if line.startswith("@@K "):
            parts = line.split()
            mixes[parts[1]] = [int(n) for n in parts[2:]]
    assert sorted(mixes) == sorted(bench.MIXES), tail
    totals = [sum(row[k] for row in mixes.values()) for k in range(7)]
    positions, actions, moves, captures, recovered, hostages, outcomes = totals
    # the checks met what the C has branches for: captures, pieces brought
    # back to the hand, the Golden Soldier taken hostage, games ending
    assert positions >= 7 * 20 and moves >= positions, mixes
    assert captures >= 20 and recovered >= 1 and hostages >= 1 and outcomes >= 1, mixes
    # and every kind of action: move, recall, placement, done, flip, flip and
    # place, redeploy (jarmo/codes.py)
    kinds = [line.split()[1:] for line in lines if line.startswith("@@KINDS ")]
    assert kinds and len(kinds[0]) == 7 and all(int(n) > 0 for n in kinds[0]), kinds
    # and the ends of a game that do_code's checks find
    reasons = [line.split()[1:] for line in lines if line.startswith("@@REASONS ")]
    found = {item.split("=")[0] for item in reasons[0]} if reasons else set()
    assert {"camp", "repetition", "stuck", "limit"} <= found, reasons
