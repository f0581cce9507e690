#!/usr/bin/env python3
"""Figures of the code's shape, for a review before and after a change.

    python3 tools/architecture.py [--root DIR]

Prints, by reading the source (ast; nothing is imported):
  - the App members that hardware/, host/ and web/ read (attributes taken
    from a name `app` or `self.app`), and the getattr calls on the App there;
  - the longest functions of jarmo/, hardware/ and host/;
  - the import cycles among jarmo/'s modules (imports inside functions
    counted: the app imports lazily);
  - the Python files directly in jarmo/.
--root reads another checkout (a `git worktree` of an older commit).
"""

import argparse
import ast
import os
import pathlib
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
DRIVER_FOLDERS = ("hardware", "host", "web")
CODE_FOLDERS = ("jarmo", "hardware", "host")


def python_files(root, folder):
    for base, _dirs, files in os.walk(os.path.join(root, folder)):
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(base, name)


def parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def _is_app(node):
    """A name `app` or the attribute `self.app`."""
    if isinstance(node, ast.Name):
        return node.id == "app"
    return (isinstance(node, ast.Attribute) and node.attr == "app"
            and isinstance(node.value, ast.Name) and node.value.id == "self")


def app_members_read(root, folders=DRIVER_FOLDERS):
    """{member: set of files} of the App's attributes read by those folders."""
    found = {}
    for folder in folders:
        for path in python_files(root, folder):
            for node in ast.walk(parse(path)):
                if isinstance(node, ast.Attribute) and _is_app(node.value):
                    found.setdefault(node.attr, set()).add(os.path.relpath(path, root))
    return found


def getattr_on_app(root, folders=DRIVER_FOLDERS):
    count = 0
    for folder in folders:
        for path in python_files(root, folder):
            for node in ast.walk(parse(path)):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("getattr", "hasattr") and node.args
                        and _is_app(node.args[0])):
                    count += 1
    return count


def longest_functions(root, most=8):
    rows = []
    for folder in CODE_FOLDERS:
        for path in python_files(root, folder):
            for node in ast.walk(parse(path)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    rows.append((node.end_lineno - node.lineno + 1,
                                 "%s:%s" % (os.path.relpath(path, root), node.name)))
    return sorted(rows, reverse=True)[:most]


def _cycles_in(root):
    """The import cycles among root's jarmo/ modules, found as
    tests/test_layers.py finds them (imports in functions and by name
    counted)."""
    from tests import test_layers
    return test_layers.cycles(test_layers.import_graph(folder=pathlib.Path(root) / "jarmo"))


def flat_files(root):
    return len([n for n in os.listdir(os.path.join(root, "jarmo")) if n.endswith(".py")])


def report(root):
    members = app_members_read(root)
    print("App members read by %s: %d" % (", ".join(DRIVER_FOLDERS), len(members)))
    print("  " + ", ".join(sorted(members)))
    print("getattr/hasattr calls on the App there: %d" % getattr_on_app(root))
    print("longest functions (lines):")
    for lines, name in longest_functions(root):
        print("  %4d  %s" % (lines, name))
    found = _cycles_in(root)
    print("import cycles in jarmo/ (function-level imports counted): %d" % len(found))
    for part in found:
        print("  " + " <-> ".join(part))
    print("Python files directly in jarmo/: %d" % flat_files(root))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=ROOT, help="the checkout to read (default this one)")
    args = ap.parse_args(argv)
    report(os.path.abspath(args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
