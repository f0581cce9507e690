"""The AI players of self-play and the benchmarks, the shipped levels and
"3-legacy", a benchmark opponent that runs on the host only.

    from host.opponents import make_player, level_names
    p = make_player("3-legacy", seed=1)    # or any level jarmo.ai.Player takes

"3-legacy" is level 3's search configured as level 3 was before the
device measurements: level 2's search (alpha-beta, iterative deepening,
killers; no history table, no transposition table, so no null windows, no
late-move reductions and no skipped 3-turn iteration) up to 4 turns deep on
a 3,000-node budget, node budget only (no time budget).  The strength
targets of docs/AI.md measure level 3 against it; the app never offers it.
"""

from jarmo.ai import SLICE, Player, level_number

LEGACY = "3-legacy"
LEGACY_DEPTH = 4
LEGACY_NODES = 3000


class LegacyPlayer(Player):
    """The "3-legacy" benchmark opponent (see the module docstring)."""

    def __init__(self, seed=0, slice_nodes=SLICE):
        Player.__init__(self, 3, seed, slice_nodes)   # level 3's stacks: 32 depths
        self.depth = LEGACY_DEPTH
        self.node_budget = LEGACY_NODES
        self._hist = None              # no history heuristic
        self._ttmask = -1              # no transposition table (nor what depends on it)
        self._ttkey = self._ttval = self._ttmv = self._ttdf = None

    def start(self, game, now_ms=None):
        """As Player.start, always on the node budget (a clock is ignored)."""
        Player.start(self, game)


def check_level(level):
    """Raise ValueError unless level names a player make_player builds."""
    if isinstance(level, str) and level.strip().lower() == LEGACY:
        return
    level_number(level)


def make_player(level, seed=0, slice_nodes=SLICE):
    """A player of an AI level (jarmo.ai.Player's names and numbers) or "3-legacy"."""
    if isinstance(level, str) and level.strip().lower() == LEGACY:
        return LegacyPlayer(seed, slice_nodes)
    return Player(level, seed, slice_nodes)
