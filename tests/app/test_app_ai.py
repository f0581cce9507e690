"""Playing against the AI: slices, thinking animation, visible actions."""

from jarmo import app_view as V
from jarmo.app import App
from jarmo.app_base import IDENT, OPP, OPPONENTS, S_AI, opponent
from jarmo.app_buttons import MENU, SELECT
from jarmo.app_players import BOOK_NOTE
from tests.app.drive import Clock, Rand, new_game, play, play_out, result_said, set_option, wait_state
from tests.app.memstore import MemoryStore


def test_ai_thinks_in_slices_and_shows_each_action():
    app = App(store=MemoryStore())
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI level 3", side="South")
    play(clock, "b1-d2")
    assert app.state == "ai"
    calls = []
    real = app.opponent.search.step

    def counting(*clock_ms):      # the app passes its clock (the AI's time budget)
        calls.append(1)
        return real(*clock_ms)

    app.opponent.search.step = counting
    app.ai_steps = 1
    assert "(AI) thinks" in app.text[1]
    assert app.cursor == -1                        # no cursor in the AI's turn
    while app.states[S_AI].queue is None:
        n = len(calls)
        clock.run(16, 16)
        assert len(calls) - n <= app.ai_steps
        if app.states[S_AI].queue is None:
            assert "(AI) thinks" in app.text[1]
            lit = [i for i in V.RING if app.pixel(i) == V.CURSOR[1]]
            assert lit                             # the spinner
    assert len(calls) > 1                          # it took several slices
    # the answer is played one action at a time, ~400 ms apart
    history = list(app.game.history())
    clock.run(300, 16)
    assert app.game.history() == history
    clock.run(200, 16)
    assert len(app.game.history()) == len(history) + 1
    wait_state(clock, "play")
    assert app.game.turn == "south"
    assert app.text[1] == "South (you) to move"


def test_ai_moves_first_when_the_human_plays_north():
    app = App()
    clock = Clock(app)
    new_game(clock, "classic", opponent="AI greedy", side="North")
    assert app.state == "ai"
    wait_state(clock, "play")
    assert len(app.game.history()) == 1 and app.game.turn == "north"


def test_whole_games_against_each_level():
    for level, rules, exp in (("AI random", "jasyr", True), ("AI greedy", "standard", True),
                              ("AI level 2", "legendary", False), ("AI level 3", "classic", False)):
        store = MemoryStore()
        app = App(store=store, seed=3)
        app.ai_steps = 50
        clock = Clock(app)
        new_game(clock, rules, heroes=exp, challenges=exp, opponent=level)
        play_out(clock, Rand(7), limit=300)
        assert app.state == "end", (level, app.state)
        clock.run(32)                   # the count takes a pass of its own
        # counted under that AI's id (you, AI, draws), not as two players
        k = opponent(OPPONENTS[::OPP].index(level), IDENT)
        assert sum(app.stats.counts(rules, k)) == 1 and app.stats.keys(rules) == [k]
        wait_state(clock, "result")
        assert app.text[-1] == "SELECT: menu"


def test_match_against_the_ai_swaps_sides():
    app = App(store=MemoryStore())
    app.ai_steps = 50
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI random", side="South", match="2 games")
    play_out(clock, Rand(1))
    wait_state(clock, "result")
    said = result_said(clock)
    assert any(" You " in x and " AI " in x for x in said), said
    clock.press(SELECT)
    assert app.match.number == 2
    assert app.state == "ai"            # the AI is South now and moves first
    play_out(clock, Rand(2))
    wait_state(clock, "result")
    assert any(x.startswith("Match: ") for x in result_said(clock))


def test_menu_while_the_ai_thinks_then_resume():
    app = App()
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI level 3")
    play(clock, "b1-d2")
    clock.press(MENU)
    assert app.state == "menu"
    clock.press(SELECT)
    assert app.state == "ai"
    wait_state(clock, "play")


def test_the_ai_answers_in_action_codes_and_masks_the_clock_like_the_app():
    # The app plays the AI's answer as it is (codes, no notation between), and
    # the AI's private mirror of the ticks mask wraps the clock where the app does.
    from jarmo import ai
    from jarmo.app_base import TICKS_MASK
    from jarmo.game import Game
    assert ai._TICKS_MASK == TICKS_MASK
    g = Game("standard")
    turn = ai.Player(2, 1).choose(g)
    assert turn and all(type(code) is int for code in turn)
    for code in turn:
        g.play_code(code)
    assert g.turn == "north"


def test_the_menu_builds_the_ai_tables_of_the_next_game_and_only_those():
    # With jarmo.ai loaded (the device preloads it), the menu's passes build
    # the distance tables of the game it would start against the AI, and
    # drop the other game kind's: a game holds only its own (RAM).
    from jarmo import ai
    ai.prepare_tables("standard")
    app = App(store=MemoryStore())
    clock = Clock(app)
    set_option(clock, "Rules", "jasyr")
    set_option(clock, "Versus", "AI greedy")
    clock.run(100, 16)
    assert list(ai._TABLES) == [True]           # jasyr's kind; standard's gone
    set_option(clock, "Versus", "human")
    set_option(clock, "Rules", "legendary")
    clock.run(100, 16)
    assert list(ai._TABLES) == [True]           # two players: nothing built
    set_option(clock, "Versus", "AI greedy")
    clock.run(100, 16)
    assert list(ai._TABLES) == [False]


def _first_ai_turn(before_first_tick):
    """AI level 3 opens a game as South, on a clock far from 0; its
    player after the turn (completed_depth: how far it looked)."""
    app = App(seed=3)
    clock = Clock(app, start=5000000)
    if not before_first_tick:
        clock.run(16)
    app.new_game(rules="standard", opponent="3", side="north")
    assert app.state == "ai"
    wait_state(clock, "play")
    return app.opponent.search, app.game.history()


def test_an_ai_turn_begun_before_the_first_tick_thinks_its_whole_time():
    """The simulator starts the game (and the device resumes one) before the
    clock's first reading: the AI must not take that jump for its time."""
    late, moves = _first_ai_turn(True)
    ontime, moves_ontime = _first_ai_turn(False)
    assert late.completed_depth == ontime.completed_depth > 1
    assert moves == moves_ontime


def test_level_4_without_its_opening_book_plays_on_and_says_so(monkeypatch):
    """The book's file missing or damaged on the drive: level 4 searches from
    its first turn (a little weaker), and the display says so while it plays."""
    from jarmo import book
    for missing in (False, True):
        if missing:
            monkeypatch.setattr(book, "FILE", "no-such-book.bin")
        app = App(store=MemoryStore())
        clock = Clock(app)
        new_game(clock, "standard", opponent="AI level 4", side="North")
        app.ai_steps = 1
        while app.states[S_AI].queue is None:
            clock.run(16, 16)
        assert (tuple(app.text[2:4]) == BOOK_NOTE) == missing, app.text
        assert (app.opponent.search.nodes > 0) == missing     # the book answered, or the search
        wait_state(clock, "play")
        assert len(app.game.history()) == 1
