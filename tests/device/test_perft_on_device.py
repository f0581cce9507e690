"""Perft on the emulated Pico with Jarmo's firmware: its Game runs the C
kernels (firmware/_jarmo/kernels.c: gen_into, do_code, undo_code,
move_piece, ...) and its search the native code of jarmo/ai.py, and both
count the trees of tests/perft/positions.txt as jarmo/game.py does:
Game's own generation, play and undo (the C), and the search's fast path
(jarmo.ai.perft, native code over the C).  tests/test_perft.py checks the
same counts on CPython and MicroPython.

Boots a board: full tier.
"""

import os
import shutil

import pytest

from tests import needs
from tests.device import stage
from tools import bench_ai_device as bench

HERE = os.path.dirname(os.path.abspath(__file__))
PERFT = os.path.join(os.path.dirname(HERE), "perft")

# Appended to tests/perft/perft.py to make the drive's code.py.
MAIN = """

import jarmo.ai as ai
import jarmo.game as game_module
print("@@NATIVE %d" % len(getattr(game_module, "PLAIN", ())))
rows = read("positions.txt")
print("@@KERNELS")
check(rows, perft)
print("@@FASTPATH")
check(rows, ai.perft)
print("@@END")
"""


@pytest.mark.full
def test_the_c_kernels_and_the_native_fast_path_count_the_perft_files_numbers(tmp_path):
    needs.require(stage.firmware_unavailable("pico", "frozen"))
    folder = str(tmp_path / "drive")
    os.makedirs(folder)
    with open(os.path.join(PERFT, "perft.py")) as f:
        source = f.read()
    with open(os.path.join(folder, "code.py"), "w") as f:
        f.write(source + MAIN)
    shutil.copy(os.path.join(PERFT, "positions.txt"), os.path.join(folder, "positions.txt"))
    rc, lines = bench.run_device(folder, 900, stage.firmware("pico", "frozen"))
    tail = "\n".join(lines[-30:])
    assert rc == 0 and "@@END" in lines, tail
    native = [line for line in lines if line.startswith("@@NATIVE ")]
    assert native and int(native[0].split()[1]) > 0, tail          # the C is in place
    with open(os.path.join(PERFT, "positions.txt")) as f:
        expected = sum(1 for line in f if line.split("#", 1)[0].strip())
    for part, after in (("@@KERNELS", "@@FASTPATH"), ("@@FASTPATH", "@@END")):
        counted = lines[lines.index(part) + 1:lines.index(after)]
        results = [line.split() for line in counted if line.startswith("@@PERFT ")]
        assert len(results) == expected, (part, tail)
        wrong = [" ".join(r) for r in results if r[1] != "ok"]
        assert not wrong, (part, wrong)
