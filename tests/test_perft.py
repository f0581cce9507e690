"""Perft: every implementation of the rules counts the same legal-action
trees (tests/perft/positions.txt: every rule set and expansion mix, from the
start and from positions of seeded games, with the draws and ends within
reach).  A move generator that differs anywhere in a tree below a listed
position gives another count.

The implementations: jarmo/game.py's generator, play and undo
(tests/perft/perft.py), the search's fast path (jarmo.ai.perft), on
CPython and on MicroPython 1.27 (quick tier); and on the emulated Pico
with Jarmo's firmware, whose Game runs the C kernels (firmware/_jarmo/) and
whose search runs as native code (full tier: tests/device/test_perft_on_device.py).
The counts are made by tests/perft/make.py from jarmo/game.py and checked
there against the independent tests/reference implementation.
"""

import os

import pytest

from jarmo import ai
from jarmo import rulesets as R
from jarmo.game import EXPANSIONS
from tests.perft import perft as P

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "perft", "positions.txt")
ROWS = P.read(FILE)


def test_the_file_has_every_rule_set_and_mix_from_the_start_and_later():
    mixes = {(rules, exps) for rules in R.RULE_SETS
             for exps in ((),) + (() if R.row(rules)[R.FEATURES] & R.NO_EXPANSIONS
                                   else tuple((e,) for e in EXPANSIONS) + (EXPANSIONS,))}
    starts = {(r[0], r[1]) for r in ROWS if r[3] == "start"}
    later = {(r[0], r[1]) for r in ROWS if r[3] != "start"}
    assert starts == mixes and mixes <= later
    assert all(r[5] is not None for r in ROWS)
    assert any(r[2] is not None for r in ROWS)          # a ply limit within reach


def test_game_py_counts_the_files_numbers():
    assert P.check(ROWS, P.perft, out=lambda line: None) == []


def test_the_fast_path_counts_the_files_numbers():
    assert P.check(ROWS, ai.perft, out=lambda line: None) == []


def test_a_wrong_count_is_reported():
    rules, exps, limit, position, depth, nodes = ROWS[0]
    wrong = P.check([(rules, exps, limit, position, depth, nodes + 1)], P.perft, out=lambda line: None)
    assert wrong == [(P.label(ROWS[0]), nodes + 1, nodes)]


def test_the_counts_are_the_same_on_micropython():
    from tests.micropython import mp

    mp.require_micropython()
    rows = [tuple(r) for r in ROWS]
    rc, out, err = mp.run_micropython([
        "from tests.perft import perft as P\n"
        "import jarmo.ai as ai\n"
        "rows = %r\n"
        "print('plain', len(P.check(rows, P.perft, out=lambda line: None)))\n"
        "print('fast', len(P.check(rows, ai.perft, out=lambda line: None)))\n" % (rows,)])
    assert rc == 0, out + err
    assert "plain 0" in out and "fast 0" in out, out + err


@pytest.mark.full
def test_the_counts_are_the_reference_implementations():
    from tests.perft import make

    # (the slowest lines, a copy of the reference game per node, are left
    # to make.py --reference)
    for row in ROWS:
        if row[5] <= 3000:
            assert make.reference_count(row) == row[5], P.label(row)
