# Stats: win statistics per rule set and per opponent, kept in the store.
#
# Shown like the table on the online site ("valge 3514 (40.65 %)"): the
# percentage is truncated to two decimals, in integer arithmetic.
#
# The opponent keys are the opponents' ids, the byte saved games keep too
# (the rows of jarmo/app_base.py's OPPONENTS): 0 two players at the table
# (South wins, North wins, draws), 1 + n the AI level n, 6 the linked
# board, ... (against an opponent: your wins, its wins, draws); OLD the
# totals of the first file format, which did not tell opponents apart
# (South wins, North wins, draws). Linked games were counted as two
# players' before the link had its own key; those counts stay there.
#
# Kept as the store's R_STATS record (jarmo.store_log), written when a game is
# counted. Its payload: 3 (format), 1 and the id of the last game counted
# (2 bytes, high first; the id of its GAME record) or 0 0 0, then per table
# cell with games: rule set index << 4 | opponent key (ids 0..14, 15
# OLD), and the three counts as variable-length ints (7 bits a byte, low
# first). Naming the game in the same record makes a count atomic: after a
# power cut a game is counted exactly once.

from jarmo.game import RULE_SETS as RULES
from jarmo.store_log import R_STATS

_FORMAT = 3
OLD = 15

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


def _varint(out, n):
    while n > 127:
        out.append(n & 127 | 128)
        n >>= 7
    out.append(n)


class Stats:
    # Counts per rule set and opponent, persisted in ``store`` (or only in
    # memory if None).

    def __init__(self, store=None):
        self.store = store
        self.problem = None  # message when the stored statistics could not be read
        self.counted = -1    # the id of the last game counted, or -1
        self.table = {}      # rules -> {key: [a, b, draws]}
        for r in RULES:
            self.table[r] = {}
        if store is not None:
            self._load(store.read(R_STATS))

    def _load(self, data):
        if data is None:
            return
        try:
            self.decode(data)
        except (ValueError, IndexError):
            for r in RULES:
                self.table[r] = {}
            self.counted = -1
            self.problem = "statistics: unreadable, cleared"
            self.store.write(R_STATS, b"")    # reported once

    def decode(self, data):
        """Take the counts of a R_STATS payload; ValueError if it is not one."""
        if data[0] != _FORMAT or data[1] > 1:
            raise ValueError("format")
        self.counted = data[2] << 8 | data[3] if data[1] else -1
        i = 4
        while i < len(data):
            cell = data[i]
            if cell >> 4 >= len(RULES):
                raise ValueError("cell")
            i += 1
            c = [0, 0, 0]
            for k in range(3):
                n = shift = 0
                while True:
                    b = data[i]
                    i += 1
                    n |= (b & 127) << shift
                    shift += 7
                    if b < 128:
                        break
                    if shift > 28:
                        raise ValueError("count")
                c[k] = n
            self.table[RULES[cell >> 4]][cell & 15] = c

    def encode(self):
        """The R_STATS payload of the table."""
        out = bytearray((_FORMAT, 0, 0, 0))
        if self.counted >= 0:
            out[1:4] = bytes((1, self.counted >> 8, self.counted & 255))
        for r in range(len(RULES)):
            t = self.table[RULES[r]]
            for k in t:
                out.append(r << 4 | k)
                for n in t[k]:
                    _varint(out, n)
        return bytes(out)

    def counts(self, rules, opp=0):
        """The three counts of a rule set against one opponent key (see above)."""
        c = self.table.get(rules, {}).get(opp, (0, 0, 0))
        return (c[0], c[1], c[2])

    def keys(self, rules):
        """The opponent keys with games in a rule set, in order (OLD last)."""
        return sorted(self.table.get(rules, {}))

    def record(self, rules, winner, opp=0, you=None, game=-1):
        """Count one finished game; ``winner`` "south", "north" or None (draw).
        ``opp`` the opponent key; ``you`` the human's side against an
        opponent (None: two at the table, counted as South's and North's);
        ``game`` the id of its GAME record (jarmo.store_log), if saved.

        Returns False when it could not be saved."""
        t = self.table.get(rules)
        if t is None:
            t = self.table[rules] = {}
        c = t.get(opp)
        if c is None:
            c = t[opp] = [0, 0, 0]
        if winner is None:
            c[2] += 1
        elif you is not None:
            c[0 if winner == you else 1] += 1
        else:
            c[0 if winner == "south" else 1] += 1
        if game >= 0:
            self.counted = game
        return self.save()

    def save(self):
        if self.store is None:
            return True
        try:
            self.store.write(R_STATS, self.encode())
        except OSError:
            return False
        return True

    def lines(self, rules, opp=0, name=None):
        """Display lines for one rule set and opponent (title, three rows);
        name: the opponent's label ("AI level 2": "standard vs level 2", its
        wins "AI"), None for two at the table and OLD."""
        a, b, d = self.counts(rules, opp)
        total = a + b + d
        if name is not None:
            words = name.split(" ", 1)
            title = "%s vs %s" % (rules, words[-1])
            labels = ("You", words[0], "Draws")
        else:
            title = rules + (", earlier" if opp == OLD else ", 2 players")
            labels = LABELS
        return (title,
                row(labels[0], a, total),
                row(labels[1], b, total),
                row(labels[2], d, total))
