#!/usr/bin/env python3
"""The power model: current per state and hours on a LiPo, from the emulated board.

    python3 run.py bench --power                    # every profile, stock firmware
    python3 tools/bench_power.py --profiles pico --svg docs/power.svg

One board per profile (tests/device/, real CircuitPython 10.3, rp2040js)
plays a game against the AI at the default settings (brightness, opponent),
a player thinking THINK_S seconds before each turn; then it is left alone
until it dims and goes dark (JARMO_DIM_S and JARMO_OFF_S set short here).
Every BIN_MS the board's stats give the share of emulated time its CPU was
busy (not waiting for an interrupt); every LED frame the pin carried is
decoded exactly. The current:

  CPU      (busy x CPU_RUN_MA + (1 - busy) x CPU_WAIT_MA) x clock_scale(MHz),
           at the clock the board ran each bin (dark: JARMO_IDLE_MHZ)
  LEDs     per powered pixel WS2812_IDLE_MA, plus WS2812_CHANNEL_MA x
           (channel value / 255) per colour channel, for the frame shown;
           none while the profile's led_power pin cuts their supply

Sources (docs/BENCHMARKS.md, "Power"):
  - CPU_RUN_MA, CPU_WAIT_MA: Adafruit, "Deep Sleep with CircuitPython",
    RP2040 page: a Raspberry Pi Pico running CircuitPython; light sleep
    "drops power consumption by over a third" to about 17 mA, so running
    is at least 25.5 mA (26 used). time.sleep waits in WFI with the clocks
    running: 17 mA (the light-sleep figure) is taken for it, a lower bound.
  - WS2812_CHANNEL_MA: Adafruit NeoPixel Uberguide, "Powering NeoPixels":
    about 60 mA a pixel at full white, 20 mA a colour channel.
  - WS2812_IDLE_MA: about 1 mA a pixel when dark (WS2812B data sheets list
    a static current of 0.5 to 1 mA; 1 mA taken).
  - CPU_DEEP_SLEEP_MA: the same page's deep-sleep figure for the Pico
    (about 7 mA). The emulated board only pretends to deep-sleep (USB is
    attached), so this state is the published figure, not measured; the
    board deep-sleeps after JARMO_SLEEP_S dark (hardware/deepsleep.py; 0 in
    this run, which stays dark).
  - LED_V, CELL_V, BOOST_EFFICIENCY: the grid's current is at 5 V; where a
    boost converter makes that from the cell (the builds with a strip), the
    cell supplies LED_V / (BOOST_EFFICIENCY x CELL_V) of it.
  - clock_scale: the share of the RP2040's current that follows its
    clock, from a Pico in a busy loop drawing about 22 mA at 133 MHz and
    11.6 mA at 50 MHz (Elektronik-Labor, "RPi Pico - (S)low Power",
    https://elektronik-labor.de/Raspberry/Pico34.html): a straight line,
    5.3 mA + 0.125 mA a MHz. The figures above (at 125 MHz) are scaled by
    it, waiting as running: in WFI the core stops, but the clocks of the bus,
    the memories and the peripherals run on. An assumption: nobody publishes
    the RP2040's WFI current by clock.
Not modelled: the OLED (SH1107, a few mA lit), the board's regulator and
power LED, the charger. Hours = capacity / mean current (the whole capacity
used, no derating), on each build's battery as kit/bom.json draws it, the
grid cut while dark where the build has the LED power switch (its
profile's led_power pin).
"""

import argparse
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.device import stage  # noqa: E402
from tests.device.device import Device  # noqa: E402

CPU_RUN_MA = 26.0
CPU_WAIT_MA = 17.0
CPU_DEEP_SLEEP_MA = 7.0
WS2812_CHANNEL_MA = 20.0
WS2812_IDLE_MA = 1.0
PIXELS = 25
# A build whose grid runs on 5 V from a boost converter (Adafruit MiniBoost,
# TPS61023) draws the LEDs' power from the cell: at CELL_V, the LiPo's
# nominal voltage, through the converter at BOOST_EFFICIENCY (an assumed
# figure, not measured: a boost converter's efficiency depends on its load).
LED_V = 5.0
CELL_V = 3.7
BOOST_EFFICIENCY = 0.85
BIN_MS = 250
THINK_S = 3.0               # the player looks at the board before each turn
TAP_MS = 100
GAP_MS = 300
DIM_S = 5                   # short idle times, so that the dim and dark states are seen
OFF_S = 10
PROFILES = ("handheld", "tabletop", "feather_oled", "joystick", "qtpy_bff", "pico")
FULL_MHZ = 125              # CircuitPython's clock on an RP2040, where the figures above were taken
CLOCK_FIXED_MA = 5.33       # the busy Pico's current at 0 MHz, extrapolated (Elektronik-Labor)
CLOCK_MA_PER_MHZ = 0.1253   # (22 - 11.6) mA / (133 - 50) MHz


def led_ma(grb):
    """The grid's current (mA) while it shows a frame (bytes, 3 a pixel)."""
    return PIXELS * WS2812_IDLE_MA + WS2812_CHANNEL_MA * sum(grb) / 255.0


def clock_scale(mhz):
    """The RP2040's current at mhz against at FULL_MHZ."""
    return (CLOCK_FIXED_MA + CLOCK_MA_PER_MHZ * mhz) / (CLOCK_FIXED_MA + CLOCK_MA_PER_MHZ * FULL_MHZ)


def cpu_ma(busy, mhz=FULL_MHZ):
    return (busy * CPU_RUN_MA + (1.0 - busy) * CPU_WAIT_MA) * clock_scale(mhz)


class Recorder:
    """A board run in bins of BIN_MS: [(t_ms, busy share, state, CPU MHz)] and the frames."""

    def __init__(self, dev):
        self.dev = dev
        self.bins = []
        self.last = dev.stats()

    def state(self):
        names = stage.Trace(self.dev.console).state_names()
        idle = [line for line in self.dev.console if line.startswith("@@IDLE ")]
        level = int(idle[-1].split()[1]) if idle else 0
        if level == 2:
            return "dark"
        if level == 1:
            return "dim"
        return names[-1] if names else "start"

    def run(self, ms):
        while ms > 0:
            step = min(ms, BIN_MS)
            self.dev.run(step)
            ms -= step
            now = self.dev.stats()
            span = now["emulated_s"] - self.last["emulated_s"]
            if span > 0:
                busy = 1.0 - (now["idle_s"] - self.last["idle_s"]) / span
                mhz = (now.get("clock_hz") or FULL_MHZ * 1e6) / 1e6
                self.bins.append((self.dev.t, max(0.0, min(1.0, busy)), self.state(), mhz))
            self.last = now

    def tap(self, pin):
        self.dev.set_pin(pin, 0)
        self.run(TAP_MS)
        self.dev.set_pin(pin, "z")
        self.run(GAP_MS)


def play(rec, prof, most_turns):
    """A game from the menu: the player thinks, then next 0..2 times and select."""
    select = stage.key_pin(prof, "select")
    nxt = stage.key_pin(prof, "next")
    rec.run(2000)                       # the menu, the start-up's preload
    rec.tap(select)                     # New game
    seed = 3
    turns = 0
    for _ in range(2000):
        names = stage.Trace(rec.dev.console).state_names()
        if names[-1] in ("end", "result", "menu") or turns >= most_turns:
            break
        if names[-1] != "play":
            rec.run(BIN_MS)
            continue
        turns += 1
        rec.run(int(THINK_S * 1000))
        picks = 0
        while stage.Trace(rec.dev.console).state_names()[-1] == "play" and picks < 12:
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            for _ in range((seed >> 16) % 3):
                rec.tap(nxt)
            rec.tap(select)
            picks += 1
    rec.run(3000)                       # the result shows
    return turns


def timeline(rec, t_end):
    """[(t0, t1, state, cpu mA, led mA)] over the run: the CPU per bin, the
    LEDs by the frame on the pin in each part of it."""
    frames = sorted(rec.dev.frames)
    out = []
    t_prev = rec.bins[0][0] - BIN_MS
    fi = 0
    shown = bytes(PIXELS * 3)
    for t, busy, state, mhz in rec.bins:
        edges = [t_prev]
        grbs = [shown]
        while fi < len(frames) and frames[fi][0] <= t:
            if frames[fi][0] > t_prev:
                edges.append(frames[fi][0])
                grbs.append(frames[fi][1])
            shown = frames[fi][1]
            fi += 1
        edges.append(t)
        for k in range(len(grbs)):
            if edges[k + 1] > edges[k]:
                out.append((edges[k], edges[k + 1], state, cpu_ma(busy, mhz), led_ma(grbs[k])))
        t_prev = t
    return out


def per_state(parts):
    """{state: (seconds, mean cpu mA, mean led mA)}."""
    acc = {}
    for t0, t1, state, cpu, led in parts:
        s, c, l_ = acc.get(state, (0.0, 0.0, 0.0))
        d = (t1 - t0) / 1000.0
        acc[state] = (s + d, c + cpu * d, l_ + led * d)
    return {k: (s, c / s, l_ / s) for k, (s, c, l_) in acc.items() if s > 0}


def clocks(bins):
    """{state: mean CPU MHz} over the bins."""
    acc = {}
    for _t, _busy, state, mhz in bins:
        n, total = acc.get(state, (0, 0.0))
        acc[state] = (n + 1, total + mhz)
    return {k: total / n for k, (n, total) in acc.items()}


def measure(name, kind, firmware_option, most_turns, log, idle_mhz=48):
    board = stage.bench_board(name, kind, firmware_option, log)
    if board is None:
        return None
    prof, firmware, i2c = board
    with tempfile.TemporaryDirectory() as tmp:
        drive = stage.build_drive(os.path.join(tmp, "CIRCUITPY"), name, trace=1, JARMO_SEED=5,
                                  frozen=kind == "frozen", JARMO_DIM_S=DIM_S, JARMO_OFF_S=OFF_S,
                                  JARMO_SLEEP_S=0, JARMO_IDLE_MHZ=idle_mhz)
        with Device(firmware, drive, neopixel_pin=prof["pixel_pin"], i2c_ack=i2c, timeout_s=900,
                    nvm=stage.settings_nvm()) as dev:
            dev.wait_for(r"^@@STATE menu", 10000)
            rec = Recorder(dev)
            turns = play(rec, prof, most_turns)
            game_end = dev.t
            rec.run((OFF_S + 4) * 1000)     # left alone: dim, then dark
            parts = timeline(rec, dev.t)
    game = [p for p in parts if p[1] <= game_end and p[2] in ("play", "ai")]
    return {"profile": name, "kind": kind, "turns": turns, "parts": parts, "game": game,
            "idle_mhz": idle_mhz, "clocks": clocks(rec.bins),
            "states": per_state(parts), "game_ma": _mean(game), "dark": per_state(parts).get("dark")}


def _mean(parts, led_factor=1.0):
    span = sum(t1 - t0 for t0, t1, *_ in parts)
    return sum((cpu + led * led_factor) * (t1 - t0) for t0, t1, _s, cpu, led in parts) / span if span else 0.0


def led_factor(profile_name):
    """The cell's current for each mA the grid draws: 1 where the cell feeds
    the LEDs; LED_V / (BOOST_EFFICIENCY x CELL_V) where a boost converter
    makes their 5 V (kit/bom.json, the build's power)."""
    from tools.kit import bom
    return LED_V / (BOOST_EFFICIENCY * CELL_V) if bom.boosted(profile_name) else 1.0


def report(results):
    print("\nPower model: current per state (mA; CPU from the emulated board's busy share, LEDs "
          "from the frames sent, default brightness)")
    print("| firmware | profile | idle clock | state | seconds | CPU MHz | CPU | LEDs | total |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        for state, (s, cpu, led) in r["states"].items():
            print("| %s | %s | %s | %s | %.1f | %.0f | %.1f | %.1f | %.1f |" % (
                r["kind"], r["profile"], _idle_clock(r), state, s, r["clocks"].get(state, FULL_MHZ),
                cpu, led, cpu + led))
    print("\nHours on each build's battery as drawn (kit/bom.json; whole capacity, no derating): "
          "play = the game's mean current; dark = standby, the grid cut by the LED power switch "
          "where the build has one; deep sleep = %.0f mA (published, not measured) plus the dark "
          "grid where nothing cuts it" % CPU_DEEP_SLEEP_MA)
    print("| firmware | profile | idle clock | battery | LED switch | game mA (turns) | play | dark | "
          "deep sleep |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print("| %s | %s | %s | %s |" % (r["kind"], r["profile"], _idle_clock(r),
                                       " | ".join(hours_as_drawn(r))))


def hours_as_drawn(r):
    """The cells battery, LED switch, game mA (turns), play, dark, deep sleep of a run."""
    from tools.kit import bom
    capacity = bom.battery_mah(r["profile"])
    game_ma = _mean(r["game"], led_factor(r["profile"]))
    switched = stage.profile(r["profile"])["led_power"] is not None
    dark = r["dark"]
    dark_ma = None if dark is None else dark[1] + (0.0 if switched else dark[2])
    sleep_ma = CPU_DEEP_SLEEP_MA + (0.0 if switched else PIXELS * WS2812_IDLE_MA)
    return ["%d mAh" % capacity, "yes" if switched else "no",
            "%.1f (%d)" % (game_ma, r["turns"]), "%.1f h" % (capacity / game_ma),
            "-" if dark_ma is None else "%.0f h" % (capacity / dark_ma),
            "%.0f h" % (capacity / sleep_ma)]


def _idle_clock(r):
    return "%d MHz" % r["idle_mhz"] if r["idle_mhz"] else "unchanged"


def svg(result, path):
    """Current over the whole run (a game, then idle until dark) as an SVG."""
    parts = result["parts"]
    t0 = parts[0][0]
    t_end = parts[-1][1]
    top = max(cpu + led for _a, _b, _s, cpu, led in parts)
    top = (int(top / 20) + 1) * 20
    w, h, left, bottom = 900.0, 300.0, 50.0, 40.0
    pw, ph = w - left - 10, h - bottom - 20

    def x(t):
        return left + (t - t0) / (t_end - t0) * pw

    def y(ma):
        return 20 + ph - ma / top * ph
    total = []
    cpu_line = []
    for a, b, _s, cpu, led in parts:
        total += ["%.1f,%.1f" % (x(a), y(cpu + led)), "%.1f,%.1f" % (x(b), y(cpu + led))]
        cpu_line += ["%.1f,%.1f" % (x(a), y(cpu)), "%.1f,%.1f" % (x(b), y(cpu))]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="11">' % (w, h, w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="14">Current over %d turns of a game against the AI, then idle until dark: '
           '%s, %s firmware (python3 run.py bench --power)</text>' % (
               left, result["turns"], result["profile"], result["kind"])]
    for ma in range(0, top + 1, 20):
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, w - 10, y(ma), y(ma)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%d mA</text>' % (left - 4, y(ma) + 4, ma))
    step = 30000 if t_end - t0 > 120000 else 10000
    t = 0
    while t0 + t <= t_end:
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d s</text>' % (x(t0 + t), h - bottom + 14, t // 1000))
        t += step
    # the states as bands
    band = None
    colours = {"menu": "#eef", "play": "#efe", "ai": "#fee", "dim": "#eee", "dark": "#ddd"}
    for a, _b, state, _c, _l in parts + [(t_end, t_end, None, 0, 0)]:
        if band is None or state != band[1]:
            if band is not None:
                out.append('<rect x="%.1f" y="20" width="%.1f" height="%.1f" fill="%s"/>' % (
                    x(band[0]), max(0.5, x(a) - x(band[0])), ph, colours.get(band[1], "#fff")))
            band = (a, state)
    out.append('<polyline fill="none" stroke="#c33" stroke-width="1" points="%s"/>' % " ".join(total))
    out.append('<polyline fill="none" stroke="#36c" stroke-width="1" points="%s"/>' % " ".join(cpu_line))
    ly = h - 10
    for i, (name, colour) in enumerate((("total", "#c33"), ("RP2040", "#36c"))):
        out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (
            left + i * 110, left + i * 110 + 20, ly - 4, ly - 4, colour))
        out.append('<text x="%d" y="%d">%s</text>' % (left + i * 110 + 24, ly, name))
    for i, state in enumerate(("menu", "play", "ai", "dim", "dark")):
        bx = left + 240 + i * 90
        out.append('<rect x="%d" y="%d" width="14" height="10" fill="%s" stroke="#999"/>' % (
            bx, ly - 9, colours[state]))
        words = {"play": "your turn", "ai": "AI thinks"}.get(state, state)
        out.append('<text x="%d" y="%d">%s</text>' % (bx + 18, ly, words))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 run.py bench --power", description=__doc__.split("\n")[0])
    ap.add_argument("--kinds", default="stock")
    ap.add_argument("--profiles", default=",".join(PROFILES))
    ap.add_argument("--turns", type=int, default=10, help="at most this many of the player's turns")
    ap.add_argument("--svg", default=None, help="write the first board's picture here")
    ap.add_argument("--firmware", default=None)
    ap.add_argument("--idle-mhz", default="48",
                    help="JARMO_IDLE_MHZ values, comma-separated (0: the clock unchanged); each a run")
    args = ap.parse_args(argv)
    results = []
    for kind in args.kinds.split(","):
        for name in args.profiles.split(","):
            for mhz in args.idle_mhz.split(","):
                r = measure(name, kind, args.firmware, args.turns, lambda s: print(s, flush=True),
                            int(mhz))
                if r is not None:
                    results.append(r)
                    print("  %s %s, idle clock %s: %d turns, %.1f mA in the game" % (
                        kind, name, _idle_clock(r), r["turns"], r["game_ma"]), flush=True)
    if not results:
        print("no power figures: no firmware (see tests/device/README.md)")
        return 0
    report(results)
    if args.svg:
        svg(results[0], args.svg)
        print("\n%s: current over the run of %s %s" % (args.svg, results[0]["kind"], results[0]["profile"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
