"""The documentation rule for jarmo/: every module starts with a `#` comment
block whose first line is `# <Concept>: <one sentence>`, and there are no
module or class docstrings - MicroPython keeps those on the board's heap (a
class is explained in a comment above it). Function docstrings are fine."""

import ast
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JARMO = os.path.join(ROOT, "jarmo")
MODULES = sorted(name for name in os.listdir(JARMO) if name.endswith(".py"))

HEADLINE = re.compile(r"# [^\s:#][^:]*: \S")


def problems(text):
    """What breaks the rule in a module's source: a list of short reasons."""
    found = []
    first = text.split("\n", 1)[0]
    if not HEADLINE.match(first):
        found.append("first line is %r, not '# Concept: one sentence'" % first[:60])
    tree = ast.parse(text)
    if ast.get_docstring(tree, clean=False) is not None:
        found.append("a module docstring")
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and ast.get_docstring(node, clean=False) is not None:
            found.append("a docstring in class %s" % node.name)
    return found


@pytest.mark.parametrize("name", MODULES)
def test_module_opens_with_its_concept_and_has_no_module_or_class_docstring(name):
    with open(os.path.join(JARMO, name), encoding="utf-8") as f:
        assert problems(f.read()) == [], name


def test_the_rule_is_checked():
    good = "# Board: the 25 points and the 38 lines.\n#\n# More.\n\nclass B:\n    x = 1\n"
    assert problems(good) == []
    assert problems('"""Board."""\nx = 1\n') == [
        "first line is '\"\"\"Board.\"\"\"', not '# Concept: one sentence'", "a module docstring"]
    assert problems('# Board: points.\nclass B:\n    """A board."""\n') == ["a docstring in class B"]
    assert problems("# just a comment\nx = 1\n") != []
