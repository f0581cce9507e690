"""What a test needs from the machine (Node.js, the npm packages, the
CircuitPython firmware, mpy-cross, Chromium, Jarmo's firmware): when it is
missing, the test is skipped on a developer's machine and fails under CI
(CI=true), where .ci/run installs or builds everything, so that a check can
never pass there without running.
"""

import os

import pytest


def in_ci():
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(why):
    """Stop the test: `why` names what is missing here."""
    if in_ci():
        pytest.fail("%s (CI must have it: .ci/run installs it)" % why, pytrace=False)
    pytest.skip(why)


def require(why):
    """missing(why) unless why is None (an unavailable_reason's answer)."""
    if why:
        missing(why)
