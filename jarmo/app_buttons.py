# Buttons: the button codes shared by the app logic and the hardware layer.
#
# The hardware (keypad, joystick, terminal keys) translates its own events into
# these small ints; the app never sees a pin or a key name.

NEXT = 0
PREV = 1
UP = 2
DOWN = 3
LEFT = 4
RIGHT = 5
SELECT = 6
BACK = 7
MENU = 8
# Or'ed into a code: the key went down, and its tap comes when it is let go
# (a key with a hold: hardware/buttons.py). The app shows the press at once
# (App.press), or acts on the tap at once where the hold means nothing more.
KEY_DOWN = 16

NAMES = ("next", "prev", "up", "down", "left", "right", "select", "back", "menu")


def code(name):
    """The button code for a name such as "select"; ValueError if unknown."""
    try:
        return NAMES.index(name.strip().lower())
    except ValueError:
        raise ValueError("unknown button %r: expected one of %s" % (name, ", ".join(NAMES)))
