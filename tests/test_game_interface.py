"""The search, its evaluation and the explanations use a Game through the
members the contract declares (jarmo.codes.SEARCH_MEMBERS), and every one
exists."""

import ast
import os

from jarmo import Game
from jarmo.codes import SEARCH_MEMBERS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the names those modules give a Game: its parameter, a local, the private copy
GAME_NAMES = ("g", "game", "sim", "other")


def game_members_used(source):
    """The private members read or called on a Game in a module's source."""
    used = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        v = node.value
        if (isinstance(v, ast.Name) and v.id in GAME_NAMES) or (
                isinstance(v, ast.Attribute) and v.attr == "_g"):
            used.add(node.attr)
    return used


def _source(name):
    with open(os.path.join(ROOT, "jarmo", name)) as f:
        return f.read()


def test_the_search_and_the_explanations_stay_within_the_declared_members():
    for name in ("ai.py", "evaluation.py", "explain.py"):
        outside = game_members_used(_source(name)) - set(SEARCH_MEMBERS)
        assert not outside, "%s uses %s" % (name, sorted(outside))


def test_every_declared_member_is_a_games():
    g = Game("standard", ("heroes", "challenges"))
    for name in SEARCH_MEMBERS:
        assert hasattr(g, name), name


def test_the_check_sees_a_member_outside_the_interface():
    source = "def f(g, self):\n    return g._secret + self._g._other + self._mine\n"
    assert game_members_used(source) == {"_secret", "_other"}
