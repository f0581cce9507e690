"""Seeded games of level 4 (its opening book and its variety margin) that play
the same on every interpreter: a digest of their histories."""

from jarmo import Game
from jarmo.ai import Player
from jarmo.checksum import checksum


def level4_digest(seeds=(1, 2), ply_limit=12):
    """Level 4 (the shipped book, if there is one) against level 3 in standard
    and classic, level 4 on either side: "checksum/book turns" (a checksum over
the histories, and how many of level 4's turns came from the book)."""
    lines = []
    hits = 0
    for rules in ("standard", "classic"):
        for seed in seeds:
            g = Game(rules, (), ply_limit)
            players = [Player(4, seed), Player(3, seed + 50)]
            if seed % 2:
                players.reverse()
            while g.result() is None:
                p = players[g.mover]
                for code in p.choose(g):
                    g.play_code(code)
                hits += p.level == 4 and p.nodes == 0
            lines.append(" ".join(g.history()))
    return "%s/%d" % (checksum("\n".join(lines)), hits)
