# Storage: everything the game keeps, as an append-only log of records in one
# 4 KB flash sector: ``microcontroller.nvm`` on the device, a file that
# behaves the same on a PC or on a board without nvm (jarmo/store_flash.py).
#
# Why a log: flash is erased in 4 KB sectors (about 50 ms each, rated for
# 100,000 erases). CircuitPython writes nvm bytes that are still erased
# (0xFF) with page programs only, and erases the sector only when a write
# covers bytes already used. So records are appended into the erased tail:
# saving a turn programs a few bytes and erases nothing. When the sector is
# full, compaction writes the live records back in one write, the only
# erase; the app asks for it between games (``tidy``), where the live set is
# smallest. The CIRCUITPY drive is never written.
#
# A record, at any byte offset:
#
#     A5  key  seq (2 bytes)  length  payload (length bytes)  CRC (2 bytes)
#
# key: one byte naming what the record holds (the R_ constants below); seq:
# 16 bits, one more than the record appended before it, never given twice
# (compaction keeps them); CRC: jarmo.checksum.crc16 of key .. payload. The
# sector starts with an R_FORMAT record; a sector that holds something else
# (another program's data) is reported, and replaced at the first save.
#
# Reading takes the newest record of each key (an empty payload means
# "none"); the game in progress is its newest R_GAME record plus the R_TURN
# records after it. A record torn by a power cut (cut while it was being
# programmed) fails its CRC: the reader skips it and finds the next record
# by its sync byte, and appends go after the last used byte. A torn tail
# found at start-up is marked at once by an R_SKIP record naming where the
# torn bytes start, so that later reads can tell a cut from damage: bytes
# that do not parse and that no R_SKIP record accounts for are damage,
# reported by the names of the records there, and compacted away.
#
# Compaction (jarmo/store_compact.py) writes the live records into a sector
# with its first record, R_FORMAT, left erased, and programs that record
# last: a sector whose R_FORMAT record is whole holds a whole log. Its
# sequence number is the sector's generation; its second record, R_KEPT,
# lists what the compaction wrote.
#
# With two sectors (nvm of 8 KB: Jarmo's firmware, tools/firmware.py, whose
# nvm erases only the sector a write falls in) compaction writes into the
# other sector and the reader takes the whole sector of the newest
# generation: a power cut at any instant loses nothing but the record being
# appended. With one (stock CircuitPython: a write over used bytes erases
# all of nvm) a cut in the compaction's erase or program destroys records;
# the reader tells such a sector from a new one (the old log's bits still
# set, or data after an erased R_FORMAT), keeps every record still whole
# and names each kind it lost ("saves lost in a power cut: statistics").
# docs/SAVES.md says the same for players.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.checksum import crc16
from jarmo.unload import forget_module

# What the records hold (one byte each). R_FORMAT, R_SKIP, R_KEPT and the
# game's chain are the store's own; the app names the rest.
R_FORMAT = const(0x4A)      # "J": the sector is Jarmo's, format 1; its seq: the generation
R_SKIP = const(0x7E)        # "~": the torn bytes before this record were a power cut
R_KEPT = const(0x4B)        # "K": what a compaction wrote: codes' bytes (2), then the keys
R_GAME = const(0x47)        # "G": a game starts (jarmo/store_game.py)
R_TURN = const(0x54)        # "T": a turn of the game started last: its action codes
R_SETTINGS = const(0x50)    # "P": the menu's settings (jarmo/app_menu.py)
R_STATS = const(0x53)       # "S": the statistics (jarmo/store_stats.py)
R_CAMPAIGN = const(0x43)    # "C": the campaign's progress (jarmo/store_campaign.py)
R_IMPORTED = const(0x49)    # "I": older saves on the drive were imported (jarmo/store_legacy.py)

_SYNC = const(0xA5)
HEAD = const(5)            # sync, key, seq (2), length
OVER = const(7)            # header and CRC
MAGIC = b"JARMO\x01"
FORMAT_LEN = const(13)     # the R_FORMAT record: OVER + len(MAGIC)
SECTOR = const(4096)       # a flash sector: what one erase clears
# Free bytes a game may need without a compaction in its middle: a game's
# start compacts when fewer are left (a 40-turn game takes ~400).
RESERVE = const(1024)

# What the store's halves loaded on demand (jarmo/store_read.py at start-up,
# jarmo/store_compact.py between games; apart so that their code is in RAM
# only while they run) use of a Store. They read its members below and
# change it only through its methods below; they assign none of its
# attributes, and no module but this one touches a private one
# (tests/test_store_interface.py reads the modules).
HELPER_MEMBERS = (
    # read: the flash, its sectors and their size; the current sector's
    # view (nvm), its generation and number; the last sequence number
    # given; the newest record of each key; the damaged keys reported;
    # the game's turns
    "flash", "sectors", "size", "nvm", "gen", "current", "seq", "newest", "damaged", "turns",
    # change: the log adopted where a read or a compaction found it; a
    # problem put in the start-up notice; a record appended; records
    # queued, as they are, for the next compaction
    "adopt", "notice", "write", "queue",
)


def record(key, seq, payload):
    """The bytes of one record."""
    n = len(payload)
    out = bytearray(n + OVER)
    out[0] = _SYNC
    out[1] = key
    out[2] = (seq >> 8) & 255
    out[3] = seq & 255
    out[4] = n
    out[5:5 + n] = payload
    c = crc16(out, 1, 5 + n)
    out[5 + n] = c >> 8
    out[6 + n] = c & 255
    return out


def parse_at(data, pos, end):
    """The length of the valid record at data[pos], or 0 if none starts there."""
    if data[pos] != _SYNC or pos + OVER > end:
        return 0
    n = data[pos + 4] + OVER
    if pos + n > end:
        return 0
    c = crc16(data, pos + 1, pos + n - 2)
    if data[pos + n - 2] != c >> 8 or data[pos + n - 1] != c & 255:
        return 0
    return n


def note(newest, key, pos):
    """Update newest (key -> offset of its newest record; R_TURN: of the
    game in progress) for the record of `key` at `pos`."""
    if key == R_GAME:
        newest.pop(R_TURN, None)        # a new game: no turns yet
    if key != R_SKIP and (key != R_TURN or R_GAME in newest):
        newest[key] = pos


class Store:
    # The log in ``nvm``: anything that slices like microcontroller.nvm
    # (len, nvm[a:b], nvm[a:b] = bytes). 8 KB and more: two sectors, the
    # first two used.

    def __init__(self, nvm):
        self.flash = nvm
        self.sectors = 2 if len(nvm) >= 2 * SECTOR else 1
        self.size = SECTOR if self.sectors == 2 else len(nvm)
        self.problems = []      # damage found, in words; never a torn record
        self.damaged = []       # the keys of the damaged records (as far as readable)
        self.erases = 0         # compactions since start-up (wear)
        self.locked = False     # a newer version's log: kept, nothing written
        self.gen = 0            # the current sector's generation
        self.current = 0        # the current sector (of two)
        self._pending = []      # records waiting for a compaction (busy)
        self._image = None      # a compaction's image, built, to write in the next step()
        self._fresh = False     # not a whole log: compact before the next append
        self._due = False       # too little room for a game, or damage: compact
        self._read()

    # ------------------------------------------------------------ reading

    def _read(self):
        # the log learnt from the flash (jarmo/store_read.py: its code is in
        # RAM only while it reads, at start-up and after a compaction)
        from jarmo.store_read import scan
        scan(self)
        forget_module("jarmo.store_read")

    # The methods through which jarmo/store_read.py and
    # jarmo/store_compact.py change the store (HELPER_MEMBERS)

    def adopt(self, nvm, current, gen, end, seq, newest, fresh=False, locked=False):
        """The log where a read or a compaction found it: its sector's view
        (nvm), that sector's number (of two) and generation, the first byte
        after the log, the last sequence number given, the newest record of
        each key (note(); empty when fresh). fresh: no whole log there, so
        every append waits for a compaction; locked: a newer version's log,
        kept and never written until the player starts afresh."""
        self.nvm = nvm
        self.current = current
        self.gen = gen
        self.end = end
        self.seq = seq
        self.newest = newest
        self._fresh = fresh
        self.locked = locked

    def notice(self, words, damaged=None):
        """A problem found, in words: an item of the start-up notice.
        damaged: the key of a damaged record (0: unknown), which the next
        step() compacts away."""
        self.problems.append(words)
        if damaged is not None:
            self.damaged.append(damaged)
            self._due = True

    def queue(self, recs):
        """Whole records (bytes) written back as they are, sequence numbers
        kept, by the next compaction: a torn log's survivors."""
        self._pending.extend(recs)

    def _payload(self, pos):
        n = self.nvm[pos + 4]
        return bytes(self.nvm[pos + HEAD:pos + HEAD + n])

    def read(self, key):
        """The newest payload stored under key (bytes), or None if none or empty."""
        for rec in reversed(self._pending):
            if rec[1] == key:
                return bytes(rec[HEAD:-2]) or None
        pos = self.newest.get(key, -1)
        if pos < 0:
            return None
        return self._payload(pos) or None

    def game(self):
        """(id, start payload, action codes) of the game in progress, or None.

        id is its R_GAME record's sequence number: the statistics name the
        last game they counted by it."""
        if self._pending:
            self.compact()              # rare: the game's own records are waiting
        pos = self.newest.get(R_GAME, -1)
        if pos < 0:
            return None
        start = self._payload(pos)
        if not start:
            return None
        codes = []
        for p in self.turns():
            data = self._payload(p)
            for i in range(0, len(data) - 1, 2):
                codes.append(data[i] << 8 | data[i + 1])
        return self.nvm[pos + 2] << 8 | self.nvm[pos + 3], start, codes

    @property
    def free(self):
        return self.size - self.end

    # ------------------------------------------------------------ writing

    def write(self, key, payload):
        """Store payload (bytes; b"" for none) under key."""
        self._append(key, payload)

    def start_game(self, payload):
        """A new game in progress (its turns follow); returns its id."""
        self._append(R_GAME, payload)
        return self.seq

    def add_turn(self, codes):
        """A completed turn of the game in progress: its action codes (ints
        of 13 bits, jarmo/codes.py), 2 bytes each, high byte first; more than
        a record holds (127) go into several."""
        for k in range(0, len(codes), 127):
            part = codes[k:k + 127]
            data = bytearray(2 * len(part))
            for i in range(len(part)):
                data[2 * i] = part[i] >> 8
                data[2 * i + 1] = part[i] & 255
            self._append(R_TURN, data)

    def end_game(self):
        """No game in progress any more."""
        if self.newest.get(R_GAME, -1) >= 0 or self._pending:
            self._append(R_GAME, b"")

    def _append(self, key, payload):
        if len(payload) > 255:
            raise ValueError("a record holds at most 255 bytes")
        if self.locked:
            return                      # a newer version's log: never overwritten
        seq = (self.seq + 1) & 0xFFFF
        rec = record(key, seq, payload)
        at = self.end
        self.seq = seq
        if self._fresh or self._pending or at + len(rec) + (FORMAT_LEN if at == 0 else 0) > self.size:
            self._pending.append(rec)   # compacted in a pass of its own
            return
        if at == 0:
            # a blank sector: ours from now on; the R_FORMAT record alone, so
            # that a cut in this first write is told from a torn compaction
            self.nvm[0:FORMAT_LEN] = record(R_FORMAT, 0, MAGIC)
            at = FORMAT_LEN
        self.nvm[at:at + len(rec)] = rec            # into erased bytes: no erase
        self.end = at + len(rec)
        note(self.newest, key, at)

    def turns(self, data=None):
        """Offsets of the R_TURN records of the game in progress, in order,
        found by walking the log (data: a copy of it) from the game's R_GAME
        record: they are kept in no list, as RAM is the budget."""
        out = []
        pos = self.newest.get(R_GAME, -1)
        last = self.newest.get(R_TURN, -1)
        if pos < 0 or last < 0:
            return out
        if data is None:
            data = bytes(self.nvm[pos:last + 262])
            last -= pos
            base, pos = pos, 0
        else:
            base = 0
        while pos <= last:
            n = parse_at(data, pos, len(data))
            if not n:
                pos += 1
                continue
            if data[pos + 1] == R_TURN:
                out.append(base + pos)
            pos += n
        return out

    # ------------------------------------------------------------ compaction

    @property
    def busy(self):
        """True while a compaction waits for passes of its own (step() does it)."""
        return bool(self._pending) or self._due or self._image is not None

    def step(self):
        """Half a compaction a call, so that each fits a main-loop pass: the
        image built in RAM, then written (the one erase). OSError if the
        flash refuses: the waiting records are given up, not tried again
        every pass."""
        if not self.busy:
            return
        from jarmo.store_compact import prepare, write
        try:
            if self._image is None:
                self._image = prepare(self, self._pending)
                return                  # its code stays for the write
            prepared, self._image = self._image, None
            write(self, prepared)       # the new log adopted
            self.erases += 1
            self._pending = []
            self._due = False
        except OSError:
            self._pending = []
            self._due = False
            self._image = None
            forget_module("jarmo.store_compact")
            raise
        forget_module("jarmo.store_compact")

    def tidy(self, room=RESERVE):
        """Before a game or a match: ask for a compaction (the next step())
        if fewer than `room` bytes are free, so that none falls in its
        middle. The live set is smallest then, and a player who has just
        started a game is the least likely to switch off."""
        if self.free < min(room, self.size // 2) and not self.locked:
            self._due = True

    def start_afresh(self):
        """The player gives up a newer version's log: an empty one replaces it."""
        if self.locked:
            self.locked = False
            self.problems = []
            self.newest = {}        # nothing of it is kept
            self._fresh = self._due = True
            self.gen += 1           # newer than the log it replaces (two sectors)

    def compact(self):
        """A whole compaction now, whether one was due or not
        (jarmo/store_compact.py: its code is in RAM only while it runs)."""
        self._image = None
        self._due = True
        self.step()
        self.step()
