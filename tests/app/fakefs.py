"""A fake file system whose power can be cut at any call.

Implements what jarmo.storage.Store uses (open in modes r, rb, w, wb and
r+b; read, write, flush, close; stat, remove, rename, sync) with FAT's
habits: rename onto an existing name fails, "w" truncates at once.
Every call is one *step*; with ``cut_after(n)`` the n+1-th step raises
PowerCut. At the cut, the write in flight reaches the disk only half-way (a
torn write): buffered text files keep half of what was not flushed, files
written in place (r+b) half of the bytes of that write; after the cut every
call raises until ``reboot()``. No pytest imports: the core-style tests use
it under MicroPython too.
"""


class PowerCut(Exception):
    pass


class _Reader:
    def __init__(self, fs, data):
        self.fs = fs
        self.data = data

    def read(self):
        self.fs._step("read")
        return self.data

    def close(self):
        pass


class _Writer:
    # text ("w") and new binary ("wb") files: buffered until flush or close

    def __init__(self, fs, path, binary):
        self.fs = fs
        self.path = path
        self.pending = b"" if binary else ""

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

    def tear(self):
        self._persist(self.pending[:len(self.pending) // 2])

    def _persist(self, data):
        self.fs.disk[self.path] = self.fs.disk.get(self.path, data[:0]) + data
        self.pending = data[:0]


class _InPlace:
    # "r+b": each write lands on the disk at once, over the old bytes

    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.pos = 0
        self.torn = None

    def write(self, data):
        self.torn = data[:len(data) // 2]
        self.fs._step("write", self, data)
        self._put(data)
        self.torn = None
        return len(data)

    def _put(self, data):
        old = self.fs.disk[self.path]
        end = self.pos + len(data)
        self.fs.disk[self.path] = old[:self.pos] + bytes(data) + old[end:]
        self.pos = end

    def tear(self):
        if self.torn:
            self._put(self.torn)

    def flush(self):
        self.fs._step("flush")

    def close(self):
        if self in self.fs.writers:
            self.fs._step("close")
            self.fs.writers.remove(self)


class FakeFS:
    def __init__(self):
        self.disk = {}      # path -> str or bytes that survive a power cut
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
                if isinstance(writer, _Writer):
                    writer.pending += data
                for w in self.writers:
                    w.tear()
                self.writers = []
                raise PowerCut(name)
            self.budget -= 1
        self.steps.append(name)

    def open(self, path, mode="r"):
        self._step("open")
        if "w" in mode:
            binary = "b" in mode
            self.disk[path] = b"" if binary else ""    # FAT truncates at once
            w = _Writer(self, path, binary)
            self.writers.append(w)
            return w
        if path not in self.disk:
            raise OSError(2, "no such file: " + path)
        data = self.disk[path]
        if "+" in mode:
            if not isinstance(data, bytes):
                self.disk[path] = data.encode()
            w = _InPlace(self, path)
            self.writers.append(w)
            return w
        if "b" in mode:
            return _Reader(self, data.encode() if isinstance(data, str) else data)
        if isinstance(data, bytes):
            try:
                data = data.decode()
            except UnicodeError:
                data = ""
        return _Reader(self, data)

    def stat(self, path):
        self._step("stat")
        if path not in self.disk:
            raise OSError(2, "no such file: " + path)
        size = len(self.disk[path])
        return (0o100000, 0, 0, 0, 0, 0, size, 0, 0, 0)

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
