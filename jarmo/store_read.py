# Reading the log (jarmo/store_log.py) from the flash: at start-up, and the
# two-sector view a compaction leaves. Its code is in RAM only while it
# reads (Store._read forgets it): a game's turns need only the appending
# half of the store.

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



def choose(store):
    """Two sectors: the current one is the whole one of the newest
    generation; with none whole, one that a compaction tore, else a
    blank one. Returns its bytes."""
    best = None
    datas = []
    for s in (0, 1):
        data = bytes(store.flash[s * SECTOR:(s + 1) * SECTOR])
        datas.append(data)
        gen, fmt = head(data)
        if fmt and (best is None or newer(gen, best[0])):
            best = (gen, s)
    if best is None:
        rank = ("torn", "blank", "first", "foreign")
        best = (0, min((0, 1), key=lambda s: rank.index(
            trace(datas[s], len(datas[s].rstrip(b"\xff"))))))
    store.current = best[1]
    store.nvm = Half(store.flash, best[1] * SECTOR)
    return datas[best[1]]

def scan(store):
    """Learn the log from the flash; report damage; mark a torn tail."""
    if store.sectors == 2:
        data = choose(store)
    else:
        store.nvm = store.flash
        data = bytes(store.flash[0:store.size])
    end = len(data.rstrip(b"\xff"))
    store._fresh = False     # not a whole log: compact before the next append
    store._due = False       # too little room for a game, or damage: compact
    store.gen, fmt = head(data)
    if fmt > 1:
        store.locked = True
        store.end, store.seq, store.newest = store.size, 0, {}
        store.problems += [NEWER, AFRESH]
        return
    gap = index(store, data, end)
    if not store._fresh:
        if gap >= 0:
            store._append(R_SKIP, bytes((gap >> 8, gap & 255)))
        return
    kind = trace(data, end)
    if kind == "torn":
        salvage(store, data, end)
    elif kind == "foreign":
        store.problems.append("saves: unreadable, started afresh")

def index(store, data, end):
    """Walk the records that start before data[end] (the last byte that
    is not 0xFF: a record may end in 0xFF bytes past it): the newest of
    each key, the game's chain, the last sequence number. Returns where
    a torn tail starts, or -1."""
    store.end = end
    store.seq = 0
    store.newest = {}        # key -> offset of its newest record (R_TURN: of the game's)
    if end == 0:
        return -1
    size = len(data)
    pos = parse_at(data, 0, size)
    if not head(data)[1]:
        store._fresh = True          # no whole log: new, torn, or another program's
        return -1
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
                damage(store, data, gap, pos)
            gap = -1
        store.seq = data[pos + 2] << 8 | data[pos + 3]
        store._note(key, pos)
        pos += n
    if gap < 0:
        store.end = pos
    return gap

def salvage(store, data, end):
    """A compaction torn by a power cut (one sector): every record still
    whole waits to be written back (with R_IMPORTED: the drive's older
    saves are never taken again over what was here); each kind it held
    that is not whole is named."""
    found = {}
    kept = None
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
        store.seq = max(store.seq, data[pos + 2] << 8 | data[pos + 3])
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
        store._pending.extend(recs)
    store.seq = (store.seq + 1) & 0xFFFF
    store._pending.append(record(R_IMPORTED, store.seq, b"\x01"))
    if lost:
        # two items of the notice (each at most two lines of the display)
        store.problems += ["saves lost in a power cut:", ", ".join(lost)]

def damage(store, data, gap, pos):
    # bytes data[gap:pos] that no power cut explains: name the record of
    # each header found there by the lengths the headers claim, each
    # item once; bytes with no readable header between turns of the
    # game in progress are that game's
    named = False
    while True:
        key = data[gap + 1] if data[gap] == _SYNC and gap + OVER <= pos else 0
        if key == R_TURN:
            key = R_GAME
        if key not in NAMES:
            key = 0                 # no header, or a damaged one
        if not key and not named and data[pos + 1] == R_TURN and R_GAME in store.newest:
            key = R_GAME
        if not key and named:
            return                  # the rest of a record already named
        if key not in store.damaged:
            store.damaged.append(key)
            store.problems.append("%s: damaged" % NAMES.get(key, "saves"))
            store._due = True        # compacted away: reported once
        if not key:
            return
        named = True
        gap += data[gap + 4] + OVER
        if gap >= pos:
            return

