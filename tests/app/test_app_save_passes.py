"""Under the device's main loop (App.looped) a completed turn is saved in
the next pass, never inside the press that completed it: a press's call
chain is deep already, and the save's calls on top of it exhausted the
stock firmware's 2 KB Python stack ("pystack exhausted" at a game's turn).
That next pass saves before any state's tick, so what needs the turn
saved comes after it: the end's statistics, a linked turn's sending, the
AI's engine loaded for its answer.
"""

from jarmo.app import App
from jarmo.store_log import R_STATS
from tests.app.drive import Clock, Rand, choose, new_game, play, wait_state
from tests.app.memstore import MemoryStore
from tests.app.test_app_link import Two, _start


class LoopedClock(Clock):
    """The main loop's order: a press in its pass, then the passes after;
    every store write is noted with whether a press's call made it."""

    def __init__(self, app, start=0):
        Clock.__init__(self, app, start)
        app.looped = True
        self.in_press = False
        self.writes = []            # (in a press's call, what was written)
        _note_writes(app.store, self)

    def press(self, button, player=0):
        self.in_press = True
        try:
            self.app.press(button, player)
        finally:
            self.in_press = False
        self.app.tick(self.now)     # the next pass


def _note_writes(store, clock):
    for name in ("add_turn", "start_game", "write"):
        real = getattr(store, name)

        def noted(*args, _real=real, _name=name):
            clock.writes.append((clock.in_press, _name, args[0] if _name == "write" else None))
            return _real(*args)
        setattr(store, name, noted)


def _saved_actions(app):
    return app.saved if app.game_id >= 0 else -1


def test_a_two_player_game_s_turns_and_last_turn_are_saved_after_their_press_and_counted_after_the_save():
    app = App(store=MemoryStore(), tabletop=True, seed=5)
    clock = LoopedClock(app)
    new_game(clock, "classic")
    rng = Rand(3)
    turns = 0
    while app.state == "play":
        before = len(clock.writes)
        plies = app.game.plies
        play(clock, choose(rng, app.game.legal()))
        if app.game.plies != plies or app.state != "play":
            turns += 1
            made = clock.writes[before:]
            assert made and not any(in_press for in_press, _n, _k in made), made
            assert _saved_actions(app) == app.game.actions, "saved in the pass after the press"
    assert app.state == "end" and turns > 10
    stats_at = [i for i, (_p, name, key) in enumerate(clock.writes) if name == "write" and key == R_STATS]
    last_turn_at = max(i for i, (_p, name, _k) in enumerate(clock.writes) if name == "add_turn")
    assert not stats_at, "counted in the end's own tick, not in the save's pass"
    clock.run(50)
    stats_at = [i for i, (_p, name, key) in enumerate(clock.writes) if name == "write" and key == R_STATS]
    assert len(stats_at) == 1 and stats_at[0] > last_turn_at, "the game counted once, after its last turn's save"


def test_the_ai_s_engine_is_loaded_only_once_the_player_s_turn_is_saved():
    app = App(store=MemoryStore(), seed=7)
    clock = LoopedClock(app)
    new_game(clock, "standard", opponent="AI greedy")
    seen = []
    real_ready = app.opponent_ready

    def ready():
        seen.append((_saved_actions(app), app.game.actions))
        return real_ready()
    app.opponent_ready = ready
    rng = Rand(9)
    for _ in range(4):
        wait_state(clock, "play")
        clock.run(16)               # the pass after the AI's turn: its save
        before = len(clock.writes)
        play(clock, choose(rng, app.game.legal()))
        assert not any(in_press for in_press, _n, _k in clock.writes[before:])
    assert seen, "the AI answered"
    assert all(saved == actions for saved, actions in seen), seen


def test_a_new_game_whose_first_turn_is_the_ai_s_is_saved_before_its_engine_loads():
    app = App(store=MemoryStore(), seed=7)
    clock = LoopedClock(app)
    seen = []
    real_ready = app.opponent_ready

    def ready():
        seen.append(app.game_id)
        return real_ready()
    app.opponent_ready = ready
    new_game(clock, "standard", opponent="AI greedy", side="North")
    clock.run(200)
    assert seen and all(gid >= 0 for gid in seen), seen


def test_a_linked_turn_goes_out_only_once_saved_and_a_whole_linked_game_ends_the_same_on_both():
    two = Two()
    for app in (two.a, two.b):
        app.looped = True
    _start(two)
    sent = []
    for app in (two.a, two.b):
        link = app.link
        real = link._send_turn

        def send(now, _app=app, _link=link, _real=real):
            if 0 <= _link.peer_count < _app.game.actions:      # this board's actions go out
                sent.append((_saved_actions(_app), _app.game.actions))
            return _real(now)
        link._send_turn = send
    rng = Rand(4)
    for _ in range(400):
        mover = two.mover()
        if mover is None:
            two.run(50)
            if two.a.state not in ("play", "ai"):
                break
            continue
        play(mover, choose(rng, mover.app.game.legal()))
        two.run(60)
    assert two.a.state not in ("play", "ai") and two.b.state not in ("play", "ai")
    assert two.a.game.history() == two.b.game.history()
    unsaved = [(saved, actions) for saved, actions in sent if saved != actions]
    assert sent and not unsaved, "every linked turn was saved before it went out"
