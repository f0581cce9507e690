"""pytest setup shared by every test.

- The repository root is importable (`jarmo`, `hardware`, `tests.micropython`)
  but sits at the END of sys.path: the device's code.py lives in the root and
  must not shadow the standard library's `code` module (pdb imports it).
- BLINKA_OS_AGNOSTIC=1 so `import board` works on a PC (Blinka's simulated
  board), as `python3 run.py play` does.
- The `micropython` fixture gives run_micropython after require_micropython()
  (skip locally without Node.js, fail under CI=true).
- `--firmware PATH` names the CircuitPython UF2 for tests/device/.
- Two tiers: by default every rule, every app path and one game on the
  emulated board (about 3 minutes); `--full` (python3 run.py test --full,
  what CI runs) adds the tests marked `full`: the volume runs.
"""

import json
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
                          "(default: $JARMO_FIRMWARE, else the pinned stock firmware: firmware/artifacts.json)")
    parser.addoption("--full", action="store_true",
                     help="also run the volume tests (marker `full`): thousands of seeded games, "
                          "the long runs against tests/reference/, every device test")


def pytest_collection_modifyitems(config, items):
    """Without --full, the tests marked `full` are deselected (not run, not
    skipped). On several processes (pytest-xdist's -n), the longest first."""
    if not config.getoption("--full"):
        volume = [item for item in items if item.get_closest_marker("full") is not None]
        if volume:
            config.hook.pytest_deselected(items=volume)
            items[:] = [item for item in items if item.get_closest_marker("full") is None]
    if _parallel(config):
        _longest_first(config, items)


# Durations of the last runs (the cache's jarmo/durations, seconds by test
# id): with the tests spread over processes, the run ends when the last
# process does, so the longest tests go first and the short ones fill in.
# A fresh clone (CI) has no cache: tests/durations.json keeps the long
# tests' seconds from a full run (the tests of 5 s or more, and every device
# test; refreshed from a full run's .pytest_cache/v/jarmo/durations), so that the longest still
# start first there. A test timed in neither counts as long if it boots an
# emulated board.
DURATIONS = "jarmo/durations"
KEPT_DURATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "durations.json")
_DEVICE_GUESS = 60.0


def _parallel(config):
    return bool(getattr(config.option, "numprocesses", None)) or hasattr(config, "workerinput")


def _longest_first(config, items):
    cache = getattr(config, "cache", None)      # (None with -p no:cacheprovider)
    with open(KEPT_DURATIONS) as f:
        known = json.load(f)
    known.update(cache.get(DURATIONS, {}) if cache is not None else {})

    def seconds(item):
        guess = _DEVICE_GUESS if "tests/device/" in item.nodeid else 0.0
        return known.get(item.nodeid, guess)

    items.sort(key=seconds, reverse=True)      # (stable: ties keep their order)


_TIMED = {}


def pytest_runtest_logreport(report):
    if report.when == "call":
        _TIMED[report.nodeid] = round(report.duration, 1)


def pytest_sessionfinish(session):
    # the controlling process keeps the figures (workers send it their reports)
    config = session.config
    if _TIMED and getattr(config, "cache", None) is not None and not hasattr(config, "workerinput"):
        known = config.cache.get(DURATIONS, {})
        known.update(_TIMED)
        config.cache.set(DURATIONS, known)


def pytest_report_header(config):
    if config.getoption("--full"):
        return "tier: full (every test, the volume runs included)"
    return "tier: default (python3 run.py test --full adds the volume runs)"


@pytest.fixture
def micropython():
    """run_micropython(items, heap=None, timeout=...) -> (returncode, stdout, stderr)."""
    from tests.micropython import mp

    mp.require_micropython()
    return mp.run_micropython
