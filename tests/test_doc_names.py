"""The documents name only Python that exists: every module, function, class
and constant a document puts in backticks (`jarmo/app_base.py`,
`app_base.SCREENS`, `Game.load`, `forget_module()`, `SEARCH_MEMBERS`) is in
the source, read with ast (nothing is imported)."""

import ast
import os
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = (sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
        + sorted((ROOT / "hardware").glob("*.md")) + [ROOT / "tests" / "device" / "README.md"])
PACKAGES = ("jarmo", "hardware", "host", "tools", "tests", "web")
SPAN = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+(\(.*\))?$")
CALL = re.compile(r"^([a-z_]\w*)\(.*\)$")
CONSTANT = re.compile(r"^_?[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^_?[A-Z]{4,}$")
CLASS = re.compile(r"^[A-Z][a-z0-9]+([A-Z][a-z0-9]*)+$")
SNAKE = re.compile(r"^_?[a-z][a-z0-9]*(_[a-z0-9]+)+$")
STATES = re.compile(r"\bstates? ((?:`\w+`(?:, | and | or )?)+)")
PATH = re.compile(r"^[\w./-]+\.(py|md|mjs|js|html|css|toml)$")
FENCED = re.compile(r"^```.*?^```", re.S | re.M)
IMPORT = re.compile(r"^from ([\w.]+) import ([\w, ]+)", re.M)
# Names of other software the documents speak of: CircuitPython's and the
# board's (board, I2CDisplayBus, microcontroller.on_next_reset, the build's
# settings), python-chess's, and the pattern of the screens' ids.
ELSEWHERE = ("board", "I2CDisplayBus", "on_next_reset", "CIRCUITPY_FIRMWARE_SIZE",
             "CIRCUITPY_HEAP_START_SIZE", "scan", "uci", "S_NAME")
# (build/ holds what the tools make: a document's check never depends on
# whether a build ran before it)
SKIP_DIRS = (".venv", "node_modules", ".git", "__pycache__", ".pytest_cache", "build")


class Source:
    """Every name the project's Python defines: per module (dotted name) its
    top-level names, per class its members (methods, class attributes and
    self.x assignments), and every string constant (settings keys, ids)."""

    def __init__(self, packages):
        self.modules = {}      # "jarmo.app_base": set of names
        self.classes = {}      # "Game": set of members (all classes of that name)
        self.defined = set()   # every name defined anywhere
        self.bases = {}        # class name: the names of its bases
        self.strings = set()
        self.files = set()
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            rel = os.path.relpath(folder, ROOT)
            for name in files:
                self.files.add(name)
                self.files.add(os.path.normpath(os.path.join(rel, name)))
        self.protocol = set()  # the emulator's words (tests/device/*.mjs: its JSON fields)
        for path in (ROOT / "tests" / "device").glob("*.mjs"):
            self.protocol.update(re.findall(r"\w+", path.read_text(encoding="utf-8")))
        this = pathlib.Path(__file__).resolve()
        for path in sorted(ROOT.glob("*.py")) + [p for pkg in packages for p in (ROOT / pkg).rglob("*.py")]:
            if path == this:
                continue
            rel = path.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            self._read(".".join(parts), ast.parse(path.read_text(encoding="utf-8")))

    def _read(self, module, tree):
        names = self.modules.setdefault(module, set())
        for node in tree.body:
            names.update(_bound(node))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                self.defined.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.defined.add(node.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                self.strings.update(re.findall(r"\w+", node.value))
                self.strings.add(node.value.strip("/"))
            if isinstance(node, ast.ClassDef):
                self.bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases)
                members = self.classes.setdefault(node.name, set())
                for item in node.body:
                    members.update(_bound(item))
                for item in ast.walk(node):
                    if (isinstance(item, ast.Attribute) and isinstance(item.ctx, ast.Store)
                            and isinstance(item.value, ast.Name) and item.value.id == "self"):
                        members.add(item.attr)
                self.defined.update(members)
        self.defined.update(names)

    @property
    def states(self):
        """The app's screen classes: State and what derives from it."""
        found = {"State"}
        while True:
            more = {c for c, bases in self.bases.items() if bases & found} - found
            if not more:
                return found
            found |= more

    def module(self, name):
        """The dotted module a name means: itself, or a short name of one
        module (app_base: jarmo.app_base)."""
        if name in self.modules:
            return name
        found = [m for m in self.modules if m.rsplit(".", 1)[-1] == name]
        return found[0] if len(found) == 1 else None

    def missing(self, span):
        """Why the span names something that is not there, or None."""
        if (span.split("(")[0].split(".")[0] in ELSEWHERE or span in self.strings
                or set(re.findall(r"\w+", span)) <= self.protocol):
            return None
        if PATH.match(span):
            return None if span.lstrip("/") in self.files else "no file " + span
        m = CALL.match(span)
        if m:
            return None if m.group(1) in self.defined else "no function " + m.group(1)
        if DOTTED.match(span):
            return self._dotted(span.split("(")[0].split("."))
        if CONSTANT.match(span) or CLASS.match(span) or SNAKE.match(span):
            return None if span in self.defined or span in self.strings else "no name " + span
        return None

    def _dotted(self, parts):
        # the longest prefix that is a module, then members of it
        for k in range(len(parts), 0, -1):
            module = self.module(".".join(parts[:k]))
            if module is not None and (k > 1 or parts[0] in PACKAGES or parts[0] == module
                                       or "." in module):
                rest = parts[k:]
                if not rest:
                    return None
                if rest[0] not in self.modules[module] and module + "." + rest[0] not in self.modules:
                    return "no %s in %s" % (rest[0], module)
                if len(rest) > 1 and rest[0] in self.classes and rest[1] not in self.classes[rest[0]]:
                    return "no %s.%s" % (rest[0], rest[1])
                return None
        if parts[0] in self.classes:
            members = self.classes[parts[0]]
            return None if parts[1] in members else "no %s.%s" % (parts[0], parts[1])
        return None       # not Python of this project (a file name, a setting, a library)


def _bound(node):
    """The names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if isinstance(node, (ast.If, ast.Try)):
        out = set()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                out |= _bound(child)
        for handler in getattr(node, "handlers", ()):
            for child in handler.body:
                out |= _bound(child)
        return out
    return set()


_SOURCES = {}


def source(with_tests=False):
    """The project's names; with_tests: the tests' too (a second look, for
    what the code alone does not have: parsing the tests takes seconds)."""
    if with_tests not in _SOURCES:
        _SOURCES[with_tests] = Source(PACKAGES if with_tests else PACKAGES[:-2] + PACKAGES[-1:])
    return _SOURCES[with_tests]


def stale_names(text):
    """What a document's backticked names and its examples' imports name
    that is not there."""
    found = _stale(text, source())
    return sorted(found & _stale(text, source(True))) if found else []


def _stale(text, src):
    prose = FENCED.sub("", text)
    spans = [span.strip() for span in SPAN.findall(prose)]
    found = set()
    for names in STATES.findall(prose):        # "state `Menu`", "states `Play` and `Ai`"
        found |= {"`%s`: no state class %s" % (n, n) for n in re.findall(r"`(\w+)`", names)
                  if not (n in src.states if n[:1].isupper() else n in src.strings)}
    for block in FENCED.findall(text):
        for module, names in IMPORT.findall(block):
            spans += [module + "." + name.strip() for name in names.split(",") if name.strip()]
    return found | {"`%s`: %s" % (span, why) for span in spans for why in [src.missing(span)] if why}


def test_every_python_name_a_document_gives_exists():
    found = []
    for doc in DOCS:
        found += ["%s %s" % (doc.relative_to(ROOT), line)
                  for line in stale_names(doc.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_sees_names_that_are_gone():
    text = ("`jarmo/app_base.py` `app_base.SCREENS` `Game.load` `forget_module()` "
            "`SEARCH_MEMBERS` `jarmo.codes.SEARCH_MEMBERS` `JARMO_TRACE`\n"
            "`jarmo/gone.py` `app_base.SPOTS` `Game.vanished` `vanished()` `SCORED_RULE_SETS` "
            "`jarmo.gone` `PlayerOfOld` states `Menu` and `Overlay`\n"
            "```\nfrom jarmo.game import RULE_SETS, GONE_TOO\n```\n")
    assert stale_names(text) == sorted([
        "`jarmo/gone.py`: no file jarmo/gone.py", "`app_base.SPOTS`: no SPOTS in jarmo.app_base",
        "`Game.vanished`: no Game.vanished", "`vanished()`: no function vanished",
        "`SCORED_RULE_SETS`: no name SCORED_RULE_SETS", "`jarmo.gone`: no gone in jarmo",
        "`PlayerOfOld`: no name PlayerOfOld", "`Overlay`: no state class Overlay",
        "`jarmo.game.GONE_TOO`: no GONE_TOO in jarmo.game"])


def test_the_hardware_package_names_each_of_its_modules():
    import hardware
    modules = sorted(p.stem for p in (ROOT / "hardware").glob("*.py") if p.stem != "__init__")
    assert [m for m in modules if m not in hardware.__doc__] == []


def _module_map():
    """docs/ARCHITECTURE.md's map of the code: its first fenced block."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    return FENCED.search(text).group(0)


def test_the_architecture_map_names_every_module_of_the_board_and_no_other():
    block = _module_map()
    words = set(re.findall(r"\b\w+\b", block))
    missing = ["%s/%s.py" % (folder, p.stem) for folder in ("jarmo", "hardware", "host")
               for p in sorted((ROOT / folder).glob("*.py"))
               if p.stem != "__init__" and p.stem not in words]
    assert missing == [], "modules the map of docs/ARCHITECTURE.md leaves out"
    everywhere = set(p.name for p in ROOT.rglob("*.py")
                     if not any(part in SKIP_DIRS for part in p.parts))
    gone = [name for name in re.findall(r"\b\w+\.py\b", block) if name not in everywhere]
    assert gone == [], "files the map names that do not exist"
