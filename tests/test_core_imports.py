"""jarmo/ stays portable: only allowed imports and no constructs MicroPython,
CircuitPython or the architecture rules forbid (docs/ARCHITECTURE.md,
"Core rules for jarmo/"). Checked on the source with ast, so a bad module is
named with file:line even when it would not import.
"""

import ast
import io
import pathlib
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
JARMO = ROOT / "jarmo"

ALLOWED_IMPORTS = frozenset(
    ("time", "random", "json", "os", "gc", "sys", "micropython", "struct", "array", "errno", "jarmo"))
# Modules absent on CircuitPython: importing them must be guarded by
# try/except ImportError.
GUARDED_IMPORTS = frozenset(("micropython",))
FORBIDDEN_NAMES = {
    "dataclass": "dataclasses are not available on MicroPython",
    "dataclasses": "dataclasses are not available on MicroPython",
    "enum": "enum is not available on MicroPython",
    "Enum": "enum is not available on MicroPython",
    "IntEnum": "enum is not available on MicroPython",
    "IntFlag": "enum is not available on MicroPython",
}
FORBIDDEN_ATTRIBUTES = {
    "bit_length": "int.bit_length does not exist on MicroPython",
}
FORBIDDEN_TIME = {
    "monotonic": "time.monotonic: clocks come from the caller as integer milliseconds",
    "monotonic_ns": "time.monotonic_ns: clocks come from the caller as integer milliseconds",
    "ticks_ms": "time.ticks_ms is not on CircuitPython; clocks come from the caller",
    "ticks_us": "time.ticks_us is not on CircuitPython; clocks come from the caller",
    "ticks_diff": "time.ticks_diff is not on CircuitPython; clocks come from the caller",
    "ticks_add": "time.ticks_add is not on CircuitPython; clocks come from the caller",
}


def jarmo_files():
    return [p for p in sorted(JARMO.rglob("*.py")) if "__pycache__" not in p.parts]


# ---- f-string debug specifier: f"{x=}" ----

def fstring_has_debug_specifier(body):
    """True when the body of an f-string literal (no prefix, no quotes) has
    a replacement field with the self-documenting '=' (f"{x=}", f"{x = :>3}").

    At bracket depth 0 of a field's expression, outside string literals, a
    lone '=' can only be that specifier: assignment is not an expression,
    keyword arguments sit inside brackets, and ==, !=, <=, >= are operators.
    """
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "{":
            if body.startswith("{{", i):
                i += 2
                continue
            j, depth, quote = i + 1, 0, None
            while j < n:
                ch = body[j]
                if quote:
                    if body.startswith(quote, j):
                        j += len(quote)
                        quote = None
                        continue
                elif ch in "'\"":
                    quote = body[j:j + 3] if body.startswith(ch * 3, j) else ch
                    j += len(quote)
                    continue
                elif ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    if depth == 0:
                        break
                    depth -= 1
                elif depth == 0:
                    if ch == "!" and not body.startswith("!=", j):
                        break
                    if ch == ":":
                        break
                    if ch == "=" and body[j - 1] not in "=!<>" and not body.startswith("==", j):
                        return True
                    if ch == "=" and body.startswith("==", j):
                        j += 2
                        continue
                j += 1
            # skip the rest of the field (conversion, format spec with nested fields)
            depth = 0
            while j < n:
                if body[j] == "{":
                    depth += 1
                elif body[j] == "}":
                    if depth == 0:
                        break
                    depth -= 1
                j += 1
            i = j + 1
        else:
            i += 1
    return False


def _fstring_bodies(source_segment):
    """The bodies of the f-string literals among the string tokens of a segment."""
    tokens = tokenize.generate_tokens(io.StringIO(source_segment).readline)
    for tok in tokens:
        if tok.type != tokenize.STRING:
            continue
        text = tok.string
        k = 0
        while text[k] not in "'\"":
            k += 1
        prefix = text[:k].lower()
        if "f" not in prefix:
            continue
        quote = text[k:k + 3] if text[k:k + 3] in ('"""', "'''") else text[k]
        yield text[k + len(quote):len(text) - len(quote)]


# ---- the checker ----

def _in_import_error_guard(node, parents):
    """True when node sits in the body of a try that catches ImportError."""
    child = node
    parent = parents.get(child)
    while parent is not None:
        if isinstance(parent, ast.Try) and child in parent.body:
            for handler in parent.handlers:
                names = []
                if handler.type is None:
                    return True
                for t in (handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]):
                    names.append(getattr(t, "id", getattr(t, "attr", None)))
                if "ImportError" in names or "Exception" in names:
                    return True
        child, parent = parent, parents.get(parent)
    return False


def check_source(source, filename="<source>"):
    """Problems as 'file:line: message' strings."""
    tree = ast.parse(source, filename)
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    problems = []

    def flag(node, message):
        problems.append("%s:%d: %s" % (filename, node.lineno, message))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top not in ALLOWED_IMPORTS:
                    flag(node, "import %s is not allowed in jarmo/" % alias.name)
                elif top in GUARDED_IMPORTS and not _in_import_error_guard(node, parents):
                    flag(node, "import %s must be guarded by try/except ImportError" % alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                continue  # relative: inside jarmo
            top = (node.module or "").split(".")[0]
            if top not in ALLOWED_IMPORTS:
                flag(node, "from %s import ... is not allowed in jarmo/" % node.module)
                continue
            if top in GUARDED_IMPORTS and not _in_import_error_guard(node, parents):
                flag(node, "from %s import ... must be guarded by try/except ImportError" % node.module)
            if top == "time":
                for alias in node.names:
                    if alias.name in FORBIDDEN_TIME:
                        flag(node, FORBIDDEN_TIME[alias.name])
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            flag(node, "%s: %s" % (node.id, FORBIDDEN_NAMES[node.id]))
        elif isinstance(node, ast.Attribute):
            if node.attr in FORBIDDEN_ATTRIBUTES:
                flag(node, ".%s(: %s" % (node.attr, FORBIDDEN_ATTRIBUTES[node.attr]))
            elif node.attr in FORBIDDEN_NAMES:
                flag(node, "%s: %s" % (node.attr, FORBIDDEN_NAMES[node.attr]))
            elif (node.attr in FORBIDDEN_TIME and isinstance(node.value, ast.Name)
                  and node.value.id == "time"):
                flag(node, FORBIDDEN_TIME[node.attr])
        elif isinstance(node, ast.JoinedStr) and not isinstance(parents.get(node), ast.JoinedStr):
            segment = ast.get_source_segment(source, node)
            if segment and any(fstring_has_debug_specifier(b) for b in _fstring_bodies(segment)):
                flag(node, 'f-string "=" debug specifier (f"{x=}") is not supported on MicroPython')
    return sorted(set(problems), key=lambda p: (int(p.split(":")[1]), p))


def check_file(path):
    source = path.read_text(encoding="utf-8")
    return check_source(source, str(path.relative_to(ROOT)))


# ---- the tests ----

def test_jarmo_has_modules():
    assert jarmo_files(), "jarmo/ has no .py files"


@pytest.mark.parametrize("path", jarmo_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_jarmo_module_is_portable(path):
    problems = check_file(path)
    assert not problems, "\n".join(problems)


# The checker itself.

@pytest.mark.parametrize("source", [
    "import itertools",
    "import functools as f",
    "from typing import List",
    "from __future__ import annotations",
    "import collections.abc",
    "from dataclasses import dataclass",
    "import enum",
    "import micropython",
    "from micropython import const",
    "@dataclass\nclass A:\n    x: int = 0",
    "class C(Enum):\n    A = 1",
    "n = (5).bit_length()",
    "import time\nt = time.monotonic()",
    "import time\nt = time.ticks_ms()",
    "from time import ticks_ms",
    'x = 1\ns = f"{x=}"',
    's = f"{x = }"',
    's = f"{x=!r}"',
    's = f"{x=:>4}"',
    's = f"a {b} {x+1=}"',
    's = "plain " f"{x=}"',
    "s = f'''{x=}'''",
])
def test_checker_flags(source):
    assert check_source(source, "x.py"), source


@pytest.mark.parametrize("source", [
    "import time, random, json, os, gc, sys, struct, array, errno",
    "import jarmo.board\nfrom jarmo.game import Game\nfrom . import board",
    "try:\n    from micropython import const\nexcept ImportError:\n    def const(x):\n        return x",
    "try:\n    import micropython\nexcept (ImportError, AttributeError):\n    micropython = None",
    "import time\nt = time.sleep(0)",
    's = f"a={x}"',
    's = f"{x==y} {x!=y} {x<=y} {x>=y}"',
    's = f"{f(a=1)} {d[\'=\']} {x!r:>{w}}"',
    's = f"{{x=}}"',
    's = "{x=}".format(x=1)',
    "s = \"%d\" % n",
    'ply_limit = None\nenumerate([1])',
])
def test_checker_allows(source):
    assert check_source(source, "x.py") == [], source


def test_checker_names_file_and_line():
    assert check_source("x = 1\n\nimport itertools\n", "jarmo/x.py") == [
        "jarmo/x.py:3: import itertools is not allowed in jarmo/"]


# ---- the int contract: private const() mirrors of jarmo/codes.py ----
# MicroPython inlines a const() only inside the module that declares it, so a
# hot module may mirror a contract name as `_NAME = const(value)`; every such
# mirror in jarmo/ must hold the contract's value.

def contract():
    """{name: value} of every const() name jarmo/codes.py declares."""
    import jarmo.codes

    tree = ast.parse((JARMO / "codes.py").read_text(encoding="utf-8"))
    names = [target.id for node in tree.body if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "const"
             for target in node.targets]
    return {name: getattr(jarmo.codes, name) for name in names}


def const_mirrors(path, names):
    """(line, name, value) of each top-level `_NAME = const(literal)` with NAME in names."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", "") == "const"):
            name = node.targets[0].id
            if name.startswith("_") and name[1:] in names:
                found.append((node.lineno, name[1:], ast.literal_eval(node.value.args[0])))
    return found


def test_the_contract_names_flags_kinds_and_the_undo_entry():
    names = contract()
    for name in ("PRESENT", "NORTH", "GUARD", "MARK", "GOLD", "MOVE", "RECALL", "PLACE", "DONE",
                 "FLIP", "FLIP_PLACE", "REDEPLOY", "ACTION_BITS", "START", "AFTER_R", "TO_HOSTAGE"):
        assert name in names, name
    kinds = [names[k] for k in ("MOVE", "RECALL", "PLACE", "DONE", "FLIP", "FLIP_PLACE", "REDEPLOY")]
    assert sorted(kinds) == list(range(7)), "the kinds fill the low 3 bits of a code"
    flags = [names[f] for f in ("PRESENT", "NORTH", "GUARD", "MARK", "GOLD")]
    assert flags == [1, 2, 4, 8, 16], "one bit each, in the order of the table"


def test_the_core_mirrors_the_contract():
    mirrored = {path.name: const_mirrors(path, contract()) for path in jarmo_files()}
    assert {"PRESENT", "MOVE", "AFTER_R", "TO_HOSTAGE"} <= {m[1] for m in mirrored["game.py"]}
    assert {"MOVE", "RECALL", "PLACE", "DONE", "KIND_BITS", "SOURCE", "TARGET", "STAGE"} <= {
        m[1] for m in mirrored["ai.py"]}
    assert {"NORTH", "GUARD", "MARK"} <= {m[1] for m in mirrored["evaluation.py"]}


@pytest.mark.parametrize("path", jarmo_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_mirror_of_the_contract_holds_its_value(path):
    names = contract()
    wrong = ["%s:%d: _%s = %r, but jarmo/codes.py says %r" % (path.name, line, name, value, names[name])
             for line, name, value in const_mirrors(path, names) if value != names[name]]
    assert not wrong, "\n".join(wrong)


# The AI's hot modules name every bit they take out of a code, an undo entry,
# a piece byte or a key: a mask or a shift by a number other than 1 is one
# that bypasses the contract (or an AI-only layout without a named const).
NAMED_BITS = ("ai.py", "evaluation.py")


def bare_bit_literals(source):
    """(line, text) of each `x & n`, `x >> n`, `x << n` (either side) with an
    int literal n other than 0 and 1, outside const() declarations."""
    tree = ast.parse(source)
    declared = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "const":
            declared.update(id(n) for n in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.RShift, ast.LShift))
                and id(node) not in declared):
            for side in (node.left, node.right):
                if (isinstance(side, ast.Constant) and type(side.value) is int
                        and side.value not in (0, 1)):
                    found.append((node.lineno, ast.get_source_segment(source, node)))
    return found


@pytest.mark.parametrize("name", NAMED_BITS)
def test_the_ai_names_its_bit_masks_and_shifts(name):
    bare = bare_bit_literals((JARMO / name).read_text(encoding="utf-8"))
    assert not bare, "\n".join("%s:%d: %s" % (name, line, text) for line, text in bare)


def test_a_bare_mask_or_shift_is_found():
    source = ("_KIND_BITS = const(7)\n_KEY = const(1 << 22)\n"
              "k = c & _KIND_BITS\nt = c >> 8\nq = p & 2\nb = 1 << k\nh = x >> 1\n")
    assert bare_bit_literals(source) == [(4, "c >> 8"), (5, "p & 2")]


def test_the_ai_modules_share_their_private_consts_alike():
    # MicroPython inlines a const() only in its own module, so ai.py and
    # evaluation.py each declare what both use; the two must agree.
    def consts(name):
        found = {}
        for node in ast.parse((JARMO / name).read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and getattr(node.value.func, "id", "") == "const"):
                found[node.targets[0].id] = ast.dump(node.value.args[0])
        return found
    ai, ev = consts("ai.py"), consts("evaluation.py")
    shared = set(ai) & set(ev)
    assert {"_FREE_ALL", "_UNREACHABLE"} <= shared
    assert {n: ai[n] for n in shared} == {n: ev[n] for n in shared}


def test_a_wrong_mirror_is_found(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("_MOVE = const(0)\n_DONE = const(4)\nDONE = const(25)\n")
    assert const_mirrors(bad, contract()) == [(1, "MOVE", 0), (2, "DONE", 4)]


# ---- methods of the builtin types that MicroPython lacks ----
# Derived from the interpreters themselves, not a hand list: a method that
# CPython's str, bytes, list, dict, ... have and MicroPython 1.27's do not
# (str.capitalize, str.zfill, list.copy on some ports, ...) fails there at
# run time, on a path a test may never take. A name jarmo/ defines itself
# (a method of its own classes) is not flagged.

BUILTIN_TYPES = ("str", "bytes", "bytearray", "list", "tuple", "dict", "set", "frozenset", "int")


def micropython_methods(micropython):
    code = "for t in (%s):\n    print(' '.join(dir(t)))\n" % ", ".join(BUILTIN_TYPES)
    rc, out, err = micropython([code])
    assert rc == 0, out + err
    return set(out.split())


def cpython_only_methods(mp_methods):
    names = set()
    for t in BUILTIN_TYPES:
        names.update(n for n in dir(eval(t)) if not n.startswith("_"))
    return names - mp_methods


def own_names():
    names = set()
    for path in jarmo_files() + sorted((ROOT / "hardware").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
    return names


def method_calls(path, names):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return ["%s:%d: .%s() is not on MicroPython" % (path.relative_to(ROOT), node.lineno, node.func.attr)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in names]


def test_jarmo_calls_no_method_micropython_lacks(micropython):
    missing = cpython_only_methods(micropython_methods(micropython)) - own_names()
    assert {"capitalize", "zfill", "casefold"} <= missing   # the check has teeth
    device = jarmo_files() + sorted((ROOT / "hardware").glob("*.py")) + [ROOT / "code.py", ROOT / "boot.py"]
    problems = []
    for path in device:
        problems += method_calls(path, missing)
    assert not problems, "\n".join(problems)
