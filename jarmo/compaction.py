# Compaction of the saves' log (jarmo/storage.py): the live records written
# back into the sector, the one erase. It runs between games, when the
# sector is full or damaged; its code is loaded for it and let go after
# (Store.compact), as RAM is the budget.

from jarmo.storage import HEAD, MAGIC, OVER, R_FORMAT, R_GAME, R_TURN, record


def live(store):
    """Offsets of the records a compaction keeps, in log order (the game's
    turns apart): the newest of each key, less what a waiting record
    replaces."""
    waiting = [rec[1] for rec in store._pending]
    keep = []
    if not store._fresh:
        for key, pos in store.newest.items():
            if key != R_FORMAT and key != R_TURN and key not in waiting:
                keep.append(pos)
    keep.sort()
    return keep


def compact(store):
    """Write the live records and the waiting ones back into the sector:
    the one erase. The game's turns go back merged into as few records
    as they fit (a turn record is a run of action codes; the game needs
    no turn bounds to replay them), so even a very long game fits."""
    nvm = store.nvm
    size = store.size
    image = bytearray(b"\xff" * size)
    at = [0, store.seq]      # where the next record goes; the last number given
    # (merged turns get new numbers; the waiting records keep theirs)

    def put(rec):
        p = at[0]
        if p + len(rec) > size:
            raise OSError(28)       # ENOSPC: the live records fill the sector
        image[p:p + len(rec)] = rec
        at[0] = p + len(rec)

    def new(key, payload):
        at[1] = (at[1] + 1) & 0xFFFF
        put(record(key, at[1], payload))

    def turns(codes):
        for i in range(0, len(codes), 254):
            new(R_TURN, codes[i:i + 254])

    put(record(R_FORMAT, 0, MAGIC))
    for p in live(store):
        put(nvm[p:p + nvm[p + 4] + OVER])
    codes = b""
    if not store._fresh and R_GAME in store.newest:
        data = bytes(nvm[0:size])
        for p in store.turns(data):
            codes += data[p + HEAD:p + HEAD + data[p + 4]]
    pending = store._pending
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
            put(rec)
    turns(codes)
    nvm[0:size] = image
    store.erases += 1
    store._pending = []
    store._due = False
    store._fresh = False
    store._index(image, at[0])
    store.seq = at[1]                # numbers are never given twice
