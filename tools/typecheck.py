"""Type-check the device code against CircuitPython's real API (circuitpython-stubs).

    python tools/typecheck.py [--board adafruit_feather_rp2040]

Runs mypy on hardware/ (without the host-only host.py and sim.py), code.py
and boot.py.  The board's pin names come from circuitpython-stubs' board
definitions: instead of `circuitpython_setboard`, which overwrites the
installed board-stubs package, the chosen definition is copied into a
temporary folder put first on mypy's search path, so nothing installed
changes.  Adafruit libraries without type information (neopixel,
adafruit_ticks, adafruit_display_text, adafruit_displayio_sh1107) are treated as untyped; jarmo/ is read for its
types but its own errors are not reported here.  Exit status is mypy's.
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEVICE_FILES = (
    "hardware/__init__.py", "hardware/profiles.py", "hardware/leds.py",
    "hardware/buttons.py", "hardware/display.py", "hardware/mainloop.py",
    "hardware/trace.py", "code.py", "boot.py",
)

UNTYPED_LIBRARIES = ("neopixel", "adafruit_ticks", "adafruit_display_text",
                     "adafruit_display_text.*", "adafruit_displayio_sh1107")

CONFIG = """\
[mypy]
mypy_path = {stubs}
cache_dir = {cache}
check_untyped_defs = True
warn_unused_ignores = False
show_error_codes = True
follow_imports = normal

[mypy-{untyped}]
ignore_missing_imports = True
follow_imports = skip

[mypy-jarmo.*]
follow_imports = silent

[mypy-hardware.host,hardware.sim]
follow_imports = skip
"""


def board_definition(board):
    spec = importlib.util.find_spec("board_definitions")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("circuitpython-stubs is not installed in %s" % sys.executable)
    path = os.path.join(list(spec.submodule_search_locations)[0], board, "__init__.pyi")
    if not os.path.exists(path):
        raise SystemExit("no board definition %r in circuitpython-stubs" % board)
    return path


def run(board="adafruit_feather_rp2040", root=ROOT, extra=()):
    """Run mypy; (exit status, output)."""
    with tempfile.TemporaryDirectory(prefix="jarmo-typecheck-") as tmp:
        stubs = os.path.join(tmp, "stubs")
        os.makedirs(os.path.join(stubs, "board"))
        shutil.copyfile(board_definition(board), os.path.join(stubs, "board", "__init__.pyi"))
        # code.py would be the module `code`, which the standard library owns:
        # check it under another name.
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        files = []
        for rel in DEVICE_FILES:
            if rel == "code.py":
                dst = os.path.join(src, "device_code.py")
                shutil.copyfile(os.path.join(root, rel), dst)
                files.append(dst)
            elif rel == "boot.py":
                dst = os.path.join(src, "device_boot.py")
                shutil.copyfile(os.path.join(root, rel), dst)
                files.append(dst)
            else:
                files.append(os.path.join(root, rel))
        config = os.path.join(tmp, "mypy.ini")
        with open(config, "w") as f:
            f.write(CONFIG.format(stubs=stubs, cache=os.path.join(tmp, "cache"),
                                  untyped=",".join(UNTYPED_LIBRARIES)))
        env = dict(os.environ)
        env["MYPYPATH"] = stubs
        env["PYTHONPATH"] = root
        cmd = [sys.executable, "-m", "mypy", "--config-file", config] + list(extra) + files
        proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
        return proc.returncode, (proc.stdout + proc.stderr).replace(src + os.sep, "")


def main(argv=None):
    ap = argparse.ArgumentParser(description="mypy on the device code with circuitpython-stubs")
    ap.add_argument("--board", default="adafruit_feather_rp2040",
                    help="a board of circuitpython-stubs (circuitpython_setboard --list)")
    args = ap.parse_args(argv)
    status, output = run(args.board)
    sys.stdout.write(output)
    return status


if __name__ == "__main__":
    sys.exit(main())
