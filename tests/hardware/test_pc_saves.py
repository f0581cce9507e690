"""The saves on a PC (host/saves.py): jarmo.nvm in the data folder, which
stands for the board's microcontroller.nvm, may be anything a PC can make of
a file. Every kind is fuzzed here: random bytes and text, cut short at every
kind of instant (inside each record, at each record's end, in the erased
tail), bytes flipped, too big, empty, a folder, links (dangling, to a folder,
in a loop, to a file), a FIFO, no permission to read or write, a read-only
mount. Each gives exactly one clear line (none for a file that reads whole),
keeps a byte-exact copy of what could not be read, and loses nothing that
could: the same settings, statistics and campaign, and the game, or the
player is told it is not resumed. Then the same through `run.py play`, the
exports (key x) and the web page's kept values (web/jarmo_page.py,
web/saves.js)."""

import contextlib
import errno
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

from host import export, gamefiles, saves
from host.saves import SIZE, open_saves
from jarmo import Game
from jarmo.app import App
from jarmo.app_base import wrap
from jarmo.store_campaign import Progress
from jarmo.store_flash import Flash
from jarmo.store_game import start_payload
from jarmo.store_log import R_CAMPAIGN, R_SETTINGS, R_STATS, Store, parse_at
from jarmo.store_stats import Stats
from tests import needs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WHEN = (2025, 3, 4, 5, 6, 7, 0, 0, -1)         # the copies' time: jarmo.nvm.bad-20250304-050607
COPY = "jarmo.nvm.bad-20250304-050607"
NOBODY = 65534
RUN_TIMEOUT = 60


# ---------------------------------------------------------------- the tester's file


def _played(seed, turns):
    """A standard game of random legal actions, `turns` turns in."""
    rng = random.Random(seed)
    g = Game("standard")
    while g.plies < turns and g.result() is None:
        g.play_code(rng.choice(g.legal_codes()))
    return g


def _save_turns(store, game):
    """game's actions into store a turn a record, as the app saves them."""
    g = Game(game.rules)
    codes = []
    for code in game.history_codes():
        before = g.plies
        g.play_code(code)
        codes.append(code)
        if g.plies != before:
            store.add_turn(codes)
            codes = []
    if codes:
        store.add_turn(codes)


def _tester_log():
    """(the 4 KB log, the level-4 game in it): settings, a game against the
    greedy AI that ended after 5 turns and was counted, campaign progress,
    then a level-4 game 22 turns in (the file the tester cut short)."""
    store = Store(Flash())
    store.write(R_SETTINGS, bytes((0, 0, 0, 5, 0, 0, 2, 1, 0, 0)))
    greedy = _played(1, 5)
    gid = store.start_game(start_payload(Game("standard"), None, 2, 0, -1))
    _save_turns(store, greedy)
    Stats(store).record("standard", "south", 2, "south", gid)
    store.end_game()
    Progress(store).record(0, 12)
    level4 = _played(2, 22)
    store.start_game(start_payload(Game("standard"), None, 5, 0, -1))
    _save_turns(store, level4)
    assert store.game() is not None and store.free > 1000
    return bytes(store.flash.data), level4


LOG, LEVEL4 = _tester_log()


def _records(data):
    """(start, end) of each record of a log, in order."""
    out = []
    pos = 0
    while True:
        n = parse_at(data, pos, len(data))
        if not n:
            return out
        out.append((pos, pos + n))
        pos += n


RECORDS = _records(LOG)
LOG_END = RECORDS[-1][1]


def readable(image):
    """What the app can read in a 4 KB image (on a copy): the payloads of
    settings, statistics and campaign, and the game (start, codes)."""
    store = Store(Flash(data=bytes(image)))
    if store.locked:
        return None
    game = store.game()
    return {"settings": store.read(R_SETTINGS), "stats": store.read(R_STATS),
            "campaign": store.read(R_CAMPAIGN), "game": game and (game[1], list(game[2]))}


def _held(store):
    game = store.game()
    return {"settings": store.read(R_SETTINGS), "stats": store.read(R_STATS),
            "campaign": store.read(R_CAMPAIGN), "game": game and (game[1], list(game[2]))}


def _image(data):
    return bytes(data[:SIZE]) + b"\xff" * max(0, SIZE - len(data))


# ---------------------------------------------------------------- the cases


def _write(data):
    def make(path, scratch):
        with open(path, "wb") as f:
            f.write(data)
        return data
    return make


def _cases():
    """(name, make(path, scratch) -> the bytes there or None, expect):
    expect "aside" (a copy of it), "left" (left as it is, saves in memory),
    "whole" (read whole: no line), "either" (a flip the store may take for
    a power cut: no line, or a copy)."""
    cases = []
    for seed in range(16):
        rng = random.Random(seed)
        size = SIZE if seed < 8 else rng.choice((1, 7, 100, 2048, SIZE - 1, SIZE + 1, 8192))
        cases.append(("random %d (%d bytes)" % (seed, size), _write(rng.randbytes(size)), "aside"))
    cases.append(("text 4 KB", _write((b"a saved game? no, notes\n" * 200)[:SIZE]), "aside"))
    cases.append(("text short", _write(b"hello world\n"), "aside"))
    cases.append(("json", _write(json.dumps({"game": "jarmo", "turn": 22}).encode()), "aside"))
    cases.append(("empty", _write(b""), "aside"))
    # cut short: at every record's end, inside each record (its first byte,
    # its middle, its last), in the erased tail; the worst instants: inside
    # the last record and at the end of the one before it
    cuts = set()
    for start, end in RECORDS:
        cuts.update((start + 1, (start + end) // 2, end - 1, end))
    cuts.update((LOG_END + 1, LOG_END + 100, SIZE - 1))
    for size in sorted(cuts):
        where = ("in the erased tail" if size > LOG_END else
                 "at a record's end" if any(size == e for _s, e in RECORDS) else "inside a record")
        cases.append(("cut at %d (%s)" % (size, where), _write(LOG[:size]), "aside"))
    for seed in range(48):
        rng = random.Random(1000 + seed)
        data = bytearray(LOG)
        span = LOG_END if seed < 40 else SIZE      # the last few: anywhere, the erased tail too
        for _ in range(rng.choice((1, 1, 2, 3))):
            data[rng.randrange(span)] ^= rng.choice((0xFF, 0x01, 0x80, rng.randrange(1, 256)))
        cases.append(("flipped %d" % seed, _write(bytes(data)), "either"))
    cases.append(("huge (10 MB)", _write(LOG + random.Random(5).randbytes(10 << 20)), "aside"))
    cases.append(("the log and junk after it", _write(LOG + b"junk"), "aside"))
    cases.append(("whole", _write(LOG), "whole"))
    cases.append(("a newer Jarmo's log", _write(_newer()), "whole"))

    def folder(path, scratch):
        os.mkdir(path)
        with open(os.path.join(path, "inside.txt"), "w") as f:
            f.write("the player's own file")
        return None
    cases.append(("a folder", folder, "left"))

    def dangling(path, scratch):
        os.symlink(os.path.join(scratch, "unmounted", "jarmo.nvm"), path)
        return None
    cases.append(("a dangling link", dangling, "left"))

    def to_folder(path, scratch):
        os.symlink(scratch, path)
        return None
    cases.append(("a link to a folder", to_folder, "left"))

    def loop(path, scratch):
        os.symlink(path, path)
        return None
    cases.append(("a link to itself", loop, "left"))

    def fifo(path, scratch):
        os.mkfifo(path)
        return None
    cases.append(("a FIFO", fifo, "left"))

    def to_file(data):
        def make(path, scratch):
            target = os.path.join(scratch, "elsewhere.nvm")
            with open(target, "wb") as f:
                f.write(data)
            os.symlink(target, path)
            return data
        return make
    cases.append(("a link to a whole log", to_file(LOG), "whole"))
    cases.append(("a link to a log cut short", to_file(LOG[:100]), "aside"))
    return cases


def _newer():
    from jarmo.store_log import FORMAT_LEN, R_FORMAT, record
    rec = record(R_FORMAT, 0, b"JARMO\x02")
    assert len(rec) == FORMAT_LEN
    return bytes(rec) + b"\xa5 a newer version's records" + b"\xff" * (SIZE - len(rec) - 27)


class Tally:
    def __init__(self):
        self.cases = self.copies = self.lines = 0


def _fits(item):
    """A notice item the display shows whole: two lines of 21, no word cut."""
    shown = wrap(item, 21, 3)
    return len(shown) <= 2 and " ".join(shown) == " ".join(item.split())


def check_case(name, folder, make, expect, tally, scratch=None, reopen=True):
    """Make the case in folder, open the saves, check everything said here."""
    path = os.path.join(folder, "jarmo.nvm")
    scratch = scratch or folder
    before = make(path, scratch)
    target = os.path.realpath(path) if os.path.islink(path) else None
    was = os.readlink(path) if os.path.islink(path) else None
    found = readable(_image(before)) if before is not None else None
    out = open_saves(folder, when=WHEN)
    tally.cases += 1
    said = "%s: %r %r" % (name, out.lines, out.problems)
    damaged = bool(out.copy)
    if expect == "either":
        expect = "aside" if out.lines else "whole"
    if expect == "whole":
        assert out.lines == [] and out.copy is None and not out.memory, said
        assert not any(n.startswith("jarmo.nvm.bad") for n in os.listdir(folder)), said
    else:
        # exactly one clear line: which file, why, where the copy is
        assert len(out.lines) == 1 and out.lines[0].startswith("saves: " + path + " "), said
        assert "read-only" not in out.lines[0] or "read-only" in name, said
        tally.lines += 1
        for item in out.problems:
            assert _fits(item), (said, item)
    if expect == "aside":
        assert damaged, said
        assert os.path.basename(out.copy) in out.lines[0], said
        with open(out.copy, "rb") as f:
            kept = f.read()
        if target:
            assert os.readlink(path) == was, said       # the link itself stays
        assert hashlib.sha256(kept).digest() == hashlib.sha256(before).digest(), said
        tally.copies += 1
    if expect == "left":
        assert out.memory and out.copy is None, said
        assert not any(n.startswith("jarmo.nvm.bad") for n in os.listdir(folder)), said
    # nothing readable lost: the same records, or the game named as not resumed
    if found is not None:
        held = _held(out.store)
        for key in ("settings", "stats", "campaign"):
            assert held[key] == found[key], (said, key)
        if found["game"] is not None:
            if held["game"] is None:
                assert "game in progress not resumed" in out.problems, said
                assert "is not resumed" in out.lines[0], said
                assert 0 < len(before) < SIZE, said      # only a file cut short
            else:
                assert held["game"] == found["game"], said
    # the app opens on them and says it on its notice, or resumes the game
    app = App(store=out.store, problems=out.problems, seed=1)
    if out.problems:
        assert app.state == "notice" and wrap(out.problems[0], 21, 2)[0] in app.text, \
            (said, app.text)
    if found is not None and found["game"] is not None and "game in progress not resumed" \
            not in out.problems and saves.check(_image(before)).game is not None:
        assert app.game is not None, said
    # the fresh file reads whole: the next start says nothing and sets nothing aside
    if damaged and not out.memory and reopen:
        assert os.path.getsize(path) == SIZE, said
        again = open_saves(folder, when=WHEN)
        assert again.lines == [] and again.copy is None, (said, again.lines)
    return out


# ---------------------------------------------------------------- the fuzz


def _sample(cases):
    """The default tier's share: every case but the cuts and flips, and of
    those the worst instants (inside the last record, at the end of the one
    before it, just after the log) and every fourth; --full runs them all."""
    last_start, last_end = RECORDS[-1]
    worst = {"cut at %d" % n for n in (last_start, last_start + 1, (last_start + last_end) // 2,
                                       last_end - 1, last_end, last_end + 1, 100)}
    out = []
    for k, case in enumerate(cases):
        many = case[0].startswith(("cut at", "flipped"))
        if not many or k % 4 == 0 or case[0].split(" (")[0] in worst:
            out.append(case)
    return out


def test_every_kind_of_bad_save_file_gives_one_line_a_copy_and_loses_nothing(tmp_path, capsys):
    _fuzz(tmp_path, capsys, _sample(_cases()), "sample")


@pytest.mark.full
def test_every_cut_and_flip_gives_one_line_a_copy_and_loses_nothing(tmp_path, capsys):
    _fuzz(tmp_path, capsys, _cases(), "every case")


def _fuzz(tmp_path, capsys, cases, what):
    tally = Tally()
    for k, (name, make, expect) in enumerate(cases):
        folder = tmp_path / ("case%03d" % k)
        folder.mkdir()
        scratch = tmp_path / ("scratch%03d" % k)
        scratch.mkdir()
        with _no_hang(name):
            check_case(name, str(folder), make, expect, tally, str(scratch))
    with capsys.disabled():
        sys.stdout.write("\n[pc saves fuzz, %s] %d cases run, %d copies kept byte-exact, "
                         "%d lines checked\n" % (what, tally.cases, tally.copies, tally.lines))
    assert tally.cases > 60 and tally.copies > 40


@contextlib.contextmanager
def _no_hang(name):
    """A case that would wait for ever (a FIFO opened for reading) fails."""
    def stop(signum, frame):
        raise AssertionError("%s: still waiting after 20 s" % name)
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_the_testers_file_cut_at_100_bytes_is_named_and_its_old_game_not_resumed(tmp_path):
    """The tester's report: cut at 100 bytes, no word, and an older, finished
    game came back. Now: one line, a copy, the game not resumed."""
    out = check_case("cut at 100", str(tmp_path), _write(LOG[:100]), "aside", Tally())
    line = out.lines[0]
    assert "damaged: cut short (100 of 4096 bytes)" in line and COPY in line
    assert out.store.game() is None
    app = App(store=out.store, problems=out.problems, seed=1)
    assert app.game is None and "cut short" in " ".join(app.text)


def test_a_file_cut_in_its_erased_tail_keeps_its_game(tmp_path):
    """Cut after the last record: nothing was lost, and the game goes on."""
    out = check_case("cut in the tail", str(tmp_path), _write(LOG[:LOG_END + 10]), "aside", Tally())
    assert "nothing in it was lost" in out.lines[0]
    assert out.store.game() is not None
    app = App(store=out.store, problems=out.problems, seed=1)
    assert app.game is not None and app.game.history() == LEVEL4.history()


def test_an_earlier_copy_is_never_overwritten(tmp_path):
    first = os.urandom(SIZE)
    second = os.urandom(SIZE)
    folder = str(tmp_path)
    a = check_case("first", folder, _write(first), "aside", Tally(), reopen=False)
    os.remove(os.path.join(folder, "jarmo.nvm"))
    b = check_case("second", folder, _write(second), "aside", Tally(), reopen=False)
    assert os.path.basename(a.copy) == COPY and os.path.basename(b.copy) == COPY + "-2"
    with open(a.copy, "rb") as f:
        assert f.read() == first
    with open(b.copy, "rb") as f:
        assert f.read() == second
    # a name taken by a dangling link is passed over too
    os.symlink("/nowhere", os.path.join(folder, COPY + "-3"))
    os.remove(os.path.join(folder, "jarmo.nvm"))
    c = check_case("third", folder, _write(b"x"), "aside", Tally(), reopen=False)
    assert os.path.basename(c.copy) == COPY + "-4"


def test_a_file_with_damaged_records_is_set_aside_and_the_rest_kept(tmp_path):
    """A flipped byte inside the level-4 game's turns: the store names the
    damage, the copy keeps the file, the game comes back as far as it replays."""
    start, end = RECORDS[-3]
    data = bytearray(LOG)
    data[(start + end) // 2] ^= 0xFF
    out = check_case("a damaged turn", str(tmp_path), _write(bytes(data)), "aside", Tally())
    assert "damaged (game: damaged)" in out.lines[0]
    assert "saves damaged: a copy was set aside" in out.problems


# ---------------------------------------------------------------- permissions


def _scratch_for_nobody():
    """A folder another user can reach (pytest's own are the owner's only)."""
    folder = tempfile.mkdtemp(prefix="jarmo-saves-")
    os.chmod(folder, 0o777)
    return folder


@contextlib.contextmanager
def _as_nobody():
    """Run as a user without root's rights: permissions bind root only
    through a read-only mount. Not root: as we are."""
    if os.geteuid() != 0:
        yield
        return
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.mark.parametrize("mode, damaged, expect, words", [
    (0o000, False, "left", ["cannot be read (no permission)", "left as it is"]),
    (0o444, False, "left", ["cannot be written (no permission)", "its saves are read"]),
    (0o444, True, "aside", ["damaged: cut short", "moved aside"]),
])
def test_a_file_without_permission_is_named_so(tmp_path, mode, damaged, expect, words):
    App(store=open_saves(str(tmp_path)).store, problems=["x"])    # the modules imported, as root
    folder = _scratch_for_nobody()
    try:
        path = os.path.join(folder, "jarmo.nvm")
        data = LOG[:200] if damaged else LOG
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, mode)
        with _as_nobody():
            # (unreadable: nothing could be read, so nothing is compared)
            out = check_case("mode %o" % mode, folder, lambda p, s: data if mode else None,
                             expect, Tally(), reopen=False)
        for w in words:
            assert w in out.lines[0], out.lines
        assert "read-only" not in out.lines[0]
        if expect == "left":
            with open(path, "rb") as f:
                assert f.read() == data                 # left as it was
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _read_only_bind(path):
    """path made read-only by a bind mount of itself (root only)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        needs.missing("a read-only bind mount needs root and mount(8); chmod covers the rest")
    if subprocess.run(["mount", "--bind", path, path], capture_output=True).returncode:
        needs.missing("mount --bind is not allowed here (a container without CAP_SYS_ADMIN)")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", path], capture_output=True).returncode:
            needs.missing("a bind mount cannot be made read-only here")
        yield
    finally:
        subprocess.run(["umount", path], capture_output=True)


@pytest.mark.parametrize("damaged", [False, True])
def test_a_file_on_a_read_only_mount_is_named_so(tmp_path, damaged):
    path = tmp_path / "jarmo.nvm"
    data = LOG[:200] if damaged else LOG
    path.write_bytes(data)
    with _read_only_bind(str(path)):
        out = check_case("read-only", str(tmp_path), lambda p, s: data,
                         "aside" if damaged else "left", Tally(), reopen=False)
        assert "the drive is read-only" in out.lines[0] and out.memory
        assert path.read_bytes() == data
        if damaged:
            assert "copied as " + COPY in out.lines[0]


# ---------------------------------------------------------------- run.py play


def _env(home):
    env = dict(os.environ)
    env.pop("XDG_DATA_HOME", None)
    env.update({"PYTHONPATH": ROOT, "BLINKA_OS_AGNOSTIC": "1", "HOME": str(home)})
    return env


def sim(args, home, events="wait 200\nquit\n"):
    return subprocess.run([sys.executable, "-m", "host.sim", "--script", "-"] + list(args),
                          cwd=ROOT, env=_env(home), input=events, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)


@pytest.mark.parametrize("case, words", [
    ("random", ["not Jarmo's saves", "moved aside as " + "jarmo.nvm.bad-"]),
    ("cut", ["damaged: cut short (100 of 4096 bytes)", "is not resumed"]),
    ("huge", ["too big for a save file (10485760 bytes, not 4096)"]),
    ("folder", ["is a folder, not a save file", "kept in memory"]),
    ("dangling", ["is a link to", "which is not there", "kept in memory"]),
])
def test_play_says_it_in_one_line_on_the_terminal_and_beside_the_game(tmp_path, case, words):
    data = tmp_path / "d"
    data.mkdir()
    path = data / "jarmo.nvm"
    if case == "random":
        path.write_bytes(os.urandom(SIZE))
    elif case == "cut":
        path.write_bytes(LOG[:100])
    elif case == "huge":
        path.write_bytes(b"\x00" * (10 << 20))
    elif case == "folder":
        path.mkdir()
    else:
        path.symlink_to(tmp_path / "gone")
    proc = sim(["--data", str(data), "--seed", "1"], tmp_path, "wait 200\nselect\nselect\nquit\n")
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "saves: " in line]
    assert len(lines) == 1 and lines[0].startswith("python3 run.py play: saves: "), proc.stderr
    assert "Traceback" not in proc.stderr and "read-only" not in lines[0]
    for w in words:
        assert w in lines[0], lines
    first = proc.stdout.split("-- screen ")[1]
    assert "Press any button" in first, first           # the notice, on the display
    # the same line beside the game (wrapped there: its words)
    assert all(w in first for w in lines[0].split()[3:] if len(w) < 25), first
    if case in ("folder", "dangling"):
        assert path.is_dir() or path.is_symlink()       # left as it was
        assert not any(p.name.startswith("jarmo.nvm.bad") for p in data.iterdir())
        return
    copies = [p for p in data.iterdir() if p.name.startswith("jarmo.nvm.bad")]
    assert len(copies) == 1 and copies[0].name in lines[0]
    assert path.stat().st_size == SIZE
    again = sim(["--data", str(data)], tmp_path)
    assert again.returncode == 0 and "saves: " not in again.stderr, again.stderr


def test_the_copy_of_a_file_cut_short_replays_its_game(tmp_path):
    data = tmp_path / "d"
    data.mkdir()
    (data / "jarmo.nvm").write_bytes(LOG[:LOG_END - 3])
    out = open_saves(str(data), when=WHEN)
    assert "is not resumed" in out.lines[0]
    proc = sim(["--replay", out.copy, "--data", str(tmp_path / "other")], tmp_path, "quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Replay" in proc.stdout


def test_replay_names_a_log_that_is_not_a_file(tmp_path):
    data = tmp_path / "d"
    data.mkdir()
    (data / "jarmo.nvm").symlink_to(tmp_path / "gone")
    proc = sim(["--replay", str(data / "jarmo.nvm"), "--data", str(tmp_path / "o")], tmp_path)
    assert proc.returncode == 2 and "which is not there" in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1


# ---------------------------------------------------------------- exports (key x)


def test_an_export_passes_over_any_name_taken_and_leaves_no_half_file(tmp_path, monkeypatch):
    when = (2025, 3, 4, 5, 6, 7, 0, 0, -1)
    name = "jarmo-game-20250304-050607"
    (tmp_path / (name + ".txt")).symlink_to(tmp_path / "nowhere")       # a dangling link
    (tmp_path / (name + "-2.txt")).mkdir()                              # a folder
    path = export.export_game(_played(3, 4), str(tmp_path), when)
    assert os.path.basename(path) == name + "-3.txt"
    assert not (tmp_path / "nowhere").exists()                          # not written through
    assert gamefiles.load_game_text(open(path).read()).history() == _played(3, 4).history()

    real_open = open

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, text):
            self.f.write(text[:10])
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(export, "open", lambda *a, **k: Full(real_open(*a, **k)), raising=False)

    class App_:
        game = _played(3, 4)
    before = set(os.listdir(tmp_path))
    got, said = export.export_path(App_(), str(tmp_path))
    assert got is None and said.startswith("cannot export into ") and "the disk is full" in said
    assert set(os.listdir(tmp_path)) == before                          # no half export


# ---------------------------------------------------------------- the web page


def page_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("jarmo_page", os.path.join(ROOT, "web", "jarmo_page.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_names_a_kept_sector_it_cannot_read_whole_and_keeps_what_it_can():
    page = page_module()
    rng = random.Random(7)
    counted = 0
    for name, value, expect_game in [
        ("whole", LOG.hex(), True),
        ("not hex", "zz" + LOG.hex()[2:], False),
        ("odd length", LOG.hex()[:-1], False),
        ("random", rng.randbytes(SIZE).hex(), False),
        ("cut at 100", LOG[:100].hex(), False),
        ("cut in the tail", LOG[:LOG_END + 5].hex(), True),
        ("too long", (LOG + b"more").hex(), True),
    ]:
        found = json.loads(page.check_stored(value))
        assert bool(found["why"]) == (name != "whole"), (name, found["why"])
        h = page.Handheld("host", value, 1, "kept" if found["why"] else "")
        app = h.app
        assert (app.game is not None) == expect_game, name
        if found["why"]:
            counted += 1
            assert app.state == "notice" and "a copy was set aside" in " ".join(app.text), app.text
            assert json.loads(h.update()).get("nvm"), name     # the repaired sector is kept at once
            if name.startswith("cut at"):
                assert "game in progress not" in app.text, app.text
        held = readable(bytes.fromhex(found["image"])) if found["image"] else None
        before = readable(_image(bytes.fromhex(value))) if name not in ("not hex", "odd length") else None
        if held and before:
            for key in ("settings", "stats", "campaign"):
                assert held[key] == before[key], (name, key)
    # a damaged value the page could not keep aside: said, and nothing is kept
    h = page.Handheld("host", LOG[:100].hex(), 1, "lost")
    assert "left as they are" in " ".join(h.app.text)
    assert page.device_level("qtpy_bff", "not hex") >= 0
    assert counted == 6


SAVES_JS = os.path.join(ROOT, "web", "saves.js")
NODE_CHECK = r"""
import * as s from %s;
class Store {
  constructor(full) { this.m = new Map(); this.full = full; }
  getItem(k) { return this.m.has(k) ? this.m.get(k) : null; }
  setItem(k, v) {
    if (this.full) { const e = new Error('full'); e.name = 'QuotaExceededError'; throw e; }
    this.m.set(k, String(v));
  }
}
const out = {};
const when = new Date(2025, 2, 4, 5, 6, 7);
const st = new Store(false);
st.setItem('jarmo.fast.host.nvm', 'zz-damaged');
st.setItem('jarmo.fast.host.nvm.bad-20250304-050607', 'an earlier copy');
out.first = s.setAsideSaves(st, 'jarmo.fast.host.nvm', 'zz-damaged', 'not a saved sector', when);
out.copy = st.getItem(out.first.note.match(/set aside as (\S+);/)[1]);
out.earlier = st.getItem('jarmo.fast.host.nvm.bad-20250304-050607');
out.original = st.getItem('jarmo.fast.host.nvm');
const full = new Store(false);
full.setItem('k', 'damaged');
full.full = true;
out.full = s.setAsideSaves(full, 'k', 'damaged', 'cut short', when);
out.fullOriginal = full.getItem('k');
out.fullKeys = [...full.m.keys()];
const modes = new Store(false);
modes.setItem('jarmo.mode', 'turbo');
out.mode = s.choice(modes, 'jarmo.mode', ['fast', 'device'], when);
out.modeCopy = modes.getItem('jarmo.mode.bad-20250304-050607');
out.good = s.choice(modes, 'jarmo.profile.fast', ['host'], when);
out.sector = [s.isSector('ff'.repeat(4096)), s.isSector('ff'.repeat(4095)), s.isSector('zz'.repeat(4096))];
out.none = s.read(null, 'k');
console.log(JSON.stringify(out));
"""


def test_the_pages_kept_values_are_set_aside_under_another_key_never_over_one():
    node = shutil.which("node")
    if node is None:
        needs.missing("Node.js (node) is not on PATH: web/saves.js is not run")
    proc = subprocess.run([node, "--input-type=module", "-e",
                           NODE_CHECK % json.dumps("file://" + SAVES_JS)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["first"]["aside"] == "kept" and out["first"]["persist"] is True
    assert "jarmo.fast.host.nvm.bad-20250304-050607-2" in out["first"]["note"]
    assert out["copy"] == "zz-damaged" and out["earlier"] == "an earlier copy"
    assert out["original"] == "zz-damaged"              # written over only by the page, next
    assert out["full"]["aside"] == "lost" and out["full"]["persist"] is False
    assert "the browser's storage is full" in out["full"]["note"]
    assert out["fullOriginal"] == "damaged" and out["fullKeys"] == ["k"]
    assert out["mode"]["value"] is None and "set aside as jarmo.mode.bad-20250304-050607" in \
        out["mode"]["note"] and out["modeCopy"] == "turbo"
    assert out["good"] == {"value": None, "note": ""}
    assert out["sector"] == [True, False, False]
    assert out["none"]["value"] is None and out["none"]["error"]


def test_the_pages_check_runs_under_micropython():
    """The page runs jarmo_page.py in MicroPython WebAssembly: the check and
    the repaired start there too (the page's other Python written into its
    file system, as the site's py/files.json gives it)."""
    from tests.micropython.mp import require_micropython, run_micropython
    from tools import web
    require_micropython()
    snippets = ["import os"]
    for path, text in web.python_files().items():
        if path.startswith("jarmo/"):
            continue                    # the runner copies jarmo/ itself
        parts = path.split("/")
        for i in range(1, len(parts)):
            snippets.append("try:\n    os.mkdir(%r)\nexcept OSError:\n    pass" % ("/" + "/".join(parts[:i])))
        snippets.append("f = open(%r, 'w')\nf.write(%r)\nf.close()" % ("/" + path, text))
    snippets.append("import sys, json\nsys.path.insert(0, '/')\nimport jarmo_page")
    cases = [("whole", LOG.hex()), ("not hex", "zz" + LOG.hex()[2:]), ("cut", LOG[:100].hex()),
             ("tail", LOG[:LOG_END + 5].hex()), ("long", (LOG + b"more").hex())]
    for name, value in cases:
        snippets.append(
            "c = json.loads(jarmo_page.check_stored(%r))\n"
            "h = jarmo_page.Handheld('host', %r, 1, 'kept' if c['why'] else '')\n"
            "print(json.dumps([%r, c['why'], h.app.state, h.app.game is not None]))"
            % (value, value, name))
    rc, out, err = run_micropython(snippets)
    assert rc == 0, err
    got = {row[0]: row[1:] for row in map(json.loads, out.splitlines()) if row}
    assert got["whole"] == ["", "menu", True]
    assert got["not hex"][0] == "not a saved sector (not hex)" and got["not hex"][1:] == ["notice", False]
    assert got["cut"][0].startswith("cut short (100 of 4096 bytes)") and got["cut"][2] is False
    assert "nothing in it was lost" in got["tail"][0] and got["tail"][2] is True
    assert got["long"][0].startswith("too long") and got["long"][2] is True
