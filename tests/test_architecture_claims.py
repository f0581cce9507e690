"""docs/ARCHITECTURE.md's claims about imports, residency and files that
no other test checks, checked on the code: the source read with ast, and
what importing the app and playing into a game leave in sys.modules under
CPython (as the app forgets and imports the same modules on the board).

The claims other tests check are cited beside them in the document:
tests/test_layers.py and tests/layers.py (the layers, the names, the
cycles), tests/app/test_app_layers.py (the app's order),
tests/test_doc_quotes.py (the cycles named, the states that import
another's module, the resident screens, code.py's part),
tests/test_doc_names.py (the map names every module), tests/test_core_imports.py
(what jarmo/ may import, the contract's mirrors)."""

import ast
import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
JARMO = ROOT / "jarmo"
HARDWARE = ROOT / "hardware"


def architecture():
    return (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")


def tree(path):
    return ast.parse(path.read_text(encoding="utf-8"))


def imported_names(node):
    """The module names an import statement under node imports (with
    `from jarmo import x` as jarmo.x)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Import):
            out.update(a.name for a in n.names)
        elif isinstance(n, ast.ImportFrom) and n.module:
            if n.module in ("jarmo", "hardware"):
                out.update(n.module + "." + a.name for a in n.names)
            out.add(n.module)
    return out


def top_level_imports(path):
    """What a module imports when it is imported (outside its functions)."""
    out = set()
    nodes = list(tree(path).body)
    while nodes:
        node = nodes.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= imported_names(node)
        else:
            nodes.extend(ast.iter_child_nodes(node))
    return out


def function(path, dotted):
    """The ast of a function (`name`) or method (`Class.name`) of a module."""
    node = tree(path)
    for part in dotted.split("."):
        node = next(n for n in node.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == part)
    return node


# ---------------------------------------------------------------- files and imports

def test_the_board_code_imports_nothing_host_only():
    # "On the board (tools/deploy.py copies these whole; nothing host-only inside)"
    found = []
    for folder in (JARMO, HARDWARE):
        for path in sorted(folder.glob("*.py")):
            for name in imported_names(tree(path)):
                if name.split(".")[0] in ("host", "tools", "tests"):
                    found.append("%s imports %s" % (path.relative_to(ROOT), name))
    assert found == []


def test_the_core_rules_list_what_tests_test_core_imports_allows():
    # "Only these imports: `time random json os ...` (guarded) and `jarmo.*`"
    from tests.test_core_imports import ALLOWED_IMPORTS, GUARDED_IMPORTS
    m = re.search(r"Only these imports: `([^`]+)`\s*\(guarded\) and `jarmo\.\*`", architecture())
    assert m, "docs/ARCHITECTURE.md no longer lists the imports jarmo/ may use"
    said = m.group(1).split()
    assert set(said) | {"jarmo"} == set(ALLOWED_IMPORTS)
    assert said[-1] in GUARDED_IMPORTS          # the one said to be guarded


def test_the_layers_are_the_five_the_architecture_names():
    # "rules, then the AI, the saves and the link protocol beside each other,
    # each importing only the rules, then the app, which may import them all"
    from tests.layers import LAYERS
    assert list(LAYERS) == ["rules", "ai", "saves", "link", "app"]
    assert LAYERS["rules"][0] == ()
    assert all(LAYERS[k][0] == ("rules",) for k in ("ai", "saves", "link"))
    assert set(LAYERS["app"][0]) == {"rules", "ai", "saves", "link"}
    assert "linkplay" in LAYERS["app"][1]


def test_linkplay_loads_app_link_and_the_app_reaches_the_link_without_importing_linkplay():
    # "`linkplay` loads `app_link` for its rare paths, and the link wait
    # (`app_link`) and the result's words (`app_end`) reach the link through
    # `app.get_link()` and `app.link`, never by importing `linkplay`"
    path = JARMO / "linkplay.py"
    assert "jarmo.app_link" in imported_names(tree(path))
    assert "jarmo.app_link" not in top_level_imports(path)
    for name in ("app_link", "app_end"):
        source = JARMO / (name + ".py")
        assert "jarmo.linkplay" not in imported_names(tree(source)), name
        assert re.search(r"\bapp\.(get_link\(\)|link)\b", source.read_text(encoding="utf-8")), name


# each import cycle's imports, as docs/ARCHITECTURE.md words them: (module,
# the module it imports, the function it imports it in; None: at the top)
CYCLE_IMPORTS = [
    ("match", "game", None), ("save", "game", None),
    ("game", "save", "Game.dump"), ("game", "save", "Game.load"),
    ("match", "save", "Match.dump"), ("match", "save", "Match.load"),
    ("save", "match", "load_match"),
    ("store_read", "store_log", None), ("store_compact", "store_log", None),
    ("store_log", "store_read", "Store._read"), ("store_log", "store_compact", "Store.step"),
    ("store_compact", "store_read", "write"),
]


def test_each_import_cycle_closes_in_the_functions_the_architecture_names():
    text = " ".join(architecture().split())
    for module, target, where in CYCLE_IMPORTS:
        path = JARMO / (module + ".py")
        if where is None:
            assert "jarmo." + target in top_level_imports(path), (module, target)
        else:
            assert "jarmo." + target in imported_names(function(path, where)), (module, target, where)
            assert "jarmo." + target not in top_level_imports(path), (module, target)
            assert "`%s`" % where in text, "docs/ARCHITECTURE.md does not name %s" % where


def test_the_keys_of_the_store_are_defined_once_in_store_log():
    # "The keys are the `R_` constants of `jarmo/store_log.py`, each defined there once."
    defined = {}
    for path in sorted(JARMO.glob("*.py")):
        for node in tree(path).body:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name) and re.match(r"^R_[A-Z]+$", t.id):
                        defined.setdefault(t.id, []).append(path.stem)
    assert defined and all(where == ["store_log"] for where in defined.values()), defined


def test_the_explanations_import_the_contract_and_load_only_when_asked():
    # "`jarmo.explain` (loaded only when an action is refused) imports the contract itself"
    assert "jarmo.codes" in top_level_imports(JARMO / "explain.py")
    assert [p.stem for p in JARMO.glob("*.py") if "jarmo.explain" in top_level_imports(p)] == []


def test_rare_store_code_is_imported_only_inside_functions():
    # store_compact "loaded only between games", store_legacy "imported once"
    # (by hardware/flash.py, which opens the store)
    for name in ("store_compact", "store_legacy"):
        at_import = [p.relative_to(ROOT).as_posix() for folder in (JARMO, HARDWARE)
                     for p in sorted(folder.glob("*.py")) if "jarmo." + name in top_level_imports(p)]
        assert at_import == [], (name, at_import)
    flash = imported_names(tree(HARDWARE / "flash.py"))
    assert {"jarmo.store_flash", "jarmo.store_legacy"} <= flash


def test_code_py_only_calls_the_programs_main():
    # "`code.py` only calls `hardware/program.py`'s `main()`"
    body = [n for n in tree(ROOT / "code.py").body
            if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    imports = set()
    calls = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports |= imported_names(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            calls.append(node.value.func.id)
    assert "hardware.program" in imports and calls == ["main"]


def forgotten(path):
    """The modules a source forgets (`forget_module("name")`)."""
    return set(n.args[0].value for n in ast.walk(tree(path))
               if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "forget_module"
               and n.args and isinstance(n.args[0], ast.Constant))


def test_the_programs_start_up_code_is_forgotten_once_used():
    # startup.py "off the heap once the main loop runs", config.py "read once
    # at start-up", oled.py "made at start-up (then forgotten)", deepsleep.py
    # "loaded only then"
    assert "hardware.startup" in forgotten(HARDWARE / "program.py")
    assert "hardware.deepsleep" in forgotten(HARDWARE / "program.py")
    assert {"hardware.config", "hardware.oled"} <= forgotten(HARDWARE / "startup.py")


def test_the_display_stack_and_the_idle_modules_load_only_when_needed():
    # "The display stack (`displayio`, `busdisplay`, `hardware/display.py`) is
    # imported only for profiles with a display"; deepsleep.py "loaded only
    # then", cpuclock.py "loaded at the first dark"
    lazy = {"displayio", "busdisplay", "hardware.display", "hardware.oled", "hardware.deepsleep",
            "hardware.cpuclock"}
    found = []
    for path in sorted(HARDWARE.glob("*.py")):
        if path.stem in ("display", "oled", "deepsleep", "cpuclock"):
            continue
        found += ["%s: %s" % (path.name, m) for m in sorted(top_level_imports(path) & lazy)]
    assert found == []
    assert "hardware.cpuclock" in imported_names(tree(HARDWARE / "power.py"))


def test_the_app_forgets_rare_code_and_keeps_the_explanations():
    # app_start "removed from sys.modules right after"; the menu and the rows
    # of SCREENS made on demand forgotten when they close; app_assist "until
    # the next game"; jarmo.explain "which then stays"; store_compact "loaded
    # only between games" (the store forgets it after a compaction)
    app = forgotten(JARMO / "app.py")
    assert {"jarmo.app_start", "jarmo.app_menu", "jarmo.app_assist"} <= app
    assert "jarmo.store_compact" in forgotten(JARMO / "store_log.py")
    assert [p.stem for p in JARMO.glob("*.py") if "jarmo.explain" in forgotten(p)] == []


# ---------------------------------------------------------------- residency

RESIDENCY = r"""
import json, sys
def loaded():
    return sorted(m[6:] for m in sys.modules if m.startswith("jarmo."))
import jarmo.app
from jarmo.app import App, PRELOAD
out = {"import": loaded(), "preload": list(PRELOAD)}
from tests.app.drive import Clock, new_game, wait_state
app = App()
clock = Clock(app)
clock.run(50)
out["menu"] = loaded()
new_game(clock, "standard", opponent="AI greedy")
wait_state(clock, "play")
out["game"] = loaded()
from tests.app.drive import Rand, play_out
from jarmo.app_buttons import SELECT
play_out(clock, Rand(1))
out["end"] = [app.state, loaded()]
for _ in range(20):
    if app.state == "menu":
        break
    clock.press(SELECT)
    clock.run(200)
out["left"] = [app.state, loaded()]
print(json.dumps(out))
"""

_SEEN = {}


def residency():
    """The jarmo modules in sys.modules after `import jarmo.app`, at the
    menu of a new App, and in a game against the greedy AI (a fresh CPython)."""
    if not _SEEN:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-P", "-c", RESIDENCY], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        _SEEN.update(json.loads(done.stdout.strip().splitlines()[-1]))
    return _SEEN


def test_the_app_loads_a_games_states_with_it():
    # "`jarmo.app` imports the modules of a game's states (app_play with
    # app_turn), so their code is loaded with the App"
    assert {"app_base", "app_view", "app_turn", "app_play"} <= set(residency()["import"])


def test_the_menu_and_rare_screens_are_not_loaded_with_the_app():
    # the map's "on demand" modules, and the store's compaction
    on_demand = {"app_assist", "app_screens", "app_menu", "app_help", "app_stats", "app_campaign", "app_lesson",
                 "app_link", "app_start", "app_legend", "app_end", "store_compact", "explain"}
    assert sorted(on_demand & set(residency()["import"])) == []


def test_a_game_is_played_without_the_menus_code_or_the_start_ups():
    # "a game is played without its code" (the menu); app_start "is removed
    # from sys.modules right after"; the end of a game is imported when it ends
    game = set(residency()["game"])
    assert "app_menu" in residency()["menu"]
    assert sorted(game & {"app_menu", "app_start", "app_screens", "app_end", "store_compact"}) == []
    assert {"app_play", "app_turn"} <= game


def test_the_end_of_a_game_is_loaded_when_it_ends_and_forgotten_when_it_is_left():
    # "The end of a game (app_screens: the end, the result and the start-up
    # notice) is imported when the game ends and forgotten when the result is left"
    state, at_end = residency()["end"]
    assert state in ("end", "result") and "app_screens" in at_end
    state, left = residency()["left"]
    assert state == "menu" and "app_screens" not in left


def test_the_preload_is_the_ai_and_its_evaluation():
    # "`PRELOAD` (jarmo/app.py: jarmo.evaluation, jarmo.ai)"
    assert residency()["preload"] == ["jarmo.evaluation", "jarmo.ai"]
    assert "`PRELOAD`\n(jarmo/app.py: jarmo.evaluation, jarmo.ai)" in architecture()
