"""Opening book look-ups on the device (runs as code.py on CircuitPython; also on a PC).

tools/bench_book_device.py copies this file as code.py next to jarmo/ and
jarmo/book.bin (stock firmware) or onto Jarmo's firmware (the book frozen).
For each mix it follows the book from the opening for up to 8 plies (the
book's own turns, drawn with a fixed seed), timing every look-up (the
position key, the binary search, the legality check) and one look-up of a
position the book does not hold, and prints

    @@BOOK mix hits median_ms max_ms miss_ms
    @@MEM import BYTES lookup BYTES form frozen|file

(import: the heap taken by importing jarmo.book, jarmo.ai already loaded as
in a game; lookup: the most allocated
during one look-up, the file opened and its buffer included, collected
after), then @@END.
"""

import gc
import time

from jarmo.game import Game
from jarmo.rng import Rng

MIXES = (("standard", ()), ("classic", ()), ("jasyr", ("heroes", "challenges")),
         ("legendary", ()), ("standard", ("heroes",)))


def ms(ns):
    return ns / 1000000.0


def main():
    import jarmo.ai  # noqa: F401  (loaded before a look-up in a game: not counted)
    gc.collect()
    base = gc.mem_alloc()
    import jarmo.book as B
    gc.collect()
    taken = gc.mem_alloc() - base
    src = B.shipped()
    form = "frozen" if isinstance(src, bytes) else "file"
    buf = [0] * 40
    rng = Rng(3)
    most = 0
    for rules, exps in MIXES:
        g = Game(rules, exps)
        times = []
        miss = 0
        hits = 0
        while g.plies < 8:
            gc.collect()
            a0 = gc.mem_alloc()
            t0 = time.monotonic_ns()
            turn = B.turn(g, rng, buf)
            t1 = time.monotonic_ns()
            used = gc.mem_alloc() - a0
            if used > most:
                most = used
            times.append(t1 - t0)
            if not turn:
                miss = t1 - t0
                break
            hits += 1
            for c in turn:
                g.play_code(c)
        if not miss:
            for c in g.legal_codes()[-1:]:   # somewhere off the book's line
                g.play_code(c)
            t0 = time.monotonic_ns()
            B.turn(g, rng, buf)
            miss = time.monotonic_ns() - t0
        times.sort()
        print("@@BOOK %s %d %.1f %.1f %.1f" % (
            "+".join((rules,) + exps), hits, ms(times[len(times) // 2]), ms(times[-1]), ms(miss)))
    if B.problem:
        print("@@BOOK none %s" % B.problem)
    print("@@MEM import %d lookup %d form %s" % (taken, most, form))
    print("@@END")


main()
