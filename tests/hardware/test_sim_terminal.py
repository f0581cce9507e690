"""The simulator follows the terminal it is in and tells what it does: the
locale decides the board's drawing, a terminal that cannot redraw is told so,
the rules are plain text, a replay starts at the start, quitting says what
became of the game, and bad input is one short line."""

import os
import re
import subprocess
import sys

import pytest

from tests.hardware.ptyrun import ENTER_ALT, LEAVE_ALT, PtyProcess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_TIMEOUT = 30
BRAILLE = re.compile("[\u2800-\u28ff]")
LOCALE_VARS = ("LC_ALL", "LC_CTYPE", "LANG")


def _env(tmp_path, **extra):
    env = dict(os.environ)
    for name in LOCALE_VARS + ("NO_COLOR",):
        env.pop(name, None)
    env.update({"PYTHONPATH": ROOT, "TERM": "xterm-256color", "COLORTERM": "truecolor",
                "BLINKA_OS_AGNOSTIC": "1", "XDG_DATA_HOME": str(tmp_path),
                "LANG": "C.UTF-8"})
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def _sim(tmp_path, *args, env=None, data="d"):
    """The simulator on a pty, 120 x 40, saving in tmp_path/data."""
    return PtyProcess([sys.executable, "-m", "host.sim", "--data", str(tmp_path / data)] + list(args),
                      ROOT, env or _env(tmp_path), 40, 120)


# ---------------------------------------------------------------- the locale


class _Utf8Stream:
    encoding = "utf-8"


@pytest.mark.parametrize("env, braille", [
    ({"LANG": "C.UTF-8"}, True),
    ({"LANG": "en_US.utf8"}, True),
    ({"LC_CTYPE": "UTF-8"}, sys.platform != "darwin"),     # ssh from a Mac (on macOS: coerced)
    ({"LC_CTYPE": "C.UTF-8"}, False),                       # Python's own answer to no locale
    ({"LC_CTYPE": "C.UTF-8", "LANG": "C"}, False),          # ... and to LANG=C (PEP 538)
    ({"LC_CTYPE": "C.UTF-8", "LANG": "en_US.UTF-8"}, True),
    ({"LANG": "C"}, False),
    ({"LANG": "POSIX"}, False),
    ({}, False),                                            # no locale: the C locale
    ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, False),        # LC_ALL first
    ({"LC_CTYPE": "C", "LANG": "en_US.UTF-8"}, False),      # then LC_CTYPE
    ({"LC_ALL": "", "LC_CTYPE": "", "LANG": "de_DE.UTF-8"}, True),   # set but empty: the next
    ({"LANG": "en_US.ISO-8859-1"}, False),
])
def test_the_locale_decides_the_drawing(env, braille):
    """Bug: under LANG=C the board was drawn in Braille all the same: Python's
    UTF-8 mode makes the stream UTF-8, and only the stream was asked."""
    from host.terminal import unicode_ok
    assert unicode_ok(_Utf8Stream(), dict(env, TERM="xterm-256color")) is braille


@pytest.mark.parametrize("locale", [{"LANG": "C"}, {"LC_ALL": "POSIX", "LANG": "C.UTF-8"}])
def test_a_c_locale_gets_the_ascii_board(tmp_path, locale):
    p = _sim(tmp_path, env=_env(tmp_path, **locale))
    try:
        p.expect_screen(r"South \(you\) to move")
        screen = p.screen()
        assert not BRAILLE.search(screen), screen
        assert re.search(r"--|/|\\", screen.split("lines a1")[0]), screen      # the lines, in ASCII
    finally:
        p.close()
    p = _sim(tmp_path, env=_env(tmp_path, LANG="C.UTF-8"), data="utf8")  # a UTF-8 locale: Braille
    try:
        p.expect_screen(r"South \(you\) to move")
        assert BRAILLE.search(p.screen()), p.screen()
    finally:
        p.close()


# ---------------------------------------------------------------- a terminal that cannot redraw


@pytest.mark.parametrize("term", ["dumb", None])
def test_a_terminal_that_cannot_redraw_gets_one_line_and_status_2(tmp_path, term):
    """Bug: TERM=dumb (or no TERM) got the full-screen escape codes all the
    same. One clear line instead, pointing to --script, and status 2."""
    p = _sim(tmp_path, env=_env(tmp_path, TERM=term))
    try:
        assert p.wait(RUN_TIMEOUT) == 2
        assert ENTER_ALT not in p.raw and b"\x1b[" not in p.raw, p.raw
        lines = p.text.replace("\r\n", "\n").strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith("python3 run.py play: this terminal cannot redraw"), lines
        assert ("TERM=dumb" if term else "TERM is not set") in lines[0] and "--script" in lines[0]
    finally:
        p.close()


def test_script_mode_needs_no_terminal_that_redraws(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", "-", "--data",
                           str(tmp_path / "d")], cwd=ROOT, env=_env(tmp_path, TERM="dumb"),
                          input="quit\n", capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0 and "South (you) to move" in proc.stdout, proc.stderr


# ---------------------------------------------------------------- the rules, as plain text


def test_inline_markdown_becomes_plain_text():
    from host.pager import inline
    assert inline("**Setup.** Each side's `c5*@a1`, *marked* and _held_ pieces; snake_case "
                  "2 * 3 * 4") == \
        "Setup. Each side's c5*@a1, marked and held pieces; snake_case 2 * 3 * 4"
    assert inline("see [RULES-DECISIONS.md](RULES-DECISIONS.md)", "docs") == \
        "see docs/RULES-DECISIONS.md"
    assert inline("[the decisions](RULES-DECISIONS.md) and [CircuitPython](https://circuitpython.org)",
                  "docs") == "the decisions (docs/RULES-DECISIONS.md) and CircuitPython " \
                             "(https://circuitpython.org)"
    assert inline("[section 4](#4-standard), \\*not emphasis\\*") == "section 4, *not emphasis*"


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_rules_pager_shows_no_markdown(columns):
    """Bug: the rules pager (r) showed raw Markdown: #, **, backticks, link
    syntax and the tables' pipes."""
    from host.pager import rules_pager
    p = rules_pager()
    lines, heading = p.lines(columns - 1)
    text = "\n".join(lines)
    assert all(len(line) <= columns - 1 for line in lines)
    for mark in ("**", "`", "](", "| ---", "|"):
        assert mark not in text, (mark, [line for line in lines if mark in line][:3])
    assert not any(line.lstrip().startswith("#") for line in lines)
    # headings underlined: = under the title, - under a section's
    first = lines.index("How Jarmo is played")
    assert lines[first + 1] == "=" * len("How Jarmo is played") and heading[first]
    section = lines.index("1. The board")
    assert lines[section + 1] == "-" * len("1. The board") and heading[section + 1]
    assert "docs/RULES-DECISIONS.md" in text
    # a list keeps its marks, its continuation lines under the item's text
    item = next(i for i, line in enumerate(lines) if line.startswith("- 30 of them join"))
    assert lines[item + 1].startswith("  ") and not lines[item + 1].startswith("   ")


def test_the_rules_tables_are_aligned():
    from host.pager import rules_pager
    lines, _heading = rules_pager().lines(119)
    head = next(i for i, line in enumerate(lines) if line.startswith("action "))
    rule = lines[head + 1]
    assert set(rule) == {"-", " "}
    starts = [m.start() for m in re.finditer(r"-+", rule)]
    assert [m.start() for m in re.finditer(r"\S+(?: \S+)*", lines[head])] == starts
    row = next(line for line in lines[head:] if line.startswith("place a held piece"))
    assert [m.start() for m in re.finditer(r"\S+(?: \S+)*", row)] == starts, row
    # the table of lines: a cell per column, each under its header
    head = next(i for i, line in enumerate(lines) if line.startswith("point "))
    a5 = lines[head + 2]
    assert a5.split()[:3] == ["a5", "b3", "c4"] and lines[head].index("point", 1) == a5.index("b5")


def test_a_table_too_wide_wraps_its_cells_in_their_columns():
    from host.pager import table_lines
    rows = [["name", "what"], ["a", "one two three four five six seven eight nine ten"]]
    out = table_lines(rows, 20)
    assert out[:3] == ["name  what", "----  --------------", "a     one two three"], out
    assert all(line.startswith("      ") for line in out[3:]) and all(len(line) <= 20 for line in out)


def test_the_rules_pager_in_the_terminal(tmp_path):
    p = _sim(tmp_path)
    try:
        p.expect_screen(r"South \(you\) to move")
        mark = len(p.raw)
        p.send(b"r")
        p.expect_screen(r"Rules \(docs/RULES\.md\) - page 1/.*How Jarmo is played\n=+\n", since=mark)
        assert "#" not in p.screen() and "**" not in p.screen() and "`" not in p.screen()
        p.send(b"q")
        p.send(b"q")
        assert p.wait() == 0
    finally:
        p.close()


# ---------------------------------------------------------------- a replay from its start


def test_a_replay_opens_at_its_start(tmp_path):
    """Bug: --replay opened at the last action; a player expects a replay to
    begin at the beginning (End jumps to the last action)."""
    saved = tmp_path / "moves.txt"
    saved.write_text("1. a1-c2 a5-b3\n2. c2-d2\n")
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--replay", str(saved), "--script",
                           "-", "--data", str(tmp_path / "d")], cwd=ROOT, env=_env(tmp_path),
                          input="quit\n", capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.split("-- screen ")[1]
    assert "| Replay 0/3" in first and "| last: start" in first, first


# ---------------------------------------------------------------- quitting says what became of the game


def test_quitting_says_the_game_is_saved_and_offered_next_time(tmp_path):
    """Bug: q left without a word about the game; now it says the game is
    saved and offered next time (and that is so)."""
    p = _sim(tmp_path)
    try:
        p.expect_screen(r"South \(you\) to move")
        mark = len(p.raw)
        p.send(b"\r")
        p.expect_screen(r"a1 (?:>|to) c2 b3", since=mark)
        mark = len(p.raw)
        p.send(b"\r")
        p.expect_screen(r"South \(you\) to move.*moved", timeout=10, since=mark)
        p.send(b"q")
        assert p.wait() == 0
        after = p.raw[p.raw.rfind(LEAVE_ALT) + len(LEAVE_ALT):].decode().replace("\r\n", "\n")
    finally:
        p.close()
    assert re.fullmatch(r"Your game \(standard, 2 turns\) is saved in %s: the next python3 "
                        r"run\.py play offers it \(Resume\)\." % re.escape(str(tmp_path / "d")),
                        after.rstrip("\n")), after
    p = _sim(tmp_path)                  # and the next start does offer it
    try:
        p.expect_screen(r">Resume")
    finally:
        p.close()


def test_quitting_with_no_game_in_progress_says_nothing_was_saved(tmp_path):
    from host.sim import save_note
    assert save_note(str(tmp_path)) == "Nothing to save: no game in progress."


# ---------------------------------------------------------------- bad input, one short line


def _run(tmp_path, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "host.sim"] + list(args), cwd=ROOT,
                          env=_env(tmp_path), input=stdin, capture_output=True, text=True,
                          timeout=RUN_TIMEOUT)


def test_a_long_script_line_is_quoted_short(tmp_path):
    """Bug: a 100,000-character script line was echoed whole to stderr."""
    script = tmp_path / "events.txt"
    script.write_text("next\n" + "x" * 100000 + "\n")
    proc = _run(tmp_path, "--script", str(script), "--data", str(tmp_path / "d"))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr[:300]
    line = proc.stderr.strip()
    assert len(line) < 400, len(line)
    assert line.startswith("python3 run.py play: --script %s: line 2 'xxxx" % script), line
    assert "...'" in line and "is not a button" in line, line


def test_an_empty_data_folder_name_is_refused(tmp_path):
    """Bug: --data '' silently used the default folder."""
    proc = _run(tmp_path, "--script", "-", "--data", "", stdin="quit\n")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "python3 run.py play: --data '' names no folder: give one, or leave --data out for "
        "the default ($XDG_DATA_HOME/jarmo, else ~/.local/share/jarmo)"], proc.stderr
    assert not (tmp_path / "jarmo").exists()          # the default was not made


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_a_folder_that_takes_no_files_is_named_as_such(tmp_path):
    """Bug: --data /proc/self said "No such file or directory" of a folder
    that exists; the line says what is wrong: no file can be made in it."""
    proc = _run(tmp_path, "--script", "-", "--data", "/proc/self", stdin="quit\n")
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "python3 run.py play: cannot keep saves in /proc/self: it is a folder, but no file can "
        "be made in it"), lines


def test_script_output_into_a_closed_pipe_is_quiet(tmp_path):
    """Bug: `play --script F | head` ended in a BrokenPipeError traceback."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "host.sim", "--script", "-", "--data",
                               str(tmp_path / "d")], cwd=ROOT, env=_env(tmp_path),
                              input=b"next\nselect\nquit\n", stdout=write, stderr=subprocess.PIPE,
                              timeout=RUN_TIMEOUT)
    finally:
        os.close(write)
    assert proc.returncode == 141 and proc.stderr == b"", proc.stderr


def test_quitting_with_the_saves_in_memory_says_the_game_is_not_kept(tmp_path):
    """A save file that could not be used (a folder named jarmo.nvm): the
    session's saves were in memory, so a game in progress is not kept, and
    the note says so rather than "nothing to save" or "saved"."""
    from host.sim import save_note
    from jarmo.app import App
    from tests.app.drive import Clock, new_game
    app = App()
    app.saves_in_memory = True
    assert save_note(str(tmp_path), app) == "Nothing to save: no game in progress."
    new_game(Clock(app), "standard")
    note = save_note(str(tmp_path), app)
    assert note.startswith("Your game was kept in memory only") and "not saved" in note
