"""On a board without a display (the QT Py's profile) the AI's move is told
only by the LEDs: its whole move stays visible until the player plays -
where it came from (the trail), where it went (a white glow each 1.5 s) and,
for a capture, the white strobe again each 1.5 s."""

from jarmo import app_view as V
from jarmo.app import App
from jarmo.app_buttons import NEXT
from tests.app.drive import Clock, new_game, play, wait_state
from tests.app.memstore import MemoryStore


def after_the_ai_answers(first, has_display=False):
    """A game against the greedy AI on an LED-only board; South plays
    `first`, and the AI answers. The app, its clock, the AI's move."""
    app = App(store=MemoryStore(), has_display=has_display)
    clock = Clock(app)
    new_game(clock, "standard", opponent="AI greedy", side="South")
    play(clock, first)
    wait_state(clock, "play")
    return app, clock, app.game.history()[-1]


def looks(app, clock, point, ms):
    """The colours a point shows over `ms` (sampled every 16 ms)."""
    seen = []
    for _ in range(ms // 16):
        clock.run(16)
        seen.append(app.pixel(point))
    return seen


def flashes(seen):
    """How many times the point turned white-ish (a glow or a strobe)."""
    white = [c >> 16 >= 0x80 and c >> 8 & 255 >= 0x80 and c & 255 >= 0x80 for c in seen]
    return sum(1 for k in range(1, len(white)) if white[k] and not white[k - 1])


def test_the_ais_move_stays_visible_until_the_player_plays():
    app, clock, move = after_the_ai_answers("a1-c2")
    frm, to = V_point(move[:2]), V_point(move[3:5])
    clock.run(2000)                                   # long after the first glow
    trail = looks(app, clock, frm, 6000)
    assert all(c == V.TRAIL for c in trail), "the origin stays dim grey"
    arrival = looks(app, clock, to, 6000)
    assert flashes(arrival) >= 3, "the arrival glows again every 1.5 s"
    clock.press(NEXT)                                 # looking around is not playing
    assert flashes(looks(app, clock, to, 3000)) >= 1
    play(clock, app.game.legal()[0])                  # the player plays: it is over
    wait_state(clock, "play")
    assert app.game.history()[-1] != move


def test_a_capture_strobes_twice_each_time():
    # South offers a piece; the greedy AI takes whatever it can
    from jarmo import Game
    for first in Game("standard").legal():
        app, clock, move = after_the_ai_answers(first)
        if move[2] == "x" or _took(app, move):
            break
    else:
        raise AssertionError("no first move lets the greedy AI take a piece")
    to = V_point(move[3:5])
    clock.run(2000)
    seen = looks(app, clock, to, 6000)
    assert flashes(seen) >= 6, "two strobes each 1.5 s"


def test_with_a_display_the_words_tell_it_and_the_glow_is_brief():
    app, clock, move = after_the_ai_answers("a1-c2", has_display=True)
    to = V_point(move[3:5])
    clock.run(2000)
    assert flashes(looks(app, clock, to, 6000)) == 0
    assert any("AI moved" in line for line in app.text)


def V_point(name):
    from jarmo.board import point
    return point(name)


def _took(app, move):
    """The AI's move took a piece (the display's words say so)."""
    return any("AI took" in e for e in app.board.events[1])
