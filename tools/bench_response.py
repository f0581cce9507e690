#!/usr/bin/env python3
"""How fast the handheld answers, and how fast it starts: measured on the emulated boards.

    python3 run.py bench --device                 # runs this too
    python3 tools/bench_response.py --kinds stock --profiles pico --level 3

For each profile and firmware kind ("stock": CircuitPython 10.3 and the
project deployed as .mpy; "frozen": Jarmo's firmware), one board
(tests/device/, rp2040js at 125 MHz):

  - power-on to the first frame: emulated ms from the power-on (the
    board's own boot, boot.py and code.py counted) to the first frame
    that shows the board's state: on the LED pin, or on the OLED's panel
    where the state is on the display (the Feather's menu), on a player's drive (no trace lines) at its
    second power-on (boot_out.txt and the store are there, as on a
    player's), without the harness's fast boot: CircuitPython's safe-mode
    wait is skipped only as the deploy's settings.toml asks
    (CIRCUITPY_SAFE_MODE_DELAY = 0.0). "battery": no USB host at all (no
    console, nothing attached), the budgeted figure; "USB": a PC that
    enumerates the board and opens no console (charging), shown only;
  - a quick player: New game at once, before the start-up's preload has
    run, then TURNS human turns against the AI at --level, by taps of the
    profile's keys; BACK pressed while the AI thinks (the menu shows);
  - per state, the longest wait between two polls of the buttons (the
    longest a press can wait; hardware/trace.py's @@STATE poll_us, "menu"
    includes start-up and the pass that starts the game);
  - press to light: ms from the press (the key's pin going low, whether
    the key acts then or, having a hold, at its release: the app shows the
    press as the key goes down) to the first frame on the LED pin unlike
    those shown in the 300 ms before (the cursor's blinking), median and
    max; on a board with the OLED, press to display: ms from the press to
    the first I2C burst to the display after it (shown, not budgeted).

Budgets: no wait between polls over 50 ms, press to light at most 50 ms
(median at most 20 ms), power-on to first frame at most 1.0 s (stock) and
0.5 s (frozen). Exits 1 if one is missed.
"""

import argparse
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.device import stage  # noqa: E402
from tests.device.device import Device  # noqa: E402

POLL_BUDGET_MS = 50
LIGHT_BUDGET_MS = (20, 50)          # median, max
FIRST_FRAME_BUDGET_MS = {"stock": 1000, "frozen": 500}
PROFILES = ("pico", "qtpy_bff", "feather_oled")
TURNS = 6
TAP_MS = 100
GAP_MS = 250


def answer_ms(dev, pin, shown, hold=TAP_MS):
    """ms from the press to the first LED frame unlike the last 300 ms's; the ms
    from the press to the display's first I2C burst after it go into shown."""
    before = set(grb for t, grb in dev.frames if t >= dev.t - 300)
    seen = len(dev.i2c)
    t_press = dev.set_pin(pin, 0)["t"]
    dev.run(hold)
    dev.set_pin(pin, "z")
    dev.run(GAP_MS)
    bursts = [e["t"] for e in dev.i2c[seen:] if e["t"] >= t_press]
    if bursts:
        shown.append(bursts[0] - t_press)
    later = [t for t, grb in dev.frames if t > t_press and grb not in before]
    return later[0] - t_press if later else None


def session(dev, prof, level_turns=TURNS):
    """The scripted session on a board that has just started: per state the
    longest wait between polls (ms), the press-to-light times (ms), the
    presses never answered, the least free heap seen in the game."""
    select = stage.key_pin(prof, "select")
    nxt = stage.key_pin(prof, "next")
    back = stage.key_pin(prof, "back")
    dev.wait_for(r"^@@STATE menu", 10000)
    answers = []
    shown = []
    dev.press(select, TAP_MS)               # New game at once: the preload still to run
    turns = 0
    seed = 7
    for _ in range(200):
        names = stage.Trace(dev.console).state_names()
        if names[-1] in ("end", "result"):
            break
        if names[-1] == "ai":
            dev.wait_for(r"^@@STATE (play|end)", 60000)
            continue
        if names[-1] != "play":
            dev.run(GAP_MS)
            continue
        if turns >= level_turns:
            break
        turns += 1
        # a piece chosen, let go, chosen again; then next 0..2 times and select
        answers.append(answer_ms(dev, select, shown))
        answers.append(answer_ms(dev, back, shown))
        answers.append(answer_ms(dev, select, shown))
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        for _ in range((seed >> 16) % 3):
            answers.append(answer_ms(dev, nxt, shown))
        answers.append(answer_ms(dev, select, shown))
        dev.run(GAP_MS)
    # BACK while the AI thinks: the menu
    names = stage.Trace(dev.console).state_names()
    if names[-1] == "ai":
        answers.append(answer_ms(dev, back, shown))
    dev.run(1000)
    waits = {}
    t = stage.Trace(dev.console)
    frees = [free for name, free, _p, _ms in t.states() if name in ("play", "ai")]
    frees += [free for _ms, free in t.ai_turns()]
    states = t.states()
    for i in range(1, len(states)):
        name = states[i - 1][0]
        waits[name] = max(waits.get(name, 0), _poll_us(dev.console, i) / 1000.0)
    least = min(frees) if frees else None
    return waits, [a for a in answers if a is not None], answers.count(None), least, shown


def _poll_us(lines, i):
    """The poll_us of the i-th @@STATE line (the longest wait in the state before it)."""
    found = [line for line in lines if line.startswith("@@STATE ")]
    part = [w for w in found[i].split() if w.startswith("poll_us=")]
    return int(part[0].split("=")[1]) if part else 0


def measure(name, kind, level, firmware_option, log, play=True):
    board = stage.bench_board(name, kind, firmware_option, log)
    if board is None:
        return None
    prof, firmware, i2c = board
    out = {"profile": name, "kind": kind, "waits": None}
    power_on = stage.power_on_figures(firmware, name, kind, ("none", "host"), i2c)
    (out["power_on_ms"], out["shown"]), (out["usb_power_on_ms"], _shown) = power_on["none"], power_on["host"]
    log("  %s %s: power-on to the first frame (on the %s) %s ms on a battery, %s ms on a PC's USB" % (
        kind, name, out["shown"], _fmt(out["power_on_ms"]), _fmt(out["usb_power_on_ms"])))
    if not play:
        return out
    with tempfile.TemporaryDirectory() as tmp:
        drive = stage.build_drive(os.path.join(tmp, "CIRCUITPY"), name, trace=1, JARMO_SEED=5,
                                  frozen=kind == "frozen", **stage.HEAP)
        from jarmo.app_base import OPP, OPPONENTS  # the settings keep the menu's place
        opponent = OPPONENTS[::OPP].index("AI level %s" % level if level.isdigit() else "AI " + level)
        nvm = stage.settings_nvm(opp=opponent, bright=5)
        with Device(firmware, drive, neopixel_pin=prof["pixel_pin"], i2c_ack=i2c, timeout_s=600,
                    nvm=nvm) as dev:
            (out["waits"], out["answers"], out["unanswered"], out["least_free"],
             out["display"]) = session(dev, prof)
    log("  %s %s: longest wait between polls %s; press to light median %s max %s ms (%d presses)%s" % (
        kind, name, ", ".join("%s %.1f" % kv for kv in sorted(out["waits"].items())),
        _fmt(_median(out["answers"])), _fmt(max(out["answers"], default=None)), len(out["answers"]),
        "; press to display median %s max %s ms" % (_fmt(_median(out["display"])), _fmt(max(out["display"])))
        if out["display"] else ""))
    return out


def _median(values):
    return statistics.median(values) if values else None


def _fmt(v):
    return "-" if v is None else "%.1f" % v


def report(results):
    played = [r for r in results if r["waits"] is not None]
    if played:
        report_play(played)
    print("\nPower-on to the first frame that shows the board's state (emulated ms; a player's "
          "drive at its second power-on, the board's own boot counted)")
    print("| firmware | profile | on a battery (no USB host) | on a PC's USB (no console) | shown on | budget |")
    print("|---|---|---|---|---|---|")
    for r in results:
        print("| %s | %s | %s | %s | %s | %d |" % (
            r["kind"], r["profile"], _fmt(r["power_on_ms"]), _fmt(r["usb_power_on_ms"]),
            r["shown"], FIRST_FRAME_BUDGET_MS[r["kind"]]))


def report_play(results):
    states = []
    for r in results:
        for s in r["waits"]:
            if s not in states:
                states.append(s)
    print("\nLongest wait between two polls of the buttons (ms), per state; press to light (ms)")
    print("| firmware | profile | %s | press to light: median | max | presses | press to display: median |"
          " max |" % " | ".join(states))
    print("|---|---|" + "---|" * len(states) + "---|---|---|---|---|")
    for r in results:
        print("| %s | %s | %s | %s | %s | %d | %s | %s |" % (
            r["kind"], r["profile"], " | ".join(_fmt(r["waits"].get(s)) for s in states),
            _fmt(_median(r["answers"])), _fmt(max(r["answers"], default=None)), len(r["answers"]),
            _fmt(_median(r["display"])), _fmt(max(r["display"], default=None))))
    print("\nLeast free heap in the game (bytes, gc.mem_free() after gc.collect(), from the top of code.py)")
    print("| firmware | profile | least free |")
    print("|---|---|---|")
    for r in results:
        print("| %s | %s | %s |" % (r["kind"], r["profile"], r["least_free"]))


def check(results):
    missed = 0
    for r in results:
        where = "%s %s:" % (r["kind"], r["profile"])
        checks = ((r["power_on_ms"] is not None and r["power_on_ms"] <= FIRST_FRAME_BUDGET_MS[r["kind"]],
                   "power-on to the first frame on a battery %s ms, budget %d" % (
                       _fmt(r["power_on_ms"]), FIRST_FRAME_BUDGET_MS[r["kind"]])),)
        if r["waits"] is not None:
            checks += play_checks(r)
        for ok, text in checks:
            print("%s  %s %s" % ("ok    " if ok else "MISSED", where, text))
            missed += not ok
    return missed


def play_checks(r):
    worst = max(r["waits"].values(), default=0)
    median = _median(r["answers"])
    return (
        (worst <= POLL_BUDGET_MS, "longest wait between polls %.1f ms, budget %d" % (worst, POLL_BUDGET_MS)),
        (median is not None and median <= LIGHT_BUDGET_MS[0] and not r["unanswered"]
         and max(r["answers"]) <= LIGHT_BUDGET_MS[1],
         "press to light median %s, max %s ms, %d unanswered; budget %d / %d" % (
             _fmt(median), _fmt(max(r["answers"], default=None)), r["unanswered"], *LIGHT_BUDGET_MS)))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 tools/bench_response.py", description=__doc__.split("\n")[0])
    ap.add_argument("--kinds", default="stock,frozen")
    ap.add_argument("--profiles", default=",".join(PROFILES))
    ap.add_argument("--level", default="3", help="the AI's level (greedy, 2, 3, 4)")
    ap.add_argument("--firmware", default=None, help="a CircuitPython UF2 or a folder of them")
    ap.add_argument("--power-on-only", action="store_true",
                    help="only the power-on to first frame figures (no scripted session)")
    args = ap.parse_args(argv)
    results = []
    for kind in args.kinds.split(","):
        for name in args.profiles.split(","):
            r = measure(name, kind, args.level, args.firmware, lambda s: print(s, flush=True),
                        play=not args.power_on_only)
            if r is not None:
                results.append(r)
    if not results:
        print("no response figures: no firmware (see tests/device/README.md)")
        return 0
    report(results)
    print()
    return 1 if check(results) else 0


if __name__ == "__main__":
    sys.exit(main())
