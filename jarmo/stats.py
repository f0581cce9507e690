# Stats: win statistics per rule set and per opponent, kept in the store.
#
# Shown like the table on the online site ("valge 3514 (40.65 %)"): the
# percentage is truncated to two decimals, in integer arithmetic.
#
# The opponent keys: ``p2`` two players (South wins, North wins, draws);
# ``ai0`` .. ``ai9`` against the AI level of that number (jarmo.ai.LEVELS:
# random, greedy, 2, 3, 4), counted as your wins, the AI's wins, draws;
# ``old`` the totals of the first file format, which did not tell opponents
# apart (South wins, North wins, draws).
#
# Kept as the store's R_STATS record (jarmo.storage), written when a game is
# counted. Its payload: 3 (format), 1 and the id of the last game counted
# (2 bytes, high first; the id of its GAME record) or 0 0 0, then per table
# cell with games: rule set index << 4 | opponent (0 p2, 1 + n for ain, 15
# old), and the three counts as variable-length ints (7 bits a byte, low
# first). Naming the game in the same record makes a count atomic: after a
# power cut a game is counted exactly once.

from jarmo.app_base import SIDE_WORDS
from jarmo.game import RULE_SETS as RULES
from jarmo.storage import R_STATS

_FORMAT = 3
_OLD = 15

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


def _slot(opp):
    return 0 if opp == "p2" else _OLD if opp == "old" else 1 + int(opp[2:])


def _key(slot):
    return "p2" if slot == 0 else "old" if slot == _OLD else "ai%d" % (slot - 1)


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
            self.table[RULES[cell >> 4]][_key(cell & 15)] = c

    def encode(self):
        """The R_STATS payload of the table."""
        out = bytearray((_FORMAT, 0, 0, 0))
        if self.counted >= 0:
            out[1:4] = bytes((1, self.counted >> 8, self.counted & 255))
        for r in range(len(RULES)):
            t = self.table[RULES[r]]
            for k in t:
                out.append(r << 4 | _slot(k))
                for n in t[k]:
                    _varint(out, n)
        return bytes(out)

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

    def record(self, rules, winner, opp="p2", you="south", game=-1):
        """Count one finished game; ``winner`` "south", "north" or None (draw).
        ``opp`` the opponent key; against the AI ``you`` is the human's side;
        ``game`` the id of its GAME record (jarmo.storage), if saved.

        Returns False when it could not be saved."""
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
