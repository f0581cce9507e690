"""The move timer and the hint, driven through the buttons and the virtual clock."""

import re

from jarmo.app import App
from jarmo.app_base import S_PLAY
from jarmo.app_buttons import MENU, NEXT, SELECT
from jarmo.app_view import HINT_COLOUR
from jarmo.board import point
from jarmo.notation import parse_action
from tests.app.drive import Clock, menu_to, new_game, play, set_option, wait_state
from tests.app.memstore import MemoryStore

DIM_RED = 0x500000


def start(timer="30 s", opponent="human", timeout=None, hints=None, has_display=True,
          tabletop=True, rules="standard"):
    app = App(store=MemoryStore(), has_display=has_display, tabletop=tabletop)
    clock = Clock(app)
    set_option(clock, "Timer", timer)
    if timeout:
        set_option(clock, "Time out", timeout)
    if hints:
        set_option(clock, "Allow hints", hints)
    new_game(clock, rules, opponent=opponent)
    clock.run(100)
    return app, clock


def seconds_shown(app):
    head = app.text[0]
    assert head.endswith(" s"), app.text
    return int(head.split()[-2])


# ---------------------------------------------------------------- timer

def test_the_timer_is_a_menu_setting_off_by_default():
    app = App(store=MemoryStore())
    clock = Clock(app)
    assert menu_to(clock, "Timer") == ">Timer: off"
    for value in ("15 s", "30 s", "60 s", "off"):
        clock.press(SELECT)
        assert ">Timer: " + value in app.text
    assert menu_to(clock, "Time out") == ">Time out: AI greedy"


def test_the_display_counts_the_seconds_of_the_turn():
    app, clock = start("30 s")
    assert seconds_shown(app) == 30
    clock.run(10000)
    assert seconds_shown(app) == 20
    clock.run(9000)
    assert seconds_shown(app) == 11


def run_until_left(clock, seconds):
    """Run the clock until `seconds` (rounded up) are left of the turn, then 0.1 s more."""
    app = clock.app
    while (app.states[S_PLAY].deadline - clock.now + 999) // 1000 > seconds:
        clock.run(16)
    clock.run(100)


def red_points(app):
    return [i for i in range(25) if app.pixel(i) == DIM_RED]


def test_the_last_seconds_count_down_on_dark_points_without_hiding_pieces():
    app, clock = start("15 s")
    run_until_left(clock, 6)
    assert not red_points(app)
    run_until_left(clock, 4)                # a3 .. d3 in dim red
    assert red_points(app) == [10, 11, 12, 13]
    assert seconds_shown(app) == 4
    run_until_left(clock, 2)
    assert red_points(app) == [10, 11]
    clock.run(700)                          # the dark part of the second
    assert red_points(app) == []
    # the pieces stay as they were
    assert app.pixel("b1") != 0 and app.pixel("c5") != 0


def test_when_time_runs_out_the_greedy_ai_plays_the_turn():
    app, clock = start("15 s")
    clock.press(SELECT)                     # a piece selected, then nothing more
    clock.run(15500)
    assert app.game.plies == 1 and app.game.turn == "north"
    assert app.state == "play"
    assert seconds_shown(app) == 15         # North's turn: the whole time again
    # Bug: the timed-out turn showed only a flash. It stays told, paged with
    # the rest of the turn's words, for as long as North takes.
    said = set()
    for _ in range(10):
        said.add(" ".join(app.text[2:-1]))
        clock.run(1000)
    said = " ".join(sorted(said))
    assert "South ran out of time. The AI played the turn." in said, said
    assert "South moved " in said or "South took " in said, said


def test_a_random_turn_when_the_setting_says_so():
    app, clock = start("15 s", timeout="AI random")
    clock.run(15500)
    assert app.game.plies == 1
    assert app.states[S_PLAY].helper_level == 0


def test_the_menu_pauses_the_clock():
    app, clock = start("30 s")
    clock.run(10000)
    clock.press(MENU)
    clock.run(60000)
    assert app.game.plies == 0
    clock.press(MENU)                       # back to the game
    assert app.state == "play" and seconds_shown(app) == 20


def test_against_the_ai_only_the_humans_turns_are_timed():
    app, clock = start("15 s", opponent="AI level 3", tabletop=False)
    play(clock, "b1-d2")
    assert app.state == "ai"
    wait_state(clock, "play")
    assert seconds_shown(app) == 15
    clock.run(16000)
    assert app.game.plies >= 3              # timed out: played for the human, then the AI


def test_without_a_display_the_timer_runs_all_the_same():
    app, clock = start("15 s", has_display=False)
    run_until_left(clock, 2)
    assert red_points(app) == [10, 11]
    clock.run(2000)
    assert app.game.plies == 1


# ---------------------------------------------------------------- hint

def ask_hint(clock):
    app = clock.app
    clock.press(MENU)
    menu_to(clock, "Hint")
    clock.press(SELECT)
    assert app.state == "play"


def hint_points(app, clock, ms=4000):
    """The points the LEDs light in the hint colour, in their order."""
    order = []
    for _ in range(ms // 16):
        clock.run(16)
        for i in range(25):
            if app.pixel(i) == HINT_COLOUR and (not order or order[-1] != i):
                order.append(i)
    return order


def test_a_hint_in_a_two_player_game_shows_the_turn_without_playing_it():
    app, clock = start("off")
    ask_hint(clock)
    for _ in range(200):
        if app.text and any(line.startswith("Hint: ") and "thinking" not in line
                            for line in app.text):
            break
        clock.run(16)
    said = " ".join(app.text)
    m = re.search(r"Hint: move ([a-e][1-5]) to ([a-e][1-5])\.", said)   # the first turn: a move
    assert m, said
    actions = ["%s-%s" % m.groups()]
    assert actions[0] in app.game.legal()
    assert app.game.plies == 0                       # not played
    code = parse_action(actions[0])
    piece, target = code >> 3 & 31, code >> 8 & 31
    order = hint_points(app, clock)
    assert order[:2] == [piece, target]              # piece, then target
    assert app.states[S_PLAY].helper_level == 1              # greedy between two players
    play(clock, actions[0])                          # the hint is gone once you act
    assert not hint_points(app, clock, 1200)


def test_a_hint_against_the_ai_thinks_at_its_level_in_slices():
    app, clock = start("off", opponent="AI level 3", tabletop=False)
    ask_hint(clock)
    player = app.opponent.search
    assert player is not None and player.level == 3
    calls = []
    step = player.step

    def counted(now=None):
        calls.append(now)
        return step(now)
    player.step = counted
    ticks = 0
    while not any(line.startswith("Hint: ") and "thinking" not in line for line in app.text):
        before = len(calls)
        clock.run(16, 16)
        ticks += 1
        assert len(calls) - before <= 1             # one slice a pass: the UI stays live
        assert ticks < 2000
    assert ticks > 5 and app.game.plies == 0
    assert app.state == "play"


def test_a_hint_says_the_turn_in_words_not_notation():
    """Bug: "Hint: d3-e5 @a1" was notation a player who has not read the
    rules cannot read ("@a1" is a placement on a1). The hint says each
    action in words, in the order to play them."""
    from jarmo.app_assist import install
    app, clock = start("off")
    say = install(app)          # the hint's turn, shown as the AI's answer would be
    for turn, words in (
            ("d3-e5 @a1", ("Hint: move d3 to e5,", "then place a piece on", "a1.")),
            ("b1-d2", ("Hint: move b1 to d2.",)),
            ("c5@a1", ("Hint: recall an", "archer to a1 with c5.")),
            ("c5* ", ("Hint: flip the guard", "on c5.")),
            ("c5*@a1", ("Hint: flip the guard", "on c5, place on a1.")),
            ("d3-e5 r@a1", ("Hint: move d3 to e5,", "then redeploy to a1.")),
            ("b1-d2 done", ("Hint: move b1 to d2,", "then done.")),
            # a long turn still fits three lines, never cut
            ("@a1 b1-d2 @b1 done", ("Hint: place on a1,", "move b1 to d2, place", "on b1, then done."))):
        say._show(app, [parse_action(a) for a in turn.split()])
        assert app.msg == words, (turn, app.msg)
        assert "@" not in " ".join(app.text) and "-" not in " ".join(app.msg)
        assert all(len(line) <= 21 for line in app.text) and len(app.text) <= 5, app.text


def test_allow_hints_off_means_no_hint_in_any_game():
    """Bug: "Hint" and "Hints: on" sat in one menu, and "Hints: off" did
    nothing against the AI. The action says what it does ("Hint for your
    turn"), the setting that it allows it ("Allow hints"), and off means no
    hint in any game, against the AI too, as a player switching it off expects."""
    app, clock = start("off")
    clock.press(MENU)
    assert menu_to(clock, "Hint") == ">Hint for your turn"
    assert menu_to(clock, "Allow hints") == ">Allow hints: on"
    for opponent, tabletop in (("human", True), ("AI greedy", False)):
        app, clock = start("off", opponent=opponent, hints="off", tabletop=tabletop)
        clock.press(MENU)
        for _ in range(20):
            assert not any(line[1:].startswith("Hint") for line in app.text), app.text
            clock.press(NEXT)
        app, clock = start("off", opponent=opponent, hints="on", tabletop=tabletop)
        clock.press(MENU)
        menu_to(clock, "Hint for your turn")


def test_the_new_items_have_their_own_leds_without_a_display():
    app = App(store=MemoryStore(), has_display=False)
    clock = Clock(app)
    for title, spot in (("Campaign", "b3"), ("First game", "c3"), ("Allow hints", "d2")):
        menu_to(clock, title)
        clock.run(300)
        assert app.pixel(spot) != 0, title
    set_option(clock, "Timer", "60 s")
    clock.run(32)
    lit = [i for i in range(25) if app.pixel(i)]
    assert lit == [0, 1, 2, 3, point("d3")]            # the 4th value, at the Timer's LED
    set_option(clock, "Time out", "AI random")
    clock.run(32)
    assert [i for i in range(25) if app.pixel(i)] == [0, 1, point("e3")]


def test_timer_settings_survive_a_restart():
    store = MemoryStore()
    app = App(store=store)
    clock = Clock(app)
    set_option(clock, "Timer", "15 s")
    set_option(clock, "Time out", "AI random")
    set_option(clock, "Allow hints", "off")
    again = App(store=store)
    clock = Clock(again)
    assert menu_to(clock, "Timer") == ">Timer: 15 s"
    assert menu_to(clock, "Time out") == ">Time out: AI random"
    assert menu_to(clock, "Allow hints") == ">Allow hints: off"


# ---------------------------------------------------------------- a clock that starts late

# The app's clock starts at 0; the device's and the simulator's ticks_ms()
# can be anywhere when the first tick comes. A game started (or resumed)
# before that first tick must still give the player the whole time.
LATE = 5000000


def test_a_new_game_before_the_first_tick_gives_the_whole_time():
    """Bug: with Timer on in the saved settings, the simulator's start-up game
    (App.new_game before any tick) played the player's first move at once."""
    store = MemoryStore()
    setup = App(store=store)
    set_option(Clock(setup), "Timer", "15 s")
    app = App(store=store)                      # the next start: the setting is on
    app.new_game(rules="standard", opponent="greedy", side="south")
    clock = Clock(app, start=LATE)              # the real clock is far from 0
    clock.run(400)
    assert app.game.plies == 0 and app.state == "play", app.game.history()
    assert seconds_shown(app) == 15
    clock.press(NEXT)                           # the player is here: the clock runs
    clock.run(14000)
    assert app.game.plies == 0 and seconds_shown(app) == 1
    clock.run(1500)
    assert app.game.plies >= 1                  # and then it runs out as it should


def test_a_game_resumed_before_the_first_tick_gives_the_whole_time():
    """The device resumes the saved game before its first tick after a restart."""
    store = MemoryStore()
    app = App(store=store)
    clock = Clock(app)
    set_option(clock, "Timer", "15 s")
    new_game(clock, "standard", opponent="human")
    again = App(store=store)
    again.resume_saved()
    clock = Clock(again, start=LATE)
    clock.run(400)
    assert again.game.plies == 0 and again.state == "play"
    assert seconds_shown(again) == 15
