"""pytest setup shared by every test.

- The repository root is importable (`jarmo`, `hardware`, `tests.micropython`)
  but sits at the END of sys.path: the device's code.py lives in the root and
  must not shadow the standard library's `code` module (pdb imports it).
- BLINKA_OS_AGNOSTIC=1 so `import board` works on a PC (Blinka's simulated
  board), as `python3 run.py play` does.
- The `micropython` fixture gives run_micropython after require_micropython()
  (skip locally without Node.js, fail under CI=true).
- `--firmware PATH` names the CircuitPython UF2 for tests/device/.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _use_stdlib_code_module():
    # `python -m pytest` puts the working directory (the root, with code.py)
    # first on sys.path; load the standard library's `code` before pdb does.
    if "code" in sys.modules:
        return
    import importlib.util
    import sysconfig

    path = os.path.join(sysconfig.get_paths()["stdlib"], "code.py")
    spec = importlib.util.spec_from_file_location("code", path)
    if spec is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["code"] = module
    spec.loader.exec_module(module)


_use_stdlib_code_module()
if not any(os.path.abspath(p or os.curdir) == ROOT for p in sys.path):
    sys.path.append(ROOT)

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

import pytest  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--firmware", default=None, metavar="PATH",
                     help="CircuitPython UF2 (or a folder of them) for the device tests "
                          "(default: $JARMO_FIRMWARE, else ../shared/rp2040/)")


@pytest.fixture
def micropython():
    """run_micropython(items, heap=None, timeout=...) -> (returncode, stdout, stderr)."""
    from tests.micropython import mp

    mp.require_micropython()
    return mp.run_micropython
