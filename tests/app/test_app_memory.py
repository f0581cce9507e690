"""The app's RAM under real MicroPython 1.27: live heap on top of the core.

Measured with gc.mem_alloc() after a gc.collect() in a separate runPython
call (the only way this port reclaims garbage). The baseline holds the rules
core, the AI module and the test store; the app's figure includes its code
(bytecode lives in RAM on the device too), its interned names, the App, a
running Game (in the menu too: the game can be resumed) and its turn's
choices. docs/APP.md lists the figures. Issue 4's budget for the app logic
is 24 KB; in the menus the play overlay is unloaded, so they need less.
"""

import re

BASE = [
    "import gc",
    "from jarmo import Game, Match",
    "import jarmo.ai, jarmo.explain",
    "from tests.app.memstore import MemoryStore",
    "from jarmo.buttons import NEXT, PREV, SELECT, MENU",
    "gc.collect()",
    "gc.collect(); base = gc.mem_alloc()",
]

PLAY = [
    "from jarmo.app import App\n"
    "app = App(store=MemoryStore())\n"
    "app.tick(0)\n"
    "app.new_game(rules='standard', expansions=('heroes', 'challenges'), opponent='human')\n"
    "for i in range(3):\n"
    "    app.press(NEXT); app.tick(20 + i)\n"
    "app.press(SELECT); app.tick(100); app.press(SELECT)\n"
    "for t in range(200, 2000, 16): app.tick(t)\n",
    "gc.collect()",
    "gc.collect(); print('play', gc.mem_alloc() - base, app.state)",
    "app.press(MENU); app.tick(3000)",
    "gc.collect()",
    "gc.collect(); print('menu', gc.mem_alloc() - base, app.state)",
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
    for line in ("play", "menu", "again"):
        assert re.search(r"^%s \d+ %s$" % (line, "menu" if line == "menu" else "play"), out, re.M), out
    # the menu overlay is unloaded again when play resumes
    assert f["again"] <= f["play"] + 512, f
    assert f["play"] <= 24 * 1024, f
    assert f["menu"] <= 20 * 1024, f
    # drawing frames allocates nothing
    assert f["ticks"] <= 64, f
