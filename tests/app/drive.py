"""Drive an App with buttons only: the helpers the app tests share.

No pytest imports, so tests/core/test_app_logic.py can use it under
MicroPython too.
"""

from jarmo import app_turn as T
from jarmo.app_base import TICKS_MASK
from jarmo.app_buttons import DOWN, LEFT, NEXT, RIGHT, SELECT, UP
from jarmo.board import point
from jarmo.notation import parse_action


class Clock:
    """A fake millisecond clock that wraps like adafruit_ticks."""

    def __init__(self, app, start=0):
        self.app = app
        self.now = start

    def run(self, ms, step=16):
        """Advance time by ms, ticking every `step` ms."""
        end = self.now + ms
        while self.now < end:
            self.now += step
            self.app.tick(self.now & TICKS_MASK)

    def press(self, button, player=0):
        self.app.press(button, player)
        self.app.tick(self.now & TICKS_MASK)


def told(app):
    """The latest turn of each side as the display tells it, the side that
    acted last at the end: a list of whole sentences (jarmo/app_play.py)."""
    board = app.board
    last = board.events_side
    if last < 0:
        return []
    return " ".join(board.events[1 - last] + board.events[last]).replace(". ", ".|").split("|")


def picks(app, action):
    """The choices that play `action` (notation) in the app's current turn."""
    placements = 0
    for a in app.game.legal():
        if a[0] == "@":
            placements |= 1 << point(a[1:3])
    first, second = T.encode(parse_action(action), placements)
    return (first,) if second == T.NONE else (first, second)


def goto(clock, choice, limit=40):
    """Press NEXT until the cursor is on `choice`."""
    app = clock.app
    for _ in range(limit):
        if app.board.cursor == choice:
            return
        clock.press(NEXT, app.turn_side())
    raise AssertionError("cursor never reached %r" % (choice,))


def play(clock, action):
    """Play one action of a human turn with NEXT and SELECT."""
    app = clock.app
    assert app.state == "play", app.state
    assert action in app.game.legal(), (action, app.game.legal())
    seat = app.turn_side()
    for c in picks(app, action):
        goto(clock, c)
        clock.press(SELECT, seat)
    say_yes(clock, seat)


def say_yes(clock, seat):
    """An action that ends the game against its player is asked first: yes."""
    app = clock.app
    if app.state == "play" and "SELECT again: yes" in " ".join(app.text):
        clock.press(SELECT, seat)


def result_said(clock, pages=3):
    """The lines of every page of the result screen (they take turns every 4 s)."""
    app = clock.app
    said = []
    for _ in range(pages):
        said += [line for line in app.text if line not in said]
        clock.run(4100)
    return said


def menu_to(clock, title):
    """Move the menu cursor to the item whose line starts with title."""
    app = clock.app
    for _ in range(20):
        for line in app.text[1:]:
            if line.startswith(">" + title):
                return line
        clock.press(NEXT)
    raise AssertionError("no menu item %r in %r" % (title, app.text))


def set_option(clock, title, value):
    """Select a menu item and step its value until the line shows value."""
    menu_to(clock, title)
    for _ in range(10):
        if (">%s: %s" % (title, value)) in clock.app.text:
            return
        clock.press(SELECT)
    raise AssertionError("%s never became %s: %r" % (title, value, clock.app.text))


def wait_state(clock, state, limit_ms=120000, step=16):
    app = clock.app
    t = 0
    while app.state != state:
        clock.run(step, step)
        t += step
        if t > limit_ms:
            raise AssertionError("still %s, not %s" % (app.state, state))


def new_game(clock, rules="standard", heroes=False, challenges=False,
             opponent="human", side="South", match="1 game"):
    """From the menu: choose the settings and start."""
    app = clock.app
    assert app.state == "menu", app.state
    set_option(clock, "Rules", rules)
    if rules != "classic":
        set_option(clock, "Heroes", "on" if heroes else "off")
        set_option(clock, "Challenges", "on" if challenges else "off")
    set_option(clock, "Versus", opponent)
    if opponent != "human":
        set_option(clock, "Side", side)
    set_option(clock, "Match", match)
    menu_to(clock, "New")
    clock.press(SELECT)


# Actions that need the special picks come first, so a scripted game uses them.
PREFERENCE = ("r@", "*@", "*", "@", "done")


def choose(rng, legal):
    """A seeded choice that prefers the rare kinds of action."""
    for mark in PREFERENCE:
        special = [a for a in legal if (mark in a if mark != "*" else a.endswith("*"))]
        if special and rng.randrange(3) == 0:
            return special[rng.randrange(len(special))]
    return legal[rng.randrange(len(legal))]


class Rand:
    """random.Random is missing on MicroPython: a tiny seeded LCG instead."""

    def __init__(self, seed):
        self.x = seed * 7919 + 1

    def randrange(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def play_out(clock, rng, limit=400):
    """Play random human turns (and wait for the AI) until the game ends.
    Returns the list of actions the humans played."""
    app = clock.app
    played = []
    while app.state in ("play", "ai") and len(played) < limit:
        if app.state == "play":
            a = choose(rng, app.game.legal())
            play(clock, a)
            assert app.game.history()[-1] == a or app.state != "play" or a == "done"
            played.append(a)
        else:
            clock.run(64)
    return played


def joy_to(clock, name, seat=0):
    """Move the cursor to a point with the joystick (UP/DOWN/LEFT/RIGHT)."""
    app = clock.app
    target = point(name)
    sign = -1 if (app.tabletop and seat == 1) else 1
    for _ in range(20):
        c = app.board.cursor
        if c == target:
            return
        if c >= 25:
            clock.press(UP if sign > 0 else DOWN, seat)
            continue
        if c % 5 != target % 5:
            clock.press(RIGHT if (target % 5 > c % 5) == (sign > 0) else LEFT, seat)
        else:
            clock.press(UP if (target // 5 > c // 5) == (sign > 0) else DOWN, seat)
    raise AssertionError("joystick never reached " + name)
