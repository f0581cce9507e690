"""The main loop sleeps when nothing is due (hardware/mainloop.py),
on real CircuitPython 10 firmware on the emulated Pico: at a human's turn the
CPU waits for interrupts most of the time, and every device budget holds:
no pass over 100 ms, a button answered within a pass period or so, the LEDs
still animating (the cursor blinks), the AI's turn thought flat out.

tools/bench_idle.py measures the same (`--rev main` for the code before).
Boots a board: full tier (run.py test --full).
"""

import pytest

from tests import needs
from tools import bench_idle

BUSY_BUDGET = 0.25      # share of a human's turn the CPU may be busy (the loop never slept: 100 %)
PASS_BUDGET_MS = 100
ANSWER_BUDGET_MS = 60   # keypad's 5 ms scan, then at most a nap (10 ms) and a pass
MENU_BUSY_BUDGET = 0.2  # a display board's menu, its LEDs dark (a loop that never slept: 100 %)


@pytest.mark.full
def test_pico_sleeps_at_a_humans_turn_within_the_budgets(firmware_option):
    f = bench_idle.run(firmware=firmware_option, seconds=5.0, log=lambda s: None)
    if f is None:
        needs.missing("no firmware or emulator for the Pico (tests/device/README.md)")
    print("idle figures", f)
    assert f["human_busy"] <= BUSY_BUDGET, f
    assert f["frames"] >= 6, f                       # the cursor blinks twice a second
    assert f["answer_ms"] is not None and f["answer_ms"] <= ANSWER_BUDGET_MS, f
    assert f["longest_pass_ms"] <= PASS_BUDGET_MS, f
    assert f["ai_ms"] is not None and f["ai_busy"] > f["human_busy"], f


@pytest.mark.full
def test_a_display_boards_menu_sleeps_though_its_leds_are_dark(firmware_option):
    f = bench_idle.run(firmware=firmware_option, seconds=3.0, log=lambda s: None,
                       profile="feather_oled")
    if f is None:
        needs.missing("no firmware or emulator for the Feather (tests/device/README.md)")
    print("idle figures", f)
    assert f["menu_busy"] <= MENU_BUSY_BUDGET, f
    assert f["human_busy"] <= BUSY_BUDGET, f
