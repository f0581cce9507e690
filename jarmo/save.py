# Save: the text form of a game and of a match (exports, the simulator's
# replays, older versions' saves). Imported only when a text is made or
# read; the device keeps its games as records (jarmo/store_game.py).
#
# A save lists the rules and the actions played, so loading replays them
# through the rules (a save can never hold an impossible position), and ends
# with a checksum so a torn or edited file is refused rather than misread:
#
#     jarmo-game 1
#     rules standard
#     expansions heroes challenges        (or -)
#     ply-limit 200                       (or -)
#     actions 3
#     b1-d2 e5-d3 @a1
#     check 1a2b3c4d                      (Adler-32 of the lines above)

from jarmo.checksum import checksum
from jarmo.game import Game, IllegalMove

FORMAT = "jarmo-game"
VERSION = 1


def seal(body):
    """The body followed by its check line."""
    return body + "check " + checksum(body) + "\n"


def unseal(text, kind):
    """The body lines of a sealed text; ValueError if it is not intact."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeError:
            raise ValueError("not a %s save: not UTF-8 text" % kind)
    if not isinstance(text, str):
        raise ValueError("a %s save is text, not %s" % (kind, type(text).__name__))
    end = text.rfind("check ")
    if end < 0 or (end and text[end - 1] != "\n"):
        raise ValueError("%s save is truncated: no check line" % kind)
    if text[end:].strip() != "check " + checksum(text[:end]):
        raise ValueError("%s save is damaged: the checksum does not match" % kind)
    return text[:end].split("\n")[:-1]


def expect(lines, i, key, kind):
    """The value of line i, which must start with `key`."""
    if i >= len(lines):
        raise ValueError("%s save is truncated: %r missing" % (kind, key))
    line = lines[i]
    if line != key and not line.startswith(key + " "):
        raise ValueError("%s save line %d should start with %r" % (kind, i + 1, key))
    return line[len(key) + 1:]


def dump_game(game):
    expansions = " ".join(game.expansions) or "-"
    limit = "-" if game.ply_limit is None else str(game.ply_limit)
    actions = game.history()
    body = "%s %d\nrules %s\nexpansions %s\nply-limit %s\nactions %d\n%s\n" % (
        FORMAT, VERSION, game.rules, expansions, limit, len(actions), " ".join(actions))
    return seal(body)


def load_game(text):
    lines = unseal(text, "game")
    version = expect(lines, 0, FORMAT, "game")
    if version != str(VERSION):
        raise ValueError("game save has version %r; this build reads version %d"
                         % (version, VERSION))
    rules = expect(lines, 1, "rules", "game")
    expansions = expect(lines, 2, "expansions", "game")
    limit = expect(lines, 3, "ply-limit", "game")
    count = expect(lines, 4, "actions", "game")
    if len(lines) != 6:
        raise ValueError("game save should have 6 lines before the check, not %d" % len(lines))
    moves = lines[5].split()
    if not count.isdigit() or int(count) != len(moves):
        raise ValueError("game save lists %d actions but says %r" % (len(moves), count))
    if limit != "-" and not limit.isdigit():
        raise ValueError("game save has a bad ply limit %r" % limit)
    game = Game(rules, () if expansions == "-" else expansions.split(),
                None if limit == "-" else int(limit))
    for i in range(len(moves)):
        try:
            game.play(moves[i])
        except IllegalMove as e:
            raise ValueError("game save action %d (%s) cannot be replayed: %s"
                             % (i + 1, moves[i], e))
    return game


# A match: its length, the finished games' results and the current game:
#
#     jarmo-match 1
#     games 4
#     results south:3,1:camp north:-:wipeout    (or -)
#     jarmo-game 1 ...                          (Game.dump() of the current game)
#     check ...

def dump_match(match):
    results = " ".join("%s:%s:%s" % (r.winner or "-", "-" if r.points is None
                                     else "%d,%d" % r.points, r.reason)
                       for r in match.results[:match.number - 1])
    body = "jarmo-match 1\ngames %d\nresults %s\n%s" % (
        match.games, results or "-", match.game.dump())
    return seal(body)


def load_match(text):
    from jarmo.board import SIDE_NAMES
    from jarmo.game import REASONS, Result
    from jarmo.match import Match
    lines = unseal(text, "match")
    if expect(lines, 0, "jarmo-match", "match") != "1":
        raise ValueError("match save has an unknown version")
    games = expect(lines, 1, "games", "match")
    if games not in ("2", "4", "6"):
        raise ValueError("match save has a bad game count %r" % games)
    results = expect(lines, 2, "results", "match")
    game = Game.load("\n".join(lines[3:]) + "\n")
    finished = []
    for item in ([] if results == "-" else results.split()):
        parts = item.split(":")
        if len(parts) != 3 or parts[2] not in REASONS:
            raise ValueError("match save has a bad result %r" % item)
        winner = None if parts[0] == "-" else parts[0]
        if winner is not None and winner not in SIDE_NAMES:
            raise ValueError("match save has a bad winner %r" % parts[0])
        points = None
        if parts[1] != "-":
            pair = parts[1].split(",")
            if len(pair) != 2 or not pair[0].isdigit() or not pair[1].isdigit():
                raise ValueError("match save has bad points %r" % parts[1])
            points = (int(pair[0]), int(pair[1]))
        finished.append(Result(winner, points, parts[2]))
    if len(finished) >= int(games):
        raise ValueError("match save has more results than games")
    match = Match(game.rules, int(games), game.expansions, game.ply_limit, finished)
    match.game = game
    return match
