"""Files the simulator reads and writes: the data folder, exports, --replay
and --script files (every bad one: one line on stderr, status 2), the AI's
seed, and `run.py COMMAND --help`."""

import os
import subprocess
import sys

import pytest

from host import export, gamefiles
from host import sim as S
from jarmo import Game
from jarmo.store_flash import FileNvm
from jarmo.store_game import start_payload
from jarmo.store_log import R_SETTINGS, Store
from tests.app.oldsaves import game_text, single, write_slots

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_TIMEOUT = 30
ACTIONS = ("a1-c2", "a5-b3", "c2-d2")


def _env(home, **extra):
    env = dict(os.environ)
    env.pop("XDG_DATA_HOME", None)
    env.update({"PYTHONPATH": ROOT, "BLINKA_OS_AGNOSTIC": "1", "HOME": str(home)})
    env.update(extra)
    return env


def sim(args, home, events="quit\n", **env):
    """Run the simulator with --script - (no terminal); the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "host.sim", "--script", "-"] + list(args),
                          cwd=ROOT, env=_env(home, **env), input=events, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)


def _one_clear_line(proc, *words):
    """Status 2, one line on stderr that names the problem, nothing on stdout."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("python3 run.py play: "), lines
    for w in words:
        assert w in lines[0], lines
    assert proc.stdout == ""


def _log(folder):
    return Store(FileNvm(os.path.join(str(folder), gamefiles.LOG)))


def _saved(folder):
    """The game in progress the app saved in folder's log, or None."""
    return _log(folder).game()


def _save(folder, game, match=None):
    """Save a game (or a match's) in folder's log, as the app does."""
    store = _log(folder)
    store.start_game(start_payload(game, match, 0, 0, -1))
    store.add_turn(game.history_codes())


def _game(*actions):
    g = Game("standard")
    for a in actions or ACTIONS:
        g.play(a)
    return g


# ---------------------------------------------------------------- the data folder


def test_data_folder_defaults_to_xdg_then_home(tmp_path):
    xdg = tmp_path / "xdg"
    assert gamefiles.data_folder(None, {"XDG_DATA_HOME": str(xdg)}) == str(xdg / "jarmo")
    assert (xdg / "jarmo").is_dir()                             # made when missing
    home = tmp_path / "home"
    old = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        # unset or relative XDG_DATA_HOME: ~/.local/share/jarmo (the XDG rule)
        for env in ({}, {"XDG_DATA_HOME": "relative/path"}, {"XDG_DATA_HOME": ""}):
            assert gamefiles.data_folder(None, env) == str(home / ".local" / "share" / "jarmo")
    finally:
        if old is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = old
    assert (home / ".local" / "share" / "jarmo").is_dir()


def test_saves_go_to_the_per_user_folder_and_are_found_again(tmp_path):
    """No --data: the game is saved under $HOME/.local/share/jarmo and the
    next session opens on Resume."""
    first = sim([], tmp_path, "select\nselect\nwait 3000\nquit\n")
    assert first.returncode == 0, first.stderr
    folder = tmp_path / ".local" / "share" / "jarmo"
    assert _saved(folder) and _log(folder).read(R_SETTINGS)
    assert "Saves in ~/.local/share/jarmo" in first.stdout       # the panel says where
    again = sim([], tmp_path, "wait 100\nquit\n")
    assert ">Resume" in again.stdout.split("-- screen ")[1], again.stdout[:2000]


def test_data_option_makes_the_folder(tmp_path):
    folder = tmp_path / "a" / "b" / "jarmo"
    proc = sim(["--data", str(folder)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _saved(folder)


def test_a_data_folder_that_cannot_be_used_is_refused_at_start(tmp_path):
    afile = tmp_path / "notes.txt"
    afile.write_text("not a folder")
    _one_clear_line(sim(["--data", str(afile)], tmp_path), str(afile), "not a folder")
    _one_clear_line(sim(["--data", str(afile / "sub")], tmp_path), "cannot keep saves")


# ---------------------------------------------------------------- export and replay


def test_export_text_is_readable_and_loads_back():
    g = _game("a1-c2", "a5-b3")
    text = export.export_text(g, when=(2025, 3, 4, 5, 6, 7, 0, 0, -1), seed=42)
    lines = text.splitlines()
    assert lines[0] == "# Jarmo game exported 2025-03-04 05:06:07 by the simulator"
    assert "# rules standard, expansions none" in lines
    assert "# in progress, south to move after 2 actions" in lines
    assert "# AI seed 42" in lines
    assert "#   1 south a1-c2" in lines and "#   2 north a5-b3" in lines
    assert text.endswith(g.dump())
    assert gamefiles.load_game_text(text).history() == ["a1-c2", "a5-b3"]


def test_export_names_the_file_by_the_time_and_never_overwrites(tmp_path):
    when = (2025, 3, 4, 5, 6, 7, 0, 0, -1)
    first = export.export_game(_game(), str(tmp_path), when)
    second = export.export_game(_game(), str(tmp_path), when)
    assert os.path.basename(first) == "jarmo-game-20250304-050607.txt"
    assert os.path.basename(second) == "jarmo-game-20250304-050607-2.txt"
    assert gamefiles.load_game_text(open(first).read()).history() == list(ACTIONS)


def test_script_export_writes_into_the_data_folder_and_says_where(tmp_path):
    proc = sim(["--data", str(tmp_path / "d"), "--seed", "3"], tmp_path,
               "select\nselect\nwait 3000\nexport\nquit\n")
    assert proc.returncode == 0, proc.stderr
    files = sorted(p.name for p in (tmp_path / "d").iterdir() if p.name.startswith("jarmo-game-"))
    assert len(files) == 1 and files[0].endswith(".txt")
    assert "game exported as" in proc.stdout and files[0] in proc.stdout
    game = gamefiles.load_game_text((tmp_path / "d" / files[0]).read_text())
    assert game.history()[0] == "a1-c2" and len(game.history()) == 2   # ours and the AI's


def _replay(tmp_path, content, *args, mode="w"):
    path = tmp_path / "replayed"
    if mode == "wb":
        path.write_bytes(content)
    else:
        path.write_text(content)
    return sim(["--replay", str(path), "--data", str(tmp_path / "d")] + list(args), tmp_path,
               "next\nquit\n")


def _replay_titles(proc):
    assert proc.returncode == 0, proc.stderr
    return [line.split("Replay ")[1].split()[0] for line in proc.stdout.splitlines()
            if "| Replay " in line]


def _replay_path(tmp_path, path):
    return sim(["--replay", str(path), "--data", str(tmp_path / "d")], tmp_path, "next\nquit\n")


def test_replay_takes_what_the_game_itself_saves(tmp_path):
    """The app's game in progress, in the data folder's log: named by the
    folder or by the log file."""
    folder = tmp_path / "saves"
    folder.mkdir()
    _save(folder, _game())
    for path in (folder, folder / gamefiles.LOG):
        assert _replay_titles(_replay_path(tmp_path, path)) == ["0/3", "1/3"], path


def test_replay_takes_an_older_versions_saves(tmp_path):
    """The slot files (game.0, game.1) and the single file (JARMO1 header,
    checksum, JSON with the game) of older versions."""
    text = game_text(_game())
    folder = tmp_path / "old"
    write_slots(str(folder), "game", text)
    for path in (folder, folder / "game.0"):
        assert _replay_titles(_replay_path(tmp_path, path)) == ["0/3", "1/3"], path
    assert _replay_titles(_replay(tmp_path, single(text))) == ["0/3", "1/3"]


def test_replay_takes_a_saved_match(tmp_path):
    from jarmo.match import Match
    m = Match("standard", 2)
    for a in ACTIONS:
        m.game.play(a)
    assert _replay_titles(_replay(tmp_path, single(game_text(None, match=m)))) == ["0/3", "1/3"]
    folder = tmp_path / "saves"
    folder.mkdir()
    _save(folder, m.game, m)
    assert _replay_titles(_replay_path(tmp_path, folder)) == ["0/3", "1/3"]


def test_replay_takes_the_file_a_real_session_saved(tmp_path):
    """Play a turn in one session, replay its `game` file in the next."""
    data = tmp_path / "d"
    assert sim(["--data", str(data), "--seed", "9"], tmp_path,
               "select\nselect\nwait 3000\nquit\n").returncode == 0
    for path in (data / gamefiles.LOG, data):
        proc = sim(["--replay", str(path), "--data", str(data)], tmp_path, "quit\n")
        assert _replay_titles(proc) == ["0/2"], path
        assert "last: " in proc.stdout


def test_replay_takes_an_export_dump_text_and_a_plain_list(tmp_path):
    assert _replay_titles(_replay(tmp_path, export.export_text(_game()))) == ["0/3", "1/3"]
    assert _replay_titles(_replay(tmp_path, _game().dump())) == ["0/3", "1/3"]
    assert _replay_titles(_replay(tmp_path, "1. a1-c2 a5-b3\n2. c2-d2\n")) == ["0/3", "1/3"]
    # a plain list in other rules: --rules, or a first line that says them
    proc = _replay(tmp_path, "c1-d3 e5-d3\n", "--rules", "classic")
    assert _replay_titles(proc) == ["0/2", "1/2"] and "classic" in proc.stdout
    assert _replay_titles(_replay(tmp_path, "rules classic\nc1-d3 e5-d3\n")) == ["0/2", "1/2"]


@pytest.mark.parametrize("content, mode, words", [
    (None, "w", ["no such file"]),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "wb", ["not a text file"]),
    (b"\xff\xfe\xfd text", "wb", ["not a text file"]),
    ("hello world\n", "w", ["not a game", "'hello'"]),
    ("", "w", ["no moves"]),
    ("a1-c2 a1-c2\n", "w", ["action 2", "not legal"]),
    ("JARMO1 5 00000000\nhello", "w", ["damaged"]),
    ("jarmo-game 1\nrules standard\nexpansions -\nply-limit -\nactions 1\na1-c2\ncheck 0\n", "w",
     ["checksum"]),
])
def test_a_bad_replay_file_is_one_clear_line(tmp_path, content, mode, words):
    path = tmp_path / "bad"
    if content is not None:
        path.write_bytes(content) if mode == "wb" else path.write_text(content)
    proc = sim(["--replay", str(path), "--data", str(tmp_path / "d")], tmp_path)
    _one_clear_line(proc, "--replay", str(path), *words)


def test_a_folder_as_replay_is_one_clear_line(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    _one_clear_line(sim(["--replay", str(empty), "--data", str(tmp_path / "d")], tmp_path),
                    "is a folder without a saved game")


def test_a_damaged_save_as_replay_is_one_clear_line(tmp_path):
    folder = tmp_path / "saves"
    write_slots(str(folder), "game", "not json at all")
    _one_clear_line(sim(["--replay", str(folder / "game.0"), "--data", str(tmp_path / "d")],
                        tmp_path), "not a saved game")
    log = tmp_path / "log"
    log.mkdir()
    (log / gamefiles.LOG).write_bytes(b"\xa5 not a log" + b"\xff" * 4000)
    _one_clear_line(sim(["--replay", str(log), "--data", str(tmp_path / "d")], tmp_path),
                    "no game in progress", "saves: unreadable")


@pytest.mark.parametrize("content, words", [
    (None, ["no such file"]),
    (b"\x00\x01\x02binary", ["not a text file"]),
    (b"select\njump\n", ["line 2", "jump"]),
    (b"wait soon\n", ["line 1"]),
])
def test_a_bad_script_file_is_one_clear_line(tmp_path, content, words):
    path = tmp_path / "events.txt"
    if content is not None:
        path.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", str(path),
                           "--data", str(tmp_path / "d")], cwd=ROOT, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    _one_clear_line(proc, "--script", *words)


@pytest.mark.parametrize("content, words", [
    ("hello world\n", ["line 1 'hello world'", "'hello' is not a button", "select", "wait MS"]),
    ("select\nnext world\n", ["line 2 'next world'", "'world' is not a count", "next 3"]),
    ("wait soon\n", ["line 1 'wait soon'", "wait takes 0 to 600000 milliseconds", "'soon'"]),
    ("select 0\n", ["line 1", "a count of 1 to 1000"]),
    ("p2 select 2 now\n", ["line 1", "too many words"]),
])
def test_a_garbage_script_says_which_line_and_why(tmp_path, content, words):
    """Bug: a garbage --script said "invalid literal for int() with base 10: 'world'"."""
    path = tmp_path / "events.txt"
    path.write_text(content)
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", str(path),
                           "--data", str(tmp_path / "d")], cwd=ROOT, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    _one_clear_line(proc, "--script", *words)
    assert "invalid literal" not in proc.stderr and "int()" not in proc.stderr


def test_garbled_script_on_stdin_is_one_clear_line(tmp_path):
    _one_clear_line(sim(["--data", str(tmp_path / "d")], tmp_path, "select\nfly away\n"),
                    "--script -", "line 2")


def test_a_bad_start_option_is_one_clear_line(tmp_path):
    _one_clear_line(sim(["--rules", "chess", "--data", str(tmp_path / "d")], tmp_path),
                    "--rules must be one of")


# ---------------------------------------------------------------- the AI's dice


def test_each_session_gets_new_dice_unless_seeded(tmp_path):
    seeds = {S.session_seed() for _ in range(8)}
    assert len(seeds) == 8 and all(0 <= s < 1 << 24 for s in seeds)
    def run(*args):
        return sim(["--data", str(tmp_path / "d")] + list(args), tmp_path, "quit\n")
    said = [run().stdout.splitlines()[1] for _ in range(2)]
    assert said[0] != said[1] and all(s.startswith("AI seed ") for s in said)
    assert run("--seed", "77").stdout.splitlines()[1].startswith("AI seed 77 ")


def test_a_seed_repeats_the_ai_exactly(tmp_path):
    """--seed N: the random AI answers the same in two sessions."""
    def answers(data):
        proc = sim(["--data", str(tmp_path / data), "--seed", "1234", "--opponent", "random"],
                   tmp_path, "select\nselect\nwait 3000\nexport\nquit\n")
        assert proc.returncode == 0, proc.stderr
        exported = [p for p in (tmp_path / data).iterdir() if p.name.startswith("jarmo-game")]
        return gamefiles.load_game_text(exported[0].read_text()).history()
    first = answers("one")
    assert len(first) == 2 and first == answers("two")


def test_the_app_gets_the_seed(tmp_path):
    from hardware import profiles
    app = S.make_app(profiles.HOST, S.parse_args(["--seed", "99"]), str(tmp_path))
    assert app.seed == 99
    apps = [S.make_app(profiles.HOST, S.parse_args([]), str(tmp_path / str(i))) for i in range(3)]
    assert len({a.seed for a in apps}) == 3


# ---------------------------------------------------------------- run.py --help


@pytest.mark.parametrize("command, says", [
    ("test", "usage: python3 run.py test"),
    ("play", "usage: python3 run.py play"),
    ("bench", "usage: python3 run.py bench"),
    ("selfplay", "usage: python3 run.py selfplay"),
    ("lint", "usage: python3 run.py lint"),
    ("deploy", "usage: python3 run.py deploy"),
    ("bundle", "usage: python3 run.py bundle"),
])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_every_run_py_command_answers_help_at_once(tmp_path, command, says, flag):
    """Its usage, status 0, within seconds: no benchmark, no tests, no deploy."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "run.py"), command, flag],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=30,
                          env=dict(os.environ, CI=""))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(says), proc.stdout[:300]
    assert "run.py: " not in proc.stdout          # nothing was installed or started
