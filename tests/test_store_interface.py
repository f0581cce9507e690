"""The store's halves loaded on demand (jarmo/store_read.py,
jarmo/store_compact.py) use a Store through its declared interface
(jarmo.store_log.HELPER_MEMBERS): they read those members and change the
store only through its methods there. No module but jarmo/store_log.py
touches a Store's private member."""

import ast
import os

from jarmo.store_flash import Flash
from jarmo.store_log import HELPER_MEMBERS, Store

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELPERS = ("jarmo/store_read.py", "jarmo/store_compact.py")
# where the modules keep a Store: the parameter or local `store`, or an
# object's `.store` (the app's, the web page's, the PC's)
STORE_NAME = "store"
# the folders of Python that may hold a Store (the virtualenv and the
# packages are not the project's)
SOURCES = ("jarmo", "host", "web", "tools", "hardware", "tests", "device", "kit")
MUTATORS = ("append", "pop", "extend", "insert", "remove", "clear", "sort", "reverse",
            "update", "setdefault", "popitem")
# (file, private member) pairs allowed outside store_log.py: none
KNOWN = set()


def _is_store(node):
    return (isinstance(node, ast.Name) and node.id == STORE_NAME) or (
        isinstance(node, ast.Attribute) and node.attr == STORE_NAME)


def store_members_used(source):
    """The members read, called or written on a Store in a module's source."""
    return {node.attr for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and _is_store(node.value)}


def store_writes(source):
    """Where a module changes a Store's state itself: assigns or deletes a
    member, stores into one, or mutates a member's list or dict."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = ()
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = (node.target,)
        elif isinstance(node, ast.Delete):
            targets = node.targets
        flat = []
        for t in targets:
            flat += t.elts if isinstance(t, ast.Tuple) else [t]
        for t in flat:
            if isinstance(t, ast.Subscript):
                t = t.value
            if isinstance(t, ast.Attribute) and _is_store(t.value):
                found.append("%s = (line %d)" % (t.attr, node.lineno))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS and isinstance(node.func.value, ast.Attribute)
                and _is_store(node.func.value.value)):
            found.append("%s.%s() (line %d)" % (node.func.value.attr, node.func.attr, node.lineno))
    return found


def _source(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def _python_files():
    for top in SOURCES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
            for name in files:
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/")
    for name in os.listdir(ROOT):
        if name.endswith(".py"):
            yield name


def _private_members():
    """A Store's private members: its attributes and methods whose names
    start with one underscore."""
    store = Store(Flash())
    return {name for name in list(vars(store)) + list(vars(Store))
            if name.startswith("_") and not name.startswith("__")}


def test_the_helpers_use_only_the_declared_members():
    for path in HELPERS:
        unknown = sorted(store_members_used(_source(path)) - set(HELPER_MEMBERS))
        assert not unknown, "%s uses %s" % (path, unknown)


def test_the_helpers_change_a_store_only_through_its_methods():
    for path in HELPERS:
        assert store_writes(_source(path)) == [], path


def test_every_declared_member_is_a_stores_and_public():
    store = Store(Flash())
    for name in HELPER_MEMBERS:
        assert hasattr(store, name) and not name.startswith("_"), name
    changes = ("adopt", "notice", "write", "queue")
    for name in changes:
        assert callable(getattr(store, name)), name


def test_no_module_but_the_stores_own_touches_its_private_members():
    private = _private_members()
    assert {"_pending", "_fresh", "_due", "_image", "_append"} <= private
    found = []
    for path in _python_files():
        if path in ("jarmo/store_log.py", "tests/test_store_interface.py"):
            continue
        try:
            used = store_members_used(_source(path))
        except (SyntaxError, UnicodeDecodeError):
            continue                    # not Python 3 source (a fixture's data)
        found += [(path, name) for name in sorted(used & private)]
    assert set(found) <= KNOWN, sorted(set(found) - KNOWN)


def test_the_checks_see_a_private_member_and_a_write():
    source = ("def f(store, self):\n    store.seq = 1\n    self.store._due = True\n"
              "    store.problems.append('x')\n    store.newest[3] = 0\n"
              "    store.end, store.gen = 0, 1\n    return store._pending + self._mine\n")
    assert {"seq", "_due", "problems", "newest", "end", "gen", "_pending"} <= store_members_used(source)
    assert "_mine" not in store_members_used(source)
    assert store_writes(source) == ["seq = (line 2)", "_due = (line 3)", "newest = (line 5)",
                                    "end = (line 6)", "gen = (line 6)", "problems.append() (line 4)"]
