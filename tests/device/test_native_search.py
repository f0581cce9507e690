"""Jarmo's firmware runs the search's modules (jarmo/ai.py, evaluation.py,
game.py) as native Thumb code (tools/firmware.py NATIVE_MODULES); stock
firmware, MicroPython and CPython run the same source as bytecode.  Both
must play the same: on the emulated Pico with Jarmo's firmware, levels 2, 3
and 4 answer positions from the opening to the late game of every rule set
(with and without the expansions) with the same turns, after the same
number of nodes and the same completed depth, as the plain search on
CPython with the firmware's table sizes.

Boots a board: full tier.  The firmware is built here when the ARM compiler
is installed (seconds once built), else the test is skipped.
"""

import importlib.util
import os

import pytest

from jarmo import ai
from tests import needs
from tests.device import stage
from tools import bench_ai_device as bench
from tools import bench_native as native

ROOT = stage.ROOT
SCRIPT = os.path.join(ROOT, "tools", "device_bench", "search_lines.py")
POSITIONS_PER_MIX = 2      # one early, one late in the game


def _script():
    spec = importlib.util.spec_from_file_location("search_lines", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _plain_answers(positions):
    """The @@S lines of the plain search on CPython, with the firmware's tables."""
    lines = []
    script = _script()
    ai.use_tables(True)
    try:
        for index, (rules, expansions, history) in enumerate(positions):
            script.answers(rules, expansions, history, index, lines.append)
    finally:
        ai.use_tables(ai.FROZEN)
    return [line for line in lines if line.startswith("@@S ")]


@pytest.mark.full
def test_the_native_search_plays_as_the_plain_one_on_every_rule_set(tmp_path):
    needs.require(stage.firmware_unavailable("pico", "frozen"))
    firmware = stage.firmware("pico", "frozen")
    positions = native.mix_positions(bench.MIXES, POSITIONS_PER_MIX)
    lines = native.device_lines(firmware, positions, True, str(tmp_path / "drive"))
    counts = [line for line in lines if line.startswith("@@NATIVE ")]
    assert counts and all(int(n) > 0 for n in counts[0].split()[1:]), counts   # native code ran
    device = [line for line in lines if line.startswith("@@S ")]
    plain = _plain_answers(positions)
    assert len(plain) == 3 * len(positions)
    for mine, theirs in zip(device, plain):
        assert mine == theirs, (positions[int(theirs.split()[1])], mine, theirs)
    assert len(device) == len(plain)
