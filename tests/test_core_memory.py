"""The rules core stays within its RAM budget under MicroPython 1.27.

Byte counts, not timings: deterministic for a given build. The figures are
printed by tools/bench_core.py and kept in docs/BENCHMARKS.md.
"""

from tests.micropython import mp
from tools.bench_core import (
    BUDGET_GROWTH,
    BUDGET_LIVE,
    BUDGET_PLY_ALLOC,
    micropython_memory,
)


def test_rules_core_fits_its_ram_budget_on_micropython():
    mp.require_micropython()
    live, growth, ply = micropython_memory()
    assert live <= BUDGET_LIVE, live
    assert growth <= BUDGET_GROWTH, growth
    assert ply <= BUDGET_PLY_ALLOC, ply
