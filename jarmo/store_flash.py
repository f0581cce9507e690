# Flash: a 4 KB flash sector that behaves like CircuitPython's
# microcontroller.nvm on an RP2040, kept in RAM (Flash) or in a file
# (FileNvm): the store's home on a PC, and on a board without a usable nvm.
#
# nvm[a:b] = data programs the bytes when all of nvm[a:b] are erased (0xFF),
# page by page (programming only clears bits); otherwise it erases each 4 KB
# sector the bytes fall in and programs it back with data merged in (stock
# CircuitPython's nvm is one sector; Jarmo's firmware has two, and erases
# only the one written: tools/firmware.py). ``programs`` and
# ``erases`` count those operations (wear), as on the device.

PAGE = 256
SECTOR = 4096


class Flash:
    def __init__(self, size=4096, data=None):
        self.size = size if data is None else len(data)
        self.data = bytearray(b"\xff" * size) if data is None else bytearray(data)
        self.programs = 0       # page programs
        self.erases = 0         # sector erases

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytes(self.data[index])
        return self.data[index]

    def __setitem__(self, index, value):
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("nvm takes a slice of bytes")
        start = index.start or 0
        stop = self.size if index.stop is None else index.stop
        if stop - start != len(value):
            raise ValueError("nvm slice and data differ in length")
        old = self.data[start:stop]
        if old == b"\xff" * len(old):
            first = start - start % PAGE
            for page in range(first, stop, PAGE):
                lo = max(page, start)
                hi = min(page + PAGE, stop)
                self._program(page, lo, value[lo - start:hi - start])
        else:
            merged = bytearray(self.data)
            merged[start:stop] = value
            first = start - start % SECTOR
            for sector in range(first, stop, SECTOR):
                end = min(sector + SECTOR, self.size)
                self._erase(sector, end)
                for page in range(sector, end, PAGE):
                    self._program(page, page, merged[page:page + PAGE])

    def _program(self, page, at, chunk):
        # one page program: the bytes ANDed in (a subclass may tear it)
        for i in range(len(chunk)):
            self.data[at + i] &= chunk[i]
        self.programs += 1
        self.saved(at, len(chunk))

    def _erase(self, start, end):
        for i in range(start, end):
            self.data[i] = 0xFF
        self.erases += 1
        self.saved(start, end - start)

    def saved(self, at, n):
        """Called after each program or erase with the bytes it touched."""


class FileNvm(Flash):
    # The sector in a file of its own (made erased when missing); each program
    # or erase writes the bytes it changed in place, so the file's size and
    # its clusters never change.

    def __init__(self, path, size=4096):
        self.path = path
        data = None
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            pass
        if data is not None and len(data) != size:
            data = bytes(data[:size]) + b"\xff" * max(0, size - len(data))    # not ours: resized
        super().__init__(size, data)
        if data is None:
            with open(path, "wb") as f:
                f.write(self.data)

    def saved(self, at, n):
        with open(self.path, "r+b") as f:
            f.seek(at)
            f.write(self.data[at:at + n])
