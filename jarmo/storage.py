# Storage: atomic, corruption-tolerant saves (game, settings, statistics) that
# never stall the game.
#
# On an RP2040 each 4 KB flash sector the file system touches costs about
# 50 ms (erase and program), so a save is written in place, one 512-byte
# block per main-loop pass, and no pass waits for more than one.
#
# Each name has two *slot* files, ``name.0`` and ``name.1``, made once at a
# fixed size (``prepare``; a slot outgrown by a long match is made again, the
# one slow write). A slot holds one record, padded with zero bytes::
#
#     JARMO2 <sequence> <body length in bytes> <checksum, 8 hex digits>
#     <body>
#
# The checksum is jarmo.checksum's Adler-32 (small integers only). A write
# goes to the slot that does NOT hold the newest valid record, with the next
# sequence number; the blocks go in order, then os.sync() pushes the last one
# to the flash, then the file is closed. Writing in place needs no new
# clusters, so the FAT and the directory do not change: a power cut at any
# moment tears at most the slot being written, whose checksum then fails, and
# the reader takes the other slot: the old save or the new one, never a
# broken one. A slot of zero bytes is blank (never written); a deleted name
# gets a record whose checksum field says "deleted".
#
# The record ends with a trailer line ``END <sequence>``, written last. A
# slot whose header claims the sequence after the other slot's and whose
# trailer is missing is the one a power cut tore: not damage. Any other
# broken slot (a changed byte, foreign content) is damage: ``read`` sets ``error`` to a
# short reason (and still returns the other slot's save, if valid); the
# caller reports it and calls ``set_aside(name)``, which renames the broken
# slot to ``name.0.bad`` / ``name.1.bad``; a new one is made at the next save. Files of the older single-file format
# (``name``, ``name.new``, tag JARMO1) are still read, and ``prepare`` moves
# them into slots.
#
# ``sliced=True`` (the device): ``write`` queues the save and ``step()`` does
# one unit (open, one block, sync or close); the app calls it once per pass.
# ``sliced=False`` (tests, the PC): ``write`` finishes at once. ``fs`` is
# ``os`` on the device; tests pass a fake file system whose power can be cut
# at every call.

import os

from jarmo.checksum import checksum

TAG = "JARMO2"
OLD_TAG = "JARMO1"
BLOCK = 512
DELETED = "deleted"
TORN = "torn"           # a record cut short: a power cut while it was written
# Slot sizes made by prepare(): a long single game fits 4 KB.
SIZES = {"game": 4096, "stats": 2048, "settings": 512, "campaign": 512}


def wrap(text):
    """The older single-file form of ``text``: header line plus body."""
    raw = text.encode()
    return "%s %d %s\n%s" % (OLD_TAG, len(raw), checksum(raw), text)


def unwrap(stored):
    """The body of an older single-file text; ValueError with a reason if torn or foreign."""
    if stored is None:
        raise ValueError("missing")
    nl = stored.find("\n")
    head = stored[:nl].split() if nl >= 0 else ()
    if len(head) != 3 or head[0] != OLD_TAG:
        raise ValueError("not a Jarmo file")
    body = stored[nl + 1:]
    raw = body.encode()
    try:
        size = int(head[1])
    except ValueError:
        raise ValueError("bad header")
    if size != len(raw):
        raise ValueError("truncated")
    if checksum(raw) != head[2]:
        raise ValueError("bad checksum")
    return body


def record(seq, text):
    """A slot record: header and body, padded with zeros to whole blocks."""
    if text is None:
        raw = b""
        check = DELETED
    else:
        raw = text.encode()
        check = checksum(raw)
    out = bytearray(("%s %d %d %s\n" % (TAG, seq, len(raw), check)).encode())
    out.extend(raw)
    out.extend(_trailer(seq))
    out.extend(bytes(-len(out) % BLOCK))
    return out


def _trailer(seq):
    # written last: a record without it was cut short while being written
    return ("\nEND %d\n" % seq).encode()


def parse(data):
    """(sequence, body or None if deleted) of a slot's bytes; (-1, None) if blank.

    ValueError with a reason if the slot is torn or foreign.
    """
    if not data or data[0] == 0:
        return -1, None
    nl = data.find(b"\n")
    try:
        head = bytes(data[:nl]).decode().split() if 0 < nl < 80 else ()
    except UnicodeError:
        head = ()
    if len(head) != 4 or head[0] != TAG:
        raise ValueError("not a Jarmo file")
    try:
        seq = int(head[1])
        size = int(head[2])
    except ValueError:
        raise ValueError("bad header")
    raw = bytes(data[nl + 1:nl + 1 + size])
    end = _trailer(seq)
    if len(raw) != size or bytes(data[nl + 1 + size:nl + 1 + size + len(end)]) != end:
        raise ValueError(TORN)
    check = head[3]
    if check == DELETED and size == 0:
        return seq, None
    if checksum(raw) != check:
        raise ValueError("bad checksum")
    try:
        return seq, raw.decode()
    except UnicodeError:
        raise ValueError("not text")


def _claimed(data):
    """The sequence a broken slot's header names, or -2 if it names none."""
    try:
        head = bytes(data[:data.find(b"\n")]).decode().split()
        return int(head[1]) if head[0] == TAG else -2
    except (ValueError, IndexError, UnicodeError):
        return -2


class _Job:
    # One queued save: the record's bytes and how far its writing got.

    def __init__(self, name, data, path, create):
        self.name = name
        self.data = data
        self.path = path
        self.create = create    # the slot must be made (missing or too small)
        self.file = None
        self.next = 0           # next block to write; -1: sync next; -2: close next


class Store:
    # Named texts under ``root`` on the file system ``fs`` (default ``os``).

    def __init__(self, root="/", fs=os, sliced=False):
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        self.fs = fs
        self.sliced = sliced
        self.error = None       # reason the last read found a damaged save, else None
        self.problem = None     # OSError of the last sliced write that failed, else None
        self._open = open if fs is os else fs.open
        self._newest = {}       # name -> (sequence, slot) of the newest valid record
        self._jobs = []

    # ------------------------------------------------------------ files

    def _path(self, name):
        return self.root + name

    def _load(self, path, mode="rb"):
        """File contents, or None if it cannot be opened; b"" or "" if unreadable."""
        try:
            f = self._open(path, mode)
        except OSError:
            return None
        try:
            return f.read()
        except (OSError, UnicodeError):
            return "" if mode == "r" else b""
        finally:
            f.close()

    def _size(self, path):
        try:
            return self.fs.stat(path)[6]
        except OSError:
            return -1

    def _sync(self):
        sync = getattr(self.fs, "sync", None)
        if sync is not None:
            try:
                sync()
            except OSError:
                pass

    def _remove(self, path):
        try:
            self.fs.remove(path)
            return True
        except OSError:
            return False

    # ------------------------------------------------------------ reading

    def _slots(self, name):
        """[(sequence, body, problem)] of both slots; None if neither exists.

        A broken slot's sequence is the one its header claims, if readable."""
        path = self._path(name)
        out = []
        found = False
        for k in (0, 1):
            data = self._load("%s.%d" % (path, k))
            if data is None:
                out.append((-1, None, None))
                continue
            found = True
            try:
                seq, body = parse(data)
                out.append((seq, body, None))
            except ValueError as e:
                out.append((_claimed(data), None, e.args[0] if e.args else "bad"))
        return out if found else None

    def read(self, name):
        """The body last written under ``name``, or None (missing, deleted or damaged).

        Finishes its queued writes first (and the older ones queued before
        them: writes go in order), not the others': a read must not pay for
        another file's save (a sync and a close, about 53 ms of flash each on
        the Pico). Sets ``self.error`` to a short reason when
        a slot is damaged, else to None; the newest valid save is returned even
        then. A slot torn by a power cut (it claims the sequence after the
        other one's) is not damage. Never raises on bad content.
        """
        self.flush(name=name)
        return self._read(name)

    def _read(self, name):
        self.error = None
        slots = self._slots(name)
        if slots is None:
            return self._read_old(name)
        best = -1
        newest = (-1, 1)
        for k in (0, 1):
            if slots[k][2] is None and slots[k][0] > best:
                best = slots[k][0]
                newest = (best, k)
        self._newest[name] = newest
        for k in (0, 1):
            seq, _body, problem = slots[k]
            if problem is not None and not (problem == TORN and seq == best + 1):
                self.error = "%s: %s" % (name, problem)
        return slots[newest[1]][1] if best >= 0 else None

    def _read_old(self, name):
        path = self._path(name)
        for p in (path + ".new", path):
            stored = self._load(p, "r")
            if stored is None:
                continue
            try:
                return unwrap(stored)
            except ValueError as e:
                if p == path:
                    self.error = "%s: %s" % (name, e.args[0] if e.args else "bad")
        return None

    # ------------------------------------------------------------ writing

    def write(self, name, text):
        """Store ``text`` under ``name`` atomically.

        Sliced: queued, written by step(); else at once (OSError if the file
        system refuses)."""
        self._queue(name, text)
        if not self.sliced:
            self.flush(raise_errors=True)

    def delete(self, name):
        """Forget ``name``: a deleted-record in its next slot."""
        path = self._path(name)
        if self._size(path + ".0") < 0 and self._size(path + ".1") < 0:
            self._remove(path + ".new")
            self._remove(path)
            self._sync()
            return
        self._queue(name, None)
        if not self.sliced:
            self.flush()

    @property
    def busy(self):
        """True while queued writes wait for step()."""
        return bool(self._jobs)

    def _queue(self, name, text):
        for job in self._jobs:
            if job.name == name and job.file is None:
                self._jobs.remove(job)      # not started: the newer text replaces it
                break
        newest = self._newest.get(name)
        if newest is None:
            self._read(name)                # learn which slot is the newer
            newest = self._newest.get(name, (-1, 1))
        seq, slot = newest
        target = 1 - slot
        data = record(seq + 1, text)
        self._newest[name] = (seq + 1, target)
        path = "%s.%d" % (self._path(name), target)
        size = self._size(path)
        self._jobs.append(_Job(name, data, path, size < len(data)))

    def step(self):
        """Do one unit of the oldest queued write; True while more remain."""
        if not self._jobs:
            return False
        job = self._jobs[0]
        try:
            self._advance(job)
        except OSError as e:
            self.problem = e
            self._drop(job)
        return bool(self._jobs)

    def flush(self, raise_errors=False, name=None):
        """Finish every queued write now, oldest first; with name, only until
        none of name's is left."""
        while self._jobs and (name is None or self._queued(name)):
            job = self._jobs[0]
            try:
                self._advance(job)
            except OSError:
                self._drop(job)
                if raise_errors:
                    raise

    def _queued(self, name):
        for job in self._jobs:
            if job.name == name:
                return True
        return False

    def _drop(self, job):
        self._jobs.remove(job)
        self._newest.pop(job.name, None)    # learn the slots again from the files
        if job.file is not None:
            try:
                job.file.close()
            except OSError:
                pass

    def _advance(self, job):
        if job.create:
            # missing or outgrown slot: made at its full size in one go (slow)
            f = self._open(job.path, "wb")
            try:
                f.write(job.data)
                f.write(bytes(max(0, SIZES.get(job.name, BLOCK) - len(job.data))))
            finally:
                f.close()
            self._sync()
            self._jobs.remove(job)
        elif job.file is None:
            job.file = self._open(job.path, "r+b")
        elif job.next >= 0:
            i = job.next * BLOCK
            job.file.write(job.data[i:i + BLOCK])
            job.next += 1
            if job.next * BLOCK >= len(job.data):
                job.next = -1
        elif job.next == -1:
            self._sync()                    # the last block to the flash now,
            job.next = -2                   # the directory entry at close
        else:
            self._jobs.remove(job)
            job.file.close()

    # ------------------------------------------------------------ upkeep

    def prepare(self, names):
        """Make the slots of names that have none (slowly, at start-up), moving
        an older single-file save into them."""
        for name in names:
            if self._slots(name) is not None:
                continue
            text = self._read_old(name)
            if self.error:
                continue                    # damaged: left for the caller to report
            size = SIZES.get(name, BLOCK)
            first = record(0, text) if text is not None else bytearray(0)
            for k in (0, 1):
                f = self._open("%s.%d" % (self._path(name), k), "wb")
                try:
                    f.write(first if k == 0 else b"")
                    f.write(bytes(max(size, len(first)) - (len(first) if k == 0 else 0)))
                finally:
                    f.close()
            path = self._path(name)
            self._remove(path + ".new")
            self._remove(path)
            self._newest.pop(name, None)
            self._sync()
        self.error = None

    def slot_path(self, name):
        """The file holding the newest valid record of name, or None."""
        self.read(name)
        newest = self._newest.get(name)
        if newest is None or newest[0] < 0:
            return None
        return "%s.%d" % (self._path(name), newest[1])

    def set_aside(self, name):
        """Rename a damaged save out of the way, keeping it for a bug report:
        ``name`` (older format) to ``name.bad``; broken slots to ``name.0.bad``
        / ``name.1.bad``, or, if none is broken (the caller refused what it
        read), every slot. A new slot is made at the next save."""
        path = self._path(name)
        slots = self._slots(name)
        if slots is None:
            bad = [path]
        else:
            bad = ["%s.%d" % (path, k) for k in (0, 1) if slots[k][2] is not None]
            if not bad:
                bad = [path + ".0", path + ".1"]
        for src in bad:
            if self._size(src) < 0:
                continue
            self._remove(src + ".bad")
            try:
                self.fs.rename(src, src + ".bad")
            except OSError:
                self._remove(src)
        self._remove(path + ".new")
        self._newest.pop(name, None)
        self._sync()
