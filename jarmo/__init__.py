# Jarmo: the rules of the old Tatar race-and-capture game, for a handheld.
#
#     from jarmo import Game, Match, IllegalMove

from jarmo.game import Game, IllegalMove, Result
from jarmo.match import Match

__all__ = ("Game", "Match", "IllegalMove", "Result")
