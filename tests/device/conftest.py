"""Fixtures shared by the device tests."""

import pytest


@pytest.fixture
def firmware_option(request):
    """--firmware PATH (tests/conftest.py's option), or None."""
    return request.config.getoption("--firmware")
