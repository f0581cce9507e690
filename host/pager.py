"""A text shown a page at a time in place of the game: the rules (key r).

Host only.  The rules are Markdown (docs/RULES.md); a terminal shows them
as plain text, laid out for its width at every redraw: headings underlined
(= under the title, - under the others), emphasis and code marks dropped,
links as "text (url)", lists with their continuation lines indented under
the item's text, paragraphs filled to the width and tables aligned in
columns (a column too wide wraps in its place). A plain text is wrapped as
it is, a line at a time.
"""

import os
import re
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES_FILE = os.path.join(ROOT, "docs", "RULES.md")

_ITEM = re.compile(r"^(\s*)([-*|] |\d+\. )?")


def wrap_text(text, width):
    """Lines of text word-wrapped to width (at least 10); a wrapped line keeps
    its indent, and a list item's continuation lines are indented under its
    text."""
    width = max(10, width)
    out = []
    for line in text.expandtabs(4).splitlines():
        line = line.rstrip()
        if len(line) <= width:
            out.append(line)
            continue
        m = _ITEM.match(line)
        indent = min(len(m.group(0)), width // 2)
        out += textwrap.wrap(line, width, subsequent_indent=" " * indent,
                             break_on_hyphens=False) or [""]
    return out


# ---------------------------------------------------------------- Markdown as plain text

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^:?-+:?$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)")
_SLOT = re.compile("\0(\\d+)\0")
GAP = 2             # spaces between a table's columns


def link_target(url, base):
    """Where a link leads, as a reader can follow it: a web address as it is,
    a file relative to the repository (RULES-DECISIONS.md from docs/ is
    docs/RULES-DECISIONS.md); "" for a link within the page (#anchor)."""
    if not url or url.startswith("#"):
        return ""
    if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) or os.path.isabs(url):
        return url
    return os.path.normpath(os.path.join(base, url)).replace(os.sep, "/")


def inline(text, base=""):
    """A line of Markdown's inline marks as plain text: `code` and emphasis
    marks dropped (what a code span holds kept as it is: `c5*@a1`), links as
    "text (url)", images as their alt text."""
    kept = []

    def keep(value):
        kept.append(value)
        return "\0%d\0" % (len(kept) - 1)

    def link(m):
        label, target = m.group(1), link_target(m.group(2), base)
        if not target or _SLOT.sub(lambda s: kept[int(s.group(1))], label) in (target, m.group(2)):
            return label if target == "" else keep(target)
        return "%s (%s)" % (label, keep(target))

    text = _ESCAPE.sub(lambda m: keep(m.group(1)), text)
    text = _CODE_SPAN.sub(lambda m: keep(m.group(2).strip()), text)
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(link, text)
    text = _AUTOLINK.sub(lambda m: keep(m.group(1)), text)
    for _ in range(2):          # **a *b* c**
        text = _STRONG.sub(lambda m: m.group(1) or m.group(2), text)
        text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
    while _SLOT.search(text):
        text = _SLOT.sub(lambda m: kept[int(m.group(1))], text)
    return text


def markdown_blocks(text):
    """Markdown's blocks, in order: ("heading", level, text), ("para", text),
    ("item", indent, marker, text), ("table", rows), ("code", lines), each
    list item's continuation lines joined to it."""
    lines = text.expandtabs(4).splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if not stripped:
            blocks.append(("blank",))
            i += 1
        elif _FENCE.match(line):
            fence = _FENCE.match(line).group(1)
            code = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                code.append(lines[i].rstrip())
                i += 1
            blocks.append(("code", code))
            i += 1
        elif _HEADING.match(stripped):
            m = _HEADING.match(stripped)
            blocks.append(("heading", len(m.group(1)), m.group(2)))
            i += 1
        elif stripped.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(_TABLE_RULE.match(c) for c in cells):
                    rows.append(cells)
                i += 1
            blocks.append(("table", rows))
        elif _LIST_ITEM.match(line):
            m = _LIST_ITEM.match(line)
            parts = [m.group(3).strip()]
            i += 1
            while i < len(lines) and lines[i].strip() and not _LIST_ITEM.match(lines[i]) \
                    and not _HEADING.match(lines[i].strip()) and not lines[i].strip().startswith("|"):
                parts.append(lines[i].strip())
                i += 1
            blocks.append(("item", len(m.group(1)), m.group(2), " ".join(parts)))
        else:
            parts = []
            while i < len(lines) and lines[i].strip() and not _LIST_ITEM.match(lines[i]) \
                    and not _HEADING.match(lines[i].strip()) and not lines[i].strip().startswith("|") \
                    and not _FENCE.match(lines[i]):
                parts.append(lines[i].strip().lstrip("> ") if lines[i].lstrip().startswith(">")
                             else lines[i].strip())
                i += 1
            blocks.append(("para", " ".join(parts)))
    return blocks


def _fill(text, width, first="", rest=""):
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False) or [first.rstrip()]


def _period(header):
    """The smallest group of columns a table's header repeats (point | joined
    to, five times: 2), or its number of columns."""
    n = len(header)
    for p in range(1, n):
        if n % p == 0 and all(header[k] == header[k % p] for k in range(n)):
            return p
    return n


def table_lines(rows, width):
    """A table's rows (the first the header) as aligned lines within width:
    the columns GAP apart, a rule under the header; a header that repeats a
    group of columns puts the groups that do not fit under the others; a
    column too wide wraps within its width; a table that cannot fit at all
    shows each row as "header: cell" lines."""
    n = max(len(r) for r in rows)
    rows = [r + [""] * (n - len(r)) for r in rows]
    natural = [max(len(r[c]) for r in rows) for c in range(n)]
    if sum(natural) + GAP * (n - 1) <= width:
        return _aligned(rows, natural)
    p = _period(rows[0])
    if p < n:
        groups = n // p
        per = max(1, min(groups, (width + GAP) // (max(sum(natural[g * p:(g + 1) * p]) + GAP * p
                                                           for g in range(groups)))))
        if per < groups:
            out = []
            for g in range(0, groups, per):
                if out:
                    out.append("")
                out += table_lines([r[g * p:(g + per) * p] for r in rows], width)
            return out
    floor = [max([len(w) for r in rows for w in r[c].split()] + [1]) for c in range(n)]
    room = width - GAP * (n - 1)
    if sum(floor) > room:
        out = []
        for r in rows[1:]:
            if out:
                out.append("")
            for head, cell in zip(rows[0], r):
                out += _fill("%s: %s" % (head, cell), width, "", "  ")
        return out
    widths = list(natural)
    while sum(widths) > room:
        c = max((k for k in range(n) if widths[k] > floor[k]), key=lambda k: widths[k])
        widths[c] -= 1
    return _aligned(rows, widths)


def _aligned(rows, widths):
    filled = [[_fill(cell, w) if cell else [""] for cell, w in zip(row, widths)] for row in rows]
    # a row that wraps reads as one when the rows are a blank line apart
    spaced = any(len(c) > 1 for row in filled[1:] for c in row)
    out = []
    for k, cells in enumerate(filled):
        if spaced and k > 1:
            out.append("")
        for j in range(max(len(c) for c in cells)):
            out.append((" " * GAP).join((c[j] if j < len(c) else "").ljust(w)
                                        for c, w in zip(cells, widths)).rstrip())
        if k == 0:
            out.append((" " * GAP).join("-" * w for w in widths))
    return out


def markdown_lines(text, width, base=""):
    """(lines, heading): Markdown laid out as plain text within width (at
    least 10), and for each line whether it belongs to a heading (its text or
    its underline; a page does not end on one). Links are read from base."""
    width = max(10, width)
    lines, heading = [], []

    def add(new, is_heading=False):
        lines.extend(new)
        heading.extend([is_heading] * len(new))

    previous = None
    for block in markdown_blocks(text):
        kind = block[0]
        if kind == "blank":
            continue
        # one blank line between blocks; the items of a list follow each other
        if lines and not (kind == "item" and previous == "item"):
            add([""])
        previous = kind
        if kind == "heading":
            title = _fill(inline(block[2], base), width)
            add(title + ["=-"[block[1] > 1] * max(len(t) for t in title)], True)
        elif kind == "para":
            add(_fill(inline(block[1], base), width))
        elif kind == "item":
            indent = min(block[1], width // 2)
            first = " " * indent + block[2] + " "
            add(_fill(inline(block[3], base), width, first, " " * min(len(first), width // 2)))
        elif kind == "table":
            add(table_lines([[inline(c, base) for c in r] for r in block[1]], width))
        elif kind == "code":
            add(wrap_text("\n".join("    " + c for c in block[1]), width))
    return lines, heading


# ---------------------------------------------------------------- pages


def page_breaks(body, height, heading=None):
    """(first, end) line ranges of the pages of body, at most height lines
    each: a page never begins with blank lines nor ends with a heading (it
    goes on the next page with its text), and there is no empty last page.
    heading: for each line, whether it is a heading's (default: it starts
    with #)."""
    if heading is None:
        heading = [line.lstrip().startswith("#") for line in body]
    pages = []
    i = 0
    n = len(body)
    while n and not body[n - 1].strip():
        n -= 1
    while i < n:
        while i < n and not body[i].strip():
            i += 1
        end = min(n, i + height)
        cut = end
        while end < n and cut > i + 1 and (not body[cut - 1].strip() or heading[cut - 1]):
            cut -= 1                # keep a heading (and the blank lines above it) with its text
        if cut > i and body[cut - 1].strip() and not heading[cut - 1]:
            end = cut
        pages.append((i, end))
        i = end
    return pages or [(0, 0)]


class Pager:
    """A text shown a page at a time in place of the game (the game runs on).

    markdown: the text is Markdown, shown as plain text (links read from the
    folder base, relative to the repository)."""

    FOOTER = ("Space/PgDn next page, b/PgUp back, Home/End, Esc or ? close",
              "Space next, b back, Esc close", "Esc close")

    def __init__(self, title, text, markdown=False, base=""):
        self.title = title
        self.text = text
        self.markdown = markdown
        self.base = base
        self.page = 0
        self.pages = 1

    def lines(self, width):
        """(lines, heading) of the text laid out for width."""
        if self.markdown:
            return markdown_lines(self.text, width, self.base)
        body = wrap_text(self.text, width)
        return body, [line.lstrip().startswith("#") for line in body]

    def rows(self, columns, lines):
        width = max(10, columns - 1)
        body, heading = self.lines(width)
        height = max(1, lines - 2)
        pages = page_breaks(body, height, heading)
        self.pages = len(pages)
        self.page = max(0, min(self.page, self.pages - 1))
        head = "%s - page %d/%d" % (self.title, self.page + 1, self.pages)
        foot = next((f for f in self.FOOTER if len(f) <= width), "")
        first, end = pages[self.page]
        rows = [head[:width]] + body[first:end]
        rows += [""] * (height + 1 - len(rows)) + [foot]
        return [r[:width] for r in rows[:max(1, lines)]]

    def key(self, name):
        """Turn the page for a key; False when the key closes the pager."""
        if name in ("back", "quit", "?", "menu"):
            return False
        if name in ("select", "next", "pgdn", "down", "right", "n"):
            self.page = min(self.pages - 1, self.page + 1)
        elif name in ("prev", "pgup", "up", "left", "b", "p"):
            self.page = max(0, self.page - 1)
        elif name == "home":
            self.page = 0
        elif name == "end":
            self.page = self.pages - 1
        return True


def rules_pager():
    """The rules (docs/RULES.md, Markdown) in a Pager, as plain text."""
    try:
        with open(RULES_FILE, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        text = ("The rules are not in this copy of the game: docs/RULES.md is missing.\n"
                "The README's Rules section names the rule sets.")
    return Pager("Rules (docs/RULES.md)", text, markdown=True, base="docs")
