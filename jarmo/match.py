# Match: 2, 4 or 6 games, sides swapped after every game, points added.
#
# Players are "first" and "second".  The first player is South in games 1, 3
# and 5 (South always moves first).  Rule sets with points add each game's
# points; Legendary and Jasyr have none, so there a won game counts 1 (a
# decision of ours, see docs/RULES-DECISIONS.md).

from jarmo.game import Game

PLAYERS = ("first", "second")


# A match in progress: its games so far and the one being played.
class Match:
    def __init__(self, rules="standard", games=2, expansions=(), ply_limit=None, finished=()):
        """finished: the Results of games already played (a match resumed)."""
        if games not in (2, 4, 6):
            raise ValueError("a match has 2, 4 or 6 games, not %r" % (games,))
        if len(finished) >= games:
            raise ValueError("a match of %d games cannot have %d played"
                             % (games, len(finished)))
        self.rules = rules
        self.games = games
        self.expansions = tuple(expansions)
        self.ply_limit = ply_limit
        self._finished = list(finished)   # results of the games before the current one
        self.game = Game(rules, expansions, ply_limit)

    @property
    def number(self):
        """The current game's number, from 1."""
        return len(self._finished) + 1

    @property
    def results(self):
        """The Result of every ended game, the current one included once it ends."""
        current = self.game.result()
        return self._finished + ([current] if current is not None else [])

    def side_of(self, player, number=None):
        """"south" or "north": the side a player ("first"/"second") has in a game."""
        if player not in PLAYERS:
            raise ValueError("player must be 'first' or 'second', not %r" % (player,))
        number = self.number if number is None else number
        if (player == "first") == (number % 2 == 1):
            return "south"
        return "north"

    def game_points(self, result, number):
        """(first, second) points that game `number` with this result gives."""
        if result.points is not None:
            south, north = result.points
        else:
            south = 1 if result.winner == "south" else 0
            north = 1 if result.winner == "north" else 0
        if number % 2 == 1:
            return (south, north)
        return (north, south)

    @property
    def totals(self):
        """Running (first, second) totals over the ended games."""
        first = second = 0
        results = self.results
        for i in range(len(results)):
            a, b = self.game_points(results[i], i + 1)
            first += a
            second += b
        return (first, second)

    def over(self):
        """True once every game of the match has ended."""
        return len(self.results) == self.games

    def next_game(self):
        """Start the next game; ValueError while the current one runs or when all are played."""
        result = self.game.result()
        if result is None:
            raise ValueError("the current game has not ended")
        if self.over():
            raise ValueError("the match is over")
        self._finished.append(result)
        self.game = Game(self.rules, self.expansions, self.ply_limit)
        return self.game

    def winner(self):
        """None while running or on equal totals, else "first" or "second"."""
        if not self.over():
            return None
        first, second = self.totals
        if first == second:
            return None
        return "first" if first > second else "second"

    def dump(self):
        """The match as text: its settings, finished results and the current game."""
        from jarmo.save import dump_match
        return dump_match(self)

    @staticmethod
    def load(text):
        """A Match from dump() text; ValueError if malformed."""
        from jarmo.save import load_match
        return load_match(text)
