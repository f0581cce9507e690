"""The app's modules import only downwards: no cycles, no module imports jarmo.app.

The layers are tests/layers.py's APP_STEPS: a module may import app modules
of lower steps only (a state goes to another state with App.goto, never by
importing it). Checked on the source with ast, function-level imports too.
"""

import ast
import pathlib

from tests.layers import APP_STEPS

JARMO = pathlib.Path(__file__).resolve().parents[2] / "jarmo"

LAYER = dict((name, k) for k in range(len(APP_STEPS)) for name in APP_STEPS[k])


def app_modules():
    """The app's modules: those named app_*, and those APP_STEPS names."""
    return sorted(set(p.stem for p in JARMO.glob("app*.py")) | set(LAYER))


def _names(path):
    """Every module name a source imports, anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "jarmo":
                out.update("jarmo." + a.name for a in node.names)
            else:
                out.add(node.module)
    return out


def imported_by(path):
    """The jarmo modules (short names) a source imports, anywhere in it."""
    return set(m[6:] for m in _names(path) if m.startswith("jarmo."))


def imported(name):
    """The jarmo modules an app module imports anywhere in its source."""
    return imported_by(JARMO / (name + ".py"))


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


def test_every_app_module_has_a_layer():
    # a new app module takes the lowest layer above everything it imports
    missing = [name for name in app_modules() if name not in LAYER]
    assert not missing, "app modules without a step in tests/layers.py APP_STEPS: %s" % missing
    assert not [name for name in LAYER if name not in app_modules()], "APP_STEPS names a module gone"


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
