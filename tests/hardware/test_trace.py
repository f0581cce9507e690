"""The device trace (hardware/trace.py) takes the heap's figures only when
asked (JARMO_TRACE_HEAP): each costs a collection, which would otherwise be
work the game does not do on a player's board."""

from hardware import trace


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
