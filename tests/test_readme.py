"""The README is for players and makers: short, the two commands first, and
the way to the developers' documents near the top."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MOST_LINES = 200


def _readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def test_the_readme_is_at_most_200_lines():
    assert len(_readme().splitlines()) <= MOST_LINES


def test_the_readme_starts_with_the_play_and_the_test_command():
    first = re.search(r"```\n(.*?)```", _readme(), re.S).group(1).split("\n")
    assert first[:2] == ["python3 run.py play", "python3 run.py test"]


def test_developers_are_pointed_to_the_architecture_from_the_top():
    top = "\n".join(_readme().splitlines()[:30])
    assert "docs/ARCHITECTURE.md" in top and "docs/DEVELOPING.md" in top
