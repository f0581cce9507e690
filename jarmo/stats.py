# Win statistics per rule set: South wins, North wins, draws.
#
# Shown like the table on the online site ("valge 3514 (40.65 %)"): the
# percentage is truncated to two decimals, in integer arithmetic. Kept in a
# Store under ``stats`` as JSON ``{"v": 1, "standard": [s, n, d], ...}`` and
# saved after every recorded game.

import json

RULES = ("classic", "standard", "legendary", "jasyr")
LABELS = ("South", "North", "Draws")


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


class Stats:
    # Counts per rule set, persisted in ``store`` (or only in memory if None).

    NAME = "stats"

    def __init__(self, store=None):
        self.store = store
        self.problem = None  # message when a bad file was found and set aside
        self.table = {}
        for r in RULES:
            self.table[r] = [0, 0, 0]
        if store is not None:
            self._load()

    def _load(self):
        text = self.store.read(self.NAME)
        if text is None:
            if self.store.error:
                self._bad(self.store.error)
            return
        try:
            data = json.loads(text)
            if data.get("v") != 1:
                raise ValueError("version")
            for r in RULES:
                c = data.get(r)
                if c is None:
                    continue
                if len(c) != 3:
                    raise ValueError("shape")
                self.table[r] = [int(c[0]), int(c[1]), int(c[2])]
        except (ValueError, TypeError, AttributeError, KeyError):
            for r in RULES:
                self.table[r] = [0, 0, 0]
            self._bad("stats: unreadable")

    def _bad(self, why):
        self.problem = why
        try:
            self.store.set_aside(self.NAME)
        except OSError:
            pass

    def counts(self, rules):
        """(south wins, north wins, draws) for a rule set."""
        c = self.table.get(rules, (0, 0, 0))
        return (c[0], c[1], c[2])

    def record(self, rules, winner):
        """Count one finished game; ``winner`` "south", "north" or None (draw).

        Returns False when the file could not be written (read-only fs)."""
        c = self.table.get(rules)
        if c is None:
            c = self.table[rules] = [0, 0, 0]
        c[0 if winner == "south" else 1 if winner == "north" else 2] += 1
        return self.save()

    def save(self):
        if self.store is None:
            return True
        data = {"v": 1}
        for r in self.table:
            data[r] = self.table[r]
        try:
            self.store.write(self.NAME, json.dumps(data))
        except OSError:
            return False
        return True

    def lines(self, rules):
        """Display lines for one rule set (title plus three rows)."""
        s, n, d = self.counts(rules)
        total = s + n + d
        return ("Stats: " + rules,
                row(LABELS[0], s, total),
                row(LABELS[1], n, total),
                row(LABELS[2], d, total))
