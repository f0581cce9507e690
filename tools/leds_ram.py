"""Measure the RAM cost of hardware/leds.py and its end-of-game breathing under MicroPython.

    python tools/leds_ram.py

Runs under real MicroPython 1.27 (WebAssembly, Node.js; see
tests/micropython/mp.py) with adafruit_ticks from the installed pip
package, a stand-in PixelBuf whose int writes allocate nothing, and a shim
for what CircuitPython has and this port lacks (time.monotonic).  Prints
bytes of heap (gc.mem_alloc()):

  leds            the Leds module (with adafruit_ticks), its pixel map and object
  frame_alloc     allocated by drawing a changed frame (should be 0)
  idle_alloc      allocated by an update with nothing to draw (should be 0)
  celebrate       heap kept after the end-of-game breathing ran (a few hundred
                  bytes once: the object's attributes growing)
  celebrate_alloc allocated by one breathing step (small ints only: 0)
Modules are compiled from .py source here; .mpy files would need less.
"""

import importlib.util
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


SHIMS = """
import time as _time, sys
class _Shim:
    pass
_t = _Shim()
_t.ticks_ms = _time.ticks_ms
_t.sleep = _time.sleep
_t.monotonic = lambda: _time.ticks_ms() / 1000
sys.modules['time'] = _t
_r = _Shim()
_r.colorwheel = lambda pos: 0
sys.modules['rainbowio'] = _r
class FakePixels:
    # a PixelBuf look-alike: an int colour is stored without allocating
    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.n = n
        self.auto_write = False
        self.shows = 0
    def __len__(self):
        return self.n
    def __setitem__(self, i, c):
        j = 3 * i
        if isinstance(c, int):
            self.buf[j] = c >> 16 & 255
            self.buf[j + 1] = c >> 8 & 255
            self.buf[j + 2] = c & 255
        else:
            self.buf[j] = c[0]
            self.buf[j + 1] = c[1]
            self.buf[j + 2] = c[2]
    def __getitem__(self, i):
        j = 3 * i
        return (self.buf[j], self.buf[j + 1], self.buf[j + 2])
    def fill(self, c):
        for i in range(self.n):
            self[i] = c
    def show(self):
        self.shows += 1
class _App:
    pass
px = FakePixels(25)
app = _App()
app.frame = bytearray(75)
app.frame_version = 1
app.brightness = 255
app.celebrate = None
res = {}
"""


def _files():
    spec = importlib.util.find_spec("adafruit_ticks")
    if spec is None or spec.origin is None:
        raise SystemExit("adafruit_ticks is not installed in %s" % sys.executable)
    return {"hardware/__init__.py": os.path.join(ROOT, "hardware", "__init__.py"),
            "hardware/leds.py": os.path.join(ROOT, "hardware", "leds.py"),
            "adafruit_ticks.py": spec.origin}


def items():
    """The runPython items of the measurement (see tests/micropython/run.mjs)."""
    setup = ["import os\nfor d in ('/lib', '/lib/hardware'):\n"
             "    try:\n        os.mkdir(d)\n    except OSError:\n        pass"]
    for rel, src in _files().items():
        with open(src) as f:
            setup.append("open(%r, 'w').write(%r)" % ("/lib/" + rel, f.read()))
    setup.append("import sys\nsys.path.insert(0, '/lib')")
    return setup + [
        SHIMS,
        "import gc\ngc.collect()",
        "gc.collect()\nm0 = gc.mem_alloc()",
        "from hardware.leds import Leds, pixel_map\nleds = Leds(px, pixel_map(90, True), 64)",
        "gc.collect()\nm1 = gc.mem_alloc()\nres['leds'] = m1 - m0",
        "leds.update(app)",
        "gc.collect()",
        "gc.disable()\na = gc.mem_alloc()\napp.frame_version += 1\nleds.update(app)\n"
        "res['frame_alloc'] = gc.mem_alloc() - a\ngc.enable()",
        "gc.collect()",
        "gc.disable()\na = gc.mem_alloc()\nleds.update(app)\n"
        "res['idle_alloc'] = gc.mem_alloc() - a\ngc.enable()",
        "gc.collect()",
        "gc.collect()\nm1 = gc.mem_alloc()",
        "app.celebrate = 0x56B4E9\nleds.update(app)\nleds._breath_step = -1\nleds.update(app)",
        "gc.collect()\nres['celebrate'] = gc.mem_alloc() - m1",
        "gc.collect()",
        "leds._breath_step = -1\ngc.disable()\na = gc.mem_alloc()\nleds.update(app)\n"
        "res['celebrate_alloc'] = gc.mem_alloc() - a\ngc.enable()\nres['shows'] = px.shows",
        "import json\nprint('RESULT ' + json.dumps(res))",
    ]


def measure():
    """The measured numbers as a dict (raises if MicroPython cannot run)."""
    from tests.micropython.mp import run_micropython
    rc, out, err = run_micropython(items())
    if rc != 0:
        raise RuntimeError("MicroPython run failed (%d): %s" % (rc, err[-2000:]))
    for line in out.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError("no result in output: %r" % out[-500:])


def main():
    res = measure()
    for key in ("leds", "frame_alloc", "idle_alloc", "celebrate", "celebrate_alloc"):
        print("%-15s %6d bytes" % (key, res[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
