"""What the play modes (campaign, guided first game, timer, hint) cost in RAM, under real MicroPython 1.27.

Measured as tests/app/test_app_memory.py does (live heap after gc.collect()
in a separate runPython call, on top of the core, the AI module and a
store). The campaign's ladder and the lesson are loaded when they open and
forgotten when they close; the timer and the hint (app_assist) only exist
in a game that uses them. docs/APP.md lists the figures.
"""

import re

from tests.app.test_app_memory import BASE

MODES = [
    "from jarmo.app import App, PRELOAD\n"
    "from jarmo.store_log import Store\napp = App(store=Store(flash))\n"
    "for name in PRELOAD: __import__(name)\n"
    "app.tick(0)",
    # a standard game first (its board tables are shared by every game: the
    # device builds them after start-up), then its menu
    "app.new_game(rules='standard', opponent='human'); app.tick(5); app.press(MENU)",
    "gc.collect()",
    "gc.collect(); print('menu', gc.mem_alloc() - base, app.state)",
    # the campaign: the menu opens on Resume; Hint, New game, then Campaign
    "for t in range(3): app.press(NEXT); app.tick(8 + t)\n"
    "app.press(SELECT); app.tick(20)",
    "gc.collect()",
    "gc.collect(); print('campaign', gc.mem_alloc() - base, app.state)",
    "app.press(MENU); app.tick(30)",  # the menu, on Resume
    "gc.collect()",
    "gc.collect(); print('after_campaign', gc.mem_alloc() - base, app.state)",
    "for t in range(4): app.press(NEXT); app.tick(40 + t)\n"
    "app.press(SELECT); app.tick(50)",
    "for t in range(60, 3000, 16): app.tick(t)",
    "gc.collect()",
    "gc.collect(); print('lesson', gc.mem_alloc() - base, app.state)",
    "app.press(MENU); app.tick(3100)",
    "gc.collect()",
    "gc.collect(); print('after_lesson', gc.mem_alloc() - base, app.state)",
    # a two-player game, without and with the timer
    "app.new_game(rules='standard', opponent='human'); app.tick(3200)",
    "gc.collect()",
    "gc.collect(); print('play', gc.mem_alloc() - base, app.state)",
    "app.settings[7] = 2\n"         # Timer: 30 s (settings[TIMER - RULE])
    "app.new_game(rules='standard', opponent='human')\n"
    "for t in range(3300, 6000, 16): app.tick(t)",
    "gc.collect()",
    "gc.collect(); print('timer', gc.mem_alloc() - base, app.state)",
    # a hint (greedy between two players), shown
    "from jarmo.app_assist import ask\n"
    "app.press(MENU); app.tick(6100); ask(app); app.press(MENU)\n"
    "for t in range(6200, 9000, 16): app.tick(t)\n"
    "print('hinted', app.text)",
    "gc.collect()",
    "gc.collect(); print('hint', gc.mem_alloc() - base, app.state)",
]


def _figures(out):
    return dict((k, int(v)) for k, v in re.findall(r"^(\w+) (-?\d+)", out, re.M))


def test_modes_cost_ram_only_while_they_are_used(micropython):
    rc, out, err = micropython(BASE + MODES)
    assert rc == 0, out + err
    f = _figures(out)
    print(f)
    for line, state in (("menu", "menu"), ("campaign", "campaign"), ("after_campaign", "menu"),
                        ("lesson", "lesson"), ("after_lesson", "menu"), ("play", "play"),
                        ("timer", "play"), ("hint", "play")):
        assert re.search(r"^%s \d+ %s$" % (line, state), out, re.M), (line, out)
    assert "Hint: " in out.split("hinted", 1)[1].split("\n", 1)[0], out
    # the ladder and the lesson leave RAM when they close (their names stay interned)
    assert f["after_campaign"] <= f["menu"] + 512, f
    assert f["after_lesson"] <= f["menu"] + 512, f
    # each costs a few KB while it is open
    assert f["campaign"] - f["menu"] <= 8 * 1024, f
    assert f["lesson"] - f["menu"] <= 10 * 1024, f
    # the timer and the hint: the assisted turn (its module) and, for a
    # hint between two players, a greedy Player
    assert f["timer"] - f["play"] <= 4 * 1024, f
    assert f["hint"] - f["play"] <= 12 * 1024, f
