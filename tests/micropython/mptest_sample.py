"""Fixture for tests/test_micropython_runner.py: one passing, one failing test.

Not collected by pytest (the name does not start with test_); run by mptest.
"""


def helper_not_a_test():
    raise RuntimeError("must not run")


def test_passes():
    assert 1 + 1 == 2


def test_fails():
    assert [1, 2] == [1, 3], "deliberate failure"


class TestGroup:
    def setup_method(self, method):
        self.value = 41

    def test_method_passes(self):
        assert self.value + 1 == 42
