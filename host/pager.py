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
        self.pages = max(1, -(-len(body) // height))
        self.page = max(0, min(self.page, self.pages - 1))
        head = "%s - page %d/%d" % (self.title, self.page + 1, self.pages)
        foot = next((f for f in self.FOOTER if len(f) <= width), "")
        first = self.page * height
        rows = [head[:width]] + body[first:first + height]
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
