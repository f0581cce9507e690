"""The benchmark scripts keep working: each host benchmark runs in a small
mode and exits 0 (a script that no test runs rots unseen: tools/bench_flash
still chose its opponent by an old menu name). Their figures are the
scripts' own business (docs/BENCHMARKS.md), not asserted here."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_tool(*args):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", args[0])] + list(args[1:]),
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def test_the_flash_wear_benchmark_runs():
    out = run_tool("bench_flash.py", "--games", "4")
    assert "4 games against the greedy AI" in out and "erases per 100 turns" in out


def test_the_link_fault_campaign_benchmark_runs():
    from tests.app.linkcampaign import KINDS
    out = run_tool("bench_link.py", "--games", "1")
    # a game of every fault kind, none stuck or divergent
    assert "fault     games" in out
    assert ("%-8s %6d %7s %6s %6s %9d" % ("all", len(KINDS), "", "", "", 0)) in out


def test_the_app_memory_benchmark_runs():
    assert "against the greedy AI" in run_tool("bench_app.py")


def test_the_led_layer_memory_benchmark_runs():
    assert "celebrate_alloc" in run_tool("leds_ram.py")


@pytest.mark.full
def test_the_rules_core_benchmark_runs():
    assert "within budget: yes" in run_tool("bench_core.py")
