# Jarmo: the rules of the old Tatar race-and-capture game, for a handheld.
#
#     from jarmo import Game, IllegalMove
#     from jarmo.match import Match   # (not imported here: on the device a module's
#                                     # code stays in RAM, and a single game needs none)

from jarmo.game import Game, IllegalMove, Result

__all__ = ("Game", "IllegalMove", "Result")
