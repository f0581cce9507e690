"""jarmo/ in layers (tests/layers.py): the rules core, then the AI, the
saves and the link protocol beside each other, then the app. A module
imports its own layer and those below it, never one above (checked on the
source, function-level imports too), and every module has a layer, so a new
one is placed on purpose. jarmo/ has no import cycle but the few
tests/layers.py declares (CYCLES), each below the app and closed only
inside a function.

The layers are named, not folders: a subpackage costs RAM on the board
(docs/BENCHMARKS.md, "Modules, packages and passes"), so jarmo/ stays
one folder and this test keeps the order.
"""

import pathlib

from tests.app.test_app_layers import _names, imported_by
from tests.layers import CYCLES, FROZEN_ONLY, LAYERS

JARMO = pathlib.Path(__file__).resolve().parents[1] / "jarmo"

LAYER_OF = dict((m, name) for name, (_below, modules) in LAYERS.items() for m in modules)


def imports(path, top_level_only=False):
    """The jarmo modules a module's source imports, anywhere in it or only
    at import time (the package itself as "__init__")."""
    return (imported_by(path, top_level_only)
            | ({"__init__"} if "jarmo" in _names(path, top_level_only) else set()))


def cycles(graph):
    """The groups of modules that import each other, round (Tarjan's
    strongly connected components of more than one module), each sorted."""
    index, low, stack, out = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(tuple(sorted(group)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def import_graph(top_level_only=False, folder=JARMO):
    """{module: the jarmo modules it imports} of folder's modules (jarmo/;
    tools/architecture.py reads another checkout's)."""
    return dict((p.stem, imports(p, top_level_only) - {p.stem}) for p in folder.glob("*.py"))


def test_every_module_has_a_layer():
    modules = set(p.stem for p in JARMO.glob("*.py"))
    assert sorted(modules - set(LAYER_OF)) == [], "modules without a layer in LAYERS"
    assert sorted(set(LAYER_OF) - modules - set(FROZEN_ONLY)) == [], "LAYERS names a module that is gone"


def test_no_module_imports_a_layer_above_its_own():
    wrong = []
    for path in sorted(JARMO.glob("*.py")):
        layer = LAYER_OF.get(path.stem)
        allowed = {layer} | set(LAYERS[layer][0])
        for dep in sorted(imports(path)):
            if LAYER_OF.get(dep) not in allowed:
                wrong.append("%s (%s) imports %s (%s)" % (path.stem, layer, dep, LAYER_OF.get(dep)))
    assert wrong == []


def test_the_import_cycles_are_the_declared_ones():
    # any other fails: an app module in one (linkplay's knot with app_link,
    # app_screens and app_end, say) as much as a new one below the app
    assert cycles(import_graph()) == sorted(CYCLES)
    assert not [c for c in CYCLES if set(c) & set(LAYERS["app"][1])]
    # each is closed only inside a function: no module meets another half imported
    assert cycles(import_graph(top_level_only=True)) == []


def test_the_cycle_finder_has_teeth():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_check_has_teeth(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from jarmo.app_base import wrap\n")
    assert imports(bad) == {"app_base"}
    assert LAYER_OF["app_base"] not in {"rules"} | set(LAYERS["rules"][0])


# A module's name shows its layer: the app's begin with app_, the saves'
# with store_, and no module of another layer takes either. linkplay, the
# App's side of the link protocol (jarmo/link.py), is the one app module
# named otherwise: its name pairs it with the protocol's.
PREFIXES = {"app": "app", "saves": "store_"}
NAMED_OTHERWISE = ("linkplay",)


def test_a_modules_name_shows_its_layer():
    wrong = []
    for module, layer in sorted(LAYER_OF.items()):
        prefix = PREFIXES.get(layer)
        if prefix is not None and not module.startswith(prefix) and module not in NAMED_OTHERWISE:
            wrong.append("%s (%s) is not named %s..." % (module, layer, prefix))
        for other, theirs in PREFIXES.items():
            if other != layer and module.startswith(theirs):
                wrong.append("%s (%s) is named as the %s layer" % (module, layer, other))
    assert wrong == []
