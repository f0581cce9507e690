# Game records: the game in progress as the store keeps it (jarmo.store_log).
#
# A GAME record when a game begins (a match writes one for each of its
# games), then a TURN record after every completed turn with the action
# codes played since the last one (jarmo.store_log.Store.add_turn). Loading
# replays the codes through the rules, so a save can never hold an
# impossible position.
#
# The GAME record's payload (format 1):
#
#     0     1 (format)
#     1     rule set: its index in jarmo.game.RULE_SETS
#     2     expansions: bit k for jarmo.game.EXPANSIONS[k]
#     3, 4  ply limit, high byte first (0: none)
#     5     opponent: its id (jarmo/app_base.py OPPONENTS: 0 two players,
#           1 + n the AI level n, 6 the linked board; never reused)
#     6     the human's side in the first game (0 South, 1 North)
#     7     campaign battle (255: none)
#     8     games in the match (0: a single game)
#     9...  for each finished game of the match, 4 bytes: winner (0 South,
#           1 North, 2 draw), South's and North's points (255 255: none),
#           why it ended (index in jarmo.game.REASONS)
#     last 2  a linked game's tag, high byte first (jarmo/link.py): only
#           for a linked game (the payload's length is then 9 + 4k + 2)
#
# Imported when a game starts or a save is read, and forgotten after.

from jarmo.board import SIDE_NAMES
from jarmo.game import EXPANSIONS, REASONS, RULE_SETS, Game, IllegalMove, Result

FORMAT = 1


def start_payload(game, match, opp, human0, battle, tag=-1):
    """The GAME record of a game (or of the current game of a match); tag:
    a linked game's tag (0..65535), -1 for any other game."""
    limit = game.ply_limit or 0
    bits = 0
    for k in range(len(EXPANSIONS)):
        if EXPANSIONS[k] in game.expansions:
            bits |= 1 << k
    out = bytearray((FORMAT, RULE_SETS.index(game.rules), bits, limit >> 8, limit & 255,
                     opp, human0, 255 if battle < 0 else battle,
                     0 if match is None else match.games))
    if match is not None:
        out.extend(results_bytes(match))
    if tag >= 0:
        out.extend((tag >> 8, tag & 255))
    return bytes(out)


def results_bytes(match):
    """The results of a match's games before the current one, 4 bytes each
    (as a GAME record holds them; a linked board sends them to a board that
    lost the match, jarmo/link.py)."""
    out = bytearray()
    for r in match.results[:match.number - 1]:
        w = 2 if r.winner is None else SIDE_NAMES.index(r.winner)
        s, n = (255, 255) if r.points is None else r.points
        out.extend((w, s, n, REASONS.index(r.reason)))
    return bytes(out)


def link_tag(start):
    """The tag of a linked game's GAME record, or -1 (not a linked game)."""
    if len(start) >= 11 and (len(start) - 9) % 4 == 2:
        return start[-2] << 8 | start[-1]
    return -1


def load(start, codes, max_opp, partial=False):
    """(game, match, opp, human0, battle) from a GAME record and the action
    codes of its turns; ValueError with a reason if they do not make a game.
    partial (some of the turns were damaged on flash): the game as far as
    its actions replay."""
    if len(start) < 9 or start[0] != FORMAT:
        raise ValueError("unknown format")
    if start[1] >= len(RULE_SETS) or start[2] >> len(EXPANSIONS):
        raise ValueError("unknown rules")
    rules = RULE_SETS[start[1]]
    expansions = tuple(EXPANSIONS[k] for k in range(len(EXPANSIONS)) if start[2] >> k & 1)
    limit = start[3] << 8 | start[4]
    opp = start[5]
    human0 = start[6]
    if opp > max_opp or human0 > 1:
        raise ValueError("bad players")
    battle = -1 if start[7] == 255 else start[7]
    games = start[8]
    finished = results_of(start[9:len(start) - (2 if link_tag(start) >= 0 else 0)])
    if games:
        from jarmo.match import Match  # (only for a match: a single game keeps it off the heap)
        match = Match(rules, games, expansions, limit or None, finished)
        game = match.game
    else:
        if finished:
            raise ValueError("results without a match")
        match = None
        game = Game(rules, expansions, limit or None)
    for code in codes:
        try:
            game.play_code(code)
        except IllegalMove as e:
            if partial:
                break
            raise ValueError("action %d cannot be replayed: %s" % (game.actions + 1, e))
    return game, match, opp, human0, battle


def results_of(data):
    """Results from results_bytes; ValueError if they are not results."""
    if len(data) % 4:
        raise ValueError("bad results")
    out = []
    for i in range(0, len(data), 4):
        w, s, n, why = data[i], data[i + 1], data[i + 2], data[i + 3]
        if w > 2 or why >= len(REASONS) or (s == 255) != (n == 255):
            raise ValueError("bad results")
        out.append(Result(None if w == 2 else SIDE_NAMES[w], None if s == 255 else (s, n),
                          REASONS[why]))
    return out
