"""Every benchmark of the project, one after the other: `python3 run.py bench`.

    python3 run.py bench                 # all (the AI strength table takes a few minutes)
    python3 run.py bench --quick         # AI strength over 40 games per pairing

Prints the figures the README keeps: the rules core's memory and speed, the
AI's strength and cost, the app logic's memory, the LED layer's memory.
Exits non-zero if any budget or target is missed.
"""

import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))


def run(script, *args):
    print("", flush=True)
    return subprocess.call([sys.executable, os.path.join(TOOLS, script)] + list(args))


def main(argv):
    quick = "--quick" in argv
    failed = 0
    failed |= run("bench_core.py")
    failed |= run("bench_ai.py", *(["--games", "40"] if quick else []))
    failed |= run("bench_app.py")
    print("\nLED layer (hardware/leds.py and the end-of-game Pulse, MicroPython 1.27)", flush=True)
    failed |= run("leds_ram.py")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
