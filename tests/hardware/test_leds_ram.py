"""Leds under real MicroPython: no allocation per frame, none for the end-of-game breathing."""

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
    # a one-time few hundred bytes (the object's attributes growing), then nothing
    assert res["celebrate"] < 512 and res["celebrate_alloc"] == 0, res
    assert res["shows"] >= 3, res                   # it did breathe
