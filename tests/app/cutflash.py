"""A flash sector whose power can be cut in the middle of any program or erase.

CutFlash behaves as jarmo.store_flash.Flash (CircuitPython's nvm on an RP2040:
writes into erased bytes are page programs, others erase the sector and
program it back). ``cut_after(n)``: the n+1-th page program or erase is torn
and raises PowerCut. A torn program clears only some of the bits it should
(each byte keeps a random part of its old bits); a torn erase leaves the
sector in a random mix of old, erased and garbled bytes, as a NOR chip
interrupted mid-erase does (size 8192: two sectors, as Jarmo's firmware's
nvm). After the cut every write raises PowerCut until
``reboot()``. No pytest imports: the core-style tests use it under
MicroPython too.
"""

from jarmo.rng import Rng
from jarmo.store_flash import Flash


class PowerCut(Exception):
    pass


class CutFlash(Flash):
    def __init__(self, size=4096, seed=1):
        super().__init__(size)
        self.rng = Rng(seed)
        self.left = -1          # operations until the cut; -1: never
        self.dead = False
        self.ops = 0            # page programs and erases so far

    def cut_after(self, n):
        self.left = n

    def reboot(self):
        self.dead = False
        self.left = -1

    def __setitem__(self, index, value):
        if self.dead:
            raise PowerCut()
        super().__setitem__(index, value)

    def _tick(self):
        if self.dead:
            raise PowerCut()
        self.ops += 1
        if self.left == 0:
            self.dead = True
            return True
        if self.left > 0:
            self.left -= 1
        return False

    def _program(self, page, at, chunk):
        if self._tick():
            r = self.rng
            for i in range(len(chunk)):
                keep = r.below(256)             # bits that did not get programmed yet
                self.data[at + i] &= chunk[i] | keep
            raise PowerCut()
        super()._program(page, at, chunk)

    def _erase(self, start, end):
        if self._tick():
            r = self.rng
            for i in range(start, end):
                k = r.below(4)
                if k == 1:
                    self.data[i] = 0xFF
                elif k == 2:
                    self.data[i] |= r.below(256)
            raise PowerCut()
        super()._erase(start, end)
