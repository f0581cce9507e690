"""A text shown a page at a time in place of the game: the rules (key r).

Host only.  Lines are wrapped with textwrap, keeping a list item's indent
("- ", "1. ") for its continuation lines.
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


def page_breaks(body, height):
    """(first, end) line ranges of the pages of body, at most height lines
    each: a page never begins with blank lines nor ends with a heading (it
    goes on the next page with its text), and there is no empty last page."""
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
        while end < n and cut > i + 1 and (not body[cut - 1].strip()
                                           or body[cut - 1].lstrip().startswith("#")):
            cut -= 1                # keep a heading (and the blank lines above it) with its text
        if cut > i and body[cut - 1].strip() and not body[cut - 1].lstrip().startswith("#"):
            end = cut
        pages.append((i, end))
        i = end
    return pages or [(0, 0)]


class Pager:
    """A text shown a page at a time in place of the game (the game runs on)."""

    FOOTER = ("Space/PgDn next page, b/PgUp back, Home/End, Esc or ? close",
              "Space next, b back, Esc close", "Esc close")

    def __init__(self, title, text):
        self.title = title
        self.text = text
        self.page = 0
        self.pages = 1

    def rows(self, columns, lines):
        width = max(10, columns - 1)
        body = wrap_text(self.text, width)
        height = max(1, lines - 2)
        pages = page_breaks(body, height)
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
    """The rules (docs/RULES.md) in a Pager."""
    try:
        with open(RULES_FILE, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        text = ("The rules are not in this copy of the game: docs/RULES.md is missing.\n"
                "The README's Rules section names the rule sets.")
    return Pager("Rules (docs/RULES.md)", text)
