#!/usr/bin/env python3
"""The opening book on the emulated Pico: look-up time, RAM, flash size.

    python3 tools/bench_book_device.py             # stock CircuitPython 10.3: jarmo/*.mpy + book.bin
    python3 tools/bench_book_device.py --frozen    # Jarmo's firmware: the book frozen in
    python3 tools/bench_book_device.py --keep DIR

Builds a CIRCUITPY folder as tools/bench_ai_device.py does (jarmo/ compiled
by mpy-cross), adds jarmo/book.bin (as tools/deploy.py does) and
tools/device_bench/book_lookup.py as code.py, boots it on the emulated Pico
(--frozen: only code.py, on Jarmo's firmware for the Pico, built if needed)
and prints the look-up times per mix (following the book's line, and one
position off it), the heap the reader takes and the book's size on the
drive. Goal (docs/AI.md, "Opening book"): a look-up <= 5 ms. Exits 1 if missed.
"""

import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools.bench_ai_device import core_drive, run_device  # noqa: E402

GOAL_MS = 5.0


def main(argv):
    keep = argv[argv.index("--keep") + 1] if "--keep" in argv else None
    frozen = "--frozen" in argv
    folder = keep or tempfile.mkdtemp(prefix="jarmo_bookbench_")
    core_drive(folder, "book_lookup.py", frozen)
    book = os.path.join(ROOT, "jarmo", "book.bin")
    firmware = None
    if frozen:
        from tests.device import stage
        firmware = stage.firmware("pico", "frozen")
        where = "Jarmo's firmware: jarmo and the book (%d bytes) frozen in" % os.path.getsize(book)
    else:
        shutil.copy(book, os.path.join(folder, "jarmo", "book.bin"))
        where = "jarmo/*.mpy, jarmo/book.bin %d bytes on the drive" % os.path.getsize(book)
    print("Opening book on CircuitPython 10.3, emulated Pico 125 MHz (%s)" % where, flush=True)
    rc, lines = run_device(folder, 1800, firmware)
    ok = rc == 0
    print("%-28s %5s %10s %8s %8s" % ("mix", "hits", "median ms", "max ms", "miss ms"))
    for line in lines:
        if line.startswith("@@BOOK "):
            parts = line.split()
            if parts[1] == "none":
                print(line)
                ok = False
                continue
            mix, hits, med, top, miss = parts[1:6]
            over = max(float(top), float(miss)) > GOAL_MS
            ok = ok and not over
            print("%-28s %5s %10s %8s %8s%s" % (mix, hits, med, top, miss, "  OVER" if over else ""))
        elif line.startswith("@@MEM "):
            print(line[2:])
    if rc:
        print("device run failed (exit %d):\n%s" % (rc, "\n".join(lines[-20:])))
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
