"""A tiny test runner that works the same on MicroPython and CPython.

Core test modules (tests/core/test_*.py) are plain functions with plain
asserts and no pytest import, so pytest runs them on CPython and this runs
them on MicroPython:

    import mptest
    mptest.main("tests.core.test_buttons")      # prints failures and a summary

It runs every top-level function named test_* and every method test_* of a
top-level class named Test* (instantiated without arguments; setup_method and
teardown_method are called when present), in the order they appear in the
source file, and ends with the line

    mptest: N passed, M failed

tests/micropython/run.mjs --mptest MODULE drives a Session test by test, one
runPython call each, so that garbage of one test is collected before the next.
From a shell on CPython: python tests/micropython/mptest.py MODULE [MODULE...]
"""

import sys

try:
    import gc
except ImportError:  # pragma: no cover - every port has gc, but be safe
    gc = None


def _print_exception(exc):
    if hasattr(sys, "print_exception"):  # MicroPython
        sys.print_exception(exc, sys.stdout)
    else:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stdout)


def _source_order(module):
    """{"test_x": line, "TestC.test_y": line} read from the module's file."""
    order = {}
    name = getattr(module, "__file__", None)
    if not name:
        return order
    try:
        f = open(name)
    except OSError:
        return order
    cls = None
    number = 0
    try:
        for line in f:
            number += 1
            text = line.lstrip()
            indent = len(line) - len(text)
            if indent == 0 and text and not text.startswith("#"):
                cls = None
                if text.startswith("class "):
                    cls = text[6:].split("(")[0].split(":")[0].strip()
            if text.startswith("def test_"):
                fname = text[4:].split("(")[0].strip()
                if indent == 0:
                    order.setdefault(fname, number)
                elif cls:
                    order.setdefault(cls + "." + fname, number)
    finally:
        f.close()
    return order


def _import(module_name):
    __import__(module_name)
    return sys.modules[module_name]


def collect(module):
    """[(name, callable)] of the module's tests, in source order."""
    found = []
    for name in dir(module):
        obj = getattr(module, name)
        if name.startswith("test_") and callable(obj) and not isinstance(obj, type):
            found.append((name, obj))
        elif name.startswith("Test") and isinstance(obj, type):
            for meth in dir(obj):
                if meth.startswith("test_") and callable(getattr(obj, meth)):
                    found.append((name + "." + meth, _method_runner(obj, meth)))
    order = _source_order(module)
    big = 1 << 30
    found.sort(key=lambda item: (order.get(item[0], big), item[0]))
    return found


def _method_runner(cls, meth):
    def run():
        obj = cls()
        setup = getattr(obj, "setup_method", None)
        if setup is not None:
            setup(getattr(obj, meth))
        try:
            getattr(obj, meth)()
        finally:
            teardown = getattr(obj, "teardown_method", None)
            if teardown is not None:
                teardown(getattr(obj, meth))

    return run


class Session:
    """The tests of one module, run one at a time, with counts."""

    def __init__(self, module_name):
        self.module_name = module_name
        self.tests = []
        self.passed = 0
        self.failed = 0
        try:
            module = _import(module_name)
        except Exception as exc:
            print("FAIL %s: import error" % module_name)
            _print_exception(exc)
            self.failed += 1
            return
        self.tests = collect(module)

    def run(self, index):
        """Run test number index; True when it passed."""
        name, func = self.tests[index]
        try:
            func()
        except Exception as exc:
            self.failed += 1
            print("FAIL %s.%s" % (self.module_name, name))
            _print_exception(exc)
            return False
        self.passed += 1
        return True

    def finish(self, strict=False):
        """Print the summary line; with strict, raise SystemExit(1) on failure."""
        print("mptest: %d passed, %d failed" % (self.passed, self.failed))
        if strict and self.failed:
            raise SystemExit(1)
        return self.failed


def main(*module_names):
    """Run the tests of each module; print one summary line; return (passed, failed)."""
    passed = failed = 0
    for module_name in module_names:
        session = Session(module_name)
        for i in range(len(session.tests)):
            if gc is not None:
                gc.collect()
            session.run(i)
        passed += session.passed
        failed += session.failed
    print("mptest: %d passed, %d failed" % (passed, failed))
    return passed, failed


if __name__ == "__main__" and sys.implementation.name == "cpython":
    import os

    _root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        sys.path[0] = _root
    else:
        sys.path.insert(0, _root)
    if len(sys.argv) < 2:
        print("usage: python tests/micropython/mptest.py MODULE [MODULE ...]")
        sys.exit(2)
    sys.exit(1 if main(*sys.argv[1:])[1] else 0)
