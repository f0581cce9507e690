# Reading the log (jarmo/store_log.py) from the flash: at start-up, and the
# two-sector view a compaction leaves. Its code is in RAM only while it
# reads (Store._read forgets it): a game's turns need only the appending
# half of the store. It uses a Store through jarmo.store_log.HELPER_MEMBERS
# alone: it reads the flash and changes the store through its methods.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.store_log import (
    FORMAT_LEN,
    HEAD,
    MAGIC,
    OVER,
    R_CAMPAIGN,
    R_FORMAT,
    R_GAME,
    R_IMPORTED,
    R_KEPT,
    R_SETTINGS,
    R_SKIP,
    R_STATS,
    R_TURN,
    SECTOR,
    note,
    parse_at,
    record,
)

_SYNC = const(0xA5)        # jarmo/store_log.py's sync byte
NAMES = {R_GAME: "game", R_SETTINGS: "settings", R_STATS: "statistics",
         R_CAMPAIGN: "campaign"}
# the kinds a torn compaction may have held, in the order they are named
LOSABLE = (R_SETTINGS, R_STATS, R_CAMPAIGN, R_GAME)
# said at start-up, each at most two lines of 21 characters (the notice)
NEWER = "newer Jarmo saves: kept, not written"
AFRESH = "SELECT: start afresh, other: play unsaved"


def _partial(data, want, start=0):
    # True if data[start:] could be `want` half-programmed, or a sector that
    # held it half-erased: programming only clears bits and erasing only
    # sets them, so every bit set in want is still set in data
    for i in range(len(want)):
        if data[start + i] & want[i] != want[i]:
            return False
    return True


def head(data):
    """What the sector `data` (bytes) starts with: (generation, format),
    format 1 for Jarmo's log as this version writes it, a larger number for
    a newer version's, 0 for no whole R_FORMAT record."""
    if not data or not parse_at(data, 0, len(data)) or data[1] != R_FORMAT:
        return 0, 0
    payload = data[5:5 + data[4]]
    if payload == MAGIC:
        return data[2] << 8 | data[3], 1
    if payload[:5] == MAGIC[:5] and len(payload) > 5 and payload[5] > MAGIC[5]:
        return data[2] << 8 | data[3], payload[5]
    return 0, 0


def newer(a, b):
    """True if generation a comes after b (16 bits that wrap)."""
    return 0 < (a - b) & 0xFFFF < 0x8000


def trace(data, end):
    """What a sector with no whole R_FORMAT record holds, data[:end] not
    erased: "blank"; "first" (the first record of a new log, cut while it
    was programmed: it is written alone); "torn" (a compaction cut in its
    erase, so the old log's bits are still set, or in its program, so its
    R_FORMAT record is still erased while records follow); "foreign"."""
    if end == 0:
        return "blank"
    want = record(R_FORMAT, 0, MAGIC)
    if end <= FORMAT_LEN and _partial(data, want[:end]):
        return "first"
    # (an R_FORMAT record of any generation: its number and CRC vary)
    if data[0:FORMAT_LEN] == b"\xff" * FORMAT_LEN or (_partial(data, want[:2]) and
                                                        _partial(data, want[4:11], 4)):
        return "torn"
    return "foreign"


class Half:
    # one sector of a two-sector nvm, sliced as nvm is (the store's view)

    def __init__(self, flash, base):
        self.flash = flash
        self.base = base

    def __len__(self):
        return SECTOR

    def __getitem__(self, i):
        b = self.base
        if isinstance(i, slice):
            return self.flash[b + (i.start or 0):b + (SECTOR if i.stop is None else i.stop)]
        return self.flash[b + i]

    def __setitem__(self, i, value):
        self.flash[self.base + i.start:self.base + i.stop] = value


def choose(flash):
    """Two sectors: the current one is the whole one of the newest
    generation; with none whole, one that a compaction tore, else a
    blank one. Returns (its number, its bytes)."""
    best = None
    sectors = []            # the bytes of each
    for s in (0, 1):
        data = bytes(flash[s * SECTOR:(s + 1) * SECTOR])
        sectors.append(data)
        gen, fmt = head(data)
        if fmt and (best is None or newer(gen, best[0])):
            best = (gen, s)
    if best is None:
        # by what trace() finds, in this order
        best = (0, min((0, 1), key=lambda s: ("torn", "blank", "first", "foreign").index(
            trace(sectors[s], len(sectors[s].rstrip(b"\xff"))))))
    return best[1], sectors[best[1]]


def scan(store):
    """Learn the log from the flash (Store._read): the log adopted
    (store.adopt()), damage and losses in the notice, a torn tail marked."""
    flash = store.flash
    if store.sectors == 2:
        current, data = choose(flash)
        nvm = Half(flash, current * SECTOR)
    else:
        current, nvm = 0, flash
        data = bytes(flash[0:store.size])
    end = len(data.rstrip(b"\xff"))
    gen, fmt = head(data)
    if fmt > 1:
        store.adopt(nvm, current, gen, store.size, 0, {}, locked=True)
        store.notice(NEWER)
        store.notice(AFRESH)
        return
    if fmt or not end:
        # a whole log, or a blank sector (the first append makes it one)
        end, seq, newest, gap = index(store, data, end)
        store.adopt(nvm, current, gen, end, seq, newest)
        if gap >= 0:
            store.write(R_SKIP, bytes((gap >> 8, gap & 255)))
        return
    # no whole log: torn, or another program's; every append waits for
    # the compaction that makes one
    kind = trace(data, end)
    seq = salvage(store, data, end) if kind == "torn" else 0
    store.adopt(nvm, current, gen, end, seq, {}, fresh=True)
    if kind == "foreign":
        store.notice("saves: unreadable, started afresh")


def index(store, data, end):
    """Walk the records of a whole log that start before data[end] (the
    last byte that is not 0xFF: a record may end in 0xFF bytes past it);
    damage is reported as it is found. Returns (the first byte after the
    log, the last sequence number, the newest record of each key (note()),
    where a torn tail starts or -1)."""
    seq = 0
    newest = {}
    if end == 0:
        return 0, seq, newest, -1
    size = len(data)
    pos = parse_at(data, 0, size)
    gap = -1
    while pos < end:
        n = parse_at(data, pos, size)
        if not n:
            if gap < 0:
                gap = pos
            pos += 1
            continue
        key = data[pos + 1]
        if gap >= 0:
            if key != R_SKIP or n != OVER + 2 or data[pos + 5] << 8 | data[pos + 6] != gap:
                damage(store, data, gap, pos, newest)
            gap = -1
        seq = data[pos + 2] << 8 | data[pos + 3]
        note(newest, key, pos)
        pos += n
    return (pos if gap < 0 else end), seq, newest, gap


def salvage(store, data, end):
    """A compaction torn by a power cut (one sector): every record still
    whole waits to be written back (with R_IMPORTED: the drive's older
    saves are never taken again over what was here); each kind it held
    that is not whole is named. Returns the last sequence number given."""
    found = {}
    kept = None
    seq = 0
    pos = 0
    while pos < end:
        n = parse_at(data, pos, len(data))
        if not n:
            pos += 1
            continue
        key = data[pos + 1]
        rec = data[pos:pos + n]
        if key == R_KEPT:
            kept = rec[HEAD:-2]
        elif key == R_GAME:
            found[R_GAME] = [rec]
        elif key == R_TURN:
            if R_GAME in found:
                found[R_GAME].append(rec)
        elif key != R_FORMAT and key != R_SKIP:
            found[key] = [rec]
        seq = max(seq, data[pos + 2] << 8 | data[pos + 3])
        pos += n
    lost = []
    for key in LOSABLE:
        if kept is not None and kept.find(bytes((key,)), 2) < 0:
            continue                # the compaction did not hold it
        if key == R_GAME and kept is not None and R_GAME in found:
            codes = sum(len(r) - OVER for r in found[R_GAME][1:])
            if codes == kept[0] << 8 | kept[1]:
                continue
        elif key in found:
            continue
        lost.append(NAMES[key])
        found.pop(key, None)        # a game cut short is no game
    for recs in found.values():
        store.queue(recs)
    seq = (seq + 1) & 0xFFFF
    store.queue([record(R_IMPORTED, seq, b"\x01")])
    if lost:
        # two items of the notice (each at most two lines of the display)
        store.notice("saves lost in a power cut:")
        store.notice(", ".join(lost))
    return seq


def damage(store, data, gap, pos, newest):
    # bytes data[gap:pos] that no power cut explains: name the record of
    # each header found there by the lengths the headers claim, each
    # item once; bytes with no readable header between turns of the
    # game in progress (newest: the walk's so far) are that game's
    named = False
    while True:
        key = data[gap + 1] if data[gap] == _SYNC and gap + OVER <= pos else 0
        if key == R_TURN:
            key = R_GAME
        if key not in NAMES:
            key = 0                 # no header, or a damaged one
        if not key and not named and data[pos + 1] == R_TURN and R_GAME in newest:
            key = R_GAME
        if not key and named:
            return                  # the rest of a record already named
        if key not in store.damaged:
            # compacted away by the next step(): reported once
            store.notice("%s: damaged" % NAMES.get(key, "saves"), key)
        if not key:
            return
        named = True
        gap += data[gap + 4] + OVER
        if gap >= pos:
            return
