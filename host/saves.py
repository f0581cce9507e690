"""The app's saves on a PC: jarmo.nvm in the data folder, the file that
stands for the board's microcontroller.nvm (jarmo/store_flash.py), looked
at before anything is written to it.

Host only.  A board's flash is always there and always 4 KB; a file is not:
a PC can hand the simulator a file cut short by a copy, another program's
file, a folder, a link, a file it may not read or write.  The store
(jarmo/store_log.py) reads what it can of any 4 KB and starts afresh over
the rest, which on a board costs nothing more.  On a PC that would write
over a file the player may want back, so here:

- a file the store cannot read whole (any damage it names, a file cut
  short, empty or too big, another program's data) is moved aside first,
  as jarmo.nvm.bad-YYYYmmdd-HHMMSS (-2, -3 ... never over an earlier
  copy), and a fresh jarmo.nvm takes what could be read from it;
- what is not a file of ours to write (a folder, a link that leads nowhere
  or to a folder, a FIFO or a device, a file we may not read or write) is
  left as it is, and the session's saves are kept in memory;
- each is said in one line (open_saves: `lines`, for the terminal and the
  simulated screen) and in short items for the app's notice (`problems`).

The board's own behaviour is unchanged: hardware/flash.py still opens the
log there.
"""

import errno
import os
import stat
import time

from jarmo.store_flash import Flash
from jarmo.store_log import parse_at

SIZE = 4096                     # the store's sector: what a save file always holds
LOG = "jarmo.nvm"
ASIDE = ".bad-"                 # jarmo.nvm.bad-YYYYmmdd-HHMMSS: a copy set aside
_FOREIGN = "saves: unreadable, started afresh"       # jarmo/store_read.py's words
_LEGACY = tuple(n + s for n in ("game", "settings", "stats", "campaign") for s in ("", ".0", ".1"))
MEMORY = "this session's saves are kept in memory until you quit"


def why(err):
    """An OSError in a player's words: what is wrong, not the errno's name."""
    words = {
        errno.EROFS: "the drive is read-only",
        errno.EACCES: "no permission",
        errno.EPERM: "no permission",
        errno.ENOSPC: "the disk is full",
        errno.EDQUOT: "over the disk quota",
        errno.EISDIR: "it is a folder",
        errno.ENOENT: "it is not there any more",
        errno.ELOOP: "a link that leads round in a loop",
        errno.EBUSY: "it is in use (a mount point?)",
        errno.EEXIST: "a file of that name appeared meanwhile",
    }
    return words.get(getattr(err, "errno", None), getattr(err, "strerror", None) or str(err))


# ---------------------------------------------------------------- the file on disk


class SaveFile(Flash):
    """Stands in for microcontroller.nvm (jarmo/store_flash.Flash) over
    jarmo.nvm: each program or erase writes the bytes it changed in place.
    whole: "new" (no file yet: made whole at the first write, through a
    temporary name, so that it is never found half made) or "rewrite" (a
    file of other bytes, a link's target: written whole at the first
    write), else None."""

    def __init__(self, path, data=None, whole=None):
        Flash.__init__(self, SIZE, data)
        self.path = path
        self.whole = whole

    def saved(self, at, n):
        if self.whole == "new":
            _create(self.path, self.data)
        elif self.whole == "rewrite":
            with open(self.path, "r+b") as f:
                f.write(self.data)
                f.truncate()
        else:
            with open(self.path, "r+b") as f:
                f.seek(at)
                f.write(self.data[at:at + n])
        self.whole = None


def _create(path, data):
    """path made with data, never over a file that is there: written under
    a temporary name, then linked to path (link fails if it exists)."""
    tmp = "%s.new-%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:
            # a file system without hard links: rename, once none is there
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, "exists", path) from None
            os.rename(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.remove(tmp)


def look(path):
    """(kind, detail) of what is at path, without opening it: kind "missing",
    "file", "link" (to a file), "folder", "link-folder", "dangling",
    "loop", "special" (detail: what it is), "unreachable" (detail: the
    OSError)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "missing", None
    except OSError as err:
        return "unreachable", err
    link = stat.S_ISLNK(st.st_mode)
    if link:
        target = os.readlink(path)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return "dangling", target
        except OSError as err:
            if err.errno == errno.ELOOP:
                return "loop", target
            return "unreachable", err
        if stat.S_ISDIR(st.st_mode):
            return "link-folder", target
    if stat.S_ISDIR(st.st_mode):
        return "folder", None
    if not stat.S_ISREG(st.st_mode):
        # opening a FIFO for reading would wait for a writer for ever
        kind = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "not a regular file")
        return "special", kind
    return ("link", os.readlink(path)) if link else ("file", None)


def read_head(path):
    """(the first SIZE bytes, the file's size); OSError if it cannot be read."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        return f.read(SIZE), size


def writable(path):
    """None if the file can be opened for writing, else the OSError (opening
    it changes nothing in it)."""
    try:
        with open(path, "r+b"):
            return None
    except OSError as err:
        return err


def aside_name(path, when=None):
    """jarmo.nvm.bad-YYYYmmdd-HHMMSS beside path, with -2, -3 ... when that
    name is taken (by anything, a dangling link too)."""
    when = time.localtime() if when is None else when
    base = path + ASIDE + time.strftime("%Y%m%d-%H%M%S", when)
    name, n = base, 1
    while os.path.lexists(name):
        n += 1
        name = "%s-%d" % (base, n)
    return name


def set_aside(path, when=None, copy=False):
    """Keep the bytes at path as jarmo.nvm.bad-...: moved (the file itself,
    byte for byte; path is gone after) or, with copy (a link's target, or a
    file that cannot be moved), copied. Returns (the copy's path, True if
    moved). OSError if neither could be done: path is then as it was."""
    for _ in range(100):
        name = aside_name(path, when)
        if not copy:
            try:
                # link + unlink: a rename that never replaces an earlier copy
                os.link(path, name)
            except FileExistsError:
                continue                # taken meanwhile: the next name
            except OSError:
                try:
                    if os.path.lexists(name):
                        continue
                    os.rename(path, name)
                    return name, True
                except OSError:
                    pass                # cannot be moved: copied below
            else:
                try:
                    os.remove(path)
                except OSError:
                    os.remove(name)     # not moved after all; copied below (a hard link would
                                        # share the bytes then written in place)
                else:
                    return name, True
        try:
            _copy(path, name)
        except FileExistsError:
            continue
        return name, False
    raise OSError(errno.EEXIST, "no free name for a copy", path)


def _copy(path, name):
    with open(path, "rb") as src:
        try:
            with open(name, "xb") as dst:
                while True:
                    chunk = src.read(1 << 20)
                    if not chunk:
                        break
                    dst.write(chunk)
        except FileExistsError:
            raise
        except BaseException:
            if os.path.lexists(name):
                os.remove(name)         # no half copy is left to be taken for one
            raise


def describe(kind, detail):
    """What look() found, after the file's name: "is a folder, not a save
    file" ..."""
    if kind == "unreachable":
        return "cannot be looked at (%s)" % why(detail)
    return {
        "folder": "is a folder, not a save file",
        "link-folder": "is a link to a folder (%s), not a save file",
        "dangling": "is a link to %s, which is not there",
        "loop": "is a link that leads round in a loop",
        "special": "is %s, not a save file",
        "missing": "is not there",
    }[kind].replace("%s", str(detail))


# ---------------------------------------------------------------- what the file holds


class Found:
    """What the store and the app would find in a 4 KB image: problems (the
    store's and the app's words), kept (the kinds read whole), game (the
    game in progress, or None), locked (a newer Jarmo's log)."""

    def __init__(self):
        self.problems = []
        self.kept = []
        self.game = None
        self.locked = False
        self.whole_to = 0       # where the records that follow each other from the start end

    @property
    def foreign(self):
        return _FOREIGN in self.problems


def whole_to(image):
    """The end of the records that follow each other whole from image's
    start (the store appends each right after the one before)."""
    pos = 0
    while pos < len(image):
        n = parse_at(image, pos, len(image))
        if not n:
            break
        pos += n
    return pos


def nothing_past(image, size, found):
    """True if a file cut short at size lost nothing: its records end
    before the cut, whole, and erased bytes follow them up to it. Records
    are appended one after the other, so no record can start past an
    erased byte; at a record's very end nothing says whether one followed."""
    end = found.whole_to
    return not found.problems and end < size and image[end:size] == b"\xff" * (size - end)


def check(image):
    """Found in image (SIZE bytes), read as the app reads it at start-up,
    on a copy in RAM: the store writes as it reads (a torn tail is marked,
    unreadable statistics are cleared), and nothing may be written before
    the file is set aside."""
    from jarmo.app_base import opponent_row
    from jarmo.store_campaign import Progress
    from jarmo.store_flash import Flash
    from jarmo.store_game import load
    from jarmo.store_log import R_CAMPAIGN, R_GAME, R_SETTINGS, R_STATS, Store
    from jarmo.store_stats import Stats
    found = Found()
    found.whole_to = whole_to(image)
    store = Store(Flash(data=image))
    found.locked = store.locked
    found.problems = list(store.problems)
    if store.locked:
        return found
    saved = store.game()
    if saved is not None:
        try:
            game, _match, ident, _human, _battle = load(saved[1], saved[2], 255,
                                                        R_GAME in store.damaged)
            if opponent_row(ident) < 0:
                raise ValueError("bad players")
            found.game = game
        except ValueError as e:
            found.problems.append("game: " + (e.args[0] if e.args else "unreadable"))
    if store.read(R_SETTINGS) is not None:
        found.kept.append("settings")
    for kind, key, name in ((Stats, R_STATS, "statistics"), (Progress, R_CAMPAIGN, "campaign")):
        if store.read(key) is None:
            continue
        problem = kind(store).problem
        if problem:
            found.problems.append(problem)
        else:
            found.kept.append(name)
    if found.game is not None:
        found.kept.append("the game (%d turn%s%s)" % (
            found.game.plies, "" if found.game.plies == 1 else "s",
            ": as far as it replays, some of its turns were damaged" if R_GAME in store.damaged
            else ""))
    return found


# ---------------------------------------------------------------- opening the saves

UNTIL_QUIT = "saves last only until you quit"       # the notice's item for MEMORY
# the notice's item (at most two display lines) for what is left as it is
_LEFT = {
    "folder": "saves file is a folder",
    "link-folder": "saves file links to a folder",
    "dangling": "saves file: a broken link",
    "loop": "saves file: a link loop",
    "special": "saves file is not a file",
    "unreachable": "saves file cannot be read",
}


class Saves:
    """What open_saves() found and made: store (jarmo.store_log.Store),
    problems (the notice's items, each at most two display lines of 21
    characters), lines (the one line for the terminal and the simulated
    screen, or none), copy (the path of the copy set aside, or None),
    memory (True: nothing reaches the disk this session)."""

    def __init__(self):
        self.store = None
        self.problems = []
        self.lines = []
        self.copy = None
        self.memory = False


def open_saves(folder, when=None, display=None):
    """Saves for the data folder: its log, looked at before anything is
    written (see the module's comment), the older versions' saves in the
    folder imported into it once (jarmo/store_legacy.py). when: the time
    the copy's name says (default now); display(path): how a path is
    written in the line (default as it is)."""
    show = display or (lambda p: p)
    path = os.path.join(folder, LOG)
    out = Saves()
    image, whole, end, what = _plan(out, path, when, show)
    try:
        out.store = _build(path, image, whole, end)
        out.problems += _import(out.store, folder)
    except OSError as err:
        # the new file could not be made (the folder refused it): the same
        # saves, in memory
        whole = "memory"
        out.store = _build(path, image, whole, end)
        out.problems += _import(out.store, folder)
        if UNTIL_QUIT not in out.problems:
            out.problems[0:0] = ["saves file cannot be written", UNTIL_QUIT]
        if what:
            what += "; a fresh %s cannot be written (%s): %s" % (LOG, why(err), MEMORY)
        else:
            what = "cannot be written (%s): %s" % (why(err), MEMORY)
    else:
        if out.copy and whole != "memory":
            what += "; new saves go to a fresh %s" % LOG
    if out.copy and _FOREIGN in out.store.problems:
        out.store.problems.remove(_FOREIGN)     # said by out.problems, with the copy
    out.memory = whole == "memory"
    if what:
        out.lines = ["saves: %s %s" % (show(path), what)]
    return out


def _build(path, image, whole, end):
    """The store over image: in a SaveFile of mode `whole`, or in memory;
    end: the game found is not resumed. A file set aside is replaced at
    once, compacted: a player who quits now finds what was read here next
    time, not the damage again. OSError if the file cannot be written."""
    from jarmo.store_log import Store
    store = Store(Flash(SIZE, image) if whole == "memory" else SaveFile(path, image, whole))
    if end and store.game() is not None:
        store.end_game()
    if image is not None and whole in ("new", "rewrite"):
        store.compact()
    return store


def _import(store, folder):
    """The older versions' saves in folder, imported once (as the board
    does); skipped while one of their names is not a file (a FIFO would
    keep the reader waiting)."""
    from jarmo.store_legacy import import_once
    from jarmo.store_log import R_IMPORTED
    if store.read(R_IMPORTED) is not None:
        return []
    odd = [n for n in _LEGACY if look(os.path.join(folder, n))[0] not in ("missing", "file", "link")]
    if odd:
        return ["old saves not imported:", "%s is not a file" % odd[0]]
    return import_once(store, folder)


def _plan(out, path, when, show):
    """How the store is to be made for what is at path: (image: the bytes
    it starts from, None for erased; whole: SaveFile's mode, or "memory";
    end: True to not resume the game found; what: the line's words after
    the file's name, "" for none). Sets out.problems and out.copy; a
    damaged file is set aside here, before anything is written."""
    kind, detail = look(path)
    if kind == "missing":
        return None, "new", False, ""
    if kind in _LEFT:
        out.problems = [_LEFT[kind], UNTIL_QUIT]
        what = describe(kind, detail)
        return None, "memory", False, what + ": it is left as it is, and " + MEMORY
    try:
        data, size = read_head(path)
    except OSError as err:
        denied = err.errno in (errno.EACCES, errno.EPERM)
        out.problems = ["no permission to read the saves" if denied else _LEFT["unreachable"],
                        UNTIL_QUIT]
        return None, "memory", False, "cannot be read (%s): it is left as it is, and %s" % (
            why(err), MEMORY)
    image = bytes(data) + b"\xff" * (SIZE - len(data))      # as FileNvm reads a short file
    found = check(image)
    cant_write = writable(path)
    if found.locked:
        # a newer Jarmo's log: never written over (the store reads nothing
        # of it and writes nothing); one of another size stays as it is too
        if size == SIZE and cant_write is None:
            return image, None, False, ""
        return image, "memory", False, (
            "holds a newer Jarmo's saves (%d bytes): it is left as it is, and %s" % (size, MEMORY))
    if size == SIZE and not found.problems:
        if cant_write is None:
            return image, None, False, ""
        out.problems = ["saves file cannot be written", UNTIL_QUIT]
        return image, "memory", False, (
            "cannot be written (%s): its saves are read, the file is left as it is, and %s"
            % (why(cant_write), MEMORY))
    words, short = _damage_words(size, found)
    cut = 0 < size < SIZE and not found.foreign and not nothing_past(image, size, found)
    if 0 < size < SIZE and not found.foreign and not cut:
        words = "cut short (%d of %d bytes) after its last record, so nothing in it was lost" % (
            size, SIZE)
    # A file cut short may have gone on past the cut: the game its readable
    # part holds may have ended since, or another begun (a tester was given
    # back an older, finished game instead of the one 22 turns in). It is
    # not resumed; the copy holds it for --replay.
    end = cut and found.game is not None
    try:
        copy, moved = set_aside(path, when, copy=kind == "link")
    except OSError as err:
        out.problems = ["saves damaged: left as they are", UNTIL_QUIT]
        if end:
            out.problems.insert(1, "game in progress not resumed")
        return image, "memory", end, (
            "is %s, and could not be moved aside or copied (%s): it is left as it is; what "
            "could be read is used%s, and %s" % (
                words, why(err), " (not its game: the file may have gone on past the cut)"
                if end else "", MEMORY))
    out.copy = copy
    whole = "new" if moved else "rewrite" if cant_write is None else "memory"
    out.problems = [short + ": a copy was set aside"]
    what = "is %s: %s as %s; %s" % (words, "moved aside" if moved else "copied",
                                   os.path.basename(copy), _kept_words(found, cut))
    if end:
        out.problems.append("game in progress not resumed")
        what += ("; its game (%d turns) is not resumed, as the file may have gone on past the "
                 "cut (python3 run.py play --replay %s shows it)" % (found.game.plies, show(copy)))
    elif cut:
        what += "; whatever came after byte %d is lost" % size
    if whole == "memory":
        out.problems.append(UNTIL_QUIT)
        what += "; the file cannot be written (%s): %s" % (why(cant_write), MEMORY)
    return image, whole, end, what


def _damage_words(size, found):
    """Why a file is set aside, in the line's words; and the notice's short
    name of it. A file cut short is damaged; one too big is named so; what
    the store names as damage follows."""
    damage = "; ".join(p for p in found.problems if p != _FOREIGN)
    if size == 0:
        return "empty (0 of %d bytes)" % SIZE, "saves empty"
    if size > SIZE:
        words, short = "too big for a save file (%d bytes, not %d)" % (size, SIZE), "saves too big"
    elif found.foreign:
        return "not Jarmo's saves (%d bytes%s: another program's data, or damaged beyond " \
            "reading)" % (size, "" if size == SIZE else ", not %d" % SIZE), "saves unreadable"
    elif size < SIZE:
        words, short = "damaged: cut short (%d of %d bytes)" % (size, SIZE), "saves cut short"
    else:
        return "damaged (%s)" % damage, "saves damaged"
    if found.foreign:
        return words + ", and not Jarmo's saves", short
    return words + ("; " + damage if damage else ""), short


def _kept_words(found, cut):
    kept = [k for k in found.kept if not (cut and k.startswith("the game"))]
    return "kept from it: " + ", ".join(kept) if kept else "nothing in it could be read"
