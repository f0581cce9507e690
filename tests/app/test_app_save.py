"""Saving after every turn, resuming, damaged saves, power cuts."""

from jarmo.app import App
from jarmo.app_buttons import MENU, NEXT, SELECT
from jarmo.store_flash import Flash
from jarmo.store_log import R_CAMPAIGN, R_GAME, R_SETTINGS, R_STATS, Store
from tests.app.cutflash import CutFlash, PowerCut
from tests.app.drive import Clock, Rand, choose, new_game, play, play_out, result_said, wait_state
from tests.app.memstore import MemoryStore, reboot


def saved_history(store):
    saved = reboot(store).game()
    if saved is None:
        return None
    from jarmo.store_game import load
    return load(saved[1], saved[2], 5)[0].history()


def test_saved_after_every_turn():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard", heroes=True, challenges=True)
    assert saved_history(store) == []
    rng = Rand(11)
    for _ in range(12):
        if app.state != "play":
            break
        plies = app.game.plies
        a = choose(rng, app.game.legal())
        play(clock, a)
        if app.game.plies != plies:
            assert saved_history(store) == app.game.history()


def test_a_turn_is_saved_in_a_few_bytes_and_no_erase():
    flash = Flash()
    app = App(store=Store(flash), tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard")
    before = (app.store.end, flash.erases)
    play(clock, "a1-c2")
    assert app.store.end - before[0] == 9          # one record: 7 bytes and one action code
    assert flash.erases == before[1] == 0


def test_resume_after_reboot():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    new_game(clock, "legendary", heroes=True, match="2 games")
    for a in ("a1-c2", "e5-d3", "c2-e3"):
        play(clock, a)
    history = app.game.history()
    rebooted = App(store=reboot(store), tabletop=True)
    c2 = Clock(rebooted)
    c2.run(100)
    assert rebooted.state == "menu"
    assert rebooted.text[:2] == ("Saved game found", ">Resume")
    c2.press(SELECT)
    assert rebooted.state == "play"
    assert rebooted.game.history() == history
    assert rebooted.match.games == 2 and rebooted.game.turn == "north"
    play(c2, "d3-b4")
    assert saved_history(store) == history + ["d3-b4"]
    # once resumed, the game is no longer news: the menu is titled Jarmo again
    c2.press(MENU)
    assert rebooted.state == "menu" and rebooted.text[:2] == ("Jarmo", ">Resume")


def _damage(store, key):
    # flip a bit in the payload of the newest record of key
    pos = store.newest[key]
    store.nvm.data[pos + 5] ^= 0x04


def test_every_damaged_item_is_named_and_the_rest_still_loads():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard")
    play(clock, "a1-c2")
    app.stats.record("standard", "south")
    store.write(R_CAMPAIGN, b"\x01\x05")
    store.write(R_SETTINGS, bytes(app.settings))
    play(clock, "e5-d3")
    for key in (R_SETTINGS, R_STATS, R_CAMPAIGN):
        _damage(store, key)
    rebooted = App(store=reboot(store), tabletop=True)
    assert rebooted.state == "notice"
    shown = " ".join(rebooted.text)
    for name in ("settings", "statistics", "campaign"):
        assert name + ": damaged" in shown, shown
    assert rebooted.game.history() == ["a1-c2", "e5-d3"]        # the game was not damaged
    Clock(rebooted).press(NEXT)
    assert rebooted.state == "menu" and rebooted.text[:2] == ("Saved game found", ">Resume")


def test_a_notice_longer_than_the_display_turns_its_pages():
    store = MemoryStore()
    store.write(R_SETTINGS, b"\x01")
    store.write(R_STATS, b"\x03\x00\x00\x00")
    store.write(R_CAMPAIGN, b"\x01")
    store.start_game(b"\x01\x01\x00\x00\x00\x00\x00\xff\x00")
    store.add_turn([5])                                # an intact record after them
    for key in (R_SETTINGS, R_STATS, R_CAMPAIGN, R_GAME):
        pos = store.newest[key]
        store.nvm.data[pos + 3] ^= 0x01                # the sequence number's low bit
    app = App(store=reboot(store), problems=["JARMO_BRIGHTNESS: not -1..255, -1 used"])
    clock = Clock(app)
    pages = [app.text]
    while app.state == "notice":
        clock.press(NEXT)
        pages.append(app.text)
    shown = " ".join(" ".join(p) for p in pages)
    for name in ("settings", "statistics", "campaign", "game"):
        assert name + ": damaged" in shown, pages
    assert "JARMO_BRIGHTNESS: not" in shown
    assert len(pages) >= 3 and pages[0][-1] == "A button: more" and app.state == "menu"


def test_a_damaged_turn_keeps_the_game_as_far_as_it_replays():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard")
    for a in ("a1-c2", "e5-d3", "b1-d2", "d3-b4"):
        play(clock, a)
    third = store.turns()[2]
    store.nvm.data[third + 6] ^= 0x01
    rebooted = App(store=reboot(store), tabletop=True)
    assert rebooted.state == "notice" and "game: damaged" in rebooted.text
    assert rebooted.game.history() == ["a1-c2", "e5-d3"]


def test_a_start_record_that_makes_no_game_is_refused_by_name():
    for start in (b"\x09", b"\x01\x07\x00\x00\x00\x00\x00\xff\x00",
                  b"\x01\x01\x00\x00\x00\x63\x00\xff\x00", b"\x01\x01\x00\x00\x00\x00\x00\xff\x03"
                  b"\x00\x00\x00\x00\x07\x00\x00\x00"):
        store = MemoryStore()
        store.start_game(start)
        app = App(store=reboot(store))
        assert app.state == "notice" and app.game is None, start
        assert app.text[0].startswith("game: "), app.text
        assert App(store=reboot(store)).state == "menu"        # reported once


def test_a_game_that_cannot_be_replayed_is_refused():
    store = MemoryStore()
    store.start_game(b"\x01\x00\x00\x00\x00\x00\x00\xff\x00")    # classic, two players
    from jarmo.notation import parse_action
    store.add_turn([parse_action("a1-a2")])                  # no line joins them
    app = App(store=reboot(store))
    assert app.state == "notice" and app.game is None
    assert any("replayed" in line for line in app.text), app.text


def test_a_finished_game_is_counted_once_and_never_offered_again():
    for cut_at_end in (False, True):
        store = MemoryStore()
        app = App(store=store, tabletop=True)
        clock = Clock(app)
        new_game(clock, "classic")
        play_out(clock, Rand(2))
        assert app.state == "end"
        if not cut_at_end:
            clock.run(100)          # the count's pass: counted before the power goes
        counted = sum(app.stats.counts("classic"))
        again = App(store=reboot(store), tabletop=True)    # power off on the end screen
        assert sum(again.stats.counts("classic")) == 1, (cut_at_end, counted)
        assert again.state == "menu" and again.game is None
        assert again.text[0] == "Jarmo" and ">Resume" not in again.text
        assert reboot(store).game() is None
        third = App(store=reboot(store), tabletop=True)
        assert sum(third.stats.counts("classic")) == 1


def test_a_match_whose_game_ended_before_the_power_went_resumes_at_its_next_game():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard", match="2 games")
    play_out(clock, Rand(4))
    first = app.game.result()
    again = App(store=reboot(store), tabletop=True)
    assert again.text[:2] == ("Saved game found", ">Resume")
    assert again.match.number == 2 and again.match.results[0] == first
    assert again.game.history() == []
    assert sum(again.stats.counts("standard")) == 1


def test_match_continues_with_sides_swapped_and_totals():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard", match="2 games")
    play_out(clock, Rand(4))
    wait_state(clock, "result")
    first = app.game.result()
    assert "SELECT: next game" in app.text
    assert any(x.startswith("Game 1/2 P1 ") for x in result_said(clock))
    clock.press(SELECT)
    assert app.state == "play" and app.match.number == 2
    assert app.match.side_of("first") == "north"
    assert app.game.history() == []
    play_out(clock, Rand(5))
    wait_state(clock, "result")
    assert app.text[-1] == "SELECT: menu"
    assert any(x.startswith("Match: ") for x in result_said(clock))
    assert sum(app.stats.counts("standard")) == 2
    assert app.match.results[0] == first


def test_a_flash_that_refuses_writes_does_not_stop_the_game():
    class Refusing(Flash):
        def __setitem__(self, index, value):
            raise OSError(30, "read-only")

    app = App(store=Store(Refusing()))
    clock = Clock(app)
    new_game(clock, "standard")
    play(clock, "a1-c2")
    assert app.state == "play"
    assert "Cannot save:" in app.text


def test_power_cut_at_every_flash_operation_of_a_turn_resumes_the_last_or_previous_turn():
    outcomes = set()
    for cut in range(4):
        flash = CutFlash(seed=cut + 3)
        app = App(store=Store(flash), tabletop=True)
        clock = Clock(app)
        new_game(clock, "standard")
        play(clock, "b1-d2")
        play(clock, "e5-d3")
        flash.cut_after(cut)
        try:
            play(clock, "a1-c2")
        except PowerCut:
            pass
        flash.reboot()
        again = App(store=Store(flash), tabletop=True)
        assert again.state == "menu", (cut, again.text)
        h = again.game.history()
        assert h in (["b1-d2", "e5-d3"], ["b1-d2", "e5-d3", "a1-c2"]), (cut, h)
        outcomes.add(len(h))
    assert outcomes == {2, 3}


def test_recover_after_a_memory_error_resumes_the_last_save():
    """App.recover (hardware/mainloop.run_guarded calls it after a
    MemoryError) drops what can be rebuilt and goes on from the last save."""
    import sys

    from jarmo.app_base import S_PLAY
    store = MemoryStore()
    app = App(store=store, seed=4)
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI greedy")
    play(clock, "b1-d2")
    wait_state(clock, "play")
    history = app.game.history()
    clock.press(SELECT)                         # a piece picked: the turn in progress
    turn = app.states[S_PLAY]
    assert turn.sel >= 0 and app.opponent.search is not None
    app.recover()
    assert app.state == "play" and app.game.history() == history
    assert app.states[S_PLAY] is not turn and app.states[S_PLAY].sel == -1
    assert app.opponent.search is None and app.opp == 2  # the AI is made again at its turn
    assert "jarmo.app_start" not in sys.modules     # start-up code used once, forgotten
    assert "jarmo.store_game" not in sys.modules
    play(clock, app.game.legal()[0])
    wait_state(clock, "play")
    assert len(app.game.history()) == len(history) + 2


def test_recover_without_a_save_opens_the_menu():
    from jarmo.app_base import S_HELP
    app = App(store=MemoryStore())
    clock = Clock(app)
    app.how_to_play()
    assert app.state == "help"
    app.recover()
    assert app.state == "menu" and app.game is None and app.states[S_HELP] is None
    clock.press(SELECT)
    assert app.state == "play"


def test_a_compaction_between_games_takes_a_pass_of_its_own():
    store = MemoryStore()
    app = App(store=store, tabletop=True)
    clock = Clock(app)
    games = 0
    while store.nvm.erases == 0:
        new_game(clock, "classic")
        play_out(clock, Rand(games + 1))
        wait_state(clock, "result")
        clock.press(SELECT)                     # seen: back to the menu, between games
        games += 1
        if store.busy:
            state = app.state
            app.tick(clock.now + 16)            # the pass of the compaction does nothing else
            assert store.nvm.erases == 1 and app.state == state
    assert games >= 3
    assert reboot(store).problems == []
    assert sum(App(store=reboot(store)).stats.counts("classic")) == games


def test_a_game_left_before_its_first_turn_is_not_announced_at_start_up():
    """The simulator starts a game at once; a player who goes to the lesson
    from there and quits left a game of no turns: the next start says
    nothing of it (no "Saved game found"), though Resume still offers it."""
    store = MemoryStore()
    app = App(store=store)
    clock = Clock(app)
    new_game(clock, "standard")
    assert app.game.plies == 0
    rebooted = App(store=reboot(store))
    Clock(rebooted).run(100)
    assert rebooted.state == "menu" and rebooted.text[:2] == ("Jarmo", ">Resume")
    rebooted.press(SELECT)
    assert rebooted.state == "play" and rebooted.game.plies == 0
