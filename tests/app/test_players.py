"""Who plays a side is a player (jarmo/players.py): the app asks it for its
turn's action codes and names it by its name, whatever kind it is."""

from jarmo.app import App
from jarmo.app_base import S_AI
from jarmo.players import Ai, Human
from tests.app.drive import Clock, new_game, play, told
from tests.app.memstore import MemoryStore


class Remote:
    """A made-up kind: a player elsewhere who answers after `wait` ms with
    the first legal action, action by action, as a linked board would."""
    local = False
    level = -1
    name = "Ann"
    pause = 300
    verb = " ponders"

    def __init__(self, wait=500):
        self.wait = wait
        self.started = []

    def start(self, game, now):
        self.game = game
        self.t0 = now
        self.started.append(game.plies)

    def step(self, now):
        if now - self.t0 < self.wait:
            return None
        return [self.game.legal_codes()[0]]

    def drop(self):
        pass


def a_game_against(opponent):
    app = App(store=MemoryStore())
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI greedy", side="South")
    app.opponent = opponent
    return app, clock


def test_a_new_kind_of_opponent_plays_its_turns_and_is_named():
    remote = Remote()
    app, clock = a_game_against(remote)
    play(clock, "b1-d2")
    assert app.state == "ai" and "North (Ann) ponders" in app.text[1]
    clock.run(400)
    assert app.state == "ai"                        # it has not answered yet
    for _ in range(60):
        clock.run(100)
        if app.state == "play":
            break
    assert app.state == "play" and remote.started
    assert any(s.startswith("Ann ") for s in told(app)), told(app)
    assert not any("AI" in s for s in told(app))
    assert app.name_of(1) == "Ann" and app.name_of(0) == "You"
    assert app.opponent_side() == 1


def test_the_kinds_have_the_player_interface():
    for player in (Human(), Ai(1, seed=3), Remote()):
        for member in ("name", "local", "level", "start", "step", "drop", "pause", "verb"):
            assert hasattr(player, member), (type(player).__name__, member)
    assert Human().local and not Ai(1, seed=3).local


def test_at_the_table_the_sides_are_named_not_the_player():
    app = App(store=MemoryStore())
    clock = Clock(app)
    new_game(clock, "standard", opponent="human", side="South")
    assert isinstance(app.opponent, Human)
    assert app.opponent_side() == -1
    assert (app.name_of(0), app.name_of(1)) == ("South", "North")
    play(clock, "b1-d2")
    assert app.state == "play" and app.sid != S_AI       # North picks here, with the buttons
