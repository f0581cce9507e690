"""Files a player hands the simulator: the data folder, saved games, exports
and lists of moves (for --replay), each refused with one line that says why.

Host only.  The app's own saves are read through jarmo.store_log, the way the
app reads them: open_store() (host/saves.py: a log that cannot be read is
set aside before anything is written) and load_saved_game() are the only
places that know how the data folder keeps them (a log, jarmo.nvm).
"""

import json
import os


class FileError(Exception):
    """A file given on the command line that cannot be used: one line that says why."""


def data_folder(path=None, env=None):
    """The folder for saves and statistics, created when missing.

    path: --data; default $XDG_DATA_HOME/jarmo (an absolute XDG_DATA_HOME),
    else ~/.local/share/jarmo.  FileError if it cannot be made or written.
    """
    env = os.environ if env is None else env
    if not path:
        base = env.get("XDG_DATA_HOME", "")
        if not os.path.isabs(base):
            base = os.path.join(os.path.expanduser("~"), ".local", "share")
        path = os.path.join(base, "jarmo")
    path = os.path.abspath(os.path.expanduser(path))
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileError("cannot keep saves in %s: it is a file, not a folder" % path)
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".jarmo-write-test")
        with open(probe, "w") as f:
            f.write("ok")
        os.remove(probe)
    except OSError as err:
        raise FileError("cannot keep saves in %s: %s" % (path, err.strerror or err)) from err
    return path


def read_text(path, what):
    """The text of a file given as `what` (e.g. "--replay"); FileError if it is
    missing, unreadable or not text."""
    try:
        with open(path, "rb") as f:
            data = f.read((1 << 20) + 1)
    except FileNotFoundError:
        raise FileError("%s %s: no such file" % (what, path)) from None
    except IsADirectoryError:
        raise FileError("%s %s: is a folder, not a file" % (what, path)) from None
    except OSError as err:
        raise FileError("%s %s: cannot read it (%s)" % (what, path, err.strerror or err)) from err
    if len(data) > 1 << 20:
        raise FileError("%s %s: too big for a game or event file (over 1 MB)" % (what, path))
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        text = None
    if text is None or "\0" in text:
        raise FileError("%s %s: not a text file" % (what, path))
    return text


# ---------------------------------------------------------------- the app's saves


LOG = "jarmo.nvm"            # the store's log in a data folder (jarmo/store_log.py)
_OLD_GAME = ("game", "game.0", "game.1", "game.new")    # older versions' save files


def open_store(folder):
    """(store, problems): the app's store (jarmo.store_log) on the data
    folder's log, the older versions' saves there imported into it once;
    a log that cannot be read is set aside first (host/saves.py)."""
    saves = open_saves(folder)
    return saves.store, saves.problems


def open_saves(folder, when=None):
    """host/saves.py's open_saves, its paths written with ~ for the home
    folder: .store, .problems (the notice's items), .lines (the one line
    for the terminal and the screen), .copy, .memory."""
    from host.export import home
    from host.saves import open_saves as open_log
    return open_log(folder, when, home)


def is_log(path):
    """True if path is named as the data folder's log or a copy of it set
    aside (jarmo.nvm, jarmo.nvm.bad-...)."""
    base = os.path.basename(path)
    return base == LOG or base.startswith(LOG + ".bad-")


def saved_game_entry(path):
    """The data folder when path names the app's saved game in one: the
    folder itself, its log (jarmo.nvm, or a copy of it set aside,
    jarmo.nvm.bad-...), or an older version's save files (`game`,
    `game.0`, `game.1`, `game.new`); else None."""
    if os.path.isdir(path):
        folder = path
    else:
        folder, base = os.path.split(os.path.abspath(path))
        if is_log(path):
            return folder if os.path.lexists(path) else None
        if base not in _OLD_GAME:
            return None
    for name in (LOG,) + _OLD_GAME:
        if os.path.isfile(os.path.join(folder, name)):
            return folder
    return None


def load_saved_game(folder, log=None):
    """The Game the app saved in a data folder: the game in progress in its
    log (log: that file, e.g. a copy set aside, instead of the folder's),
    else an older version's save; ValueError saying why not. Nothing in
    the folder is changed."""
    from jarmo.store_legacy import read_text
    path = log or os.path.join(folder, LOG)
    if log or os.path.lexists(path):
        return _log_game(path)
    text, found = read_text(folder, "game")
    if text is None:
        raise ValueError("a damaged save" if found else "no saved game there")
    return game_from_save(text)


def _log_game(path):
    """The game in progress in a log file, read as the app reads it, from
    a copy in RAM (a read writes nothing); ValueError saying why not. A
    file of the wrong size is read as far as it goes, and named."""
    from host.saves import SIZE, describe, look, read_head, why
    from jarmo.store_flash import Flash
    from jarmo.store_game import load
    from jarmo.store_log import Store
    name = os.path.basename(path)
    kind, detail = look(path)
    if kind not in ("file", "link"):
        raise ValueError("%s %s" % (name, describe(kind, detail)))
    try:
        data, size = read_head(path)
    except OSError as err:
        raise ValueError("%s cannot be read (%s)" % (name, why(err))) from err
    store = Store(Flash(data=bytes(data) + b"\xff" * (SIZE - len(data))))
    problems = list(store.problems)
    if size != SIZE:
        problems.insert(0, "%d bytes, not %d: %s" % (
            size, SIZE, "cut short" if size < SIZE else "too big"))
    saved = store.game()
    if saved is None:
        raise ValueError("no game in progress in %s%s" % (
            name, " (%s)" % "; ".join(problems) if problems else ""))
    return load(saved[1], saved[2], 255)[0]


def game_from_save(body):
    """The Game in the body of the app's `game` save: JSON with "game" (a
    Game.dump()) or "match" (a Match.dump(): its current game)."""
    from jarmo import Game
    from jarmo.match import Match
    try:
        d = json.loads(body)
    except ValueError:
        raise ValueError("a Jarmo file, but not a saved game") from None
    if not isinstance(d, dict) or not ("game" in d or "match" in d):
        raise ValueError("a Jarmo file, but not a saved game")
    if "match" in d:
        return Match.load(d["match"]).game
    return Game.load(d["game"])


# ---------------------------------------------------------------- texts of games


def load_game_text(text, rules=None, expansions=()):
    """A Game from any of the texts a player has (ValueError saying why not):

    - an older version's `game` save in the single-file format (JARMO1
      header, checksum, JSON with "game" or "match"; a match gives its
      current game; a data folder's log and older slot files are read by
      load_saved_game);
    - Game.dump() text, or an export of the simulator (# comment lines
      before it);
    - a plain list of actions ("a1-c2 e5-d3 ...", move numbers such as
      "1." and commas allowed), played from the start under `rules`
      (default standard) and `expansions`; lines "rules R" and
      "expansions E ..." at the top choose them too.
    """
    from jarmo import Game, IllegalMove
    from jarmo.match import Match
    from jarmo.store_legacy import single_body

    if text.startswith("JARMO1 "):              # an older version's single-file save
        try:
            body = single_body(text.encode())
        except ValueError as err:
            raise ValueError("a damaged save (%s)" % err) from err
        return game_from_save(body)
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    if lines and lines[0].startswith("jarmo-game"):
        return Game.load("\n".join(lines) + "\n")
    if lines and lines[0].startswith("jarmo-match"):
        return Match.load("\n".join(lines) + "\n").game
    rules = rules or "standard"
    expansions = tuple(expansions or ())
    actions = []
    for line in lines:
        words = line.replace(",", " ").split()
        if words and words[0] == "rules" and not actions:
            if len(words) != 2:
                raise ValueError("'rules' takes one rule set")
            rules = words[1]
            continue
        if words and words[0] == "expansions" and not actions:
            expansions = tuple(w for w in words[1:] if w != "-")
            continue
        for w in words:
            if w.rstrip(".").isdigit():
                continue       # a move number
            actions.append(w)
    if not actions:
        raise ValueError("no moves in it")
    try:
        game = Game(rules, expansions=expansions)
    except ValueError as err:
        raise ValueError(str(err)) from err
    for i, a in enumerate(actions, 1):
        try:
            game.play(a)
        except IllegalMove as err:
            raise ValueError("action %d %r is not legal in %s rules: %s" % (i, a, rules, err)) from err
    return game


def read_replay(path, rules=None, expansions=()):
    """The Game in --replay FILE; FileError saying what is wrong.

    FILE: the app's saved game (a data folder, its log jarmo.nvm or a
    copy of it set aside, or an older version's save files), an export,
    Game.dump() text or a plain list of moves."""
    entry = saved_game_entry(path) if os.path.lexists(path) else None
    if entry is not None:
        try:
            return load_saved_game(entry, path if is_log(path) else None)
        except ValueError as err:
            raise FileError("--replay %s: not a game Jarmo can read: %s" % (path, err)) from err
    if os.path.isdir(path):
        raise FileError("--replay %s: is a folder without a saved game" % path)
    text = read_text(path, "--replay")
    try:
        return load_game_text(text, rules, expansions or ())
    except ValueError as err:
        raise FileError("--replay %s: not a game Jarmo can read: %s" % (path, err)) from err
