"""The simulator's command line as a newcomer meets it: a saved game is never
thrown away unasked, a script line that asks too much is refused with one
line, and a script's output is about the script."""

import os
import re
import subprocess
import sys
import time

import pytest

from tests.hardware.ptyrun import PtyProcess
from tests.hardware.test_sim import RUN_TIMEOUT, SCRIPT, _env, _game_in, board_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(tmp_path, args, events):
    return subprocess.run(
        [sys.executable, "-m", "host.sim", "--script", "-", "--color", "none",
         "--data", str(tmp_path)] + args,
        cwd=ROOT, env=_env(tmp_path), input=events, capture_output=True, text=True,
        timeout=RUN_TIMEOUT)


def screens(proc):
    return proc.stdout.split("-- screen ")[1:]


# ---------------------------------------------------------------- a saved game

# Every start option that would start a game: each must leave the saved game
# to Resume and say how the option applies.
START_OPTIONS = [["--rules", "classic"], ["--opponent", "4"], ["--opponent", "human"],
                 ["--side", "north"], ["--expansions", "heroes"]]


@pytest.mark.parametrize("option", START_OPTIONS, ids=lambda o: " ".join(o))
def test_a_start_option_never_replaces_a_saved_game_unasked(tmp_path, option):
    assert run(tmp_path, [], SCRIPT).returncode == 0
    saved = _game_in(tmp_path)
    assert saved is not None
    proc = run(tmp_path, option, "wait 100\nquit\n")
    assert proc.returncode == 0, proc.stderr
    first = screens(proc)[0]
    assert "Saved game found" in first and ">Resume" in first, first
    said = " ".join(w for w in first.split() if w.isascii())    # the note wraps by the board
    # (the rank's point names may come between the lines of the note)
    assert re.search("New game starts it with %s .*%s" % tuple(option), said), first
    assert _game_in(tmp_path) == saved          # nothing was played over it


def test_resume_after_a_start_option_plays_the_saved_game_and_new_game_the_option(tmp_path):
    assert run(tmp_path, [], SCRIPT).returncode == 0
    proc = run(tmp_path, ["--rules", "jasyr"], "select\nwait 100\nquit\n")     # Resume
    last = screens(proc)[-1]
    assert "standard" in last and board_of(last)["c2"] == "A", last
    # New game, asked first (the saved game would be thrown away): yes
    proc = run(tmp_path, ["--rules", "jasyr"], "next 2\nselect\nselect\nwait 100\nquit\n")
    last = screens(proc)[-1]
    assert "jasyr" in last and re.search(r"South.* to move", last), last
    assert "c2" not in board_of(last)                          # all at home


def test_without_a_saved_game_start_options_start_at_once(tmp_path):
    proc = run(tmp_path, ["--rules", "jasyr"], "wait 100\nquit\n")
    assert "jasyr" in screens(proc)[0] and "Resume" not in screens(proc)[0]


# ---------------------------------------------------------------- script lines

@pytest.mark.parametrize("line, says", [
    ("next 99999999999", "a count of 1 to 1000"),
    ("next 1001", "a count of 1 to 1000"),
    ("wait 99999999999", "wait takes 0 to 600000"),
])
def test_a_script_line_that_asks_too_much_is_refused_with_one_line(tmp_path, line, says):
    proc = run(tmp_path, [], line + "\nquit\n")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and says in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and "line 1" in proc.stderr


def test_a_script_line_at_the_bounds_runs(tmp_path):
    proc = run(tmp_path, [], "wait 0\nnext 1000\nquit\n")
    assert proc.returncode == 0, proc.stderr


# ---------------------------------------------------------------- script output

def test_a_scripts_output_starts_with_the_script_not_the_keyboard(tmp_path):
    proc = run(tmp_path, [], "quit\n")
    first = proc.stdout.splitlines()[0]
    assert not first.startswith("Keys:") and "Tab NEXT" not in proc.stdout.split("-- screen")[0]
    assert first.startswith("Script:"), first


def test_export_in_a_script_prints_the_file_it_wrote(tmp_path):
    proc = run(tmp_path, [], "export\nquit\n")
    line = next(x for x in proc.stdout.splitlines() if x.startswith("export: "))
    path = line.split("export: ", 1)[1]
    assert os.path.isfile(path) and os.path.dirname(path) == str(tmp_path), line


def test_play_help_names_only_the_files_a_player_has():
    proc = subprocess.run([sys.executable, "-m", "host.sim", "--help"], cwd=ROOT,
                          env=_env(ROOT), capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "Game.dump()" not in text and "dump" not in text, text
    assert "an export (key x)" in text


# ---------------------------------------------------------------- the legend

def test_the_letters_legend_names_only_pieces_the_rules_have():
    from host.legend import piece_legend, short_piece_legend
    from jarmo import Game
    classic = " ".join(piece_legend(Game("classic"))) + short_piece_legend(Game("classic"), 80)
    assert "guard" not in classic and "G " not in classic and "M marked" in classic, classic
    for rules in ("standard", "legendary", "jasyr"):
        said = " ".join(piece_legend(Game(rules))) + short_piece_legend(Game(rules), 80)
        assert "G guard" in said and "marked" not in said, (rules, said)


# ---------------------------------------------------------------- the rules pager

@pytest.mark.parametrize("lines", [8, 12, 24, 30, 40, 50])
@pytest.mark.parametrize("columns", [40, 61, 80, 120])
def test_the_rules_pages_keep_headings_with_their_text_and_lose_no_line(lines, columns):
    from host.pager import rules_pager
    p = rules_pager()
    p.rows(columns, lines)
    body_lines, heading = p.lines(columns - 1)
    headings = {line for line, h in zip(body_lines, heading) if h and line.strip()}
    shown = []
    for k in range(p.pages):
        p.page = k
        rows = p.rows(columns, lines)
        body = [r for r in rows[1:-1] if r.strip()]
        assert body, "page %d/%d is empty" % (k + 1, p.pages)
        assert body[-1] not in headings, "page %d ends with a heading %r" % (k + 1, body[-1])
        shown += body
    text = [r for r in body_lines if r.strip()]
    assert shown == text
    assert all(len(r) <= columns - 1 for r in body_lines)


# ---------------------------------------------------------------- the move timer, as a newcomer meets it

def test_the_timer_never_plays_for_a_player_who_has_not_pressed_or_reads_the_rules(tmp_path):
    """Timer 15 s kept in the settings, no saved game (the last one finished):
    the game the simulator starts waits for the first key (one simulator,
    nobody presses), and the rules pager (r) stops the clock until it closes
    (another, whose player is reading the rules meanwhile)."""
    from host.gamefiles import open_store
    from jarmo.app import App
    from tests.app.drive import Clock, set_option
    sims = []
    try:
        for name in ("untouched", "reading"):
            folder = tmp_path / name
            folder.mkdir()
            store, _problems = open_store(str(folder))
            set_option(Clock(App(store=store)), "Timer", "15 s")
            sims.append(PtyProcess([sys.executable, "-m", "host.sim", "--data", str(folder)], ROOT,
                                   _env(folder), 40, 120))
        _timer_checks(*sims)
    finally:
        for p in sims:
            p.close()


def _timer_checks(untouched, reading):
    """The screens of the timer case: nobody presses on `untouched`; on
    `reading` the player starts the clock, then reads the rules. The two
    wait out the same 16.5 s, more than the timer's 15."""
    untouched.expect_screen(r"standard 15 s")
    reading.expect_screen(r"standard 15 s")
    mark = len(reading.raw)
    reading.send(b"\t")                                  # the player is here: the clock runs
    reading.expect_screen(r"standard 1[34] s", since=mark, timeout=5)
    mark = len(reading.raw)
    reading.send(b"r")
    reading.expect_screen(r"Rules \(docs/RULES\.md\) - page 1/", since=mark)
    time.sleep(16.5)                                     # nobody pressed; reading the rules
    screen = untouched.screen()
    assert "ran out of time" not in screen and "standard 15 s" in screen, screen
    mark = len(reading.raw)
    reading.send(b"\x1b")
    reading.expect_screen(r"standard 1[0-4] s", since=mark, timeout=5)
    assert "ran out of time" not in reading.screen(), reading.screen()


# ---------------------------------------------------------------- a board without a display

def _leds(screen):
    """{point name: hex} of a script screen's "LEDs as sent" block."""
    lines = screen.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("LEDs as sent"))
    out = {}
    for row in lines[i + 1:i + 6]:
        rank, *cells = row.split()
        for f, cell in zip("abcde", cells):
            out[f + rank] = cell
    return out


def test_on_the_qt_py_the_ais_whole_move_stays_on_the_leds_until_the_player_plays(tmp_path):
    """--profile qtpy_bff (no display): after the AI's move, 6 s with no key:
    its origin keeps the trail's grey and its arrival glows white again and
    again, between the piece's own colour."""
    proc = run(tmp_path, ["--profile", "qtpy_bff", "--seed", "1"],
               "select\nselect\nwait 6000\nquit\n")
    assert proc.returncode == 0, proc.stderr
    said = screens(proc)
    after = [s for s in said if re.search(r"AI (moved|took) ", s)]
    m = re.search(r"AI (?:moved ([a-e][1-5]) to|took .* on) ([a-e][1-5])", after[0])
    origin, arrival = m.group(1), m.group(2)
    seen = [_leds(s)[arrival] for s in after]
    grey = [c for c in seen if c[0:2] == c[2:4] == c[4:6]]
    assert len(set(seen)) == 2 and grey, seen
    glows = sum(1 for k in range(1, len(seen)) if seen[k] in grey and seen[k - 1] not in grey)
    assert glows >= 3, seen                             # again and again, not once
    if origin:
        assert len({_leds(s)[origin] for s in after}) == 1, "the trail stays"


# ---------------------------------------------------------------- a game that ends on done

def test_a_game_that_ends_on_done_asks_first_and_says_who_ended_it(tmp_path):
    """Two players at the simulator, a scripted standard game: South's last
    piece enters North's camp and gets a piece back; `done` would end the
    game 2 to 3 for North. It is asked; SELECT again ends it, and the end
    says how it ended (South's pieces all in North's camp), North wins 3 to 2,
    and why, on the same page."""
    from tests.app.test_game_end_words import CAMP_ON_DONE
    from tests.hardware.codepy import Thumb
    thumb = Thumb("standard")
    lines = []
    for action in CAMP_ON_DONE:
        lines += thumb.play(action) + ["wait 50"]
    done = thumb.play("done")
    assert done[-1] == "select" and done[-2] == "select"    # asked, then yes
    lines += done[:-1] + ["wait 100"] + done[-1:] + ["wait 9000", "quit"]
    proc = run(tmp_path, ["--opponent", "human", "--rules", "standard", "--seed", "1"],
               "\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    said = screens(proc)
    asked = [s for s in said if "That ends the game:" in s]
    assert asked and "North wins 3 to 2." in asked[0] and "SELECT again: yes" in asked[0]
    # the result's first page: how it ended, the score and what the points are for, together
    shown = [" ".join(line.split("|")[1].strip() for line in s.splitlines() if line.count("|") >= 2)
             for s in said]                             # the display's box, not the log beside it
    end = [s for s in shown if "all in North's camp." in s and "North wins 3 to 2." in s]
    assert end and "Camp 2 each, others 1" in end[0], said[-1]
    assert any("Points: 2 a piece in" in s for s in shown[shown.index(end[0]):])
    log = " ".join(proc.stdout.split())
    assert ("Game over: South's pieces are all in North's camp. North wins 3 to 2. Points: 2 a piece "
            "in the enemy camp, 1 on the board, 0 held.") in log
