"""The menus: every item, values, LED-only menu, statistics screen."""

import os
import subprocess
import sys

import pytest

from jarmo import app_base as B
from jarmo import app_menu as M
from jarmo import app_view as V
from jarmo.app import App
from jarmo.app_buttons import BACK, LEFT, MENU, NEXT, PREV, RIGHT, SELECT, UP
from tests.app.drive import Clock, Rand, menu_to, new_game, play_out, set_option, wait_state
from tests.app.memstore import MemoryStore

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def items_seen(app, clock):
    seen = []
    for _ in range(len(M.ORDER)):
        line = [x for x in app.text[1:] if x.startswith(">")][0]
        seen.append(line[1:].split(":")[0])
        clock.press(NEXT)
    return seen


def test_start_menu_lists_every_item():
    app = App()
    clock = Clock(app)
    clock.run(100)
    assert app.state == "menu"
    assert app.text[0] == "Jarmo"
    assert app.text[1] == ">New game"
    seen = items_seen(app, clock)
    for title in ("New game", "Campaign", "First game (lesson)", "Rules", "Heroes", "Challenges",
                  "Versus", "Match", "Timer", "Time out", "Allow hints", "Brightness", "Statistics",
                  "How to play"):
        assert title in seen, (title, seen)
    assert "Side" in seen and "Resume" not in seen     # against the AI, no game yet
    assert "Hint for your turn" not in seen            # only during a game
    set_option(clock, "Versus", "human")
    assert "Side" not in items_seen(app, clock)        # two players: no side to choose
    assert all(len(x) <= 21 for x in app.text) and len(app.text) <= 5


def test_every_value_of_every_item():
    app = App()
    clock = Clock(app)
    for r in M.RULES:
        set_option(clock, "Rules", r)
    set_option(clock, "Rules", "standard")
    for title in ("Heroes", "Challenges"):
        set_option(clock, title, "on")
        set_option(clock, title, "off")
    for r in range(len(B.OPPONENTS) // B.OPP):
        if not B.opponent(r, B.NEEDS) & B.LINKED:       # "Link" only on a board with a cable
            set_option(clock, "Versus", B.opponent(r))
    for s in M.SIDE_WORDS:
        set_option(clock, "Side", s)
    for v in ("1 game", "2 games", "4 games", "6 games"):
        set_option(clock, "Match", v)
    menu_to(clock, "New match")
    for level in range(1, 9):
        set_option(clock, "Brightness", "%d/8" % level)
        assert app.brightness == M.BRIGHTNESS[level - 1]
    # LEFT and RIGHT step values too (joystick)
    menu_to(clock, "Brightness")
    clock.press(RIGHT)
    assert app.brightness == M.BRIGHTNESS[0]
    clock.press(LEFT)
    assert app.brightness == M.BRIGHTNESS[7]
    clock.press(UP)                                 # UP: the item before
    assert ">Allow hints: on" in app.text


def test_classic_takes_no_expansions():
    app = App()
    clock = Clock(app)
    set_option(clock, "Rules", "standard")
    set_option(clock, "Heroes", "on")
    set_option(clock, "Challenges", "on")
    set_option(clock, "Rules", "classic")
    assert not [x for x in items_seen(app, clock) if x in ("Heroes", "Challenges")]
    menu_to(clock, "New game")
    clock.press(SELECT)
    assert app.game.rules == "classic" and app.game.expansions == ()


def test_new_game_uses_the_chosen_settings():
    app = App()
    clock = Clock(app)
    new_game(clock, "legendary", heroes=True, challenges=True, match="4 games")
    assert app.state == "play"
    assert app.game.rules == "legendary"
    assert app.game.expansions == ("heroes", "challenges")
    assert app.match.games == 4
    assert app.text[0] == "legendary+H+C 1/4"


def test_menu_during_a_game_and_resume():
    app = App()
    clock = Clock(app)
    new_game(clock, "standard")
    clock.press(MENU)
    assert app.state == "menu" and app.text[1] == ">Resume"
    clock.press(SELECT)
    assert app.state == "play"
    clock.press(MENU)
    clock.press(MENU)           # MENU again: back to the game
    assert app.state == "play"


def test_statistics_screen():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    new_game(clock, "classic")
    play_out(clock, Rand(5))
    wait_state(clock, "result")
    clock.press(SELECT)
    menu_to(clock, "Statistics")
    clock.press(SELECT)
    assert app.state == "stats"
    assert app.text[0] == "classic, 2 players"
    s, n, d = app.stats.counts("classic")
    assert s + n + d == 1
    assert app.text[1] == "South %d (%s %%)" % (s, "100.00" if s else "0.00")
    clock.press(NEXT)
    assert app.text[0] == "standard, 2 players" and app.text[1] == "South 0 (0.00 %)"
    clock.press(LEFT)
    clock.press(LEFT)
    assert app.text[0] == "jasyr, 2 players"
    clock.press(PREV)
    assert app.state == "menu" and ">Statistics" in app.text
    # statistics survive a reboot
    again = App(store=store)
    assert again.stats.counts("classic") == (s, n, d)


def test_settings_survive_a_reboot():
    store = MemoryStore()
    app = App(store=store)
    clock = Clock(app)
    set_option(clock, "Rules", "jasyr")
    set_option(clock, "Brightness", "3/8")
    menu_to(clock, "New game")
    clock.press(SELECT)          # settings are written when the menu is left
    again = App(store=store)
    assert again.settings[0] == M.RULES.index("jasyr")
    assert again.brightness == M.BRIGHTNESS[2]


def lit(app):
    return [i for i in range(25) if app.pixel(i)]


def test_led_only_menu_scheme():
    app = App(has_display=False)
    clock = Clock(app)
    clock.run(100)
    # "New game" (item 1): its LED b5 blinks, no value LEDs; with no game to
    # resume, First game's LED (c3) glows in the lesson's colour
    assert lit(app) in ([12, 21], [12])
    menu_to(clock, "Rules")
    clock.run(32)
    # item 2 -> c5; standard is value 2 -> a1, b1 lit
    assert lit(app) == [0, 1, 22]
    set_option(clock, "Rules", "jasyr")
    clock.run(32)
    assert lit(app) == [0, 1, 2, 3, 22]
    set_option(clock, "Versus", "AI level 3")
    set_option(clock, "Side", "North")
    clock.run(32)
    assert lit(app) == [0, 1, 15 + 1] and app.pixel(0) == V.SIDE_COLOURS[1]
    set_option(clock, "Match", "6 games")
    clock.run(32)
    assert lit(app) == [0, 1, 2, 3, 4, 5, 17]
    set_option(clock, "Brightness", "8/8")
    clock.run(32)
    assert lit(app) == [0, 1, 2, 3, 4, 5, 6, 7, 18]
    menu_to(clock, "Statistics")
    clock.press(SELECT)
    clock.run(32)
    # jasyr = rule set 4 on rank 5, no games yet; the opponent of the
    # settings, AI level 3 (the fourth rung), as four LEDs on rank 4
    assert lit(app) == [15, 16, 17, 18, 20, 21, 22, 23]


def test_new_game_method_for_the_simulator():
    app = App(store=MemoryStore())
    app.new_game(rules="jasyr", expansions=("heroes",), opponent="greedy", side="north", games=2)
    assert app.game.rules == "jasyr" and app.game.expansions == ("heroes",)
    assert app.match.games == 2 and app.state == "ai"
    app.new_game(rules="classic", expansions=(), opponent="human", games=1)
    assert app.game.rules == "classic" and app.match is None and app.state == "play"
    for bad in ({"rules": "chess"}, {"opponent": "9"}, {"side": "east"},
                {"rules": "classic", "expansions": ("heroes",)}):
        try:
            app.new_game(**bad)
        except ValueError:
            pass
        else:
            raise AssertionError(bad)


def test_every_state_is_an_object_reached_through_goto():
    """Each state keeps its own fields: the menu's item stays the menu's,
    the turn's selection the play state's, across the other screens."""
    from jarmo.app_base import S_MENU, S_PLAY
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    clock.run(50)
    # a game's own states stay made; the rest (the end, the result and the
    # start-up notice among them) are made when they open
    assert [type(s).__name__ for s in app.states] == ["Menu", "Play", "AiTurn"] + ["NoneType"] * 8
    new_game(clock, "classic")
    assert app.state == "play"
    clock.press(SELECT)                             # a piece selected
    assert app.states[S_PLAY].sel >= 0
    clock.press(MENU)
    assert app.state == "menu" and app.states[S_MENU].item == 0      # on Resume
    menu_to(clock, "Statistics")
    clock.press(SELECT)
    assert app.state == "stats"
    clock.press(PREV)
    assert app.state == "menu" and app.text[1:].count(">Statistics") == 1
    menu_to(clock, "Resume")
    clock.press(SELECT)
    assert app.state == "play" and app.states[S_PLAY].sel == -1       # a fresh pick
    play_out(clock, Rand(2))
    assert app.state == "end"
    clock.run(50)                                   # the end's passes: its words, its count
    assert sum(app.stats.counts("classic")) == 1


def test_a_changed_setting_survives_a_power_off_in_the_menu():
    store = MemoryStore()
    app = App(store=store)
    clock = Clock(app)
    clock.run(100)
    set_option(clock, "Versus", "AI level 2")
    set_option(clock, "Rules", "jasyr")
    first = app.brightness
    menu_to(clock, "Brightness")
    clock.press(SELECT)
    assert app.brightness != first
    again = App(store=store)                  # power off and on, still in the menu
    Clock(again).run(100)
    assert again.settings == app.settings
    assert again.brightness == app.brightness
    assert M.RULES[again.settings[0]] == "jasyr"


def test_opponents_are_named_as_a_ladder_of_the_ai_levels():
    from jarmo import ai
    labels = B.OPPONENTS[::B.OPP]
    assert labels[0] == "human" and B.opponent(0, B.MAKER + 1) == "human"
    assert labels[B.opponent_row(B.LINKED, B.NEEDS)] == "Link"
    for n in range(len(ai.LEVELS)):
        row = B.opponent_row(n + 1)                     # an AI's id: 1 + its level
        level = ai.LEVELS[n]
        word = level if not level.isdigit() else "level " + level
        assert labels[row] == "AI " + word and row == n + 1     # as --opponent's last word
        assert B.opponent(row, B.MAKER + 1) == "ai" and len("Versus: " + labels[row]) <= 20
    app = App()
    clock = Clock(app)
    set_option(clock, "Versus", "AI random")
    set_option(clock, "Versus", labels[B.opponent_row(len(ai.LEVELS))])    # the strongest AI


def test_statistics_against_an_ai_level():
    store = MemoryStore()
    app = App(store=store, seed=2)
    app.ai_steps = 50
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI greedy")
    play_out(clock, Rand(3))
    wait_state(clock, "result")
    clock.press(SELECT)
    menu_to(clock, "Statistics")
    clock.press(SELECT)
    assert app.text[0] == "standard vs greedy"
    assert [line[:5] for line in app.text[1:4]] == ["You  ", "AI   ", "Draws"]
    assert app.text[4] == "NEXT: more PREV: back"
    clock.press(NEXT)                   # no other opponent: the next rule set
    assert app.text[0] == "legendary vs greedy" and app.text[1] == "You   0 (0.00 %)"


def test_while_a_game_can_be_resumed_settings_are_for_the_next_game():
    app = App()
    clock = Clock(app)
    assert app.text[0] == "Jarmo"
    menu_to(clock, "Rules")
    assert app.text[0] == "Jarmo"               # no game: nothing to say
    app.new_game(rules="standard", opponent="human")
    clock.press(MENU)
    assert app.text[0] == "Jarmo" and app.text[1] == ">Resume"
    menu_to(clock, "Rules")
    assert app.text[0] == "For the next game:"
    menu_to(clock, "Statistics")
    assert app.text[0] == "Jarmo"


def test_each_screen_is_one_row_and_its_id_names_it():
    """A screen is a module and a row of app_base.SCREENS; its S_ id is the
    row's number, and the row names a State class that exists."""
    import importlib

    rows = [B.SCREENS[k:k + B.SCREEN] for k in range(0, len(B.SCREENS), B.SCREEN)]
    ids = dict((name[2:].lower(), getattr(B, name)) for name in dir(B) if name.startswith("S_"))
    assert sorted(ids.values()) == list(range(len(rows)))
    for name, sid in ids.items():
        screen, module, cls, on_demand = rows[sid]
        assert screen == name, (name, rows[sid])
        assert issubclass(getattr(importlib.import_module(module), cls), B.State)
        assert on_demand in (True, False)


def test_each_menu_item_is_one_row():
    """A menu item's title, value count, LED and the screen it opens are one
    row of app_base.ITEMS; the counts follow the tables they choose from."""
    from jarmo.game import RULE_SETS
    rows = [B.ITEMS[k:k + B.ITEM] for k in range(0, len(B.ITEMS), B.ITEM)]
    assert len(rows) == max(getattr(B, n) for n in ("RESUME", "HINT", "LESSON")) + 1
    assert len(set(r[B.SPOT] for r in rows)) == len(rows)       # every LED its own point
    assert all(0 <= r[B.SPOT] < 25 for r in rows)
    assert rows[B.RULE][B.VALUES] == len(RULE_SETS)
    assert rows[B.OPPONENT][B.VALUES] == len(B.OPPONENTS) // B.OPP
    assert rows[B.MATCH][B.VALUES] == len(B.GAMES)
    assert rows[B.BRIGHT][B.VALUES] == len(B.BRIGHTNESS)
    assert rows[B.TIMER][B.VALUES] == len(B.TIMER_S)
    assert [r[B.TITLE] for r in rows if r[B.OPENS] >= 0] == \
        ["Statistics", "How to play", "Campaign", "First game (lesson)"]


# ------------------------------------------ leaving a running game is asked first

def _in_a_game(has_display=True, opponent="human"):
    """A game under way (a move played), the menu opened from it."""
    app = App(has_display=has_display)
    clock = Clock(app)
    clock.run(100)
    new_game(clock, opponent=opponent)
    wait_state(clock, "play")
    from tests.app.drive import play
    play(clock, app.game.legal()[0])
    wait_state(clock, "play")
    clock.press(MENU)
    assert app.state == "menu"
    return app, clock


def test_new_game_during_a_game_asks_before_leaving_it():
    """New game would throw the running game away: the display asks, SELECT
    again says yes, any other button says no and keeps the game."""
    app, clock = _in_a_game()
    game = app.game
    menu_to(clock, "New game")
    clock.press(SELECT)
    assert app.game is game and app.state == "menu"
    said = " ".join(app.text)
    assert "New game?" in said and "unfinished" in said and "SELECT again: yes" in said, said
    assert all(len(x) <= 21 for x in app.text) and len(app.text) <= 5
    clock.press(NEXT)                               # no: the game stays, the menu is back
    assert app.game is game and app.state == "menu" and ">New game" in app.text
    clock.press(SELECT)
    clock.press(BACK)                               # BACK says no too
    assert app.game is game and app.state == "menu" and ">New game" in app.text
    menu_to(clock, "Resume")
    clock.press(SELECT)
    assert app.game is game and app.state == "play"
    clock.press(MENU)
    menu_to(clock, "New game")
    clock.press(SELECT)
    clock.press(SELECT)                             # yes
    assert app.game is not game and app.state == "play" and app.game.plies == 0


def test_without_a_display_the_question_flashes_every_led_red():
    app, clock = _in_a_game(has_display=False)
    game = app.game
    menu_to(clock, "New game")
    clock.press(SELECT)
    seen = set()
    for _ in range(20):
        clock.run(64)
        seen.add(tuple(app.pixel(i) for i in range(25)))
    assert (V.RED,) * 25 in seen and len(seen) > 1, seen   # flashing, all red
    clock.press(SELECT)
    assert app.game is not game


def test_a_finished_game_or_none_is_left_without_a_question():
    app = App()
    clock = Clock(app)
    clock.run(100)
    new_game(clock)                                 # no game yet: starts at once
    assert app.state == "play"
    play_out(clock, Rand(3))
    assert app.game.result() is not None
    for _ in range(3):                              # the end, its result, the menu
        if app.state != "menu":
            clock.press(MENU)
    assert app.state == "menu"
    game = app.game
    menu_to(clock, "New game")
    clock.press(SELECT)
    assert app.game is not game and app.state == "play"


def test_starting_a_battle_during_a_game_asks_before_leaving_it():
    """The campaign's ladder starts a battle in place of the running game
    (not a battle): asked first, SELECT again: yes."""
    app, clock = _in_a_game()
    game = app.game
    menu_to(clock, "Campaign")
    clock.press(SELECT)
    assert app.state == "campaign"
    clock.press(SELECT)                             # battle 1 would replace the game
    assert app.game is game and app.state == "campaign" and app.battle == -1
    said = " ".join(app.text)
    assert "Game unfinished" in said and "SELECT again" in said, said
    clock.press(NEXT)                               # no
    assert app.game is game
    clock.press(PREV)
    clock.press(SELECT)
    clock.press(SELECT)                             # yes
    assert app.game is not game and app.battle == 0


@pytest.mark.parametrize("item", ["First game", "Statistics", "How to play"])
def test_the_screens_that_keep_the_running_game_ask_nothing(item):
    """The lesson (its own Game), Statistics and How to play leave the running
    game as it is: no question, and Resume goes back to the same game."""
    app, clock = _in_a_game()
    game = app.game
    plies = game.plies
    menu_to(clock, item)
    clock.press(SELECT)
    assert app.state != "menu" and "SELECT again" not in " ".join(app.text), app.text
    clock.run(1000)
    for _ in range(3):
        if app.state == "menu":
            break
        clock.press(MENU)
    assert app.state == "menu", app.state
    menu_to(clock, "Resume")
    clock.press(SELECT)
    assert app.game is game and game.plies == plies and app.state == "play"


def _ticked(app, ms, every=40):
    """app.tick every `every` ms up to `ms`: the times its state drew, and
    (t, frame_version) after each tick."""
    drawn = []
    state = app.states[app.sid]
    draw = state.draw

    def counted(app, buf):
        drawn.append(app.now)
        draw(app, buf)
    state.draw = counted
    versions = []
    for t in range(0, ms, every):
        app.tick(t)
        versions.append((t, app.frame_version))
    return drawn, versions


def test_a_still_picture_is_drawn_again_only_in_a_new_128_ms_slot():
    # a display board's menu: the LEDs show the empty board, dark and still
    drawn, _versions = _ticked(App(seed=3, has_display=True), 2048)
    assert len(drawn) <= 2048 // 128 + 5, "a drawing a slot, not one every 40 ms pass"


def test_a_blink_is_lit_in_the_first_pass_after_it_changes():
    # the LED-only menu: New game's LED blinks, 256 ms lit, 256 ms dim
    _drawn, versions = _ticked(App(seed=3, has_display=False), 2048)
    for edge in range(256, 2048, 256):
        first = min(v for t, v in versions if t >= edge)
        before = max(v for t, v in versions if t < edge)
        assert first == before + 1, edge


# App() on a fresh interpreter: the modules it imports as it starts (none
# loaded before it), whether or not they stay
_STARTING = """
import sys
from jarmo.app import App, STARTUP
from jarmo.store_flash import Flash
from jarmo.store_log import Store
store = Store(Flash())
imported = []
class Seen:
    def find_spec(self, name, path, target=None):
        imported.append(name)
sys.meta_path.insert(0, Seen())
App(store=store)
print(" ".join(imported))
print(" ".join(STARTUP))
"""


def test_the_app_starts_with_only_the_modules_a_board_imports_before_it_reads_the_saves():
    # hardware/startup.py imports jarmo.app.STARTUP before the saves are read
    out = subprocess.run([sys.executable, "-c", _STARTING], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.splitlines()
    imported, startup = out[0].split(), out[1].split()
    assert sorted(set(imported)) == sorted(startup)
