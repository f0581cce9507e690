# Compaction of the saves' log (jarmo/store_log.py): the live records written
# into a sector afresh, the one erase. It runs before a game, when the
# sector is full or damaged; its code is loaded for it and let go after
# (Store.compact), as RAM is the budget.
#
# The image is written with its R_FORMAT record erased, and that record is
# programmed last: a power cut before it leaves no whole log in the sector
# written (the other sector's, with two, is still whole). R_KEPT, next,
# says what the image holds, so that a torn one names what it lost.
#
# It uses a Store through jarmo.store_log.HELPER_MEMBERS alone: the records
# waiting for it come from Store.step, and the store adopts the log written
# (Store.adopt). A store with no whole log (fresh) has no newest record of
# any key, so that nothing of the flash is kept from it.

from jarmo.store_log import FORMAT_LEN, HEAD, MAGIC, OVER, R_FORMAT, R_GAME, R_KEPT, R_TURN, SECTOR, note, record
from jarmo.unload import forget_module


def live(store, pending):
    """Offsets of the records a compaction keeps, in log order (the game's
    turns apart): the newest of each key, less what a waiting record (of
    `pending`) replaces, less an ended game's empty record."""
    waiting = [rec[1] for rec in pending]
    keep = []
    for key, pos in store.newest.items():
        if key in (R_FORMAT, R_TURN, R_KEPT) or key in waiting:
            continue
        if key == R_GAME and not store.nvm[pos + 4]:
            continue
        keep.append(pos)
    keep.sort()
    return keep


def _records(store, pending):
    """The records to write, in order, and the game's action codes (bytes)."""
    nvm = store.nvm
    recs = [nvm[p:p + nvm[p + 4] + OVER] for p in live(store, pending)]
    codes = b""
    if store.newest.get(R_GAME, -1) >= 0:
        data = bytes(nvm[0:store.size])
        for p in store.turns(data):
            codes += data[p + HEAD:p + HEAD + data[p + 4]]
    for i in range(len(pending)):
        rec = pending[i]
        if rec[1] == R_TURN:
            codes += rec[HEAD:-2]
            continue
        if rec[1] == R_GAME:
            codes = b""             # the turns of the game it replaces
        for later in pending[i + 1:]:
            if later[1] == rec[1]:
                break               # replaced before it was ever written
        else:
            if rec[1] != R_GAME or rec[4]:
                recs.append(rec)
    game = [r for r in recs if r[1] == R_GAME]
    if not game:
        codes = b""
    return recs, codes


def prepare(store, pending):
    """The image of the live records and the waiting ones (`pending`: the
    records appended since the log filled, in order), built in RAM (a
    pass of its own: write() is the next). The game's turns go back merged
    into as few records as they fit (a turn record is a run of action
    codes; the game needs no turn bounds to replay them), so even a very
    long game fits. OSError (ENOSPC) if they do not."""
    size = store.size
    recs, codes = _records(store, pending)
    seq = store.seq
    keys = bytes([r[1] for r in recs] + ([R_TURN] if codes else []))
    seq = (seq + 1) & 0xFFFF
    image = bytearray(b"\xff" * size)
    at = FORMAT_LEN
    placed = []
    for rec in [record(R_KEPT, seq, bytes((len(codes) >> 8, len(codes) & 255)) + keys)] + recs:
        if at + len(rec) > size:
            raise OSError(28)       # ENOSPC: the live records fill the sector
        image[at:at + len(rec)] = rec
        placed.append((rec[1], at))
        at += len(rec)
    for i in range(0, len(codes), 254):
        seq = (seq + 1) & 0xFFFF
        rec = record(R_TURN, seq, codes[i:i + 254])
        if at + len(rec) > size:
            raise OSError(28)
        image[at:at + len(rec)] = rec
        placed.append((R_TURN, at))
        at += len(rec)
    return image, placed, seq, at


def write(store, prepared):
    """The prepared image into a sector: the other one when there are two,
    else the same (the one erase); its R_FORMAT record last. The store
    adopts it (store.adopt())."""
    image, placed, seq, at = prepared
    size = store.size
    gen = (store.gen + 1) & 0xFFFF
    target = (1 - store.current) if store.sectors == 2 else 0
    flash = store.flash
    base = target * SECTOR if store.sectors == 2 else 0
    flash[base:base + size] = image                 # the erase (of that sector only)
    flash[base:base + FORMAT_LEN] = record(R_FORMAT, gen, MAGIC)   # now a whole log
    nvm = flash
    if store.sectors == 2:
        from jarmo.store_read import Half
        nvm = Half(flash, base)
        forget_module("jarmo.store_read")     # the view's class stays with it
    newest = {}
    for key, pos in placed:
        note(newest, key, pos)
    store.adopt(nvm, target, gen, at, seq, newest)     # numbers are never given twice
