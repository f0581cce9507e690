# Atomic, corruption-tolerant text files (saved games, statistics).
#
# Every file is written as one header line and a body::
#
#     JARMO1 <body length in bytes> <checksum, 8 hex digits>
#     <body>
#
# The checksum is jarmo.checksum's Adler-32, computed in small integers (no
# big-int arithmetic on the microcontroller). A file whose header, length or checksum does not match
# is *torn* (a power cut during a write) or *foreign* (not ours).
#
# A write never leaves the reader without a valid copy, even on FAT, which
# cannot rename onto an existing file:
#
# 1. write ``name.new`` completely, flush, close, ``os.sync()`` if present;
# 2. remove ``name``;
# 3. rename ``name.new`` to ``name``.
#
# The reader prefers a valid ``name.new`` (it is newer: only a cut between
# steps 1 and 3 leaves one behind) and finishes the interrupted rename; else it
# uses ``name``. A ``name.new`` that is torn is ignored. When ``name`` exists
# but is invalid and no valid ``name.new`` is there, ``read`` returns None and
# sets ``error`` to a short reason; the caller reports it and calls
# ``set_aside(name)``, which renames the file to ``name.bad``.
#
# ``fs`` is ``os`` on the device; tests pass a fake file system with the same
# ``open``/``remove``/``rename``/``sync`` calls so a power cut can be simulated
# at every step.

import os

from jarmo.checksum import checksum

TAG = "JARMO1"


def wrap(text):
    """The stored form of ``text``: header line plus body."""
    raw = text.encode()
    return "%s %d %s\n%s" % (TAG, len(raw), checksum(raw), text)


def unwrap(stored):
    """The body of a stored text; ValueError with a reason if torn or foreign."""
    if stored is None:
        raise ValueError("missing")
    nl = stored.find("\n")
    head = stored[:nl].split() if nl >= 0 else ()
    if len(head) != 3 or head[0] != TAG:
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


class Store:
    # Named texts under ``root`` on the file system ``fs`` (default ``os``).

    def __init__(self, root="/", fs=os):
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        self.fs = fs
        self.error = None  # reason the last read found a bad file, else None
        self._open = open if fs is os else fs.open

    def _path(self, name):
        return self.root + name

    def _load(self, path):
        """File text, or None if it cannot be opened or read."""
        try:
            f = self._open(path, "r")
        except OSError:
            return None
        try:
            return f.read()
        except (OSError, UnicodeError):
            return ""
        finally:
            f.close()

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

    def read(self, name):
        """The body last written under ``name``, or None (missing or invalid).

        Sets ``self.error`` to a short reason when ``name`` exists but is torn
        or foreign, else to None. Never raises on bad content.
        """
        self.error = None
        path = self._path(name)
        new = path + ".new"
        try:
            body = unwrap(self._load(new))
        except ValueError:
            body = None
        if body is not None:
            # a cut between "write .new" and "rename": finish the job
            try:
                self._remove(path)
                self.fs.rename(new, path)
                self._sync()
            except OSError:
                pass
            return body
        stored = self._load(path)
        if stored is None:
            return None
        try:
            return unwrap(stored)
        except ValueError as e:
            self.error = "%s: %s" % (name, e.args[0] if e.args else "bad")
            return None

    def write(self, name, text):
        """Store ``text`` under ``name`` atomically. OSError if the fs refuses."""
        path = self._path(name)
        new = path + ".new"
        f = self._open(new, "w")
        try:
            f.write(wrap(text))
            f.flush()
        finally:
            f.close()
        self._sync()
        self._remove(path)
        self.fs.rename(new, path)
        self._sync()

    def set_aside(self, name):
        """Rename a bad ``name`` to ``name.bad`` (replacing an older one)."""
        path = self._path(name)
        self._remove(path + ".bad")
        try:
            self.fs.rename(path, path + ".bad")
        except OSError:
            self._remove(path)
        self._remove(path + ".new")
        self._sync()

    def delete(self, name):
        """Forget ``name`` (and any half-written copy)."""
        path = self._path(name)
        self._remove(path + ".new")
        self._remove(path)
        self._sync()
