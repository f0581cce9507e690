"""Every core test module (tests/core/test_*.py) also passes under MicroPython 1.27.

Each module runs in its own Node.js process through tests/micropython/run.mjs
--mptest, one test per runPython call. Without Node.js this skips locally and
fails under CI=true.
"""


import pytest

from tests.micropython import mp

MODULES = mp.core_test_modules()
JARMO = mp.ROOT / "jarmo"


def test_there_are_core_tests():
    assert MODULES, "no tests/core/test_*.py found"


@pytest.mark.parametrize("module", MODULES)
def test_core_module_passes_under_micropython(module):
    mp.require_micropython()
    [result] = mp.run_core_tests_under_micropython([module])
    assert result.summarised, result.report()
    assert result.failed == 0, result.report()
    assert result.passed >= 1, result.report()
    assert result.returncode == 0, result.report()


def _jarmo_modules():
    names = []
    for path in sorted(JARMO.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(mp.ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue  # importing it would run the command line
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def test_every_jarmo_module_imports_under_micropython():
    mp.require_micropython()
    names = _jarmo_modules()
    assert names
    snippets = ["import %s" % name for name in names] + ["print('imported', %d)" % len(names)]
    rc, out, err = mp.run_micropython(snippets)
    assert rc == 0 and out.endswith("imported %d\n" % len(names)), out + err
