"""The app's RAM under real MicroPython 1.27: live heap on top of the core.

Measured with gc.mem_alloc() after a gc.collect() in a separate runPython
call (the only way this port reclaims garbage). The baseline holds the rules
core, the AI module and a flash sector (the device's nvm is not in its heap);
the app's figure includes its code, the store
(bytecode lives in RAM on the device too), its interned names, the App and
its states, a running Game (in the menu too: the game can be resumed) and
its turn's choices. As on the device, the code of play and the screens
around it is loaded with jarmo.app and stays (docs/ARCHITECTURE.md, On the
device); the menu and How to play come and go. docs/APP.md lists the
figures.
"""

import re

# The app in play, its store's code included (jarmo/store_log.py, about
# 7 KB; its compaction is loaded only between games; the flash sector itself
# is the device's nvm, outside the heap). The guard keeps a game with the
# move timer on within the Pico's budget: at 42.7 KB here, the emulated Pico
# on stock firmware keeps 54.8 KB free in a game against the AI, and over
# 51.2 KB against level 4 (python3 run.py bench --device measures the device
# itself; tests/device/test_modes_on_device.py holds it to the budget).
PLAY_BUDGET = 42 * 1024
# The figure on top of the base moves by up to about 4 KB when the code
# before the base changes a little: MicroPython's interned-name pools grow
# in doubling blocks, and where a block falls (in the base or in the app)
# shifts. The whole live heap (core, AI and app: `whole`) is printed beside
# it; the device tests hold the board's real budgets.

BASE = [
    "import gc",
    "gc.collect(); start = gc.mem_alloc()",
    "from jarmo import Game",
    "from jarmo.match import Match",
    "import jarmo.ai, jarmo.explain",
    "from jarmo.store_flash import Flash",
    "flash = Flash()   # the device's nvm is outside the heap",
    "from jarmo.app_buttons import NEXT, PREV, SELECT, MENU",
    "gc.collect()",
    "gc.collect(); base = gc.mem_alloc()",
]

PLAY = [
    "from jarmo.app import App, PRELOAD\n"
    "from jarmo.store_log import Store\n"
    "app = App(store=Store(flash))\n"
    "for name in PRELOAD: __import__(name)\n"
    "app.tick(0)\n"
    "app.new_game(rules='standard', expansions=('heroes', 'challenges'), opponent='human')\n"
    "for i in range(3):\n"
    "    app.press(NEXT); app.tick(20 + i)\n"
    "app.press(SELECT); app.tick(100); app.press(SELECT)\n"
    "for t in range(200, 2000, 16): app.tick(t)\n",
    "gc.collect()",
    "gc.collect(); print('play', gc.mem_alloc() - base, app.state)",
    "print('whole', gc.mem_alloc() - start)",
    "app.press(MENU); app.tick(3000)",
    "gc.collect()",
    "gc.collect(); print('menu', gc.mem_alloc() - base, app.state)",
    "app.how_to_play(); app.tick(3100)",
    "gc.collect()",
    "gc.collect(); print('help', gc.mem_alloc() - base, app.state)",
    "app.press(MENU); app.tick(3200)",
    "gc.collect()",
    "gc.collect(); print('closed', gc.mem_alloc() - base, app.state)",
    "app.press(PREV); app.tick(4000)",
    "gc.collect()",
    "gc.collect(); print('again', gc.mem_alloc() - base, app.state)",
    "gc.collect(); gc.disable(); b = gc.mem_alloc()\n"
    "for t in range(4000, 8000, 16): app.tick(t)\n"
    "print('ticks', gc.mem_alloc() - b)",
]


def _figures(out):
    return dict((k, int(v)) for k, v in re.findall(r"^(\w+) (-?\d+)", out, re.M))


def test_app_heap_in_play_and_menu(micropython):
    rc, out, err = micropython(BASE + PLAY)
    assert rc == 0, out + err
    f = _figures(out)
    for line, state in (("play", "play"), ("menu", "menu"), ("help", "help"),
                        ("closed", "menu"), ("again", "play")):
        assert re.search(r"^%s \d+ %s$" % (line, state), out, re.M), out
    assert f["play"] <= PLAY_BUDGET, f
    # the menu's code is in the heap only while it is open (a game against
    # the AI is played without it)
    assert f["menu"] > f["play"] + 2048, f
    # and back from the menu to play, it has gone again (after How to play:
    # the names of both stay interned)
    assert f["again"] <= f["play"] + 512, f
    # How to play's pages are in RAM while it is open (the menu's code is not),
    # and leave it when it closes (their names stay interned)
    assert f["help"] > f["play"] + 4096, f
    assert f["closed"] <= f["menu"] + 512, f
    # drawing frames allocates nothing
    assert f["ticks"] <= 64, f
