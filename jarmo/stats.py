# Stats: win statistics per rule set and per opponent, kept in the store.
#
# Shown like the table on the online site ("valge 3514 (40.65 %)"): the
# percentage is truncated to two decimals, in integer arithmetic. Kept in a
# Store under ``stats`` as JSON and saved after every recorded game:
#
#     {"v": 2, "standard": {"p2": [south, north, draws],
#                           "ai1": [you, ai, draws], ...}, ...}
#
# The opponent keys: ``p2`` two players (South wins, North wins, draws);
# ``ai0`` .. ``ai4`` against the AI level of that number (jarmo.ai.LEVELS:
# random, greedy, 2, 3, 4), counted as your wins, the AI's wins, draws;
# ``old`` the totals of a version 1 file, which did not tell opponents apart
# (South wins, North wins, draws). A version 1 file is read as ``old`` and
# written back as version 2 at the next game.

import json

from jarmo.app_base import SIDE_WORDS
from jarmo.game import RULE_SETS as RULES

LABELS = SIDE_WORDS + ("Draws",)
VERSUS = ("You", "AI", "Draws")


def percent(count, total):
    """``count`` of ``total`` as "40.65" (truncated, like the site); "0.00" if none."""
    if total <= 0:
        return "0.00"
    hundredths = count * 10000 // total
    return "%d.%02d" % (hundredths // 100, hundredths % 100)


def row(label, count, total):
    """One table line of at most 21 characters: "South 3514 (40.65 %)"."""
    line = "%-5s %d (%s %%)" % (label, count, percent(count, total))
    if len(line) > 21:
        line = "%-5s %d (%s%%)" % (label, count, percent(count, total))
    return line[:21]


def key(opponent):
    """The table key of an opponent index of the menu (0 two players, n the
    AI level n - 1)."""
    return "ai%d" % (opponent - 1) if opponent else "p2"


def _counts(c):
    if not isinstance(c, list) or len(c) != 3:
        raise ValueError("shape")
    return [int(c[0]), int(c[1]), int(c[2])]


class Stats:
    # Counts per rule set and opponent, persisted in ``store`` (or only in
    # memory if None).

    NAME = "stats"

    def __init__(self, store=None):
        self.store = store
        self.problem = None  # message when a bad file was found and set aside
        self.table = {}      # rules -> {key: [a, b, draws]}
        for r in RULES:
            self.table[r] = {}
        if store is not None:
            self._load()

    def _load(self):
        text = self.store.read(self.NAME)
        if self.store.error:
            self._bad(self.store.error)     # the other slot's copy may still serve
        if text is None:
            return
        try:
            data = json.loads(text)
            v = data.get("v")
            if v not in (1, 2):
                raise ValueError("version")
            for r in RULES:
                c = data.get(r)
                if c is None:
                    continue
                if v == 1:
                    self.table[r]["old"] = _counts(c)
                elif not isinstance(c, dict):
                    raise ValueError("shape")
                else:
                    for k in c:
                        self.table[r][str(k)] = _counts(c[k])
        except (ValueError, TypeError, AttributeError, KeyError):
            for r in RULES:
                self.table[r] = {}
            self._bad("stats: unreadable")

    def _bad(self, why):
        self.problem = why
        try:
            self.store.set_aside(self.NAME)
        except OSError:
            pass

    def counts(self, rules, opp="p2"):
        """The three counts of a rule set against one opponent key (see above)."""
        c = self.table.get(rules, {}).get(opp, (0, 0, 0))
        return (c[0], c[1], c[2])

    def keys(self, rules):
        """The opponent keys with games in a rule set: p2, ai0 .. ai9, old."""
        t = self.table.get(rules, {})
        out = [k for k in ("p2",) + tuple("ai%d" % i for i in range(10)) if k in t]
        if "old" in t:
            out.append("old")
        return out

    def record(self, rules, winner, opp="p2", you="south"):
        """Count one finished game; ``winner`` "south", "north" or None (draw).
        ``opp`` the opponent key; against the AI ``you`` is the human's side.

        Returns False when the file could not be written (read-only fs)."""
        t = self.table.get(rules)
        if t is None:
            t = self.table[rules] = {}
        c = t.get(opp)
        if c is None:
            c = t[opp] = [0, 0, 0]
        if winner is None:
            c[2] += 1
        elif opp[0] == "a":
            c[0 if winner == you else 1] += 1
        else:
            c[0 if winner == "south" else 1] += 1
        return self.save()

    def save(self):
        if self.store is None:
            return True
        data = {"v": 2}
        for r in self.table:
            if self.table[r]:
                data[r] = self.table[r]
        try:
            self.store.write(self.NAME, json.dumps(data))
        except OSError:
            return False
        return True

    def lines(self, rules, opp="p2", name=None):
        """Display lines for one rule set and opponent (title, three rows)."""
        a, b, d = self.counts(rules, opp)
        total = a + b + d
        if opp[0] == "a":
            title = "%s vs %s" % (rules, name or "AI level " + opp[2:])
            labels = VERSUS
        else:
            title = rules + (", 2 players" if opp == "p2" else ", earlier")
            labels = LABELS
        return (title,
                row(labels[0], a, total),
                row(labels[1], b, total),
                row(labels[2], d, total))
