# Turn input: how the legal actions of a turn map to button picks.
#
# Every legal action is reached by picking one or two *choices*. A choice is a
# board point 0..24 or one of the pseudo choices below (shown as an icon on the
# LEDs and as a word on the display):
#
# =============  ==================  =========================================
# action         picks               note
# =============  ==================  =========================================
# ``b4-c5``      b4, c5              piece, then target
# ``c5@a1``      c5, a1              classic recall: marked archer, then camp
# ``c5*``        c5, c5              legendary flip: the guard twice
# ``c5*@a1``     c5, a1              flip and place at once
# ``@a1``        a1                  place a held piece: one pick
# ``r@a1``       a1  (or R, a1)      redeploy; through R only when ``@a1`` is
#                                    also legal, so both stay reachable
# ``done``       PICK_DONE                the pseudo choice "done"
# =============  ==================  =========================================
#
# Built once per turn (and after each action of an open turn) from
# ``Game.legal_codes()`` (action codes, jarmo/codes.py); lookups during the
# turn are scans of two short arrays.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from array import array

from jarmo.board import NAMES

PICK_DONE = const(25)      # pseudo choice: end an open turn
PICK_REDEPLOY = const(26)  # pseudo choice: the remote-camp redeploy, when ambiguous
PICK_MENU = const(27)      # pseudo choice: open the menu (not an action)
NONE = const(31)      # no second pick
CHOICES = const(28)   # choices are 0..27
POINTS = const(0x1FFFFFF)   # the board points 0..24 of a choice mask

# Action kinds (jarmo.codes, which MicroPython inlines only as private names).
_MOVE = const(0)
_RECALL = const(1)
_PLACE = const(2)
_DONE = const(3)
_FLIP = const(4)
_FLIP_PLACE = const(5)
_REDEPLOY = const(6)
_SOURCE = const(3)
_TARGET = const(8)
_KIND_BITS = const(7)
_POINT_BITS = const(31)

PSEUDO_NAMES = ("done", "redeploy", "menu")


def choice_name(c):
    """"c3", "done", "redeploy" or "menu"."""
    if c < 25:
        return NAMES[c]
    return PSEUDO_NAMES[c - 25]


def encode(code, placements):
    """(first, second) picks of an action code; ``placements`` is the mask
    of the points with a legal placement (decides how a redeploy is reached)."""
    kind = code & _KIND_BITS
    a = code >> _SOURCE & _POINT_BITS
    b = code >> _TARGET & _POINT_BITS
    if kind == _DONE:
        return PICK_DONE, NONE
    if kind == _PLACE:
        return b, NONE
    if kind == _REDEPLOY:
        return (PICK_REDEPLOY, b) if placements >> b & 1 else (b, NONE)
    if kind == _FLIP:
        return a, a
    return a, b           # move, recall, flip and place


class Choices:
    # The picks of one turn: ``firsts`` and ``targets(first)`` as bit masks.
    #
    # ``codes`` are the turn's legal action codes, ``picks`` the (first,
    # second) of each as first | second << 5, in the same order.

    def __init__(self):
        self.codes = array("H")
        self.picks = array("H")
        self.firsts = 0

    def build(self, codes):
        """Take a turn's legal action codes; the menu is always a first pick too."""
        placements = 0
        for c in codes:
            if c & _KIND_BITS == _PLACE:
                placements |= 1 << (c >> _TARGET & _POINT_BITS)
        picks = array("H")
        firsts = 1 << PICK_MENU
        for c in codes:
            f, s = encode(c, placements)
            picks.append(f | s << 5)
            firsts |= 1 << f
        self.codes = array("H", codes)
        self.picks = picks
        self.firsts = firsts

    def targets(self, first):
        """Mask of the second picks after ``first`` (0 if it is complete alone)."""
        m = 0
        for c in self.picks:
            if c & 31 == first and c >> 5 != NONE:
                m |= 1 << (c >> 5)
        return m

    def action(self, first, second=NONE):
        """The action code picked by (first, second), or -1."""
        want = first | second << 5
        picks = self.picks
        for i in range(len(picks)):
            if picks[i] == want:
                return self.codes[i]
        return -1

    def placements(self):
        """Mask of the points a one-pick action (placement, redeploy) lands on."""
        m = 0
        for c in self.picks:
            f = c & 31
            if c >> 5 == NONE and f < 25:
                m |= 1 << f
        return m

    def can_redeploy(self):
        """True when a redeploy is among the actions."""
        for c in self.codes:
            if c & _KIND_BITS == _REDEPLOY:
                return True
        return False


def cycle(mask, current, step=1):
    """The next set bit of ``mask`` after ``current`` (wrapping), or -1 if empty."""
    if not mask:
        return -1
    c = current
    for _ in range(CHOICES):
        c += step
        if c >= CHOICES:
            c = 0
        elif c < 0:
            c = CHOICES - 1
        if mask >> c & 1:
            return c
    return -1


def bits(mask):
    """Names of the choices in a mask, space separated (for the display)."""
    out = []
    for c in range(CHOICES):
        if mask >> c & 1:
            out.append(choice_name(c))
    return " ".join(out)


# Geometric cursor moves (joystick). Off the top or bottom edge the cursor
# reaches the row of pseudo choices; LEFT/RIGHT there step through them.
def step(cursor, dx, dy, pseudo_mask):
    """Cursor after a joystick step (dx, dy in -1..1, +dy = towards rank 5)."""
    if cursor >= 25:
        if dy:
            return 2 if dy > 0 else 22  # wrap onto the board: c1 or c5
        nxt = cycle(pseudo_mask & ~POINTS, cursor, 1 if dx > 0 else -1)
        return cursor if nxt < 0 else nxt
    f = cursor % 5
    r = cursor // 5
    if dx:
        f = (f + dx) % 5
        return r * 5 + f
    r += dy
    if r < 0 or r > 4:
        nxt = cycle(pseudo_mask & ~POINTS, 24, 1)
        return cursor if nxt < 0 else nxt
    return r * 5 + f
