"""Leds under real MicroPython: no allocation per frame; the celebration's RAM cost."""

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CELEBRATE_BUDGET = 16 * 1024   # measured about 10.5 KB from .py source


def _tool():
    spec = importlib.util.spec_from_file_location("jarmo_leds_ram", os.path.join(ROOT, "tools", "leds_ram.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_leds_ram(micropython):
    res = _tool().measure()
    assert res["frame_alloc"] == 0, res
    assert res["idle_alloc"] == 0, res
    assert res["leds"] < 6 * 1024, res
    assert 0 < res["celebrate"] < CELEBRATE_BUDGET, res
