# Notation: the text edge of the core - action codes to and from RULES.md section 9 notation.
#
# The rules, the AI and the app work in ints (jarmo.codes); text appears only
# where a person or a save file reads or writes it, through this one parser.

from jarmo.board import NAMES, point

try:
    from micropython import const
except ImportError:  # CPython: const is only a hint to the MicroPython compiler
    def const(value):
        return value

# Private mirrors of jarmo.codes (checked by tests/test_core_imports.py):
# importing the contract's public names would cost about 800 bytes of RAM
# at start-up, these cost none.
_NORTH = const(2)
_GUARD = const(4)
_MARK = const(8)
_GOLD = const(16)
_MOVE = const(0)
_RECALL = const(1)
_PLACE = const(2)
_DONE = const(3)
_FLIP = const(4)
_FLIP_PLACE = const(5)
_REDEPLOY = const(6)


# An action that is garbled or not legal now; the game is unchanged.
class IllegalMove(ValueError):
    pass


def action_text(code):
    """Notation for an action code, such as "b1-d2" or "done"."""
    kind = code & 7
    a = NAMES[code >> 3 & 31]
    b = NAMES[code >> 8 & 31]
    if kind == _MOVE:
        return a + "-" + b
    if kind == _PLACE:
        return "@" + b
    if kind == _DONE:
        return "done"
    if kind == _RECALL:
        return a + "@" + b
    if kind == _FLIP:
        return a + "*"
    if kind == _FLIP_PLACE:
        return a + "*@" + b
    return "r@" + b


_SHAPES = "expected a move like b1-d2, a recall c5@a1, a placement @a1, done, a flip c5* or c5*@a1, or a redeploy r@a1"


def parse_action(text):
    """The action code for a notation string; IllegalMove if it is garbled."""
    if not isinstance(text, str):
        raise IllegalMove("an action is a string, not %r" % (type(text).__name__,))
    s = text.strip().lower()
    n = len(s)
    if s == "done":
        return _DONE
    if n == 3 and s[0] == "@":
        return _PLACE | _point(s, 1, text) << 8
    if n == 4 and s[:2] == "r@":
        return _REDEPLOY | _point(s, 2, text) << 8
    if n == 3 and s[2] == "*":
        return _FLIP | _point(s, 0, text) << 3
    if n == 6 and s[2:4] == "*@":
        return _FLIP_PLACE | _point(s, 0, text) << 3 | _point(s, 4, text) << 8
    if n == 5 and s[2] in "-x@":
        kind = _RECALL if s[2] == "@" else _MOVE
        return kind | _point(s, 0, text) << 3 | _point(s, 3, text) << 8
    raise IllegalMove("garbled action %r: %s" % (text, _SHAPES))


def _point(s, i, text):
    p = point(s[i:i + 2])
    if p < 0:
        raise IllegalMove("garbled action %r: %r is not a point (a1..e5)" % (text, s[i:i + 2]))
    return p


def piece_text(q):
    """A piece byte as "S"/"N" + face: a archer, g guard, m marked, A/G golden."""
    side = "N" if q & _NORTH else "S"
    if q & _GOLD:
        return side + ("G" if q & _GUARD else "A")
    if q & _GUARD:
        return side + "g"
    if q & _MARK:
        return side + "m"
    return side + "a"
