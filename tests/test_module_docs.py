"""The documentation rule for jarmo/: every module starts with a `#` comment
block whose first line is `# <Concept>: <one sentence>`; functions and
methods explain themselves in docstrings; modules and classes in comments.

The numbers behind it (an 1,800-character docstring, measured): CircuitPython
10.3 discards every docstring, whether it compiles the .py on the board or
its mpy-cross compiles it (__doc__ is None, the heap unchanged; the .mpy is
8 bytes longer), so on the device docstrings are free. MicroPython 1.27
(the WebAssembly build the tests run the core on) keeps a module's and a
class's docstring as __doc__, 1.8 KB of heap, and discards a function's.
Comments cost nothing anywhere. So docstrings go on functions, where every
interpreter drops them, and first on the State hooks (jarmo/app_base.py),
which say when they run and what they must not do."""

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


def test_the_state_hooks_say_when_they_run():
    import jarmo.app_base as B
    for hook in ("enter", "exit", "press", "tick", "draw"):
        doc = getattr(B.State, hook).__doc__
        assert doc and len(doc.split()) >= 6, hook
