"""What link play costs in RAM under real MicroPython 1.27 (docs/LINK.md).

Measured as tests/app/test_app_memory.py measures the app: gc.mem_alloc()
after a gc.collect() in a separate runPython call. The link's line is a
silent transport (the UART's own buffer is the firmware's, outside these
figures). First the protocol alone (jarmo.link: its code and one Link with
its buffers), then a linked game against the same two-player game: the
app's side (jarmo.linkplay, the link wait screen's visit) on top.
"""

import re

LINK_BUDGET = 14 * 1024         # the protocol module and one Link with its buffers (13.7 KB)
GAME_BUDGET = 15 * 1024         # a linked game over the same game between two at the table (14.5 KB)

BASE = [
    "import gc",
    "from jarmo import Game",
    "from jarmo.app_buttons import NEXT, SELECT, MENU",
    "gc.collect()",
    "gc.collect(); base = gc.mem_alloc()",
]

PROTOCOL = [
    "import jarmo.link\n"
    "class Silent:\n"
    "    def readinto(self, buf): return 0\n"
    "    def write(self, data): pass\n"
    "g = Game('standard')\n",
    "gc.collect()",
    "gc.collect(); mid = gc.mem_alloc()",
    "link = jarmo.link.Link(Silent(), 1); link.bind(g, bytes((1, 0, 0, 0, 0, 0, 9)))\n"
    "for t in range(0, 2000, 20): link.poll(t)\n",
    "gc.collect()",
    "gc.collect(); print('module', mid - base); print('object', gc.mem_alloc() - mid)",
    "gc.collect(); gc.disable(); b = gc.mem_alloc()\n"
    "for t in range(2000, 4000, 20): link.poll(t)\n"
    "print('polls', gc.mem_alloc() - b)",
]


def _figures(out):
    return dict((k, int(v)) for k, v in re.findall(r"^(\w+) (-?\d+)", out, re.M))


def test_the_protocol_module_and_a_link_fit_in_a_few_kb(micropython):
    rc, out, err = micropython(BASE + PROTOCOL)
    assert rc == 0, out + err
    f = _figures(out)
    assert f["module"] + f["object"] <= LINK_BUDGET, f
    # 100 passes that send ten HELLOs allocate little (a frame's memoryview, the snapshot)
    assert f["polls"] <= 2048, f
    print(f)


GAMES = [
    "from jarmo.app import App\n"
    "from jarmo.store_flash import Flash\n"
    "from jarmo.store_log import Store\n"
    "class Silent:\n"
    "    def readinto(self, buf): return 0\n"
    "    def write(self, data): pass\n"
    "app = App(store=Store(Flash()), line=Silent())\n"
    "app.tick(0)\n"
    "app.new_game(rules='standard', opponent='human')\n"
    "for t in range(20, 600, 20): app.tick(t)\n",
    "gc.collect()",
    "gc.collect(); print('table', gc.mem_alloc() - base, app.state)",
    "from jarmo.app_link import start_offer\n"
    "start_offer(app, bytes((1, 0, 0, 0, 0, 7)), True)\n"
    "from jarmo.unload import forget_module\n"
    "forget_module('jarmo.app_link')\n"
    "for t in range(600, 2000, 20): app.tick(t)\n",
    "gc.collect()",
    "gc.collect(); print('linked', gc.mem_alloc() - base, app.state)",
]


def test_a_linked_game_costs_a_few_kb_more_than_a_game_at_the_table(micropython):
    rc, out, err = micropython(BASE + GAMES)
    assert rc == 0, out + err
    f = _figures(out)
    assert re.search(r"^linked \d+ play$", out, re.M), out
    assert f["linked"] - f["table"] <= GAME_BUDGET, f
    print(f)
