# Campaign: the ladder of battles against the AI and the progress kept on flash.
#
# A battle is one game against one AI level under one rule set, with the
# human on one side. The ladder climbs the AI's levels (jarmo.ai.LEVELS:
# random, greedy, 2, 3, 4) across the rule sets and expansions; a won battle
# opens the next one. Progress is the fewest turns each battle was won in
# (0: not won yet), kept as the store's R_CAMPAIGN record (jarmo.store_log): a
# format byte (1) and one byte a battle (fewest turns, at most 255). A
# record is written whole or not at all, so a power cut keeps the old or the
# new progress. Recording a win is idempotent (a win only lowers "best"), so
# a power cut between the game's save and this one loses at most that win
# and never counts it twice. The module is imported when the campaign screen
# opens or a battle ends, and forgotten after.

from jarmo.store_log import R_CAMPAIGN

_FORMAT = 1

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
    # read from and written to a jarmo.store_log.Store (or kept in memory
    # only, store None). ``problem`` says why stored progress was cleared.

    def __init__(self, store=None):
        self.store = store
        self.best = [0] * len(BATTLES)
        self.problem = None
        if store is not None:
            self._load()

    def _load(self):
        data = self.store.read(R_CAMPAIGN)
        if data is None:
            return
        if data[0] != _FORMAT:
            self.problem = "campaign: unreadable, cleared"
            self.store.write(R_CAMPAIGN, b"")    # reported once
            return
        for k in range(min(len(data) - 1, len(BATTLES))):
            self.best[k] = data[k + 1]

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
        self.best[k] = min(turns, 255)
        return self.save()

    def save(self):
        """Keep the progress in the store; False when it could not be written."""
        if self.store is None:
            return True
        try:
            self.store.write(R_CAMPAIGN, bytes((_FORMAT,)) + bytes(self.best))
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
