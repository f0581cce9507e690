"""Run code under real MicroPython 1.27 (WebAssembly, under Node.js) from pytest.

    from tests.micropython.mp import run_micropython, require_micropython
    require_micropython()            # skip locally / fail in CI without Node.js
    rc, out, err = run_micropython(["import jarmo.app_buttons", "print(1)"])

Each item is its own top-level runPython call on one interpreter (see
run.mjs): a path ending in .py (str or pathlib.Path) that exists runs that
file, any other string runs as a code snippet. Garbage is reclaimed only by a
gc.collect() in a later call, so memory is measured like
["import gc; gc.collect()", "import jarmo.game", "gc.collect(); print(gc.mem_alloc())"].
"""

import os
import pathlib
import re
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "micropython" / "run.mjs"
PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
SUMMARY = re.compile(r"^mptest: (\d+) passed, (\d+) failed$", re.M)


class MicroPythonUnavailable(RuntimeError):
    """Node.js or the npm package is missing."""


def unavailable_reason():
    """None when MicroPython can run here, else why not."""
    if shutil.which("node") is None:
        return "Node.js (node) is not on PATH"
    if not PACKAGE.is_dir():
        return "%s is missing: run `npm ci` (python3 run.py test does)" % PACKAGE.relative_to(ROOT)
    return None


def require_micropython():
    """In a test: skip when MicroPython cannot run here; fail instead under CI=true."""
    from tests.needs import require

    reason = unavailable_reason()
    require(None if reason is None else "MicroPython unavailable: " + reason)


def _arguments(items):
    if isinstance(items, (str, pathlib.PurePath)):
        items = [items]
    args = []
    for item in items:
        if isinstance(item, pathlib.PurePath):
            args.append(str(item))
        elif item.endswith(".py") and "\n" not in item and os.path.isfile(item):
            args.append(item)
        else:
            args += ["-c", item]
    return args


def run_micropython(items, heap=None, timeout=300, extra_args=()):
    """Run files/snippets under MicroPython; return (returncode, stdout, stderr)."""
    reason = unavailable_reason()
    if reason is not None:
        raise MicroPythonUnavailable(reason)
    cmd = [shutil.which("node"), str(RUNNER)]
    if heap is not None:
        cmd += ["--heap", str(heap)]
    cmd += list(extra_args) + _arguments(items)
    proc = subprocess.run(cmd, cwd=str(ROOT), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


class CoreResult:
    """Outcome of one module's tests under MicroPython."""

    def __init__(self, module, returncode, stdout, stderr):
        self.module = module
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        found = SUMMARY.findall(stdout)
        self.passed, self.failed = (int(found[-1][0]), int(found[-1][1])) if found else (0, 0)
        self.summarised = bool(found)

    @property
    def ok(self):
        return self.returncode == 0 and self.summarised and self.failed == 0 and self.passed > 0

    def report(self):
        return "%s under MicroPython: exit %d, %d passed, %d failed\n--- stdout\n%s--- stderr\n%s" % (
            self.module, self.returncode, self.passed, self.failed, self.stdout, self.stderr)

    def __repr__(self):
        return "CoreResult(%r, passed=%d, failed=%d, rc=%d)" % (
            self.module, self.passed, self.failed, self.returncode)


def run_core_tests_under_micropython(module_names, heap=None, timeout=600):
    """Run each module's tests with mptest, one Node process per module.

    Each test runs in its own runPython call after a gc.collect() call.
    Returns a list of CoreResult.
    """
    if isinstance(module_names, str):
        module_names = [module_names]
    results = []
    for name in module_names:
        rc, out, err = run_micropython([], heap=heap, timeout=timeout, extra_args=("--mptest", name))
        results.append(CoreResult(name, rc, out, err))
    return results


def core_test_modules():
    """Module names of tests/core/test_*.py (recursively), sorted."""
    core = ROOT / "tests" / "core"
    names = []
    for path in sorted(core.rglob("test_*.py")):
        if "__pycache__" in path.parts:
            continue
        names.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return names
