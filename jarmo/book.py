# Opening book: level 4's first turns, computed on the PC by a deep search
# (tools/book.py) and read here by position key, never loaded whole.
#
#     from jarmo import book
#     turn = book.turn(game, rng, buf)    # action codes, or None: search
#     book.problem                        # why the book was not used, if it is damaged
#
# The book is sorted fixed-size records (RECORD bytes) after a header record:
# a 6-byte position key (two 24-bit hash lanes), a byte weight << 3 | actions,
# up to four action codes (2 bytes each, big-endian) and a check byte (the
# sum of the other 15 mod 251).  Several records with one key are the
# position's choices, drawn by weight.  The header: b"JBK2", the record
# count (4 bytes), the most plies a book position has (1 byte), zeros, check.
#
# On Jarmo's firmware the book is the bytes constant BOOK of the frozen
# module jarmo.book_data (it stays in flash: no RAM); otherwise it is the file
# book.bin next to this module, opened for one look-up and read by seek and
# readinto into one 16-byte buffer (a search of about 5 reads;
# reading never writes to flash).  Code in RAM loads this module for a
# look-up and forgets it after (forget), so it is kept small.  A missing
# or damaged book is named in `problem` and ignored: the AI searches
# instead.  A book turn is played only if every action is legal and the
# turn is complete.

import sys

from jarmo.game import frozen

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

RECORD = const(16)
MAGIC = b"JBK2"         # (2: the key without hostages and golden flags unless the heroes)
FILE = "book.bin"
_P1 = const(16777213)   # the two lanes' moduli (primes below 2**24: small ints)
_P2 = const(16777199)
_GUESSES = const(10)    # interpolation guesses before the search halves (first)
_FEATURES = const(1)    # a rule set's row: its features (jarmo/rulesets.py FEATURES)
_FEATURE_BITS = const(0x3FF)   # every feature bit of jarmo/rulesets.py (SCORED .. NO_EXPANSIONS)

problem = None          # why the last look-up found no book (None: it was there)
# Code in RAM on the device: loaded for a look-up (ask) and forgotten after.
_FORGET = sys.implementation.name != "cpython" and not frozen(globals().get("__file__"))


def position_key(g, every=False):
    """(lane 1, lane 2): 24-bit hashes of the rule set, expansions and position.
    The hostages and the golden flags only with the heroes: without them they
    are always 0 (and the key is a third shorter to compute); every: all the
    same (the builder's name of a position, tools/book.py)."""
    a = 1 + (g.row[_FEATURES] & _FEATURE_BITS) * 4 + g.heroes + (2 if "challenges" in g.expansions else 0)
    b = a
    h = g.heroes or every
    for part in (g.top, g.under if h else b"", g.held_count, g.pool, g.out_count,
                 g.held_gold if h else b"", g.pool_gold if h else b"",
                 (g.mover, g.stage, 1 if g.markers_on else 0)):
        for x in part:
            x += 1
            a = (a * 37 + x) % _P1
            b = (b * 41 + x) % _P2
    return a, b


def check_byte(rec):
    return sum(rec[0:RECORD - 1]) % 251


def shipped():
    """The shipped book: the frozen bytes (Jarmo's firmware) or the file's path."""
    try:
        from jarmo.book_data import BOOK
        return BOOK
    except ImportError:
        return __file__.rsplit("/", 1)[0] + "/" + FILE if "/" in __file__ else FILE


# One look-up: the book (bytes, or a file opened by path) and its buffer.
class _Reader:
    def __init__(self, src):
        self.data = src if isinstance(src, bytes) else None
        self.f = None if self.data is not None else open(src, "rb")
        self.buf = bytearray(RECORD)
        h = self.read(-1)
        self.count = h[4] << 24 | h[5] << 16 | h[6] << 8 | h[7]
        self.plies = h[8]
        size = len(self.data) if self.f is None else self.f.seek(0, 2)
        if h[0:4] != MAGIC:
            raise ValueError("not a book of this version")
        if check_byte(h) != h[15] or size != RECORD * (self.count + 1):
            raise ValueError("not a book of %d records" % self.count)

    def read(self, i):
        """Record i (-1: the header) in self.buf."""
        buf = self.buf
        o = (i + 1) * RECORD
        if self.f is None:
            buf[0:RECORD] = memoryview(self.data)[o:o + RECORD]   # (no copy of the book)
        else:
            self.f.seek(o)
            if self.f.readinto(buf) != RECORD:
                raise ValueError("short record %d" % i)
        return buf

    def match(self, i, a, b):
        """Record i if its key is (a, b), else None; ValueError if damaged."""
        if i >= self.count:
            return None
        r = self.read(i)
        if (r[0] << 16 | r[1] << 8 | r[2]) != a or (r[3] << 16 | r[4] << 8 | r[5]) != b:
            return None
        if check_byte(r) != r[15] or not 1 <= r[6] & 7 <= 4:
            raise ValueError("damaged record %d" % i)
        return r

    def first(self, a, b):
        """Index of the first record whose key is not below (a, b).  The keys
        are hashes, spread evenly over lane 1's range, so the search guesses
        where a lies between the keys that bound it (interpolation: about 4
        reads where halving takes 10, and at most 9 in the shipped book), and
        halves after _GUESSES guesses, so a skewed book costs at most a few more."""
        lo = 0
        hi = self.count
        klo = 0            # the keys of records lo .. hi - 1 lie within klo .. khi
        khi = _P1
        guesses = 0
        while lo < hi:
            if guesses < _GUESSES:
                # (in 1024ths of the lane, so the product stays a small int)
                mid = lo + ((a - klo) >> 10) * (hi - lo) // (((khi - klo) >> 10) + 1)
                guesses += 1
            else:
                mid = (lo + hi) >> 1
            r = self.read(mid)
            ka = r[0] << 16 | r[1] << 8 | r[2]
            if ka < a or (ka == a and (r[3] << 16 | r[4] << 8 | r[5]) < b):
                lo = mid + 1
                klo = ka
            else:
                hi = mid
                khi = ka
        return lo


def entries(g, src=None, rng=None):
    """The book's turns for g's position (src: the book's bytes or path, None
    the shipped one) as [(weight, codes)]; with rng (jarmo.rng.Rng) one of
    them drawn by weight (each entry replaces the one so far with chance
    weight / the weights so far), or None.  One pass, the book opened once.
    ValueError or OSError if the book is missing or damaged."""
    book = _Reader(shipped() if src is None else src)
    try:
        if g.ply_count >= book.plies:
            return None if rng else []
        a, b = position_key(g)
        i = book.first(a, b)
        out = None if rng else []
        total = 0
        r = book.match(i, a, b)
        while r is not None:
            w = r[6] >> 3
            total += w
            if rng is None or rng.below(total) < w:
                codes = [r[7 + 2 * k] << 8 | r[8 + 2 * k] for k in range(r[6] & 7)]
                if rng is None:
                    out.append((w, codes))
                else:
                    out = codes
            i += 1
            r = book.match(i, a, b)
        return out
    finally:
        if book.f is not None:
            book.f.close()


def turn(g, rng, buf, src=None):
    """A book turn for g's position drawn by weight with rng (jarmo.rng.Rng),
    legal and complete on g (left as it was; buf: an action buffer); None if
    the book has none, or if it is missing or damaged (named in `problem`)."""
    global problem
    problem = None
    if g.outcome is not None:
        return None
    try:
        codes = entries(g, src, rng)
    except (OSError, ValueError) as e:
        where = shipped() if src is None else src
        problem = "opening book %s %s, ignored" % (
            "(frozen)" if isinstance(where, bytes) else where,
            "damaged (%s)" % e if isinstance(e, ValueError) else "missing or unreadable")
        return None
    if codes and legal_turn(g, codes, buf):
        return codes
    return None


def ask(player, g, buf):
    """Level 4's look-up (jarmo.ai.Player.step): the book's turn for g (the
    player's private game) from player.book (True: the shipped book), drawn
    with player.rng; None if none (buf: one of its action buffers).
    player.book_problem: why the book was not used (missing, damaged), else
    None.  The player calls forget() after."""
    src = player.book
    codes = turn(g, player.rng, buf, None if src is True else src)
    player.book_problem = problem
    return codes


def forget():
    """Code in RAM forgets this module after a look-up (jarmo.unload): True
    if it did, and the caller collects the heap once it holds none of it."""
    if _FORGET:
        from jarmo.unload import forget_module
        forget_module("jarmo.book")
    return _FORGET


def legal_turn(g, codes, buf):
    """True if codes are legal one after the other on g and make a whole turn
    (the turn passes or the game ends); g is left as it was.  buf: an action
    buffer (the legal actions are generated into it)."""
    mover = g.mover
    played = 0
    for c in codes:
        if g.outcome is not None or g.mover != mover:
            break
        n = g.gen_into(buf)
        k = 0
        while k < n and buf[k] != c:
            k += 1
        if k == n:
            break
        g.do_code(c)
        played += 1
    ok = played == len(codes) and (g.outcome is not None or g.mover != mover)
    while played:
        g.undo_code()
        played -= 1
    return ok
