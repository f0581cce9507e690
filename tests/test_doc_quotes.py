"""The documents quote only what is there: every command, file name, menu
word and script event a tracked Markdown file quotes (in backticks, code
blocks and links) is checked against the code, as tests/test_doc_names.py
checks the Python names they give.

- `python3 run.py COMMAND --option`: COMMAND is one of run.py's commands and
  each option one that the command's --help lists (choices `a|b|c` too);
  `python3 tools/X.py --option`: the tool exists and its source takes the
  option; a bare `python` (not `python3`, not `.venv/bin/python`) fails on a
  machine that has no `python`, and outside .venv.
- a quoted path (with a `/`, or a file name with a known extension) exists in
  the checkout, or under what the build makes (build/, .venv/, ...); a
  link's heading (`#anchor`) and a section named after its file
  (docs/APP.md, Saves) exist.
- the menu's words (`the menu's X`, `the menu: a, b, c`, `*Versus: Link*`,
  `the *Side* item`) are the menu's items and values (jarmo/app_base.py,
  jarmo/app_menu.py); the simulator's script events (host/script.py,
  host/blinka.py) parse.
- figures stated in two places agree (the quick tier's time).
- docs/ARCHITECTURE.md's claims about the code: the import cycles of
  jarmo/, the states that import another state's module, the resident
  screens, and what code.py itself does.

Each failure names file:line and the quote."""

import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Markdown files not checked, with the reason.
NOT_CHECKED = {
    # the independent reference's notes: its `RULES.md` is the copy of the
    # rules its writer was given, its quotes are the rules' text
    "tests/reference/DECISIONS.md",
}

# What the build and the tools make (not in the checkout, named by the docs
# as where things go): a path under one of these is allowed.
GENERATED = ("build/", ".venv/", "node_modules/", ".pytest_cache/", ".cache/", "lib/")

# Quotes that look like a repository file but are not one, each with why.
NOT_PATHS = {
    # files on the CIRCUITPY drive, not in the checkout
    "boot_out.txt": "CircuitPython writes it on the drive",
    "drives.json": "written into the web page's site by tools/web.py",
    # the maker's kit of a profile: python3 run.py kit writes them into build/kit/PROFILE/
    "bom.csv": "written by python3 run.py kit into build/kit/PROFILE/",
    "wiring.svg": "written by python3 run.py kit into build/kit/PROFILE/",
    "ASSEMBLY.md": "written by python3 run.py kit into build/kit/PROFILE/",
    # the subpackages the text weighs against one flat package
    "jarmo/ai/": "a layout docs/ARCHITECTURE.md measures and does not take",
    "jarmo/app/": "a layout docs/ARCHITECTURE.md measures and does not take",
}

EXTENSIONS = ("py", "md", "json", "txt", "toml", "mjs", "js", "svg", "c", "h", "uf2", "html", "css",
              "b64", "bin", "zip", "cfg", "ini", "yml", "yaml", "sh", "jsonl")
# The placeholders a document writes in a path (jarmo-PROFILE-VERSION.uf2)
PLACEHOLDER = re.compile(r"\b(PROFILE|VERSION|BOARD|NAME|DIR|DRIVE|PATH|FILE|YYYYmmdd|HHMMSS|REV|OLD)\b")
PATH = re.compile(r"^[\w@*-][\w.@*-]*\.(?:%s)$" % "|".join(EXTENSIONS))
LINK = re.compile(r"\]\(([^)\s]+)\)")

# Commands: an interpreter (or none), then run.py, a tool, -m or -c.
COMMAND = re.compile(
    r"(?<![\w./-])(?:(?P<py>\.venv/bin/python3?|python3?)(?: -[PuBOIE])* )?"
    r"(?P<target>run\.py(?= [\w-])|tools/[\w/]+\.py|-m [\w.]+|-c\b)(?P<rest>[^;#&`]*)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")
CHOICES = re.compile(r"(?<![\w-])(--[a-z][\w-]*)[ =]([\w.-]+(?:\|[\w.-]+)+)")
HELP_CHOICES = re.compile(r"(?<![\w-])(--[a-z][\w-]*) \{([^}]*)\}")


# ---------------------------------------------------------------- the documents

def tracked_files():
    """The checkout's files (tracked, and new ones not ignored), relative paths."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted(set(p for p in out.splitlines() if os.path.exists(os.path.join(ROOT, p))))


class Doc:
    """A Markdown file split into what it quotes: its code lines (fenced and
    indented blocks), its backticked spans and links (with line numbers),
    and its running text."""

    def __init__(self, rel, text):
        self.rel = rel
        self.lines = text.split("\n")
        self.code = []           # (line, text, block number, language)
        prose = []
        fence = None
        block = 0
        lang = ""
        indented = False
        for n, line in enumerate(self.lines, 1):
            m = re.match(r"^\s*(```+|~~~+)\s*(\S*)", line)
            if fence is None and m:
                fence, lang, block = m.group(1), m.group(2), block + 1
                prose.append("")
                continue
            if fence is not None:
                if line.strip().startswith(fence):
                    fence = None
                else:
                    self.code.append((n, line, block, lang))
                prose.append("")
                continue
            # an indented block: four spaces after a blank line, not in a list
            before = self.lines[n - 2] if n > 1 else ""
            if line.startswith("    ") and line.strip():
                if not indented and not before.strip() and not self._in_list(n - 3):
                    indented, block, lang = True, block + 1, ""
                if indented:
                    self.code.append((n, line, block, lang))
                    prose.append("")
                    continue
            elif line.strip():
                indented = False
            prose.append(line)
        self.prose = "\n".join(prose)
        self.spans = []          # (line, text): whitespace made single spaces
        for m in re.finditer(r"(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", self.prose, re.S):
            self.spans.append((self.line_of(m.start()), " ".join(m.group(2).split())))
        bare = re.sub(r"(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)",
                      lambda m: "\0" * len(m.group(0)), self.prose, flags=re.S)
        self.links = [(self.line_of(m.start()), m.group(1)) for m in LINK.finditer(bare)]
        self.bare = bare         # the running text, spans blanked (same offsets)

    def _in_list(self, k):
        """True if the paragraph at or before line k (0-based) is part of a
        list item (an indented line after it continues the item)."""
        while k >= 0 and not self.lines[k].strip():
            k -= 1
        while k >= 0 and self.lines[k].strip():
            if re.match(r"^\s*([-*+]|\d+\.)\s", self.lines[k]):
                return True
            k -= 1
        return False

    def line_of(self, offset):
        return self.prose.count("\n", 0, offset) + 1


_DOCS = []


def documents():
    if not _DOCS:
        for rel in tracked_files():
            if rel.endswith(".md") and rel not in NOT_CHECKED:
                with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                    _DOCS.append(Doc(rel, f.read()))
    return _DOCS


def quotes(doc):
    """Every unit of quoted text: (line, text, code block or None)."""
    return ([(n, text, None) for n, text in doc.spans]
            + [(n, text, block) for n, text, block, _ in doc.code])


# ---------------------------------------------------------------- commands

def _run_py_assign(name):
    """A top-level assignment of run.py, as ast."""
    tree = parsed(os.path.join(ROOT, "run.py"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == name for t in node.targets):
            return node.value
    raise AssertionError("run.py has no " + name)


def _run_py_programs():
    """The source of the program each command runs: run.py's HELP_COMMANDS
    (the programs that answer --help themselves), and those it runs for
    test and bench."""
    out = {"test": "tests/conftest.py", "bench": "tools/bench.py"}
    node = _run_py_assign("HELP_COMMANDS")
    for key, value in zip(node.keys, node.values):
        args = []
        for item in value.elts:
            if isinstance(item, ast.Constant):
                args.append(item.value)
            else:       # os.path.join("tools", "deploy.py")
                args.append("/".join(a.value for a in item.args))
        if "-m" in args:
            out[key.value] = args[args.index("-m") + 1].replace(".", "/") + ".py"
        else:
            out[key.value] = next(a for a in args if a.endswith(".py"))
    return out


def _parser_options(path):
    """The --options a program's argument parser declares (its add_argument
    and addoption calls), read with ast."""
    if not os.path.isfile(path):
        return set()
    out = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("add_argument", "addoption"):
            out.update(a.value for a in node.args if isinstance(a, ast.Constant) and str(a.value).startswith("--"))
    return out


# What run.py runs for a command that does not answer --help itself: its
# options are that program's too.
PROGRAM_HELP = {
    "test": ["-m", "pytest", "--help", "-p", "no:cacheprovider"],
    "bench": [os.path.join("tools", "bench.py"), "--help"],
    "lint": ["-m", "ruff", "check", "--help"],
}

_HELP = {}


def _help(args):
    """The output of `python -P ARGS` (a --help), once per run."""
    key = tuple(args)
    if key not in _HELP:
        env = dict(os.environ, BLINKA_OS_AGNOSTIC="1", PYTHONPATH=ROOT)
        done = subprocess.run([sys.executable, "-P"] + list(args), cwd=ROOT, env=env, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=120)
        _HELP[key] = done.stdout + done.stderr
    return _HELP[key]


class RunPy:
    """run.py's commands and, per command, the options it accepts: its
    usage in run.py and its program's parser, read with ast (fast); an
    option not found there is looked up in the command's --help output
    before it is called wrong, and so are the choices `a|b|c` a document
    gives (the --help's {a,b,c})."""

    def __init__(self):
        self.commands = [k.value for k in _run_py_assign("COMMAND_USAGE").keys]
        self.usage = ast.literal_eval(_run_py_assign("COMMAND_USAGE"))
        self.programs = _run_py_programs()
        self._known = {}

    def known(self, command):
        if command not in self._known:
            self._known[command] = (set(OPTION.findall(self.usage[command])) | {"--help"}
                                    | _parser_options(os.path.join(ROOT, self.programs.get(command, "-"))))
        return self._known[command]

    def takes(self, command, option):
        if option in self.known(command):
            return True
        text = _help(["run.py", command, "--help"])
        if command in PROGRAM_HELP:
            text += _help(PROGRAM_HELP[command])
        return option in OPTION.findall(text)

    def choices(self, command):
        return dict((o, set(c.split(","))) for o, c in HELP_CHOICES.findall(_help(["run.py", command, "--help"])))


_SPELT = {}


def program_takes(path, option):
    """Whether the program at path (a tool, a module run with -m) takes an
    option: its source spells it (ast, fast), else its --help lists it."""
    if path not in _SPELT:
        tree = parsed(path)
        _SPELT[path] = set(o for node in ast.walk(tree) if isinstance(node, ast.Constant)
                           and isinstance(node.value, str) for o in OPTION.findall(node.value))
    if option in _SPELT[path] or option == "--help":
        return True
    rel = os.path.relpath(path, ROOT)
    args = [rel, "--help"] if rel.startswith("tools") else ["-m", rel[:-3].replace(os.sep, "."), "--help"]
    return option in OPTION.findall(_help(args))


def command_uses(doc):
    """Each command a document quotes: (line, quote, interpreter, target,
    its arguments up to a pipe, a comment or the next command)."""
    found = []
    for n, text, _block in quotes(doc):
        for m in COMMAND.finditer(text):
            if m.group("target") in ("-c",) or m.group("target").startswith("-m"):
                if not m.group("py"):
                    continue
            found.append((n, text, m.group("py"), m.group("target"), m.group("rest").split(" | ")[0]))
    return found


def option_blocks(doc):
    """Lines that give a command's options without naming it: (line, quote,
    command) for the lines of a code block after its `run.py CMD` line that
    start with --, and the bullets after a line that quotes `run.py CMD --help`."""
    found = []
    last = {}
    for n, text, block, _ in doc.code:
        m = re.match(r"\s*(?:python3 )?run\.py (\w+)", text)
        if m:
            last[block] = m.group(1)
        elif text.strip() and not text.strip().startswith("--"):
            last.pop(block, None)         # the block goes on to something else
        elif block in last and text.strip().startswith("--"):
            found.append((n, text.strip(), last[block]))
    lines = doc.lines
    for n, text in doc.spans:
        m = re.match(r"^(?:python3 )?run\.py (\w+) --help$", text)
        if not m:
            continue
        k = n      # the lines after the one that quotes it (0-based n is the next line)
        while k < len(lines) and not lines[k].strip():
            k += 1
        while k < len(lines) and (lines[k].startswith("- ") or lines[k].startswith("  ")):
            if lines[k].startswith("- `--"):
                span = re.match(r"- `([^`]+)`", lines[k])
                if span:
                    found.append((k + 1, span.group(1), m.group(1)))
            k += 1
    return found


def stale_commands(docs):
    """What the commands the documents quote get wrong: file:line lines."""
    run_py = RunPy()
    uses = [(doc, use) for doc in docs for use in command_uses(doc)]
    blocks = [(doc, use) for doc in docs for use in option_blocks(doc)]
    found = []
    for doc, (n, text, py, target, rest) in uses:
        where = "%s:%d `%s`" % (doc.rel, n, text)
        if py == "python":
            found.append("%s: a bare `python` (there may be none, and it is not .venv's): "
                         "python3 run.py ..., or .venv/bin/python" % where)
        words = rest.split()
        if target == "run.py":
            if not words:
                continue
            command = words[0].strip("`,.;:)")
            if command in ("--help", "-h", "help", "--guarded") or re.match(r"^[A-Z]+$", command):
                continue
            if command not in run_py.commands:
                found.append("%s: run.py has no command %r" % (where, command))
                continue
            found += _option_problems(where, run_py, command, rest)
        elif target.startswith("tools/"):
            path = os.path.join(ROOT, target)
            if not os.path.isfile(path):
                found.append("%s: no file %s" % (where, target))
                continue
            found += ["%s: %s does not take %s" % (where, target, o) for o in OPTION.findall(rest)
                      if not program_takes(path, o)]
        elif target.startswith("-m "):
            module = target[3:]
            if module.split(".")[0] in ("jarmo", "hardware", "host", "tools", "tests"):
                base = os.path.join(ROOT, *module.split("."))
                source = base + ".py" if os.path.isfile(base + ".py") else os.path.join(base, "__main__.py")
                if not os.path.isfile(source):
                    found.append("%s: no module %s" % (where, module))
                    continue
                found += ["%s: %s does not take %s" % (where, module, o) for o in OPTION.findall(rest)
                          if not program_takes(source, o)]
    for doc, (n, text, command) in blocks:
        if command in run_py.commands:
            found += _option_problems("%s:%d `%s`" % (doc.rel, n, text), run_py, command, text)
    return found


def _option_problems(where, run_py, command, rest):
    found = []
    for option in OPTION.findall(rest.split(" -- ")[0]):
        if not run_py.takes(command, option):
            found.append("%s: `run.py %s` takes no %s" % (where, command, option))
    for option, values in CHOICES.findall(rest):
        choices = run_py.choices(command)
        if option in choices and set(values.split("|")) != choices[option]:
            found.append("%s: %s takes %s" % (where, option, "|".join(sorted(choices[option]))))
    return found


# ---------------------------------------------------------------- paths

class Tree:
    """The checkout's files and folders."""

    def __init__(self):
        self.files = set(tracked_files())
        self.dirs = set()
        for f in self.files:
            parts = f.split("/")
            for k in range(1, len(parts)):
                self.dirs.add("/".join(parts[:k]))
        self.names = set(f.rsplit("/", 1)[-1] for f in self.files) | set(d.rsplit("/", 1)[-1] for d in self.dirs)
        self.roots = set(f.split("/")[0] for f in self.files)

    def has(self, path, base, link=False):
        """path (relative to the root or to the document's folder base; a
        link's: to its folder only) exists."""
        path = path.split("#")[0].split("?")[0].rstrip(",.;:")
        if not path:
            return True
        for start in ((base,) if link else ("", base)):
            full = os.path.normpath(os.path.join(start, path)).replace(os.sep, "/")
            if full.startswith("../"):
                continue
            if "*" in full:
                pattern = re.compile("^" + re.escape(full).replace(r"\*", "[^/]*") + "/?$")
                if any(pattern.match(f) for f in self.files | self.dirs):
                    return True
            elif full.rstrip("/") in self.files | self.dirs or full.rstrip("/") == ".":
                return True
            if any((full + "/").startswith(g) or full.rstrip("/") + "/" == g for g in GENERATED):
                return True
        return not link and "/" not in path.rstrip("/") and path.rstrip("/") in self.names


def path_candidates(doc, tree):
    """(line, quote, path) for each path of the checkout the document quotes:
    a word with a `/` that starts at one of the checkout's top-level entries
    (or at what the build makes), a backticked file name with a known
    extension, a link's target, and a path in running text."""
    roots = tree.roots | set(g.rstrip("/") for g in GENERATED)
    found = []
    for n, text, block in quotes(doc):
        for word in text.split():
            word = word.strip("()[],;:'\"").rstrip(".")
            if word.startswith("./"):
                word = word[2:]
            if "/" in word.rstrip("/"):
                if word.split("/")[0] not in roots:
                    continue          # another project's path (CircuitPython's, rp2040js's), a ratio
                last = word.rstrip("/").rsplit("/", 1)[-1]
                if "." in last.lstrip(".") and last.rsplit(".", 1)[-1] not in EXTENSIONS:
                    continue          # a dotted name (hardware/mainloop.run_guarded), a compiled .mpy
                found.append((n, text, word))
            elif word.endswith("/") and word.rstrip("/") in roots:
                found.append((n, text, word))
            elif block is None and word == text and PATH.match(word) and "/" not in word:
                found.append((n, text, word))      # a span that is a file's name: `profiles.py`
    for n, target in doc.links:
        found.append((n, "](%s)" % target, target))
    # a path in running text (no backticks), from a top-level folder of the checkout
    prose_path = re.compile(r"(?<![\w./`$~-])((?:%s)/[\w./*-]*[\w/*])" % "|".join(
        re.escape(d) for d in sorted(tree.dirs) if "/" not in d and not d.startswith(".")))
    for m in prose_path.finditer(doc.bare):
        found.append((doc.line_of(m.start()), m.group(1), m.group(1).rstrip(".")))
    seen = set()
    return [f for f in found if (f[0], f[2]) not in seen and not seen.add((f[0], f[2]))]


def not_a_path(word):
    """Why a path-like word is not a path of the checkout, or None."""
    if "://" in word or word.startswith(("mailto:", "www.")):
        return "a URL"
    if word.startswith(("/", "~", "$")) or "$" in word:
        return "a path on another machine or drive"
    if word.startswith("#"):
        return "an anchor (its heading: stale_anchors)"
    if PLACEHOLDER.search(word):
        return "a placeholder"
    if word in NOT_PATHS:
        return NOT_PATHS[word]
    return None


def slug(heading):
    """A heading's anchor, as GitHub makes it ("Outside files": outside-files)."""
    text = re.sub(r"[`*]|\]\([^)]*\)|\[", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(rel):
    """The anchors of a Markdown file's headings (outside its code blocks)."""
    doc = doc_at(rel)
    if doc is None:
        return None
    return set(slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.*)$", doc.prose, re.M))


def doc_at(rel):
    """The Doc of a Markdown file (of those checked, or read now); None if there is none."""
    for doc in documents():
        if doc.rel == rel:
            return doc
    path = os.path.join(ROOT, rel)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return Doc(rel, f.read())


def headings(rel):
    """The titles of a Markdown file's headings, lower case, without marks."""
    doc = doc_at(rel)
    if doc is None:
        return None
    return [re.sub(r"[`*]", "", m.group(1)).strip().lower() for m in re.finditer(r"^#{1,6} (.*)$", doc.prose, re.M)]


# A section named after its document: docs/APP.md, Saves; docs/BENCHMARKS.md, "Power"
SECTION = re.compile(r"([\w/.-]+\.md) ?,\s+(?:section\s+)?(\"[^\"]+\"(?:,?\s+and\s+\"[^\"]+\")*"
                     r"|[A-Z][\w' -]*[\w'](?=[).;,]))")


def stale_sections(docs):
    """Sections a document names by their title after their file's name
    (`docs/APP.md, Saves`, `docs/BENCHMARKS.md, "Power"`) that the file lacks."""
    found = []
    for doc in docs:
        text = doc.prose.replace("`", " ")
        for m in SECTION.finditer(text):
            file = m.group(1)
            rel = next((r for r in (file, os.path.normpath(os.path.join(os.path.dirname(doc.rel), file)))
                        if os.path.isfile(os.path.join(ROOT, r))), None)
            titles = headings(rel) if rel else None
            if titles is None:
                continue
            said = re.findall(r'"([^"]+)"', m.group(2)) or [m.group(2)]
            for title in said:
                title = " ".join(title.split()).lower()
                if not any(h == title or h.startswith(title) for h in titles):
                    found.append("%s:%d `%s`: %s has no section %r" % (
                        doc.rel, doc.line_of(m.start()), " ".join(m.group(0).split()), rel, title))
    return found


def stale_anchors(docs):
    """Links to a heading (file.md#anchor, #anchor) whose heading is not there."""
    found = []
    for doc in docs:
        for n, target in doc.links:
            if "#" not in target or "://" in target:
                continue
            file, anchor = target.split("#", 1)
            rel = os.path.normpath(os.path.join(os.path.dirname(doc.rel), file)).replace(os.sep, "/") \
                if file else doc.rel
            if rel.endswith(".md"):
                have = anchors(rel)
                if have is not None and anchor not in have:
                    found.append("%s:%d `%s`: no heading #%s in %s" % (doc.rel, n, target, anchor, rel))
    return found


def stale_paths(docs):
    tree = Tree()
    found = []
    for doc in docs:
        base = os.path.dirname(doc.rel)
        for n, text, word in path_candidates(doc, tree):
            if not_a_path(word) is None and not tree.has(word, base, link=text.startswith("](")):
                found.append("%s:%d `%s`: no %s in the checkout" % (doc.rel, n, text, word))
    return found


# ---------------------------------------------------------------- the menu

def menu():
    """The menu's item titles (in its order) and every line it can show
    ("Versus: AI level 4", "Hints: off"), from jarmo/app_base.py and
    jarmo/app_menu.py themselves."""
    from jarmo import app_base as B
    from jarmo import app_menu as M
    titles = [B.ITEMS[i * B.ITEM + B.TITLE] for i in M.ORDER]
    lines = set(titles)
    for item in M.ORDER:
        n = B.ITEMS[item * B.ITEM + B.VALUES]
        for v in range(n):
            s = bytearray(B.DEFAULT_SETTINGS)
            s[item - B.RULE] = v
            lines.add(M.label(s, item))
        if item == B.NEW:
            s = bytearray(B.DEFAULT_SETTINGS)
            s[B.MATCH - B.RULE] = 1
            lines.add(M.label(s, item))
    return titles, lines


MENU_QUOTES = (
    # the menu's X (an item named in running text: "the menu's New game")
    re.compile(r"\b[Tt]he menu's \*{0,2}([A-Z][\w ]*)"),
    # Menu → X
    re.compile(r"\bMenu\*{0,2} ?(?:→|->|>) ?[*`]{0,2}([A-Z][\w ]*?)(?:[*`]|[,.;)]|$)"),
    # the *Side* item, the menu item **Versus**, the `Hint` item
    re.compile(r"\b[Tt]he [*`]{1,2}([A-Z][\w ]*)[*`]{1,2} item\b"),
    re.compile(r"\bitem (?:is called )?[*`]{1,2}([A-Z][\w ]*)[*`]{1,2}"),
)
# an item's line as the menu shows it, emphasized: *Versus: Link*, **Hints: off**
# (at most 20 characters, as the menu's lines are)
MENU_LINE = re.compile(r"(?<![*\w])\*{1,2}([A-Z][\w ]{0,18}: [^*.]{1,18})\*{1,2}(?![*\w])")
# a list of the menu's items: "the menu: new game, campaign, ...", "The menu lists: Resume, ..."
MENU_LIST = re.compile(r"\b[Tt]he menu(?: lists)?: ((?:[^,.;:|`]+, )+[^,.;:|`]+?)(?=\s*(?:,\s*)?(?:[.;:|]|$))")


def _names(title):
    """How a document may name an item: its title, and the title without a
    closing parenthesis ("First game" for "First game (lesson)")."""
    return {title, re.sub(r"\s*\([^)]*\)$", "", title)}


def stale_menu_words(docs):
    titles, lines = menu()
    said_as = set(n for t in lines for n in _names(t))
    lower = set(n.lower() for n in said_as)
    found = []
    for doc in docs:
        flat = doc.prose.replace("\n", " ")
        for pattern in MENU_QUOTES:
            for m in pattern.finditer(flat):
                if doc.bare[m.start()] == "\0":
                    continue              # inside a backticked text (the display's words)
                said = " ".join(m.group(1).split())
                if not any(said == t or said.startswith(t + " ") for t in said_as):
                    found.append("%s:%d `%s`: the menu has no item %r (its items: %s)"
                                 % (doc.rel, doc.line_of(m.start()), " ".join(m.group(0).split()), said,
                                    ", ".join(titles)))
        for m in MENU_LINE.finditer(flat):
            if doc.bare[m.start()] == "\0":
                continue
            said = " ".join(m.group(1).split())
            if said not in lines:
                found.append("%s:%d `%s`: the menu shows no line %r"
                             % (doc.rel, doc.line_of(m.start()), " ".join(m.group(0).split()), said))
        for m in MENU_LIST.finditer(flat):
            if doc.bare[m.start()] == "\0":
                continue
            named = [" ".join(re.sub(r"\s*\([^)]*\)|\*", "", w).split()) for w in m.group(1).split(", ")]
            wrong = [w for w in named if w.lower() not in lower]
            quote = " ".join(m.group(0).split())
            if wrong:
                found.append("%s:%d `%s`: not the menu's items: %s (its items: %s)"
                             % (doc.rel, doc.line_of(m.start()), quote, ", ".join(wrong), ", ".join(titles)))
            elif quote.lower().startswith("the menu lists") and \
                    [w.lower() for w in named] != [re.sub(r"\s*\([^)]*\)$", "", t).lower() for t in titles]:
                found.append("%s:%d `%s`: the menu lists %s" % (doc.rel, doc.line_of(m.start()), quote,
                                                                ", ".join(titles)))
    return found


# ---------------------------------------------------------------- script events

def script_words():
    tree = parsed(os.path.join(ROOT, "host", "script.py"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "WORDS" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("host/script.py has no WORDS")


def script_quotes(doc):
    """(line, event) for the events a document quotes as --script lines: a
    code block after a line saying "one event a line", and the backticked
    spans of a parenthesis after "one event per line (" / "a line ("."""
    found = []
    blocks = {}
    for n, text, block, _ in doc.code:
        blocks.setdefault(block, []).append((n, text))
    for rows in blocks.values():
        first = rows[0][0]
        before = " ".join(doc.lines[max(0, first - 4):first - 1]).lower()
        if re.search(r"one event (a|per) line:", before):
            found += [(n, text.strip()) for n, text in rows if text.strip()]
    flat = doc.prose.replace("\n", " ")
    for m in re.finditer(r"one event (?:a|per) line \(([^)]*)\)", flat, re.I):
        for span in re.findall(r"`([^`]+)`", m.group(1)):
            if span != "#":
                found.append((doc.line_of(m.start()), span))
    return found


def stale_script_events(docs):
    from host.blinka import parse_events
    words = script_words()
    found = []
    for doc in docs:
        for n, event in script_quotes(doc):
            try:
                parse_events(event, extra=words)
            except ValueError as err:
                found.append("%s:%d `%s`: %s" % (doc.rel, n, event, err))
    return found


# ---------------------------------------------------------------- figures in two places

TIER_TIME = re.compile(r"about ([\d.]+) minutes")


def quick_tier_times(docs):
    """(where, minutes) for each place that says how long `run.py test` takes."""
    found = []
    for doc in docs:
        if doc.rel not in ("README.md", "docs/DEVELOPING.md"):
            continue
        text = doc.prose
        for m in re.finditer(r"[^.]*?(?:run\.py test`(?! --full)|runs the tests)[^.]*?about ([\d.]+) minutes",
                             text):
            found.append(("%s:%d" % (doc.rel, doc.line_of(m.start(1))), float(m.group(1))))
    usage = ast.literal_eval(_run_py_assign("COMMAND_USAGE"))["test"]
    m = TIER_TIME.search(usage)
    if m:
        found.append(("run.py COMMAND_USAGE['test']", float(m.group(1))))
    return found


# ---------------------------------------------------------------- the code's structure

_TREES = {}


def parsed(path):
    """A source file's ast, parsed once per run."""
    if path not in _TREES:
        with open(path, encoding="utf-8") as f:
            _TREES[path] = ast.parse(f.read())
    return _TREES[path]


def import_graph(top_level_only=False):
    """jarmo/'s modules and the jarmo modules each imports (anywhere in it,
    or only at its top level): {module: {module: line}}."""
    folder = os.path.join(ROOT, "jarmo")
    names = set(f[:-3] for f in os.listdir(folder) if f.endswith(".py"))
    graph = {}
    for name in sorted(names):
        tree = parsed(os.path.join(folder, name + ".py"))
        deps = {}
        nodes = tree.body if top_level_only else ast.walk(tree)
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "jarmo":
                    targets = [a.name for a in node.names if a.name in names] or ["__init__"]
                elif node.module.startswith("jarmo."):
                    targets = [node.module.split(".")[1]]
                else:
                    continue
            elif isinstance(node, ast.Import):
                targets = [a.name.split(".")[1] for a in node.names if a.name.startswith("jarmo.")]
            else:
                continue
            for t in targets:
                if t in names and t != name:
                    deps.setdefault(t, node.lineno)
        graph[name] = deps
    return graph


def cycles(graph):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out, key=lambda g: sorted(g))


def state_modules():
    """jarmo/'s modules that define a State (a class derived from app_base.State)."""
    folder = os.path.join(ROOT, "jarmo")
    bases, where = {}, {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".py"):
            for node in parsed(os.path.join(folder, f)).body:
                if isinstance(node, ast.ClassDef):
                    bases[node.name] = set(getattr(b, "id", getattr(b, "attr", "")) for b in node.bases)
                    where.setdefault(node.name, set()).add(f[:-3])
    states = {"State"}
    while True:
        more = set(c for c, b in bases.items() if b & states) - states
        if not more:
            break
        states |= more
    return set(m for c in states - {"State"} for m in where[c])


def listed_after(text, lead):
    """The bullets after the line that contains lead: for each, the module
    names in backticks before its first colon."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if lead in line:
            # the lead may wrap: the bullets start after the paragraph
            while k < len(lines) and not lines[k].startswith("- "):
                k += 1
            out = []
            while k < len(lines) and (lines[k].startswith("- ") or lines[k].startswith("  ")):
                if lines[k].startswith("- "):
                    head = lines[k].split(":")[0]
                    out.append(re.findall(r"`(\w+)`", head))
                k += 1
            return out
    return None


def architecture_text():
    with open(os.path.join(ROOT, "docs", "ARCHITECTURE.md"), encoding="utf-8") as f:
        return f.read()


def screens():
    """app_base.SCREENS: (name, on demand) per screen, read with ast."""
    tree = parsed(os.path.join(ROOT, "jarmo", "app_base.py"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SCREENS" for t in node.targets):
            rows = ast.literal_eval(node.value)
            return [(rows[k], rows[k + 3]) for k in range(0, len(rows), 4)]
    raise AssertionError("jarmo/app_base.py has no SCREENS")


# code.py only calls hardware/program.py's main(): a document that says
# code.py does, imports, preloads or sees something means the program.
CODE_PY_DOES = re.compile(r"(?:\(`?code\.py`?\)|as `?code\.py`? does|`?code\.py`? (?:then |also |first )?"
                          r"(?:does|imports|preloads|prepares|builds|loads|sees|checks|reads)\b)")


def code_py_claims(docs):
    found = []
    for doc in docs:
        flat = doc.prose.replace("\n", " ")
        for m in CODE_PY_DOES.finditer(flat):
            found.append("%s:%d `%s`: code.py only calls hardware/program.py's main() (the program: "
                         "hardware/program.py, hardware/startup.py)" % (doc.rel, doc.line_of(m.start()), m.group(0)))
    return found


# ---------------------------------------------------------------- the tests

def test_every_command_a_document_quotes_exists_with_its_options():
    assert stale_commands(documents()) == []


def test_every_path_a_document_quotes_exists():
    assert stale_paths(documents()) == []


def test_every_heading_a_document_links_to_exists():
    assert stale_anchors(documents()) == []


def test_every_section_a_document_names_exists():
    assert stale_sections(documents()) == []


def test_every_menu_word_a_document_quotes_is_the_menus():
    assert stale_menu_words(documents()) == []


def test_every_script_event_a_document_quotes_parses():
    assert stale_script_events(documents()) == []


def test_the_quick_tier_takes_one_time_wherever_it_is_said():
    times = quick_tier_times(documents())
    assert len(set(t for _, t in times)) <= 1, times


def test_the_documents_credit_code_py_only_with_what_it_does():
    assert code_py_claims(documents()) == []


def test_the_architecture_names_the_import_cycles_of_jarmo():
    graph = import_graph()
    groups = cycles(graph)
    text = architecture_text()
    claims_none = re.search(r"\bno import cycles?\b|\bthere is no (?:import )?cycle\b", text)
    if groups:
        assert claims_none is None, "docs/ARCHITECTURE.md says there is no import cycle: %s" % groups
        named = listed_after(text, "import cycles")
        assert named is not None, "docs/ARCHITECTURE.md does not name jarmo/'s import cycles"
        assert sorted(sorted(g) for g in named) == sorted(sorted(g) for g in groups)
    # each closed by an import inside a function (none at import time)
    assert cycles(import_graph(top_level_only=True)) == []


def test_the_architecture_names_the_states_that_import_another_state():
    graph = import_graph()
    states = state_modules()
    imports = sorted([a, b] for a in states for b in graph[a] if b in states)
    named = listed_after(architecture_text(), "another state's module")
    assert named is not None, "docs/ARCHITECTURE.md does not say which states import another's module"
    assert sorted(pair[:2] for pair in named) == imports


def test_the_architecture_lists_the_resident_screens():
    text = " ".join(architecture_text().replace("#", " ").split())
    m = re.search(r"resident: ([\w ]+?); on demand(?: \([^)]*\))?: ([\w ]+)", text)
    assert m, "docs/ARCHITECTURE.md does not list the resident screens (resident: ...; on demand: ...)"
    rows = screens()
    assert m.group(1).split() == [name for name, demand in rows if not demand]
    assert m.group(2).split() == [name for name, demand in rows if demand]


# ---------------------------------------------------------------- the checks see what is stale

def _doc(text, rel="docs/X.md"):
    return Doc(rel, text)


def test_the_checks_see_stale_quotes():
    # (no quote here is a whole string of its own: tests/test_doc_names.py
    # takes the tests' strings for names that exist)
    doc = _doc("Run `python3 run.py nosuch`, `python3 run.py play --nosuch` and\n"
               "`python tools/deploy.py --lib-only`, `python3 tools/not_here.py`,\n"
               "`python3 run.py play --side east|west`.\n\n"
               "    python3 run.py play\n\n    --nothere N\n\n"
               "See `jarmo/not_here.py`, [x](docs/NOT-HERE.md), tools/not_here_too.py and `build/x.uf2`.\n"
               "The menu: new game, opponent, rules. The menu's Opponent item; *Versus: Nobody*.\n"
               "One event a line:\n\n```\nselect\nrules\nhop\n```\n"
               "As `code.py` does after start-up (code.py).\n"
               "See docs/APP.md, Nowhere to be found; [y](../README.md#nowhere-at-all).\n")
    commands = stale_commands([doc])
    assert [c.split(": ", 1)[0].rsplit("`", 2)[0] for c in commands] and len(commands) == 6, commands
    assert any("run.py has no command 'nosuch'" in c for c in commands)
    assert any("takes no --nosuch" in c for c in commands)
    assert any("takes no --nothere" in c for c in commands)
    assert any("bare `python`" in c for c in commands)
    assert any("no file tools/not_here.py" in c for c in commands)
    assert any("--side takes north|south" in c for c in commands)
    paths = stale_paths([doc])
    assert sorted(re.search(r": no (\S+) in the checkout", p).group(1) for p in paths) == \
        ["docs/NOT-HERE.md", "jarmo/not_here.py", "tools/not_here.py", "tools/not_here_too.py"], paths
    words = stale_menu_words([doc])
    assert len(words) == 3 and "opponent" in words[2] and "Opponent" in words[0] and "Nobody" in words[1], words
    events = stale_script_events([doc])
    assert len(events) == 1 and "hop" in events[0], events
    assert len(code_py_claims([doc])) == 2
    assert len(stale_sections([doc])) == 1 and "nowhere to be found" in stale_sections([doc])[0]
    assert len(stale_anchors([doc])) == 1 and "#nowhere-at-all" in stale_anchors([doc])[0]


def counts(docs):
    """How many quotes each class of check looks at (python3 tests/test_doc_quotes.py prints them)."""
    tree = Tree()
    flat = [(d, d.prose.replace("\n", " ")) for d in docs]
    return {
        "commands (run.py, tools/, -m, -c)": sum(len(command_uses(d)) for d in docs),
        "option lines of a run.py command": sum(len(option_blocks(d)) for d in docs),
        "paths and links": sum(len(path_candidates(d, tree)) for d in docs),
        "links to a heading": sum(1 for d in docs for _, t in d.links if "#" in t and "://" not in t),
        "sections named after their file": sum(len(SECTION.findall(d.prose.replace("`", " "))) for d in docs),
        "menu words": sum(len(p.findall(f)) for d, f in flat for p in MENU_QUOTES + (MENU_LINE, MENU_LIST)),
        "script events": sum(len(script_quotes(d)) for d in docs),
        "the quick tier's time": len(quick_tier_times(docs)),
        "code.py's part": sum(len(CODE_PY_DOES.findall(f)) for _, f in flat),
    }


if __name__ == "__main__":
    docs = documents()
    for what, n in counts(docs).items():
        print("%5d  %s" % (n, what))
    for check in (stale_commands, stale_paths, stale_anchors, stale_sections, stale_menu_words,
                  stale_script_events, code_py_claims):
        for line in check(docs):
            print(line)
