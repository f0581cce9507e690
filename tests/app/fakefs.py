"""A fake file system whose power can be cut at any call.

Implements what jarmo.storage.Store uses (open/read/write/flush/close,
remove, rename, sync) with FAT's habits: rename onto an existing name fails.
Every call is one *step*; with ``cut_after(n)`` the n+1-th step raises
PowerCut. At the cut, a file being written keeps only half of the data not
yet flushed (a torn write); after it every call raises until ``reboot()``.
No pytest imports: the core-style tests use it under MicroPython too.
"""


class PowerCut(Exception):
    pass


class _Reader:
    def __init__(self, fs, text):
        self.fs = fs
        self.text = text

    def read(self):
        self.fs._step("read")
        return self.text

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.pending = ""

    def write(self, data):
        self.fs._step("write", self, data)
        self.pending += data
        return len(data)

    def flush(self):
        self.fs._step("flush")
        self._persist(self.pending)

    def close(self):
        if self in self.fs.writers:
            self.fs._step("close")
            self._persist(self.pending)
            self.fs.writers.remove(self)

    def _persist(self, data):
        self.fs.disk[self.path] = self.fs.disk.get(self.path, "") + data
        self.pending = ""


class FakeFS:
    def __init__(self):
        self.disk = {}      # path -> text that survives a power cut
        self.writers = []
        self.budget = None  # steps left before the cut, None = no cut
        self.dead = False
        self.steps = []     # names of the steps done

    def cut_after(self, n):
        self.budget = n

    def reboot(self):
        self.dead = False
        self.budget = None
        self.writers = []

    def _step(self, name, writer=None, data=""):
        if self.dead:
            raise PowerCut("power is off")
        if self.budget is not None:
            if self.budget == 0:
                self.dead = True
                if writer is not None:
                    writer.pending += data
                for w in self.writers:
                    # a torn write: half of what was not flushed reached the disk
                    w._persist(w.pending[:len(w.pending) // 2])
                self.writers = []
                raise PowerCut(name)
            self.budget -= 1
        self.steps.append(name)

    def open(self, path, mode="r"):
        self._step("open")
        if "w" in mode:
            self.disk[path] = ""    # FAT truncates at once
            w = _Writer(self, path)
            self.writers.append(w)
            return w
        if path not in self.disk:
            raise OSError(2, "no such file: " + path)
        return _Reader(self, self.disk[path])

    def remove(self, path):
        self._step("remove")
        if path not in self.disk:
            raise OSError(2, "no such file: " + path)
        del self.disk[path]

    def rename(self, old, new):
        self._step("rename")
        if old not in self.disk:
            raise OSError(2, "no such file: " + old)
        if new in self.disk:
            raise OSError(17, "exists: " + new)   # FAT cannot rename onto a file
        self.disk[new] = self.disk.pop(old)

    def sync(self):
        self._step("sync")
