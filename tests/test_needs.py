"""A check that needs a tool never passes in CI without running (tests/needs.py)."""

import pathlib
import re

import pytest

from tests import needs

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_a_missing_tool_skips_on_a_developers_machine(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        needs.missing("no mpy-cross")


def test_a_missing_tool_fails_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no mpy-cross"):
        needs.missing("no mpy-cross")
    needs.require(None)                      # nothing missing: the test goes on


def test_tests_skip_for_a_missing_tool_only_through_needs():
    # pytest.skip or a skipif for a missing tool would pass in CI unrun; a
    # skipif on the machine's kind (root, os.fork) is not a missing tool
    found = []
    for path in sorted(ROOT.joinpath("tests").rglob("*.py")):
        if path.name in ("needs.py", "test_needs.py"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"pytest\.skip\(|importorskip", line):
                found.append("%s:%d: %s" % (path.relative_to(ROOT), n, line.strip()))
    assert not found, "\n".join(found)
