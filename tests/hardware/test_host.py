"""Host event files and the event source that feeds the main loop."""

import pytest

from hardware.mainloop import run
from host import blinka
from jarmo import app_buttons as B


def test_parse_events():
    text = """
    # a comment
    select
    p2 next      # player 2
    next 3
    WAIT 500
    p1 back
    """
    assert blinka.parse_events(text) == [
        ("press", B.SELECT, 0), ("press", B.NEXT, 1),
        ("press", B.NEXT, 0), ("press", B.NEXT, 0), ("press", B.NEXT, 0),
        ("wait", 500, 0), ("press", B.BACK, 0)]


@pytest.mark.parametrize("line", ["jump", "wait", "wait soon", "next 0", "next 2 3", "p3 next"])
def test_parse_errors_name_the_line(line):
    with pytest.raises(ValueError, match="line 2"):
        blinka.parse_events("select\n" + line)


def test_extra_words():
    assert blinka.parse_events("quit", extra=("quit",)) == [("word", "quit", 0)]
    with pytest.raises(ValueError):
        blinka.parse_events("quit")


class Recorder:
    def __init__(self):
        self.frame = bytearray(75)
        self.frame_version = 0
        self.text = ()
        self.text_version = 0
        self.brightness = 255
        self.celebrate = None
        self.log = []
        self.now = None

    def press(self, b, player=0):
        self.log.append((self.now, B.NAMES[b], player))

    def tick(self, now):
        self.now = now


class NoLeds:
    animated = False

    def update(self, app):
        return False


def test_event_timing_on_the_virtual_clock():
    app = Recorder()
    events = blinka.EventSource(blinka.parse_events("next\np2 select\nwait 100\nback\nwait 50"))
    clock = blinka.VirtualClock()
    presses = []

    def press(b, p):
        presses.append((clock.now, B.NAMES[b], p))
        app.press(b, p)

    class Inputs:
        def poll(self, now, _press):
            return events.poll(now, press)

    run(app, Inputs(), NoLeds(), None, clock)
    # the first pass only draws; then one event per pass; wait adds time
    assert presses == [(10, "next", 0), (20, "select", 1), (120, "back", 0)]
    # the trailing wait runs, then one more pass
    assert 170 <= clock.now <= 190


def test_virtual_clock_wraps_like_ticks():
    clock = blinka.VirtualClock(start=(1 << 29) - 10)
    assert clock() == (1 << 29) - 10
    assert clock() == 0


def test_frame_text_rank_5_on_top():
    colours = list(range(25))
    lines = blinka.frame_text(colours)
    assert lines[0].split() == ["5", "000014", "000015", "000016", "000017", "000018"]
    assert lines[4].split()[:2] == ["1", "000000"]
    assert lines[5].split() == list("abcde")
