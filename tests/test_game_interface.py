"""The search, its evaluation and the explanations use a Game through its
public API and the search interface (jarmo.codes.SEARCH_MEMBERS): no private
member, and they change a position only through a Game's own methods."""

import ast
import os

from jarmo import Game
from jarmo.codes import SEARCH_MEMBERS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the names those modules give a Game: its parameter, a local, the private copy
GAME_NAMES = ("g", "game", "sim", "other")
SEARCH_MODULES = ("ai.py", "evaluation.py", "explain.py")
MUTATORS = ("append", "pop", "extend", "insert", "remove", "clear", "sort", "reverse")


def _is_game(node):
    return (isinstance(node, ast.Name) and node.id in GAME_NAMES) or (
        isinstance(node, ast.Attribute) and node.attr == "_g")


def game_members_used(source):
    """The members read, called or written on a Game in a module's source."""
    return {node.attr for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and _is_game(node.value)}


def _holds(node, aliases):
    """node is a Game's member, or a local bound to one."""
    return (isinstance(node, ast.Attribute) and _is_game(node.value)) or (
        isinstance(node, ast.Name) and node.id in aliases)


def game_writes(source):
    """Where a module changes a Game's state itself: assigns a member, or
    stores into or mutates a member's array or list (directly or through a
    local bound to it)."""
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef):
            continue
        aliases = set()
        for node in ast.walk(fn):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute)
                    and _is_game(node.value.value)):
                aliases.update(t.id for t in node.targets if isinstance(t, ast.Name))

        for node in ast.walk(fn):
            targets = ()
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign):
                targets = (node.target,)
            for t in targets:
                if isinstance(t, ast.Attribute) and _is_game(t.value):
                    found.append("%s = (line %d)" % (t.attr, node.lineno))
                elif isinstance(t, ast.Subscript) and _holds(t.value, aliases):
                    found.append("[...] = (line %d)" % node.lineno)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in MUTATORS and _holds(node.func.value, aliases)):
                found.append("%s() (line %d)" % (node.func.attr, node.lineno))
    return list(dict.fromkeys(found))    # (a nested function is walked twice)


def _source(name):
    with open(os.path.join(ROOT, "jarmo", name)) as f:
        return f.read()


def test_the_search_and_the_explanations_use_no_private_member_of_a_game():
    for name in SEARCH_MODULES:
        private = sorted(m for m in game_members_used(_source(name)) if m.startswith("_"))
        assert not private, "%s uses %s" % (name, private)


def test_every_member_they_use_is_the_public_api_or_the_search_interface():
    g = Game("standard", ("heroes", "challenges"))
    for name in SEARCH_MODULES:
        unknown = sorted(m for m in game_members_used(_source(name)) if not hasattr(g, m))
        assert not unknown, "%s uses %s" % (name, unknown)


def test_they_change_a_game_only_through_its_methods():
    for name in SEARCH_MODULES:
        assert game_writes(_source(name)) == [], name


def test_every_declared_member_is_a_games_and_public():
    g = Game("standard", ("heroes", "challenges"))
    for name in SEARCH_MEMBERS:
        assert hasattr(g, name) and not name.startswith("_"), name


def test_the_checks_see_a_private_member_and_a_write():
    source = ("def f(g, self):\n    top = g.top\n    top[3] = 0\n    g.mover = 1\n"
              "    g.undo_log.append(5)\n    return g._secret + self._g._other + self._mine\n")
    assert {"_secret", "_other"} <= game_members_used(source)
    assert "_mine" not in game_members_used(source)
    assert game_writes(source) == ["[...] = (line 3)", "mover = (line 4)", "append() (line 5)"]
