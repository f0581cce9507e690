"""Type-check the device code against CircuitPython's real API (circuitpython-stubs).

    python tools/typecheck.py [--board adafruit_feather_rp2040]

Runs mypy on everything that goes on the board except jarmo/ and lib/:
hardware/, code.py and boot.py, with the settings in pyproject.toml
([tool.mypy]).  The board's pin names come from circuitpython-stubs' board
definitions: instead of `circuitpython_setboard`, which overwrites the
installed board-stubs package, the chosen definition is copied into a
temporary folder put first on mypy's search path (MYPYPATH), so nothing
installed changes.  Adafruit libraries without type information are treated
as untyped; jarmo/ is read for its types but its own errors are not reported
here.  Exit status is mypy's.
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "pyproject.toml")   # [tool.mypy], also for a copied tree

# code.py and boot.py would be the modules `code` and `boot` (the standard
# library owns `code`): checked as copies under these names.
ENTRY_POINTS = {"code.py": "device_code.py", "boot.py": "device_boot.py"}


def device_files(root=ROOT):
    """hardware/'s modules: the device layer, all of it."""
    folder = os.path.join(root, "hardware")
    return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".py"))


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
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        files = device_files(root)
        for name, copy in ENTRY_POINTS.items():
            files.append(os.path.join(src, copy))
            shutil.copyfile(os.path.join(root, name), files[-1])
        env = dict(os.environ)
        env["MYPYPATH"] = stubs
        env["PYTHONPATH"] = root
        cmd = [sys.executable, "-m", "mypy", "--config-file", CONFIG,
               "--cache-dir", os.path.join(tmp, "cache")] + list(extra) + files
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
