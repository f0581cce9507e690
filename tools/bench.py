"""Every benchmark of the project, one after the other: `python3 run.py bench`.

    python3 run.py bench                 # host figures (the AI strength table takes a few minutes)
    python3 run.py bench --quick         # AI strength over 40 games per pairing
    python3 run.py bench --device        # the game on emulated RP2040 boards (real firmware)
    python3 run.py bench --device --quick
    python3 run.py bench --power         # the power model (emulated boards), docs/power.svg
    python3 run.py bench --ai            # level 4 and its book against 20x its nodes, level checks

Host figures: the rules core's memory and speed, the AI's strength and
cost, the app logic's memory, the LED layer's memory (MicroPython 1.27
WebAssembly and CPython), the flash wear of the saves on a model of nvm.
Device figures (--device): heap, boot, the longest main-loop pass and the
AI's thinking time on CircuitPython 10.3 on emulated boards
(tools/bench_device.py), the AI's turn times on set positions
(tools/bench_ai_device.py), the wear and time of saving on the Pico
(tools/bench_flash.py).  Exits non-zero if any budget or
target is missed.
"""

import argparse
import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))


def run(script, *args):
    print("", flush=True)
    return subprocess.call([sys.executable, os.path.join(TOOLS, script)] + list(args))


def host(quick):
    failed = 0
    failed |= run("bench_core.py")
    failed |= run("bench_ai.py", *(["--games", "40"] if quick else []))
    failed |= run("bench_app.py")
    failed |= run("bench_flash.py")
    print("\nLED layer (hardware/leds.py and the end-of-game Pulse, MicroPython 1.27)", flush=True)
    failed |= run("leds_ram.py")
    return failed


def device(quick, firmware):
    extra = ["--firmware", firmware] if firmware else []
    failed = run("bench_device.py", *(["--quick"] if quick else []), *extra)
    failed |= run("bench_response.py", *(["--profiles", "pico"] if quick else []), *extra)
    if os.path.exists(os.path.join(TOOLS, "bench_ai_device.py")):
        failed |= run("bench_ai_device.py", *(["--positions", "2"] if quick else []))
    failed |= run("bench_flash.py", "--device", *(["--games", "5"] if quick else []), *extra)
    return failed


def main(argv):
    ap = argparse.ArgumentParser(prog="python3 run.py bench", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer games and boards")
    ap.add_argument("--device", action="store_true",
                    help="the emulated boards (CircuitPython 10.3 firmware) instead of the host")
    ap.add_argument("--power", action="store_true",
                    help="the power model on the emulated boards (tools/bench_power.py)")
    ap.add_argument("--firmware", help="a CircuitPython UF2 or a folder of them (device figures)")
    ap.add_argument("--ai", action="store_true",
                    help="level 4 against 20 times its nodes, and the level checks "
                         "(tools/bench_ai_deep.py --checks)")
    args = ap.parse_args(argv)
    if args.ai:
        return 1 if run("bench_ai_deep.py", "--checks", *(["--games", "10"] if args.quick else [])) else 0
    if args.power:
        extra = ["--firmware", args.firmware] if args.firmware else []
        svg = os.path.join(os.path.dirname(TOOLS), "docs", "power.svg")
        return 1 if run("bench_power.py", "--svg", svg, *extra) else 0
    failed = device(args.quick, args.firmware) if args.device else host(args.quick)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
