"""Who plays a side is a player (jarmo/app_players.py): the app asks it for its
turn's action codes and names it by its name, whatever kind it is. An
opponent is a row of app_base.OPPONENTS: a made-up kind added as a row is
offered, played, saved and counted as itself."""

import sys

import pytest

from jarmo import app_base as B
from jarmo.app import App
from jarmo.app_base import S_AI
from jarmo.app_buttons import SELECT
from jarmo.app_players import Ai, Human
from jarmo.linkplay import LinkPlayer
from tests.app.drive import Clock, Rand, menu_to, new_game, play, play_out, set_option, told, wait_state
from tests.app.memstore import MemoryStore, reboot


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


def remote(app, ident):
    """The made-up kind's maker, named by its row (app_base.OPPONENTS)."""
    return Remote(wait=100)


ANN = 7     # the made-up kind's id: one no shipped row has


def with_rows(monkeypatch, rows):
    """The opponents' table is `rows` (the menu's Versus takes their count);
    the modules that read it at their import are imported afresh."""
    monkeypatch.setattr(B, "OPPONENTS", rows)
    items = list(B.ITEMS)
    items[B.OPPONENT * B.ITEM + B.VALUES] = len(rows) // B.OPP
    monkeypatch.setattr(B, "ITEMS", tuple(items))
    for name in ("jarmo.app_menu", "jarmo.app_start", "jarmo.app_stats"):
        monkeypatch.delitem(sys.modules, name, raising=False)


ANN_ROW = ("Ann", __name__, "remote", ANN, 0)


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
    for player in (Human(), Ai(1, seed=3), Remote(), LinkPlayer(None)):
        for member in ("name", "local", "level", "start", "step", "drop", "pause", "verb"):
            assert hasattr(player, member), (type(player).__name__, member)
        # engine(), the jarmo.ai Player, is a member of every kind an AI plays
        assert player.level < 0 or player.engine().level == player.level
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


def test_a_made_up_kind_in_a_row_is_offered_played_saved_and_counted_as_itself(monkeypatch):
    with_rows(monkeypatch, B.OPPONENTS + ANN_ROW)
    store = MemoryStore()
    app = App(store=store, seed=4)
    clock = Clock(app)
    new_game(clock, "standard", opponent="Ann", side="South")
    assert isinstance(app.opponent, Remote) and not app.linked
    assert "vs Ann" in app.text[0], app.text
    play(clock, "b1-d2")
    assert store.game()[1][5] == ANN                    # the GAME record keeps its id
    again = App(store=reboot(store))                    # a power cut: it resumes against Ann
    assert isinstance(again.opponent, Remote) and again.opponent_side() == 1
    play_out(clock, Rand(3), limit=400)
    wait_state(clock, "result")
    assert app.stats.keys("standard") == [ANN]          # counted as itself, not as an AI level
    assert app.stats.lines("standard", ANN, "Ann")[0] == "standard vs Ann"
    clock.press(SELECT)                                 # the result: back to the menu
    set_option(clock, "Versus", "Ann")
    menu_to(clock, "Statistics")
    clock.press(SELECT)
    assert app.text[0] == "standard vs Ann" and not any("AI" in t for t in app.text), app.text


def test_a_kind_appended_after_link_leaves_link_what_it_was(monkeypatch):
    with_rows(monkeypatch, B.OPPONENTS + ANN_ROW)
    app = App(store=MemoryStore())
    app.new_game(opponent="link")                       # --link
    assert B.opponent(app.settings[B.OPPONENT - B.RULE]) == "Link"
    app = App(store=MemoryStore())
    app.new_game(opponent="4")
    assert app.opponent.level == 4 and app.opponent.name == "AI"


# The GAME record's opponent byte as every version wrote it: two at the
# table 0, the AI level n as 1 + n, the link 6.
OLD_BYTES = {0: "human", 1: "AI random", 2: "AI greedy", 3: "AI level 2", 4: "AI level 3",
             5: "AI level 4"}


@pytest.mark.parametrize("first", [False, True])
def test_an_old_save_loads_to_the_same_opponent_wherever_a_new_row_goes(monkeypatch, first):
    if first:       # a new kind put first in the menu: the rows' places all move
        with_rows(monkeypatch, ANN_ROW + B.OPPONENTS)
    for byte, label in OLD_BYTES.items():
        store = MemoryStore()
        store.start_game(bytes((1, 1, 0, 0, 0, byte, 1, 255, 0)))     # standard, human North
        app = App(store=reboot(store))
        assert app.game is not None and B.opponent(app.opp) == label, (byte, first)
        assert (app.opponent.level, app.opponent.local) == (byte - 1, byte == 0)
        assert not app.linked and app.store.game()[1][5] == byte
    store = MemoryStore()
    store.start_game(bytes((1, 1, 0, 0, 0, 6, 0, 255, 0, 0x12, 0x34)))   # a linked game, tag 0x1234
    app = App(store=reboot(store))
    assert app.linked and B.opponent(app.opp) == "Link" and app.opponent.name == "Link"


def test_a_save_naming_an_opponent_no_row_has_is_reported_by_name():
    store = MemoryStore()
    store.start_game(bytes((1, 1, 0, 0, 0, ANN, 0, 255, 0)))
    app = App(store=reboot(store))
    assert app.state == "notice" and "game: bad players" in app.text, app.text
    assert app.game is None and app.store.game() is None        # said once, then let go
