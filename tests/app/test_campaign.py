"""The campaign: a ladder of battles against the AI, progress kept on flash,
and its screen driven through the buttons only."""

from jarmo.ai import LEVELS, Player
from jarmo.app import App
from jarmo.app_buttons import BACK, MENU, NEXT, PREV, SELECT
from jarmo.app_campaign import LOCKED, WON, describe
from jarmo.game import EXPANSIONS, RULE_SETS, Game
from jarmo.notation import action_text
from jarmo.store_campaign import BATTLES, Progress, human_turns
from jarmo.store_log import R_CAMPAIGN, Store
from tests.app.cutflash import CutFlash, PowerCut
from tests.app.drive import Clock, menu_to, play, wait_state
from tests.app.memstore import MemoryStore, reboot

# ---------------------------------------------------------------- the ladder

def test_at_least_eight_battles_at_rising_levels_across_rule_sets():
    assert len(BATTLES) >= 8
    levels = [b[2] for b in BATTLES]
    assert levels == sorted(levels)
    assert set(levels) == {0, 1, 2, 3, 4}          # random .. 4
    assert max(levels) < len(LEVELS)
    # (a rule set needs no battle: a new one goes at the end, the progress
    # being one byte a battle by position)
    assert set(b[0] for b in BATTLES) <= set(RULE_SETS)
    assert set(e for b in BATTLES for e in b[1]) == set(EXPANSIONS)
    for rules, expansions, _level, side in BATTLES:
        Game(rules, expansions)                    # every battle is a valid game
        assert side in (0, 1)


def test_each_won_battle_opens_the_next():
    p = Progress()
    assert p.is_open(0) and not p.is_open(1) and p.first_open() == 0
    p.record(0, 20)
    assert p.won(0) and p.is_open(1) and not p.is_open(2) and p.first_open() == 1
    assert p.wins() == 1


def test_the_best_result_is_the_fewest_turns():
    p = Progress()
    p.record(3, 20)
    p.record(3, 25)
    assert p.best[3] == 20
    p.record(3, 12)
    assert p.best[3] == 12


def test_human_turns_count_the_human_side_only():
    g = Game("standard")
    for a in ("b1-d2", "b5-d4", "c1-a2"):
        g.play(a)
    assert human_turns(g, 0) == 2 and human_turns(g, 1) == 1


# ---------------------------------------------------------------- on flash

def test_progress_is_kept_in_the_store_and_read_back():
    store = MemoryStore()
    Progress(store).record(0, 17)
    again = Progress(reboot(store))
    assert again.best[0] == 17 and again.is_open(1)
    assert store.read(R_CAMPAIGN) == bytes((1,)) + bytes(again.best)


def test_a_power_cut_at_every_flash_operation_keeps_the_old_or_the_new_progress():
    seen = set()
    for cut in range(3):
        flash = CutFlash(seed=cut + 5)
        Progress(Store(flash)).record(0, 30)
        flash.cut_after(cut)
        try:
            Progress(Store(flash)).record(1, 40)
        except PowerCut:
            pass
        flash.reboot()
        p = Progress(Store(flash))
        assert p.problem is None, (cut, p.problem)
        assert p.best[0] == 30 and p.best[1] in (0, 40), (cut, p.best)
        seen.add(p.best[1])
    assert seen == {0, 40}


def test_progress_that_is_not_a_campaign_record_is_reported_once_and_cleared():
    store = MemoryStore()
    store.write(R_CAMPAIGN, b"\x09hello")
    p = Progress(reboot(store))
    assert p.problem == "campaign: unreadable, cleared" and p.best == [0] * len(BATTLES)
    assert Progress(reboot(store)).problem is None


# ---------------------------------------------------------------- the screen

def open_campaign(has_display=True, store=None):
    app = App(store=store or MemoryStore(), has_display=has_display)
    clock = Clock(app)
    menu_to(clock, "Campaign")
    clock.press(SELECT)
    assert app.state == "campaign", app.state
    return app, clock


def test_the_campaign_screen_says_where_you_stand():
    app, clock = open_campaign()
    assert app.text[0] == "Campaign: 0/%d won" % len(BATTLES)
    assert app.text[1] == "1: classic South"
    assert app.text[2] == "vs AI random"
    assert app.text[3] == "Open: SELECT plays"
    clock.press(NEXT)
    assert app.text[1].startswith("2: standard") and app.text[3] == "Locked"
    clock.press(SELECT)                             # a locked battle does not start
    assert app.state == "campaign" and app.text[3] == "Win battle 1 first"
    clock.press(PREV)
    clock.press(PREV)                               # PREV on the first battle: the menu
    assert app.state == "menu"


def test_every_battle_fits_the_display():
    """Bug: "10: legendary+H, North" was 22 characters, one over the OLED's 21."""
    store = MemoryStore()
    for k in range(len(BATTLES) - 1):
        Progress(store).record(k, 123)              # every state: won, open, locked
    app, clock = open_campaign(store=store)
    seen = set()
    for _ in range(2 * len(BATTLES)):
        assert all(len(line) <= 21 for line in app.text), app.text
        seen.add(app.text[1])
        clock.press(NEXT)
    assert len(seen) == len(BATTLES)
    for k in range(len(BATTLES)):
        assert all(len(line) <= 21 for line in describe(k)), describe(k)


def test_the_ladder_on_the_leds_without_a_display():
    store = MemoryStore()
    Progress(store).record(0, 9)
    app, clock = open_campaign(has_display=False, store=store)
    assert app.states[app.sid].k == 1               # it opens on the first battle not won
    clock.press(NEXT)
    clock.press(NEXT)                               # the cursor on battle 4, d1
    clock.run(600)
    assert app.pixel("a1") == WON
    assert app.pixel("c1") == LOCKED and app.pixel("e3") == 0
    b1 = [app.pixel("b1") for _ in range(8) if clock.run(256) is None]
    assert len(set(b1)) > 1 and all(c and c & 0xFF == c >> 16 & 0xFF for c in b1)   # breathes white
    clock.press(MENU)
    assert app.state == "menu"


def win_battle(app, clock, seed=1):
    """Play the human's turns with a greedy AI's choice, through the buttons."""
    helper = Player("greedy", seed=seed)
    for _ in range(300):
        if app.state == "play":
            for code in helper.choose(app.game):
                if app.state != "play":
                    break
                play(clock, action_text(code))
        elif app.state == "ai":
            clock.run(64)
        else:
            break
    assert app.state in ("end", "result"), app.state


def test_battle_one_is_played_saved_with_its_battle_and_won_opens_battle_two():
    store = MemoryStore()
    app, clock = open_campaign(store=store)
    clock.press(SELECT)                             # battle 1: classic against AI random
    assert app.state in ("play", "ai")
    assert app.game.rules == "classic" and app.opp == 1 and app.battle == 0
    assert reboot(store).game()[1][7] == 0        # saved with its battle (jarmo/store_game.py)
    # a power-off in the battle: it resumes as that battle
    again = App(store=reboot(store))
    assert again.battle == 0 and again.text[0] == "Saved game found"
    win_battle(app, clock)
    wait_state(clock, "result")
    assert app.game.result().winner == "south"
    best = Progress(store).best[0]
    assert best == human_turns(app.game, 0)
    clock.press(SELECT)                             # from a battle's result: the ladder
    assert app.state == "campaign"
    assert app.text[0] == "Campaign: 1/%d won" % len(BATTLES)
    assert app.text[1].startswith("2: ") and app.text[3] == "Open: SELECT plays"


def test_a_win_lost_to_a_power_cut_is_recorded_at_the_next_start():
    store = MemoryStore()
    app, clock = open_campaign(store=store)
    clock.press(SELECT)
    win_battle(app, clock)
    assert app.state in ("end", "result")
    store.write(R_CAMPAIGN, b"")        # as if the power went before the progress was written
    again = App(store=reboot(store))
    assert again.state == "menu" and again.game is None    # a finished battle is not resumed
    assert Progress(reboot(store)).won(0)


def _in_battle(has_display=True):
    """Battle 1 started from the ladder, one move played, the menu open."""
    app, clock = open_campaign(has_display=has_display)
    clock.press(SELECT)
    wait_state(clock, "play")
    play(clock, app.game.legal()[0])
    wait_state(clock, "play")
    clock.press(MENU)
    assert app.state == "menu" and app.battle == 0
    return app, clock


def test_new_game_during_a_battle_asks_before_leaving_it():
    """Bug: New game in a running battle abandoned it without a word. It opens
    the ladder on that battle with the question; SELECT leaves it for the new
    game, BACK keeps it."""
    app, clock = _in_battle()
    game = app.game
    menu_to(clock, "New game")
    clock.press(SELECT)
    assert app.game is game and app.battle == 0 and app.state == "campaign"
    assert app.text == ("New game? This battle", "1: classic South", "vs AI random",
                        "is left unfinished.", "SELECT: yes, BACK: no")
    clock.press(BACK)                               # no: the battle stays
    assert app.game is game and app.state == "menu"
    menu_to(clock, "Resume")
    clock.press(SELECT)
    assert app.game is game and app.state == "play"
    clock.press(MENU)
    menu_to(clock, "New game")
    clock.press(SELECT)
    clock.press(SELECT)                             # asked and confirmed
    assert app.game is not game and app.battle == -1 and app.state in ("play", "ai")


def test_another_battle_from_the_ladder_asks_too_and_the_same_one_resumes():
    store = MemoryStore()
    Progress(store).record(0, 9)                    # battle 2 is open
    app, clock = open_campaign(store=store)
    clock.press(SELECT)                             # battle 2
    wait_state(clock, "play")
    game = app.game
    clock.press(MENU)
    menu_to(clock, "Campaign")
    clock.press(SELECT)
    assert app.state == "campaign" and app.states[app.sid].k == 1
    clock.press(SELECT)                             # the running battle: back to it
    assert app.game is game and app.state == "play"
    clock.press(MENU)
    menu_to(clock, "Campaign")
    clock.press(SELECT)
    clock.press(PREV)                               # battle 1
    clock.press(SELECT)
    assert app.game is game and app.state == "campaign"
    assert "Battle 2 unfinished" in app.text and all(len(x) <= 21 for x in app.text)
    clock.press(SELECT)
    assert app.game is not game and app.battle == 0


def test_without_a_display_the_question_shows_the_battle_on_the_ladder():
    app, clock = _in_battle(has_display=False)
    menu_to(clock, "New game")
    clock.press(SELECT)
    assert app.state == "campaign" and app.battle == 0
    seen = set()
    for _ in range(20):
        clock.run(64)
        seen.add(app.pixel("a1"))                   # battle 1, under the ladder's cursor: blinks
    assert len(seen) > 1
