"""The device trace (hardware/trace.py) takes the heap's figures only when
asked (JARMO_TRACE_HEAP): each costs a collection, which would otherwise be
work the game does not do on a player's board. Its @@GAME lines say what
changed since the line before; the tests' reader (tests/device/stage.py)
puts the game together from them."""

from hardware import trace
from jarmo.game import Game
from tests.device.stage import Trace


class _Heap:
    """A stand-in for CircuitPython's gc: counts collections."""

    def __init__(self, free):
        self.free = free
        self.collections = 0

    def collect(self):
        self.collections += 1

    def mem_free(self):
        return self.free


class _App:
    state = "menu"
    thinking = False
    game = None
    text_version = 0
    text = ("Jarmo",)


def _state_lines(monkeypatch, capsys, heap):
    gc = _Heap(123456)
    monkeypatch.setattr(trace, "gc", gc)
    probe = trace.Probe(leds=None, heap=heap)
    app = _App()
    probe.begin()
    probe.end(app, False, False)
    app.state = "play"
    probe.begin()
    probe.end(app, False, False)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("@@STATE ")]
    return lines, gc.collections


def test_without_heap_tracing_a_state_change_collects_nothing_and_says_minus_one(monkeypatch, capsys):
    lines, collections = _state_lines(monkeypatch, capsys, heap=False)
    assert [line.split()[1:3] for line in lines] == [["menu", "free=-1"], ["play", "free=-1"]]
    assert collections == 0


def test_with_heap_tracing_each_state_change_collects_and_says_the_free_bytes(monkeypatch, capsys):
    lines, collections = _state_lines(monkeypatch, capsys, heap=True)
    assert [line.split()[1:3] for line in lines] == [["menu", "free=123456"], ["play", "free=123456"]]
    assert collections == 2


def test_the_game_lines_give_the_game_at_every_state_change_through_takebacks_and_a_new_game(
        monkeypatch, capsys):
    monkeypatch.setattr(trace, "gc", _Heap(0))
    probe = trace.Probe(leds=None)
    app = _App()
    app.game = Game("standard")
    seen = []

    def state_change(name):
        app.state = name
        probe.begin()
        probe.end(app, False, False)
        seen.append(app.game.history())

    state_change("play")                        # nothing played yet
    for _ in range(6):
        app.game.play_code(app.game.legal_codes()[0])
        state_change("ai" if app.state == "play" else "play")
    app.game.undo()
    app.game.undo()
    state_change("menu")                        # a takeback of two
    app.game.play_code(app.game.legal_codes()[-1])
    state_change("play")                        # another action in their place
    app.game = Game("standard")
    app.game.play_code(app.game.legal_codes()[-1])
    state_change("ai")                          # a new game, another first action
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if line.startswith("@@GAME ")]
    assert Trace(out).games() == seen
    assert lines[0] == "@@GAME 0" and lines[2].startswith("@@GAME 1 ")    # only what is new
    assert lines[7] == "@@GAME 4" and lines[8].startswith("@@GAME 4 ")     # the takeback, then
    assert lines[9] == "@@GAME 0 " + seen[9][0]
