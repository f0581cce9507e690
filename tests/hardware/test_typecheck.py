"""The device code type-checks against circuitpython-stubs (tools/typecheck.py)."""

import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _typecheck():
    path = os.path.join(ROOT, "tools", "typecheck.py")
    spec = importlib.util.spec_from_file_location("jarmo_typecheck", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("board", ("adafruit_feather_rp2040", "adafruit_qtpy_rp2040"))
def test_mypy_passes(board):
    status, output = _typecheck().run(board)
    assert status == 0, output


def test_mypy_catches_a_missing_circuitpython_api(tmp_path):
    """The check has teeth: an API CircuitPython lacks is an error."""
    tc = _typecheck()
    bad = tmp_path / "root"
    (bad / "hardware").mkdir(parents=True)
    for src in tc.device_files() + [os.path.join(ROOT, name) for name in tc.ENTRY_POINTS]:
        dst = bad / os.path.relpath(src, ROOT)
        dst.write_text(open(src).read())
    with open(bad / "hardware" / "mainloop.py", "a") as f:
        f.write("\nimport keypad\nkeypad.Keys(()).scan_now()\n")
    os.symlink(os.path.join(ROOT, "jarmo"), bad / "jarmo")
    status, output = tc.run("adafruit_feather_rp2040", root=str(bad))
    assert status != 0 and "scan_now" in output
