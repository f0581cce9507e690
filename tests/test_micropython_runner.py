"""The MicroPython runner (tests/micropython/run.mjs, mp.py, mptest.py) works."""

import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

from tests.micropython import mp, mptest

HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _needs_micropython(request):
    if "cpython_only" not in request.keywords:
        mp.require_micropython()


def test_snippet_prints_and_is_micropython():
    rc, out, err = mp.run_micropython(["import sys; print('hello', sys.implementation.name)"])
    assert (rc, out, err) == (0, "hello micropython\n", "")


def test_version_is_1_27():
    rc, out, err = mp.run_micropython(["import sys; print(sys.implementation.version[:2])"])
    assert rc == 0, err
    assert out.strip() == "(1, 27)"


def test_uncaught_exception_exits_nonzero_with_traceback():
    rc, out, err = mp.run_micropython(["print('before')", "raise ValueError('boom')", "print('after')"])
    assert rc == 1
    assert out == "before\n"
    assert "Traceback" in err and "ValueError: boom" in err


def test_system_exit_code_is_passed_on():
    assert mp.run_micropython(["import sys; sys.exit(3)"])[0] == 3
    assert mp.run_micropython(["raise SystemExit"])[0] == 0


def test_file_runs_and_traceback_names_it(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("x = 2\nprint('file', x)\n\n\nraise KeyError(x)\n")
    rc, out, err = mp.run_micropython([script])
    assert rc == 1
    assert out == "file 2\n"
    assert 'File "%s", line 5' % script in err


def test_calls_share_globals_and_output_without_newline_is_kept():
    rc, out, err = mp.run_micropython(["x = 41", "print('a', end='')", "print(x + 1)"])
    assert (rc, out) == (0, "a42\n"), err


def test_garbage_is_reclaimed_by_collect_in_a_later_call():
    rc, out, err = mp.run_micropython([
        "import gc; gc.collect()",
        "base = gc.mem_alloc(); junk = [bytearray(100) for i in range(1000)]; junk = None",
        "gc.collect(); print(gc.mem_alloc() - base < 20000)",
    ])
    assert (rc, out) == (0, "True\n"), err


def test_heap_option_is_accepted():
    rc, out, err = mp.run_micropython(["import gc; print(gc.mem_free() > 0)"], heap="256k")
    assert (rc, out) == (0, "True\n"), err


def test_import_jarmo_buttons_and_mem_alloc_is_int():
    rc, out, err = mp.run_micropython([
        "import gc; gc.collect()",
        "import jarmo.app_buttons",
        "gc.collect(); m = gc.mem_alloc(); print(type(m).__name__, m > 0)",
        "print(jarmo.app_buttons.code('Select') == jarmo.app_buttons.SELECT)",
    ])
    assert (rc, out) == (0, "int True\nTrue\n"), err


def test_mptest_reports_pass_and_fail():
    [result] = mp.run_core_tests_under_micropython(["mptest_sample"])
    assert result.returncode == 1, result.report()
    assert (result.passed, result.failed) == (2, 1), result.report()
    assert result.stdout.rstrip().splitlines()[-1] == "mptest: 2 passed, 1 failed"
    assert "FAIL mptest_sample.test_fails" in result.stdout
    assert "deliberate failure" in result.stdout
    assert "test_passes" not in result.stdout
    assert not result.ok


def test_mptest_main_in_one_call():
    rc, out, err = mp.run_micropython(["import mptest; print(mptest.main('mptest_sample'))"])
    assert rc == 0, err
    assert out.splitlines()[-2:] == ["mptest: 2 passed, 1 failed", "(2, 1)"]


def test_mptest_import_error_counts_as_failure():
    [result] = mp.run_core_tests_under_micropython(["no_such_module_here"])
    assert (result.passed, result.failed, result.returncode) == (0, 1, 1), result.report()
    assert "import error" in result.stdout


@pytest.mark.cpython_only
def test_mptest_on_cpython_in_source_order(capsys):
    sys.path.insert(0, str(HERE / "micropython"))
    try:
        module = importlib.import_module("mptest_sample")
    finally:
        sys.path.remove(str(HERE / "micropython"))
    names = [name for name, _ in mptest.collect(module)]
    assert names == ["test_passes", "test_fails", "TestGroup.test_method_passes"]
    session = mptest.Session("mptest_sample")
    for i in range(len(session.tests)):
        session.run(i)
    assert session.finish() == 1
    out = capsys.readouterr().out
    assert re.search(r"AssertionError: deliberate failure", out)
    assert out.splitlines()[-1] == "mptest: 2 passed, 1 failed"


@pytest.mark.cpython_only
def test_mptest_command_line_on_cpython():
    proc = subprocess.run(
        [sys.executable, str(HERE / "micropython" / "mptest.py"), "tests.micropython.mptest_sample"],
        capture_output=True, text=True, cwd=str(HERE.parent), timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[-1] == "mptest: 2 passed, 1 failed"


@pytest.mark.cpython_only
def test_tests_micropython_folder_does_not_shadow_the_micropython_module():
    # tests/micropython/ must never be importable as top-level `micropython`
    # on CPython (jarmo's `from micropython import const` guard relies on it).
    spec = importlib.util.find_spec("micropython")
    if spec is not None:
        locations = [str(p) for p in (spec.submodule_search_locations or [])] + [str(spec.origin)]
        assert not any(str(HERE / "micropython") in loc for loc in locations), locations
