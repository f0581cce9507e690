"""The app state machine with an in-memory store: plain functions and asserts,
so the same tests run under pytest and under MicroPython (tests/micropython).
"""

from jarmo import app_view as V
from jarmo.app import App
from jarmo.app_buttons import SELECT
from jarmo.board import point
from jarmo.store_log import R_GAME, Store
from jarmo.store_stats import Stats, percent
from tests.app.cutflash import CutFlash, PowerCut
from tests.app.drive import Clock, Rand, goto, joy_to, new_game, play, play_out, wait_state
from tests.app.memstore import MemoryStore, reboot


def test_menu_then_a_game_of_moves():
    app = App(store=MemoryStore(), tabletop=True)
    clock = Clock(app)
    clock.run(50)
    assert app.state == "menu" and app.text[1] == ">New game"
    new_game(clock, "standard", heroes=True)
    assert app.state == "play" and app.text[1] == "South to move"
    play(clock, "b1-d2")
    play(clock, "e5-d3")
    assert app.game.history() == ["b1-d2", "e5-d3"]
    clock.run(1100)
    assert app.pixel("b1") == V.TRAIL or app.pixel("b1") == 0
    assert len(app.frame) == 75 and app.frame_version > 0


def test_cursor_blink_and_targets():
    app = App(tabletop=True)
    clock = Clock(app)
    new_game(clock, "classic")
    goto(clock, point("a1"))
    on = app.pixel("a1")
    clock.run(512)
    assert on == V.CURSOR[0] and app.pixel("a1") == V.PIECE[0]
    clock.press(SELECT)
    clock.run(600)
    assert app.pixel("a1") == V.SELECTED
    lit = [n for n in ("c2", "b3") if app.pixel(n) in (V.TARGET, V.CURSOR[0])]
    assert lit == ["c2", "b3"]


def test_refused_pick_leaves_the_game_unchanged():
    app = App()
    clock = Clock(app)
    new_game(clock, "jasyr")
    before = app.game.dump()
    goto(clock, point("a1"))
    clock.press(SELECT)
    joy_to(clock, "e5")
    clock.press(SELECT)
    assert app.text[2:4] == ("No: no line joins a1", "and e5")
    assert app.game.dump() == before
    clock.run(16, 16)
    assert app.pixel("e5") == V.RED


def test_save_resume_and_damage():
    store = MemoryStore()
    app = App(store=store)
    clock = Clock(app)
    new_game(clock, "standard", challenges=True)
    play(clock, "a1-c2")
    again = App(store=reboot(store))
    assert again.text[1] == ">Resume"
    Clock(again).press(SELECT)
    assert again.game.history() == ["a1-c2"] and again.state == "play"
    play(Clock(again), "e5-d3")
    store.nvm.data[store.newest[R_GAME] + 6] ^= 0x20        # the start record damaged
    third = App(store=reboot(store))
    assert third.state == "notice" and third.text[0] == "game: damaged"
    assert third.game is None


def test_power_cut_at_every_flash_operation():
    for cut in range(3):
        flash = CutFlash(seed=cut + 11)
        app = App(store=Store(flash), tabletop=True)
        clock = Clock(app)
        new_game(clock, "classic")
        play(clock, "b1-d2")
        flash.cut_after(cut)
        try:
            play(clock, "e5-d3")
        except PowerCut:
            pass
        flash.reboot()
        h = App(store=Store(flash)).game.history()
        assert h in (["b1-d2"], ["b1-d2", "e5-d3"]), (cut, h)


def test_whole_game_statistics_and_led_result():
    store = MemoryStore()
    app = App(store=store, has_display=False, tabletop=True)
    clock = Clock(app)
    new_game(clock, "classic")
    play_out(clock, Rand(9))
    assert app.state == "end"
    wait_state(clock, "result")
    counts = app.stats.counts("classic")
    assert sum(counts) == 1
    stored = Stats(reboot(store))
    assert stored.table["classic"] == {0: list(counts)}            # two players
    assert stored.counted == app.game_id
    assert percent(3514, 8643) == "40.65"
    clock.press(SELECT)
    assert app.state == "menu"


def test_against_the_random_ai():
    app = App(store=MemoryStore())
    app.ai_steps = 20
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI random")
    play_out(clock, Rand(4), limit=200)
    assert app.state == "end"


def test_the_words_a_new_player_reads_under_micropython_too():
    """The hint in words (str.format), the open turn's two lines and the
    result's first page, as the device runs them (tests/app has the rest)."""
    from jarmo.app_assist import install
    from jarmo.notation import parse_action
    app = App(tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard", opponent="human")
    install(app)._show(app, [parse_action("d3-e5"), parse_action("@a1")])
    assert app.msg == ("Hint: move d3 to e5,", "then place a piece on", "a1.")
    app.next_turn()                 # the turn entered again, as App puts the assisted one in
    for a in "e1-d3 b5-a3 b1-a3 e5-d3 c1-d3 a5-b3 a1-b3 d5-b4 b3-c5".split():
        play(clock, a)
    assert app.text[:2] == ("South: place a piece", "in your camp, or done"), app.text
    for a in "@c1 b4-d3 c1-d3".split():
        play(clock, a)
    wait_state(clock, "result")
    assert app.text == ("North's pieces are", "all taken.", "South wins.", "SELECT: menu"), app.text
