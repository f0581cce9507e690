# Campaign: the ladder of battles against the AI and the progress kept on flash.
#
# A battle is one game against one AI level under one rule set, with the
# human on one side. The ladder climbs the AI's levels (jarmo.ai.LEVELS:
# random, greedy, 2, 3, 4) across the rule sets and expansions; a won battle
# opens the next one. Progress is the fewest turns each battle was won in
# (0: not won yet), kept under the store name ``campaign`` as JSON:
#
#     {"v": 1, "best": [0, 14, ...]}
#
# written through jarmo.storage's atomic, checksummed slots, so a power cut
# keeps the old or the new progress. Recording a win is idempotent (a win
# only lowers "best"), so a power cut between the game's save and this one
# loses at most that win and never counts it twice. The module is imported
# when the campaign screen opens or a battle ends, and forgotten after.

import json

NAME = "campaign"

# (rules, expansions, AI level 0..4, human side 0 South / 1 North)
BATTLES = (
    ("classic", (), 0, 0),
    ("standard", (), 0, 0),
    ("classic", (), 1, 0),
    ("standard", (), 1, 1),
    ("legendary", (), 1, 0),
    ("jasyr", (), 1, 0),
    ("standard", ("heroes",), 2, 0),
    ("legendary", ("challenges",), 2, 1),
    ("standard", ("heroes", "challenges"), 3, 0),
    ("legendary", ("heroes",), 3, 1),
    ("standard", (), 4, 0),
    ("jasyr", ("heroes", "challenges"), 4, 1),
)


class Progress:
    # The best result of every battle (fewest turns to a win, 0: not won),
    # read from and written to a jarmo.storage.Store (or kept in memory
    # only, store None). ``problem`` says why a damaged file was set aside.

    def __init__(self, store=None):
        self.store = store
        self.best = [0] * len(BATTLES)
        self.problem = None
        if store is not None:
            self._load()

    def _load(self):
        store = self.store
        text = store.read(NAME)
        if store.error:
            self._bad(store.error)          # the other slot may still serve
        if text is None:
            return
        try:
            data = json.loads(text)
            best = data["best"]
            if data.get("v") != 1 or not isinstance(best, list):
                raise ValueError("shape")
            for k in range(min(len(best), len(BATTLES))):
                v = best[k]
                if type(v) is not int or v < 0:
                    raise ValueError("value")
                self.best[k] = v
        except (ValueError, TypeError, KeyError, AttributeError):
            self.best = [0] * len(BATTLES)
            self._bad(NAME + ": unreadable")

    def _bad(self, why):
        self.problem = why
        try:
            self.store.set_aside(NAME)
        except OSError:
            pass

    def won(self, k):
        return self.best[k] > 0

    def is_open(self, k):
        """Battle 0 is always open; every other once the one before is won."""
        return k == 0 or self.best[k - 1] > 0

    def wins(self):
        return len(BATTLES) - self.best.count(0)

    def first_open(self):
        """The first battle not won yet that can be played (the last one when all are won)."""
        for k in range(len(BATTLES)):
            if not self.won(k):
                return k
        return len(BATTLES) - 1

    def record(self, k, turns):
        """Battle k won in `turns` of the human's turns: keep the fewest.
        False when the file could not be written."""
        turns = max(1, turns)
        if not 0 <= k < len(BATTLES):
            return False            # a save from another ladder: nothing to record
        if self.best[k] and self.best[k] <= turns:
            return True
        self.best[k] = turns
        if self.store is None:
            return True
        try:
            self.store.write(NAME, json.dumps({"v": 1, "best": self.best}))
        except OSError:
            return False
        return True


def record_battle(app):
    """The running battle (app.battle) is over: a win goes into the progress."""
    g = app.game
    if g.result().winner == ("south", "north")[app.human0]:
        Progress(app.store).record(app.battle, human_turns(g, app.human0))


def human_turns(game, side):
    """The turns the human (side 0 South, 1 North) has played in a game."""
    return (game.plies + 1 - side) // 2
