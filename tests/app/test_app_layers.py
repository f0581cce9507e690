"""The app's modules import only downwards: no cycles, no module imports jarmo.app.

The layers are tests/layers.py's APP_STEPS: a module may import app modules
of lower steps only (a state goes to another state with App.goto, never by
importing it). Checked on the source with ast: imports inside functions
too (the app loads rare code with them), and the modules App imports by
their names in app_base's SCREENS and OPPONENTS.
"""

import ast
import pathlib

from tests.layers import APP_STEPS, LAYERS

JARMO = pathlib.Path(__file__).resolve().parents[2] / "jarmo"

LAYER = dict((name, k) for k in range(len(APP_STEPS)) for name in APP_STEPS[k])

# Where App imports a module by a name it computes: the state of a screen
# (App._state: app_base.SCREENS) and the maker of an opponent's player
# (App._player: app_base.OPPONENTS). by_name() reads those tables.
COMPUTED = [("app", "_player"), ("app", "_state")]


def app_modules():
    """The app layer's modules: those tests/layers.py puts there, and any
    named app_* (a new one, which then fails for want of a step)."""
    return sorted(set(p.stem for p in JARMO.glob("app*.py")) | set(LAYERS["app"][1]))


def _walk(tree, top_level_only):
    # a function's body runs when it is called; a class's body, at import
    nodes = [tree]
    while nodes:
        node = nodes.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not (top_level_only and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))):
                nodes.append(child)


def _is_import_call(node):
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__" and node.args


def _names(path, top_level_only=False):
    """Every module name a source imports, anywhere in it (or only where
    it runs at import time): import statements and __import__ of a
    constant name."""
    out = set()
    for node in _walk(ast.parse(path.read_text(encoding="utf-8")), top_level_only):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "jarmo":
                out.update("jarmo." + a.name for a in node.names)
            else:
                out.add(node.module)
        elif _is_import_call(node) and isinstance(node.args[0], ast.Constant):
            out.add(node.args[0].value)
    return out


def by_name():
    """The jarmo modules App imports by the names in app_base's SCREENS
    (a screen's state) and OPPONENTS (a player's maker)."""
    from jarmo.app_base import MAKER, OPP, OPPONENTS, SCREEN, SCREENS
    names = set(SCREENS[k + 1] for k in range(0, len(SCREENS), SCREEN))
    names |= set(OPPONENTS[k + MAKER] for k in range(0, len(OPPONENTS), OPP))
    return set(n[6:] for n in names)


def imported_by(path, top_level_only=False):
    """The jarmo modules (short names) a source imports, anywhere in it
    (or only at import time); jarmo/app.py's include those it imports by
    name, inside functions (by_name)."""
    out = set(m[6:] for m in _names(path, top_level_only) if m.startswith("jarmo."))
    if path == JARMO / "app.py" and not top_level_only:
        out |= by_name()
    return out


def imported(name):
    """The jarmo modules an app module imports anywhere in its source."""
    return imported_by(JARMO / (name + ".py"))


def computed_imports():
    """(module, function) of every __import__ in jarmo/ whose name is computed."""
    out = set()
    for path in JARMO.glob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if _is_import_call(node) and not isinstance(node.args[0], ast.Constant):
                        out.add((path.stem, fn.name))
    return sorted(out)


def test_the_app_modules_import_each_other_without_a_cycle():
    graph = dict((name, imported(name) & set(app_modules())) for name in app_modules())
    done = set()

    def visit(name, path):
        assert name not in path, "import cycle: " + " -> ".join(path + [name])
        if name not in done:
            for dep in sorted(graph[name]):
                visit(dep, path + [name])
            done.add(name)

    for name in app_modules():
        visit(name, [])


def test_the_cycle_check_sees_imports_inside_functions_and_by_name(tmp_path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from jarmo import app_link\n    return __import__('jarmo.app_end')\n")
    assert imported_by(lazy) == {"app_link", "app_end"}
    assert imported_by(lazy, top_level_only=True) == set()
    assert {"app_menu", "app_play", "app_screens", "app_players"} <= imported("app")


def test_app_imports_by_a_computed_name_only_from_its_tables():
    # another __import__ of a computed name would be an import no test sees
    assert computed_imports() == COMPUTED


def test_every_app_module_has_a_layer():
    # a new app module takes the lowest step above everything it imports
    missing = [name for name in app_modules() if name not in LAYER]
    assert not missing, "app modules without a step in tests/layers.py APP_STEPS: %s" % missing
    gone = [name for name in LAYER if not (JARMO / (name + ".py")).exists()]
    assert not gone, "APP_STEPS names modules gone: %s" % gone


def test_the_layered_modules_import_only_downwards():
    for name in app_modules():
        for dep in imported(name):
            if dep in LAYER:
                assert LAYER[dep] < LAYER[name], "%s imports %s (not below it)" % (name, dep)


def test_the_leaf_imports_no_app_module():
    assert not imported("app_base") & set(app_modules())


def test_nothing_imports_the_app_module():
    for path in JARMO.glob("*.py"):
        if path.stem != "app":
            assert "app" not in imported(path.stem), path.name


# (The comment-header rule for every jarmo/ module: tests/test_module_docs.py.)
