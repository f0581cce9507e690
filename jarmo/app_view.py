# The LED picture: palette, piece colours, the board as shown, icons, animations.
#
# Everything draws into a caller's 75-byte buffer (RGB per point, index
# (rank-1)*5 + file) with ints only: colours are 0xRRGGBB small ints, times are
# integer milliseconds, and no function here allocates, so the app can redraw
# every tick without feeding the garbage collector. The LED-only screens
# outside play are drawn by their states (app_menu, app_screens, app_help)
# with these primitives.
#
# Colours follow the Okabe-Ito colour-blind-safe palette: South is the
# vermillion/orange family, North the sky-blue family. On one LED a piece shows
# as a *level* of its side colour (archer dim, guard bright), a Golden Soldier
# as its side colour tinted (South's to yellow, North's to bluish green), a
# marked archer (classic) breathes slowly, and a stack shows its top piece with
# a short glimpse of the hostage every four seconds. The legend for players is
# jarmo/app_legend.py.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.app_base import TICKS_MASK
from jarmo.board import point

# ---------------------------------------------------------------- clock

_HALF = const(0x10000000)   # half the ticks' range


def ticks_diff(a, b):
    """a - b for wrapping millisecond ticks."""
    return ((a - b + _HALF) & TICKS_MASK) - _HALF


def ticks_add(a, delta):
    return (a + delta) & TICKS_MASK


# -------------------------------------------------------------- palette

# Piece colours by kind: archer 0, marked archer 1, guard 2, gold archer 3,
# gold guard 4; North's are 5 later (kind + 5 * side).
PIECE = (
    # archer,  marked,   guard,    gold archer, gold guard
    0x401C00, 0xD55E00, 0xFF6400, 0x4C3406, 0xFFC020,   # South
    0x103650, 0x56B4E9, 0x40A8FF, 0x003C28, 0x00D89C,   # North
)
# A Golden Soldier is its side's colour turned towards another hue: South's
# towards yellow, North's towards Okabe-Ito's bluish green, so that North's
# stands apart from North's blue pieces (and from the ice-blue cursor) in
# every common kind of colour vision: to red-green colour-blind eyes it is a
# pale grey-beige beside the blue guard.
_NORTH = const(2)       # piece byte flags (jarmo.codes)
_GUARD = const(4)
_MARK = const(8)
_GOLD = const(16)


def _kinds():
    # the column of PIECE (kind + 5 * side) of each piece byte, by byte >> 1:
    # a Golden Soldier by its face, then a guard, a marked archer, an archer
    out = bytearray(16)
    for i in range(16):
        p = i << 1
        if p & _GOLD:
            k = 4 if p & _GUARD else 3
        else:
            k = 2 if p & _GUARD else 1 if p & _MARK else 0
        out[i] = k + (5 if p & _NORTH else 0)
    return bytes(out)


KIND = _kinds()
SIDE_COLOURS = (0xD55E00, 0x56B4E9)  # vermillion, sky blue: by side (0 South, 1 North)
HINT_COLOUR = 0xCC79A7                # Okabe-Ito reddish purple: a hint, the lesson's next pick
CURSOR = (0xFFC890, 0xA8E8FF)        # pastel: whose turn it is
MARKER = const(0x0C0C0C)             # remote-camp marker on an empty point
TRAIL = const(0x181818)              # the point the last move came from
TARGET = const(0x303030)             # an empty legal target
SELECTED = const(0xC8C8C8)           # the selected piece
WHITE = const(0xFFFFFF)
RED = const(0xFF0000)                # refused choice
NEUTRAL = const(0xB0B0B0)            # a draw


def cell_of(text):
    """The piece byte of a face such as "Sg" (Game.piece's text; the
    simulator's replay reads positions that way)."""
    if not text:
        return 0
    return (1 | (2 if text[0] == "N" else 0) | (4 if text[1] in "gG" else 0)
            | (8 if text[1] == "m" else 0) | (16 if text[1] in "AG" else 0))


# The running game as the LEDs and the display show it, shared by the states
# that show the board (play, ai, and the menu and result behind it): the
# position (piece bytes, read after every action), the markers, the last
# move's trail and arrival glow, a strobe, the cursor and the latest turn's
# events in words.
class Board:
    def __init__(self):
        self.cells = bytearray(25)      # top piece bytes
        self.under = bytearray(25)      # hostages below
        self.reset()

    def reset(self):
        """A new game: no trail, strobe or events; the cursor on a1."""
        self.markers = 0        # 25-bit mask
        self.trail = -1
        self.arrive = -1
        self.arrive_t = 0
        self.mover = -1         # the side that made the last move (trail, arrive)
        self.took = False       # and whether it took a piece
        self.flash = -2         # point, -1 the whole board, -2 none
        self.flash_c = 0
        self.flash_t = 0
        self.cursor = 0         # a point 0..24 or a pseudo choice (app_turn)
        self.cur_t = 0          # when it moved: its blink starts over
        self.events = [[], []]  # each side's latest turn in words (app_play), by side
        self.events_side = -1   # the side that acted last
        self.page = 0           # the sentence whose page of events is shown (app_play._events)
        self.pages = 0          # how many pages there are
        self.next = 0           # the first sentence of the page after it
        self.page_t = 0         # when it was shown

    def read(self, game):
        """Take the position of `game` (None: an empty board)."""
        cells = self.cells
        under = self.under
        for i in range(25):
            cells[i] = game.piece_at(i) if game else 0
            under[i] = game.under_at(i) if game else 0
        m = 0
        for name in (game.markers() if game else ()):
            m |= 1 << point(name)
        self.markers = m

    def draw(self, buf, now, trail=-1):
        """Pieces, markers and the trail point."""
        draw_board(buf, self.cells, self.under, self.markers, trail, now)


# -------------------------------------------------------------- drawing

def put(buf, i, c):
    j = i * 3
    buf[j] = c >> 16
    buf[j + 1] = (c >> 8) & 255
    buf[j + 2] = c & 255


def put_k(buf, i, c, k):
    """Colour c scaled by k/256."""
    j = i * 3
    buf[j] = ((c >> 16) * k) >> 8
    buf[j + 1] = (((c >> 8) & 255) * k) >> 8
    buf[j + 2] = ((c & 255) * k) >> 8


def get(buf, i):
    j = i * 3
    return buf[j] << 16 | buf[j + 1] << 8 | buf[j + 2]


def clear(buf):
    for j in range(75):
        buf[j] = 0


def blink(now, period=1024):
    """True in the first half of each period (period a power of two)."""
    return not now & (period >> 1)


def tri(now, period):
    """A triangle wave 0..255 over a power-of-two period."""
    x = (now & (period - 1)) * 512 // period
    return x if x < 256 else 511 - x


def piece_colour(piece, now):
    c = PIECE[KIND[piece >> 1]]
    if piece & _MARK:
        # breathe between the archer's level and about 90 %
        return _scale(c, 64 + (tri(now, 2048) * 3 >> 2))
    return c


def _scale(c, k):
    return (((c >> 16) * k >> 8) << 16 | (((c >> 8) & 255) * k >> 8) << 8
            | ((c & 255) * k >> 8))


def draw_board(buf, cells, under, markers, trail, now):
    """Pieces (piece bytes), markers (a 25-bit mask) and the last move's
    trail point (the simulator's replay calls this too)."""
    glimpse = (now & 4095) < 384        # 3 slots of 128 ms (jarmo/app.py _SLOT)
    for i in range(25):
        cell = cells[i]
        if cell:
            if under[i] and glimpse:
                cell = under[i]
            put(buf, i, piece_colour(cell, now))
        elif i == trail:
            put(buf, i, TRAIL)
        elif markers >> i & 1:
            put(buf, i, MARKER)
        else:
            put(buf, i, 0)


# 5x5 icons as 25-bit masks (bit = point index, a1 = bit 0).
ICON_DONE = const(0x1041440)       # a3 b2 c3 d4 e5: a check mark
ICON_REDEPLOY = const(0x729c0)   # the ring b2..b3: remote camps
ICON_MENU = const(0x1f07c1f)     # ranks 1, 3, 5: three bars
ICON_CROSS = const(0x1151151)    # both diagonals: a problem
ICONS = (ICON_DONE, ICON_REDEPLOY, ICON_MENU)
RING = (6, 7, 8, 13, 18, 17, 16, 11)   # b2 c2 d2 d3 d4 c4 b4 b3: spinner path


def mark_press(buf, focus):
    """A key is down, its tap to come at its release (App.key_down): the
    point under the cursor lit full white, or, where nothing is picked by a
    cursor, the whole picture at a quarter: the press is seen at once."""
    if focus >= 0:
        put(buf, focus, WHITE)
        return
    for j in range(75):
        buf[j] >>= 2


def draw_icon(buf, mask, c, now):
    on = blink(now, 1024)
    for i in range(25):
        if mask >> i & 1:
            put_k(buf, i, c, 256 if on else 48)
        else:
            put(buf, i, 0)


def draw_spinner(buf, c, now):
    """A dot chasing round the ring: the AI is thinking."""
    head = (now >> 7) & 7
    put(buf, RING[head], c)
    put_k(buf, RING[(head - 1) & 7], c, 64)


def draw_count(buf, first, n, c, step=1):
    """Light n points starting at point `first`, going by `step`."""
    i = first
    while n > 0 and 0 <= i < 25:
        put(buf, i, c)
        i += step
        n -= 1
