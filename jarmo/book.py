# Opening book: level 4's first turns, computed on the PC by a deep search
# (tools/book.py) and read here by position key, never loaded whole.
#
#     from jarmo.book import shipped
#     book = shipped()                  # None if there is none (book.problem says why)
#     turn = book.turn(game, rng, buf)  # action codes, or None: search
#
# The book is sorted fixed-size records (RECORD bytes) after a header record:
# a 6-byte position key (two 24-bit hash lanes), a byte weight << 3 | actions,
# up to four action codes (2 bytes each, big-endian) and a check byte (the
# sum of the other 15 mod 251).  Several records with one key are the
# position's choices, drawn by weight.  The header: b"JBK1", the record
# count (4 bytes), the most plies a book position has (1 byte), zeros, check.
#
# On Jarmo's firmware the book is the bytes constant BOOK of the frozen
# module jarmo_book (it stays in flash: no RAM); otherwise it is the file
# book.bin next to this module, read by seek and readinto into one 16-byte
# buffer (a binary search: about 15 reads; reading never writes to flash).
# A missing or damaged book is named in `problem` and ignored: the AI
# searches instead.  A book turn is played only if every action is legal
# and the turn is complete (tools/book.py writes only such turns).

RECORD = 16
MAGIC = b"JBK1"
FILE = "book.bin"
_P1 = 16777213          # the two lanes' moduli (primes below 2**24: small ints)
_P2 = 16777199
_MAX_ACTIONS = 4

problem = None          # why the shipped book is not used (None: no problem seen)
_shipped = None


def position_key(g):
    """(lane 1, lane 2): 24-bit hashes of the rule set, expansions and position."""
    a = 1 + (g.row[1] & 0x3FF) * 4 + g.heroes + (2 if "challenges" in g.expansions else 0)
    b = a
    for part in (g.top, g.under, g.held_count, g.pool, g.out_count, g.held_gold, g.pool_gold):
        for x in part:
            a = (a * 37 + x + 1) % _P1
            b = (b * 41 + x + 1) % _P2
    for x in (g.mover, g.stage, 1 if g.markers_on else 0):
        a = (a * 37 + x + 1) % _P1
        b = (b * 41 + x + 1) % _P2
    return a, b


def check_byte(rec, n=RECORD - 1):
    s = 0
    for k in range(n):
        s += rec[k]
    return s % 251


# A book in a bytes constant (frozen) or a file (path), read a record at a time.
class Book:
    def __init__(self, data=None, path=None):
        self.data = data
        self.path = path
        self.buf = bytearray(RECORD)
        self.count = 0
        self.plies = 0
        self._file = None
        self._open()
        try:
            h = self._read(-1)
            if bytes(h[0:4]) != MAGIC or check_byte(h) != h[15]:
                raise ValueError("not a book (header)")
            self.count = h[4] << 24 | h[5] << 16 | h[6] << 8 | h[7]
            self.plies = h[8]
            size = len(data) if data is not None else self._size()
            if size != RECORD * (self.count + 1):
                raise ValueError("%d bytes, the header says %d" % (size, RECORD * (self.count + 1)))
        finally:
            self._close()

    def _open(self):
        if self.data is None:
            self._file = open(self.path, "rb")

    def _close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def _size(self):
        return self._file.seek(0, 2)

    def _read(self, i):
        """Record i (-1: the header) into self.buf; self.buf."""
        buf = self.buf
        o = (i + 1) * RECORD
        data = self.data
        if data is None:
            f = self._file
            f.seek(o)
            if f.readinto(buf) != RECORD:
                raise ValueError("short record %d" % i)
        else:
            for k in range(RECORD):
                buf[k] = data[o + k]
        return buf

    def _first(self, a, b):
        """Index of the first record with key (a, b), or -1."""
        lo = 0
        hi = self.count
        while lo < hi:
            mid = (lo + hi) >> 1
            r = self._read(mid)
            ka = r[0] << 16 | r[1] << 8 | r[2]
            kb = r[3] << 16 | r[4] << 8 | r[5]
            if ka < a or (ka == a and kb < b):
                lo = mid + 1
            else:
                hi = mid
        if lo < self.count:
            r = self._read(lo)
            if (r[0] << 16 | r[1] << 8 | r[2]) == a and (r[3] << 16 | r[4] << 8 | r[5]) == b:
                return lo
        return -1

    def choices(self, g):
        """The book's turns for g's position: a list of (weight, codes); [] if none.
        ValueError if a record is damaged (a wrong check byte)."""
        a, b = position_key(g)
        out = []
        self._open()
        try:
            i = self._first(a, b)
            while 0 <= i < self.count:
                r = self._read(i)
                if (r[0] << 16 | r[1] << 8 | r[2]) != a or (r[3] << 16 | r[4] << 8 | r[5]) != b:
                    break
                if check_byte(r) != r[15] or not 1 <= r[6] & 7 <= _MAX_ACTIONS:
                    raise ValueError("damaged record %d" % i)
                out.append((r[6] >> 3, [r[7 + 2 * k] << 8 | r[8 + 2 * k] for k in range(r[6] & 7)]))
                i += 1
        finally:
            self._close()
        return out

    def turn(self, g, rng, buf):
        """A book turn for g's position drawn by weight with rng (jarmo.rng.Rng),
        checked legal and complete on g (left as it was; buf: an action buffer of
        jarmo.ai's size); None if the book has none, or names a damage in
        `problem` and gives None."""
        global problem
        if g.ply_count >= self.plies or g.outcome is not None:
            return None
        try:
            found = self.choices(g)
        except (OSError, ValueError) as e:
            problem = "opening book: %s, ignored" % e
            return None
        total = 0
        for w, _codes in found:
            total += w
        if not total:
            return None
        x = rng.below(total)
        for w, codes in found:
            if x < w:
                return codes if legal_turn(g, codes, buf) else None
            x -= w
        return None


def legal_turn(g, codes, buf):
    """True if codes are legal one after the other on g and make a whole turn
    (the turn passes or the game ends); g is left as it was."""
    mover = g.mover
    played = 0
    ok = True
    for c in codes:
        if g.outcome is not None or g.mover != mover:
            ok = False
            break
        n = g.gen_into(buf)
        k = 0
        while k < n and buf[k] != c:
            k += 1
        if k == n:
            ok = False
            break
        g.do_code(c)
        played += 1
    if ok:
        ok = g.outcome is not None or g.mover != mover
    while played:
        g.undo_code()
        played -= 1
    return ok


def shipped():
    """The shipped book: Jarmo's firmware's frozen one, else the file next to
    this module; None if there is none or it is damaged (`problem` says)."""
    global _shipped, problem
    if _shipped is None:
        try:
            from jarmo_book import BOOK   # frozen into Jarmo's firmware
            _shipped = Book(data=BOOK)
        except ImportError:
            path = __file__.rsplit("/", 1)[0] + "/" + FILE if "/" in __file__ else FILE
            try:
                _shipped = Book(path=path)
            except OSError:
                problem = "opening book: %s missing, ignored" % path
                _shipped = False
            except ValueError as e:
                problem = "opening book: %s damaged (%s), ignored" % (path, e)
                _shipped = False
        except ValueError as e:
            problem = "opening book: frozen book damaged (%s), ignored" % e
            _shipped = False
    return _shipped or None
