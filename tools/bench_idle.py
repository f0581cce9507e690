#!/usr/bin/env python3
"""How busy the CPU is while a person thinks: an emulated board at its menu and at a human's turn.

    python3 tools/bench_idle.py                 # the working tree, the Pico, stock firmware
    python3 tools/bench_idle.py --rev main      # the code of a git revision (before/after)
    python3 tools/bench_idle.py --profile feather_oled --kind frozen

Deploys the project (as `run.py deploy` does, with CircuitPython's mpy-cross
when there is one; --rev: the files of that revision) for the profile
(--profile, default the Pico), boots CircuitPython 10.3 (--kind stock) or
Jarmo's firmware (--kind frozen) on the emulated board (tests/device/) and
measures, at the menu (the share of emulated time the CPU is busy, and the
busy cycles an emulated second: what an emulator of the board must run,
the web page's device mode among them), then starts a game against the
greedy AI and measures, at the human's turn:

  - the share of emulated time the CPU is busy (not waiting for an
    interrupt: rp2040js counts the time the core spends in WFI), over
    --seconds of nothing happening; the rest is what the battery saves;
  - the LED frames sent in that time (the cursor blinks: the LEDs animate);
  - how long after SELECT is let go (a short press: it is held for MENU)
    the LEDs answer (the piece picked: a frame unlike the blinking's), the
    longest of TURNS turns;
  - the busy share and the time of the AI's turns that follow (they think
    flat out), and the longest main-loop pass (hardware/trace.py).

hardware/mainloop.py sleeps out an idle pass's period; `--rev` measures
another revision of the code the same way (one whose loop never slept).
"""

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.device import stage  # noqa: E402
from tests.device.device import Device, firmware_path, unavailable_reason  # noqa: E402

PROFILE = "pico"
TAP_MS = 100
TURNS = 3           # turns whose SELECT answer and AI turn are measured


def tree_of(rev, folder):
    """The files that go on the board, as they were at git revision rev, in folder."""
    os.makedirs(folder)
    tar = os.path.join(folder, "tree.tar")
    subprocess.run(["git", "archive", "-o", tar, rev, "code.py", "boot.py", "jarmo", "hardware",
                    "device"], cwd=ROOT, check=True)
    with tarfile.open(tar) as t:
        t.extractall(folder, filter="data")
    os.makedirs(os.path.join(folder, "lib"), exist_ok=True)
    return folder


def build(drive, root, profile=PROFILE):
    """The profile's drive from the tree at root, traced (hardware/trace.py), seeded."""
    path = stage.mpy_cross_path()
    compiler = stage.deploy.find_mpy_cross(path) if path else None
    settings = [("JARMO_TRACE", "1"), ("JARMO_SEED", "5")]
    stage.deploy.deploy(drive, profile, root=root, mpy_cross=compiler, force=True,
                        settings=settings, log=lambda s: None)
    return drive


def busy_share(before, after):
    """The share of emulated time between two stats() the CPU did not wait for an interrupt."""
    span = after["emulated_s"] - before["emulated_s"]
    return 1.0 - (after["idle_s"] - before["idle_s"]) / span if span > 0 else None


def answer_ms(dev, pin):
    """ms from letting go of `pin` (pressed TAP_MS) until the LEDs show a frame
    unlike every one before (not the cursor's blinking)."""
    seen = set(grb for _t, grb in dev.frames)
    dev.set_pin(pin, 0)
    dev.run(TAP_MS)
    t0 = dev.set_pin(pin, "z")["t"]
    dev.run(300)
    later = [t for t, grb in dev.frames if t > t0 and grb not in seen]
    return later[0] - t0 if later else None


def measure(dev, seconds=5.0, profile=PROFILE):
    """The figures (a dict) from a board that shows the menu."""
    prof = stage.profile(profile)
    select = stage.key_pin(prof, "select")
    dev.run(1500)                           # the AI module and tables load after start-up
    s0 = dev.stats()
    dev.run(int(seconds * 1000))
    menu_busy = busy_share(s0, dev.stats())
    dev.press(select, TAP_MS)               # New game
    dev.wait_for(r"^@@STATE play", 10000)
    dev.run(1000)
    s0 = dev.stats()
    frames0 = len(dev.frames)
    dev.run(int(seconds * 1000))
    s1 = dev.stats()
    out = {"menu_busy": menu_busy, "human_busy": busy_share(s0, s1),
           "frames": len(dev.frames) - frames0, "seconds": seconds}
    answers = []
    ai_busy = []
    for _turn in range(TURNS):
        answers.append(answer_ms(dev, select))         # a piece selected
        a0 = dev.stats()
        dev.press(select, TAP_MS)                      # its first target: the AI's turn
        dev.wait_for(r"^@@STATE ai", 5000)
        dev.wait_for(r"^@@STATE play", 30000)
        ai_busy.append(busy_share(a0, dev.stats()))
        dev.run(700)                                   # a human's pause
    known = [a for a in answers if a is not None]
    out["answer_ms"] = max(known) if known else None
    out["answers_ms"] = answers
    out["ai_busy"] = min(ai_busy)
    t = stage.Trace(dev.console)
    ai = [ms for ms, _free in t.ai_turns()]
    out["ai_ms"] = max(ai) if ai else None
    passes = [us for _name, _free, us, _ms in t.states()[1:]] + [us for us, _s in t.max_passes()]
    out["longest_pass_ms"] = max(passes) / 1000.0 if passes else None
    out["speed"] = dev.stats()["speed"]
    return out


def run(rev=None, firmware=None, seconds=5.0, log=print, profile=PROFILE, kind="stock"):
    """Build, boot and measure; the figures, or None without firmware."""
    if kind == "stock":
        board = stage.profile(profile)["board_id"]
        why = unavailable_reason(board, firmware)
        if why:
            log("skipped: " + why)
            return None
        prof, uf2 = stage.profile(profile), firmware_path(board, firmware)
        i2c = 0x3C if prof["display"] == "sh1107_128x64" else None
    else:
        found = stage.bench_board(profile, kind, firmware, log)
        if found is None:
            return None
        prof, uf2, i2c = found
    with tempfile.TemporaryDirectory() as tmp:
        drive = os.path.join(tmp, "CIRCUITPY")
        if kind == "frozen":
            stage.build_drive(drive, profile, trace=1, JARMO_SEED=5, frozen=True)
        else:
            build(drive, tree_of(rev, os.path.join(tmp, "tree")) if rev else ROOT, profile)
        with Device(uf2, drive, neopixel_pin=prof["pixel_pin"], i2c_ack=i2c, timeout_s=600) as dev:
            dev.wait_for(r"^@@STATE menu", 10000)
            return measure(dev, seconds, profile)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", default=None, help="measure this git revision's code (default: the working tree)")
    ap.add_argument("--seconds", type=float, default=5.0, help="emulated seconds of the human's turn measured")
    ap.add_argument("--firmware", default=None, help="a CircuitPython UF2 or a folder of them")
    ap.add_argument("--profile", default=PROFILE, help="the board profile (default pico)")
    ap.add_argument("--kind", default="stock", choices=("stock", "frozen"),
                    help="CircuitPython's firmware and .mpy files, or Jarmo's firmware")
    args = ap.parse_args(argv)
    if args.rev and args.kind == "frozen":
        ap.error("--rev measures a revision's files on stock firmware only")
    f = run(args.rev, args.firmware, args.seconds, profile=args.profile, kind=args.kind)
    if f is None:
        return 0
    print("%s, emulated %s, %s firmware:" % (args.rev or "working tree", args.profile, args.kind))
    print("  at the menu: CPU busy %.1f %% of %.0f s, %.1f million cycles an emulated second" % (
        100 * f["menu_busy"], f["seconds"], 125 * f["menu_busy"]))
    print("  a human's turn against the greedy AI:")
    print("  CPU busy %.1f %% of %.0f s; %d LED frames sent meanwhile" % (
        100 * f["human_busy"], f["seconds"], f["frames"]))
    print("  SELECT answered on the LEDs after %s ms (the longest of %s)" % (
        "-" if f["answer_ms"] is None else "%.1f" % f["answer_ms"],
        ", ".join("-" if a is None else "%.1f" % a for a in f["answers_ms"])))
    print("  the AI's turns: thought at most %s ms, CPU busy at least %.1f %% of each" % (
        f["ai_ms"], 100 * f["ai_busy"]))
    print("  longest main-loop pass %.1f ms; emulator speed %.2fx real time" % (
        f["longest_pass_ms"], f["speed"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
