"""Documents speak of the project as it is, never of its history: a user
document (README.md, docs/*.md, the bundle's README.txt text) that says what
was measured "before", what a "previous round" did or what a feature "no
longer" does tells the reader of a project they do not have. Figures that
compare alternatives name the alternatives ("done plainly", "one module"),
not when each was the code."""

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ["README.md"] + sorted(
    os.path.join("docs", n) for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md"))

# Words that tell the project's history. "previous" alone is fine (the
# previous page, the search's previous iteration); "earlier" of a user's own
# deploy too: the patterns name the project's past.
HISTORY = re.compile(
    r"\b(this|last|previous|earlier|second|third|next|first) round\b"
    r"|\brounds? of (work|fixes|changes)\b"
    r"|\bbefore this (round|change|version|work)\b"
    r"|\buntil (now|this)\b"
    r"|\bused to\b"
    r"|\bno longer\b"
    r"|\bnot any more\b"
    r"|\b(formerly|previously|newly)\b"
    r"|\bearlier (search|code|version|table|figures?|firmware|measurements?|release)\b"
    r"|\b(previous|old|earlier) (table|figures|numbers|measurements)\b"
    r"|\bchanged since\b"
    r"|\b(went|grew|rose|fell|dropped) from [\d,.]+ (KB |bytes |ms )?to\b"
    r"|\bgrew by\b"
    r"|\bas before\b|\bbefore that\b"
    r"|\d (ms |KB |bytes |% )?before\b"
    r"|(^|\. )(before|after): "
    r"|^\| (before|after)\b"
    r"|\b(the )?first version\b"
    r"|\bthe old (core|code|layout|search|menu|format)\b"
    r"|\balready [a-z]+ before\b"
    r"|\bas the [a-z' ]+ changed\b"
    r"|\b(were|was) measured (with|on|before)\b"
    r"|\bbefore the [a-z ]+ (was|were) (made|added|changed|moved)\b"
    r"|\blost (most of )?its\b"
    r"|\bissue #?\d+"
    r"|(^|\s)#\d+\b",
    re.I | re.M)


def history_phrases(text):
    """The phrases of text that tell history, with their line numbers."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in HISTORY.finditer(line):
            found.append("%d: %s" % (n, m.group(0).strip()))
    return found


@pytest.mark.parametrize("name", DOCUMENTS)
def test_documents_speak_of_the_project_as_it_is(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        found = history_phrases(f.read())
    assert not found, "%s tells history: %s" % (name, found)


def test_the_bundles_readme_speaks_of_the_boards_as_they_are():
    from tools import bundle
    with open(bundle.__file__, encoding="utf-8") as f:
        found = history_phrases(f.read())
    assert not found, found


def test_the_check_finds_the_phrases_it_names():
    said = ("The first two columns were measured with the earlier search. "
            "Until this round the menu used to stay; it no longer does. "
            "The previous round's table. Level 4 lost most of its lead. "
            "The play figure went from 43,168 to 44,256 bytes, as the first version did. "
            "SELECT is answered in 46 ms (31 ms before), the LEDs animate as before.")
    assert len(history_phrases(said)) >= 10, history_phrases(said)
    # what is not history: a page before this one, the previous best line
    assert not history_phrases("the previous page; the previous best, searched first; "
                               "files an earlier deploy left; wrapping round")
