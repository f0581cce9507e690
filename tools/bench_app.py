"""Live heap of the app logic under MicroPython 1.27, on top of the rules core and AI.

    python tools/bench_app.py

The same measurement as tests/app/test_app_memory.py (the test guards the
budget; this prints the figures), plus a game against the greedy AI, whose
Player state is the AI's own cost (tools/bench_ai.py) but shows here too.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

from tests.app.test_app_memory import BASE, PLAY, PLAY_BUDGET, _figures  # noqa: E402
from tests.micropython import mp  # noqa: E402

VERSUS_AI = [
    "app = None",
    "gc.collect()",
    "from jarmo.app import App\nfrom jarmo.store_log import Store\napp = App(store=Store(flash))\napp.tick(0)\n"
    "app.new_game(rules='standard', opponent='greedy')\n"
    "app.press(SELECT); app.tick(100); app.press(SELECT)\n"
    "for t in range(200, 4000, 16): app.tick(t)\n",
    "gc.collect()",
    "gc.collect(); print('versus_ai', gc.mem_alloc() - base, app.state)",
]


def main():
    rc, out, err = mp.run_micropython(BASE + PLAY + VERSUS_AI)
    if rc:
        raise SystemExit("MicroPython run failed:\n" + err)
    f = _figures(out)
    print("App logic (MicroPython 1.27; heap on top of the rules core and the AI module)")
    print("  in a two-player game (all the app's code, App, Game):  %6d bytes (budget %d)"
          % (f["play"], PLAY_BUDGET))
    print("  in the menu of that game:                              %6d bytes" % f["menu"])
    print("  against the greedy AI (with its Player and search):    %6d bytes" % f["versus_ai"])
    print("  allocated by 250 frames of ticks:                      %6d bytes" % f["ticks"])
    return 0 if f["play"] <= PLAY_BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
