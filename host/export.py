"""The game as a text file a person reads and --replay loads (key x).

Host only.
"""

import os
import time


def turns(game):
    """The game's actions grouped by turn: [(side, [action, ...]), ...]."""
    from jarmo import Game
    g = Game(game.rules, expansions=game.expansions, ply_limit=game.ply_limit)
    out = []
    plies = -1
    for a in game.history():
        if g.plies != plies or not out:
            out.append((g.turn, []))
            plies = g.plies
        out[-1][1].append(a)
        g.play(a)
    return out


def export_text(game, when=None, seed=None):
    """The game as a text a person reads and `--replay` loads: comment lines
    (rules, result, the moves turn by turn) above Game.dump()."""
    when = time.localtime() if when is None else when
    res = game.result()
    if res is None:
        state = "in progress, %s to move" % game.turn
    elif res.winner is None:
        state = "a draw (%s)" % res.reason
    else:
        state = "%s won (%s)" % (res.winner.capitalize(), res.reason)
    if res is not None and res.points is not None:
        state += ", points %d-%d" % res.points
    lines = ["# Jarmo game exported %s by the simulator" % time.strftime("%Y-%m-%d %H:%M:%S", when),
             "# rules %s, expansions %s" % (game.rules, " ".join(game.expansions) or "none"),
             "# %s after %d actions" % (state, len(game.history()))]
    if seed is not None:
        lines.append("# AI seed %d" % seed)
    lines.append("# replay: python3 run.py play --replay THIS-FILE")
    lines.append("#")
    for i, (side, actions) in enumerate(turns(game), 1):
        lines.append("# %3d %-5s %s" % (i, side, " ".join(actions)))
    return "\n".join(lines) + "\n" + game.dump()


def export_game(game, folder, when=None, seed=None):
    """Write export_text() as jarmo-game-YYYYmmdd-HHMMSS.txt in folder (a
    suffix -2, -3 ... if that name is taken); its path."""
    when = time.localtime() if when is None else when
    base = os.path.join(folder, time.strftime("jarmo-game-%Y%m%d-%H%M%S", when))
    text = export_text(game, when, seed)
    n = 1
    path = base + ".txt"
    while True:
        # lexists: a name taken by anything (a folder, a link to nowhere) is
        # passed over, and "x" never writes through or over what is there
        while os.path.lexists(path):
            n += 1
            path = "%s-%d.txt" % (base, n)
        try:
            f = open(path, "x", encoding="utf-8")
        except FileExistsError:
            continue                    # taken meanwhile: the next name
        break
    try:
        with f:
            f.write(text)
    except BaseException:
        os.remove(path)                 # ours, half written (a full disk): no half export left
        raise
    return path


def home(path):
    """path with the home folder written ~."""
    h = os.path.expanduser("~")
    if h not in ("", "/") and (path == h or path.startswith(h + os.sep)):
        return "~" + path[len(h):]
    return path


def export_status(app, folder, seed=None):
    """Export app's game into folder; the line that says where (or why not)."""
    return export_path(app, folder, seed)[1]


def export_path(app, folder, seed=None):
    """Export app's game into folder: (the file's path or None, the line that
    says where or why not)."""
    game = getattr(app, "game", None)
    if game is None:
        return None, "no game to export yet"
    if folder is None:
        return None, "no data folder to export into"
    try:
        path = export_game(getattr(app, "full", game), folder, seed=seed)
    except OSError as err:
        from host.saves import why
        return None, "cannot export into %s: %s" % (home(folder), why(err))
    return path, "game exported as %s in %s" % (os.path.basename(path),
                                               home(os.path.dirname(path)))
