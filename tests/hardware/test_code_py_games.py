"""Whole games through the device's own code.py (host profile, scripted buttons).

Every test powers the device up with `runpy.run_path('code.py')` in a
subprocess (tests/hardware/codepy.py): JARMO_EVENTS holds what the player
presses, JARMO_DATA is the device's drive, and the printed frames (the
NeoPixel buffer read back) and display lines are what the player sees.

A script cannot look at the screen while it runs, so where the course of a
game is unknown (the AI's answers) the player first plays with more button
presses than needed, looks where the game ended, and then plays the same
game again (the run is deterministic: virtual clock, fixed seed) stopping
there. In two-player games the test chooses both sides' moves and presses
NEXT until the piece, then the target, is under the cursor (codepy.Thumb).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from jarmo import Game
from jarmo import app_view as V
from jarmo.app_menu import OPPONENTS  # noqa: E402
from jarmo.storage import Store, parse, record
from tests.hardware.codepy import (
    CUT_PRELUDE,
    ROOT,
    Thumb,
    advance,
    board_colours,
    code_command,
    code_env,
    cut_at_time,
    first_legal,
    frames,
    offered,
    read_cut_log,
    run_code,
    scaled,
    write_events,
)

HEADS = {"south": "South wins", "north": "North wins", None: "Draw"}
REASONS = {"camp": "camp", "wipeout": "wipe-out", "repetition": "repetition",
           "stuck": "no moves", "limit": "ply limit"}
RESULT = re.compile(r"^(South wins|North wins|Draw): ")
ROWS = ("South", "North", "Draws")
# the app tells each action in words: "South moved a1 to c2.", "AI took your
# archer on d3.", "North placed an archer on a5." (jarmo/app_play.py)
EVENT = re.compile(r"(\w+ (?:moved \w\d to|took .*? on|placed .*? on|recalled an archer to|"
                   r"redeployed a piece to|flipped the guard on) (\w\d)\.)")


# ----------------------------------------------------------------- helpers

def ok(proc):
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return frames(proc.stdout)


def new_game_lines(tmp_path, opponent, look_through=False):
    """Buttons from the first menu of a new device to a new standard game
    against `opponent`: walk down to Versus (the opponent), read it, SELECT until it says
    the wanted one (look_through: at least once round all of them, so the
    settings are written), back up to New game, SELECT."""
    cursor = []                      # the menu line under the cursor, after 0, 1, 2 ... NEXTs
    for frame in ok(run_code(tmp_path / "look", ["next"] * 24)):
        line = [t for t in frame.text if t.startswith(">")][:1]
        if line and (not cursor or cursor[-1] != line[0]):
            cursor.append(line[0])
    down = next(k for k, line in enumerate(cursor) if line.startswith(">Versus: "))
    steps = (OPPONENTS.index(opponent) - OPPONENTS.index(cursor[down][9:])) % len(OPPONENTS)
    if look_through and not steps:
        steps = len(OPPONENTS)
    return ["next"] * down + ["select"] * steps + ["up"] * down + ["select"]


def result_text(result):
    lines = [HEADS[result.winner] + ": " + REASONS.get(result.reason, result.reason)]
    if result.points is not None:
        lines.append("Points S %d - N %d" % result.points)
    return lines + ["SELECT: menu"]


def stats_text(rules, counts, opponent=", 2 players", rows=ROWS):
    total = sum(counts)
    lines = [rules + (" " if opponent[0] != "," else "") + opponent]
    for label, n in zip(rows, counts):
        h = n * 10000 // total if total else 0
        lines.append("%-5s %d (%d.%02d %%)" % (label, n, h // 100, h % 100))
    return lines + ["NEXT: more PREV: back"]


def saved(data):
    """The device's saved game as (save dict, Game), or (None, None)."""
    text = Store(str(data)).read("game")
    if text is None:
        return None, None
    d = json.loads(text)
    return d, Game.load(d["game"])


def stats_counts(data, rules="standard"):
    """Counts of all opponents together (jarmo.stats: per opponent key)."""
    text = Store(str(data)).read("stats")
    if text is None:
        return (0, 0, 0)
    table = json.loads(text).get(rules, {})
    return tuple(sum(c[k] for c in table.values()) for k in range(3))


def said(f):
    """The display's lines as one text (a sentence may be wrapped over lines)."""
    return " ".join(f.text)


def told(f, action):
    """Whether the frame's display tells `action` in words."""
    return action[-2:] in [to for _, to in EVENT.findall(said(f))]


def arrivals(history):
    """The points the actions of a history arrive at (done arrives nowhere)."""
    return [a[-2:] for a in history if a != "done"]


def last_moves(shown):
    """The arrival points of the actions told on the display, in order, each
    once. The display tells the latest turn of each side, the older first,
    and shows the page of the newest action when it is played (pages turn
    only after 3 s): so an action is told when the last action sentence on
    the display changes."""
    out = []
    last = None
    for f in shown:
        ev = EVENT.findall(said(f))
        if ev and ev[-1] != last:
            last = ev[-1]
            out.append(last[1])
    return out


def same(a, b):
    return [(f.number, f.time, f.colours, f.celebrate, f.text) for f in a] == \
        [(f.number, f.time, f.colours, f.celebrate, f.text) for f in b]


# ----------------------------------------------------------------- a game against the AI

def test_a_whole_game_against_the_ai(tmp_path):
    start = new_game_lines(tmp_path, "AI greedy")
    # the player (South) presses SELECT every 300 ms: the first piece the
    # cursor offers, then its first target; presses while the AI thinks are ignored
    presses = start + ["select", "wait 300"] * 150
    trial = ok(run_code(tmp_path / "trial", presses))
    ends = [i for i, f in enumerate(trial) if f.text and RESULT.match(f.text[0])]
    assert ends, "no result after 150 turns; last screen: %r" % trial[-1].text
    end = ends[0]

    # the same game again, stopping at its end: the result stays on the screen
    data = tmp_path / "device"
    shown = ok(run_code(data, cut_at_time(presses, trial[end].time) + ["wait 3500"]))
    assert same(shown[:end + 1], trial[:end + 1])

    # the starting position: South's archers on rank 1 (the cursor on a1),
    # North's on rank 5, nothing between
    first = [f for f in shown if f.text[:2] == ["standard", "South (you) to move"]][0]
    assert first.colours["a1"] == scaled(V.CURSOR[0])
    for f in "abcde":
        assert first.colours[f + "5"] == scaled(V.PIECE[5])       # North archer
        assert first.colours[f + "2"] == first.colours[f + "3"] == first.colours[f + "4"] == 0
        if f != "a":
            assert first.colours[f + "1"] == scaled(V.PIECE[0])   # South archer

    # South's first move: the archer arrives, the point it left shows the trail
    moves = last_moves(shown)
    d, game = saved(data)
    frm, to = game.history()[0].split("-")
    after = [f for f in shown if "You moved %s to %s." % (frm, to) in said(f)
             and "AI " not in said(f)]
    assert after and all(f.colours[frm] == scaled(V.TRAIL) for f in after)
    assert any(f.colours[to] == scaled(V.PIECE[0]) for f in after)
    # North's (the AI's) answer: a North piece on its arrival point
    reply = [f for f in shown if "AI moved %s to %s." % tuple(game.history()[1].split("-"))
             in said(f)]
    north = {scaled(c) for c in V.PIECE[5:]}
    assert any(f.colours.get(moves[1]) in north for f in reply)

    # the end: the result on the display, the final position on the LEDs
    d, game = saved(data)
    assert d["opp"] == OPPONENTS.index("AI greedy") and d["counted"] is True
    assert shown[-1].text == result_text(game.result())
    assert shown[-1].colours == board_colours(game, trail=True)   # the winning move's trail
    assert moves == arrivals(game.history()[:-1])   # every action was shown as played
    winner = game.result().winner
    counts = tuple(int(w == winner) for w in ("south", "north", None))
    assert stats_counts(data) == counts

    # next power-up: Resume shows the result again; then the statistics
    again = ok(run_code(data, ["select", "wait 100", "select", "wait 100", "up", "up",
                               "select", "wait 100"]))     # up past How to play
    assert again[0].text[:2] == ["Saved game found", ">Resume"]
    assert again[0].colours == board_colours(game)
    assert any(f.text == result_text(game.result()) for f in again)
    assert again[-1].text == stats_text("standard", counts, "vs greedy", ("You", "AI", "Draws"))
    assert stats_counts(data) == counts            # counted once, not again
    assert not os.path.exists(data / "game")       # the result was seen: no save left


# ----------------------------------------------------------------- two players

def test_two_player_games_and_the_statistics(tmp_path):
    lines = new_game_lines(tmp_path, "human")
    games = []
    policies = ((advance, first_legal), (first_legal, advance), (offered, offered))
    for k, (south, north) in enumerate(policies):
        thumb = Thumb("standard")
        lines += thumb.play_out(south, north)
        lines += ["wait 3500", "select"]        # the result; SELECT: menu (on New game)
        lines += ["select"] if k < 2 else ["up", "up", "select", "wait 100"]   # again; statistics
        games.append(thumb.game)
    winners = [g.result().winner for g in games]
    assert winners == ["south", "north", None], "the scripted games no longer end " \
        "South, North, draw (%r): choose other moves" % winners

    data = tmp_path / "device"
    shown = ok(run_code(data, lines))
    starts = [i for i, f in enumerate(shown) if f.text[:2] == ["standard", "South to move"]
              and not EVENT.search(said(f))]
    starts = [i for k, i in enumerate(starts) if k == 0 or i != starts[k - 1] + 1]
    assert len(starts) == 3
    for k, game in enumerate(games):
        part = shown[starts[k]:starts[k + 1] if k < 2 else len(shown)]
        # every move shown as it is played, then the result and the final position
        assert last_moves(part) == arrivals(game.history()[:-1])
        results = [f for f in part if f.text == result_text(game.result())]
        assert results, "game %d: no result %r" % (k + 1, result_text(game.result()))
        assert results[-1].colours == board_colours(game, trail=True)
        if game.result().winner is not None:          # the winner's colour celebrates
            side = 0 if game.result().winner == "south" else 1
            assert results[0].celebrate == V.SIDE[side]

    # the statistics screen: one game each, a third each
    assert shown[-1].text == stats_text("standard", (1, 1, 1))
    assert shown[-1].text[1] == "South 1 (33.33 %)"
    leds = shown[-1].colours
    white = scaled(V.WHITE)
    assert [leds[f + "5"] for f in "abcde"] == [white, white, 0, 0, 0]   # rule set 2
    lit = {}
    for rank, colour in (("1", V.SIDE[0]), ("2", V.NEUTRAL), ("3", V.SIDE[1])):
        row = [leds[f + rank] for f in "abcde"]
        assert set(row) <= {0, scaled(colour)}, (rank, row)
        lit[rank] = row.count(scaled(colour))
    assert lit["1"] == lit["2"] == lit["3"] >= 1
    assert stats_counts(data) == (1, 1, 1)


# ----------------------------------------------------------------- save and resume

def test_switch_off_and_resume(tmp_path):
    data = tmp_path / "device"
    thumb = Thumb("standard")
    lines = new_game_lines(tmp_path, "human")
    for _ in range(5):
        lines += thumb.play(advance(thumb.game, thumb)) + ["wait 1000"]
    before = ok(run_code(data, lines))[-1]          # then the batteries run out
    history = thumb.game.history()
    assert saved(data)[1].history() == history

    cursor_before = thumb.cursor_name()
    again = ok(run_code(data, ["wait 100", "select", "wait 1000"]))
    assert again[0].text[:2] == ["Saved game found", ">Resume"]
    assert again[0].colours == board_colours(thumb.game)
    thumb.cursor = 0                                 # a resumed game starts at a1
    cursor_after = thumb.cursor_name()
    resumed = again[-1]
    who = "North" if thumb.game.turn == "north" else "South"
    assert resumed.text[:2] == ["standard", who + " to move"]
    # the last action was told before; after a power-up no event is told yet
    assert told(before, history[-1]) and not EVENT.search(said(resumed))
    # the same position: only the trail of the last move (not kept) and the
    # cursor may differ
    trail = history[-1][:2]
    for name, colour in before.colours.items():
        if name not in (trail, cursor_before, cursor_after):
            assert resumed.colours[name] == colour, name

    # and the game goes on from there
    more = thumb.play(advance(thumb.game, thumb))
    third = ok(run_code(data, ["select"] + more + ["wait 1000"]))
    assert third[0].text[:2] == ["Saved game found", ">Resume"]
    assert told(third[-1], thumb.game.history()[-1])
    assert thumb.game.history()[:len(history)] == history
    assert saved(data)[1].history() == thumb.game.history()


# ----------------------------------------------------------------- damaged files

def _body(raw):
    return parse(raw)[1]


def _other_version(raw):
    d = json.loads(_body(raw))
    d["v"] = 2
    return bytes(record(parse(raw)[0], json.dumps(d)))


def _bare_dump(raw):
    return json.loads(_body(raw))["game"].encode()


# name, how the newest save's slot is spoilt, what the notice says, and
# whether the save before it (in the other slot) is still there to resume
DAMAGE = {
    "garbage": ("game", lambda raw: b"\x89PNG\r\n\x1a\n\x00\xff\xfe junk " * 8,
                "game: not a Jarmo file", True),
    "a byte changed": ("game", lambda raw: raw.replace(b"a1-c2", b"a1-b3"), "game: bad checksum", True),
    "older format": ("game", _bare_dump, "game: not a Jarmo file", True),
    "another version": ("game", _other_version, "save: unknown version", False),
    "statistics": ("stats", lambda raw: b"South 3 North 2\n", "stats: not a Jarmo file", True),
}


def newest_slot(data, name):
    """Path of the slot with the newest save of name (slot 0 if there is none yet)."""
    return Store(str(data)).slot_path(name) or str(data / (name + ".0"))


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_file_is_reported_and_set_aside(tmp_path, damage):
    name, spoil, reason, earlier_save = DAMAGE[damage]
    data = tmp_path / "device"
    thumb = Thumb("standard")
    lines = new_game_lines(tmp_path, "human")
    lines += thumb.play("a1-c2") + thumb.play("e5-d3") + ["wait 500"]
    ok(run_code(data, lines))
    path = newest_slot(data, name)
    with open(path, "rb") as f:
        raw = f.read()
    bad = spoil(raw)
    assert bad != raw
    with open(path, "wb") as f:
        f.write(bad)

    # power-up: the notice, a red cross; any button: the menu
    shown = ok(run_code(data, ["wait 100", "select", "wait 100"]))
    notice = shown[0]
    assert notice.text[:2] == ["Damaged file set", "aside (.bad):"]
    assert notice.text[-1] == "Press any button"
    assert reason in " ".join(notice.text[2:-1])
    cross = {"a1", "b2", "c3", "d4", "e5", "e1", "d2", "b4", "a5"}
    for p, c in notice.colours.items():
        if p in cross:
            assert c >> 16 and not c & 0xFFFF, (p, hex(c))      # red
        else:
            assert c == 0, p
    with open(path + ".bad", "rb") as f:
        assert f.read() == bad                                   # kept, for a bug report

    menu = [f for f in shown if f.text and f.text[0] in ("Jarmo", "Saved game found")][0]
    if name == "game" and not earlier_save:
        assert menu.text[:2] == ["Jarmo", ">New game"]              # nothing to resume
        assert saved(data) == (None, None)
    elif name == "game":
        # the save before the damaged one (the other slot): one turn earlier
        assert menu.text[:2] == ["Saved game found", ">Resume"]
        assert saved(data)[1].history() == ["a1-c2"]
    else:
        assert menu.text[:2] == ["Saved game found", ">Resume"]
        assert saved(data)[1].history() == ["a1-c2", "e5-d3"]
        assert stats_counts(data) == (0, 0, 0)

    # the next power-up is a normal one
    later = ok(run_code(data, ["wait 100"]))
    assert later[0].text[0] in ("Jarmo", "Saved game found")


@pytest.mark.parametrize("cut", ["cut in half", "emptied"])
def test_a_save_cut_short_is_a_power_cut_not_damage(tmp_path, cut):
    """A slot that lost its end looks like a save a power cut interrupted: the
    save before it is resumed, with no notice."""
    data = tmp_path / "device"
    thumb = Thumb("standard")
    lines = new_game_lines(tmp_path, "human")
    lines += thumb.play("a1-c2") + thumb.play("e5-d3") + ["wait 500"]
    ok(run_code(data, lines))
    path = newest_slot(data, "game")
    with open(path, "rb") as f:
        raw = f.read()
    with open(path, "wb") as f:
        f.write(raw[:raw.index(b"\nEND") - 10] if cut == "cut in half" else b"")
    shown = ok(run_code(data, ["wait 100"]))
    assert shown[0].text[:2] == ["Saved game found", ">Resume"]
    assert saved(data)[1].history() == ["a1-c2"]


# ----------------------------------------------------------------- power cuts

def prepared(data):
    """A device folder after its first power-up: the save slots are made
    (once, by code.py's Store.prepare), so the logged runs see only saves."""
    ok(run_code(data, ["wait 100"], frames="none"))
    return data


def _game_with_an_end(tmp_path):
    """A two-player game to its end, then SELECT to leave the result (the save
    is deleted): every kind of write the device does."""
    thumb = Thumb("standard")
    lines = new_game_lines(tmp_path, "human", look_through=True)
    lines += thumb.play_out(advance, first_legal)
    lines += ["wait 3500", "select", "wait 100"]
    return lines, thumb.game


def _writes(log):
    """Steps grouped by the operation they belong to: (file, steps, text written)."""
    groups = []
    for n, op, name, text in log:
        if op == "open":
            groups.append([name.split(".")[0], [], None])
        groups[-1][1].append(n)
        if op == "write":
            groups[-1][2] = (groups[-1][2] or "") + text
    return groups


def _history(written):
    body = parse(written.encode("latin-1"))[1]
    return Game.load(json.loads(body)["game"]).history() if body else None


def _restart_and_check(data):
    """Power up after a cut: no crash, no damaged file, a menu; resume the saved
    game (if any) and play it to its end, or start a new one. Returns the saved
    history found (None: no save) and the statistics at the end."""
    left = str(data) + ".as-left"
    shutil.copytree(str(data), left)
    d, game = saved(left)           # what the device finds (read by the app's Store)
    presses = ["wait 100", "select", "wait 100"]
    thumb = None
    if game is not None and game.result() is None:
        thumb = Thumb(game=Game.load(d["game"]))     # resumed: the cursor starts on a1
        presses += thumb.play_out(advance, first_legal) + ["wait 3500"]
    shown = ok(run_code(data, presses))
    assert not [n for n in os.listdir(data) if n.endswith(".bad")]
    if game is None:
        assert shown[0].text[:2] == ["Jarmo", ">New game"]
        assert shown[-1].text[0] == "standard" and shown[-1].text[1].startswith("South")
    else:
        assert shown[0].text[:2] == ["Saved game found", ">Resume"]
        assert shown[0].colours == board_colours(game)
        if thumb is None:
            assert d["counted"] is True
        end = (thumb.game if thumb else game).result()
        assert shown[-1].text == result_text(end)
    counts = stats_counts(data)
    assert sum(counts) <= 1, "the game was counted twice"
    return (game.history() if game is not None else None), counts


def test_power_cut_at_every_step_of_a_save(tmp_path):
    lines, game = _game_with_an_end(tmp_path)
    ref = tmp_path / "reference"
    log_path = str(tmp_path / "reference.log")
    ok(run_code(prepared(ref), lines, frames="none", prelude=CUT_PRELUDE,
                extra_env={"CUT_LOG": log_path}))
    groups = _writes(read_cut_log(log_path))
    files = [g[0] for g in groups]
    histories = [_history(text) if name == "game" and text else None
                 for name, _, text in groups]
    final = game.history()
    # settings (leaving the menu by New game), the game at its start and after
    # every turn, the statistics when it ends, the save deleted when the result is left
    assert files[0] == "settings" and files.count("stats") == 1 and files[-1] == "game"
    assert [h for h in histories if h is not None] == [final[:k] for k in range(len(final) + 1)]
    assert stats_counts(ref) == (1, 0, 0)

    # cut the power at every step of: the settings, the first two game saves,
    # the last two writes before the statistics, the statistics, the write
    # after them, and the deletion; then power up again
    games = [i for i, f in enumerate(files) if f == "game"]
    stats = files.index("stats")
    last = len(groups) - 1
    chosen = sorted({0, games[0], games[1], stats - 2, stats - 1, stats, stats + 1, last})
    jobs = []
    for g in chosen:
        prev = [h for h in histories[:g] if h is not None]
        before = prev[-1] if prev else None
        if g == last:
            allowed = [before, None]                 # deleting: it is there or gone
        elif files[g] == "game":
            allowed = [before, histories[g]]         # the old save or the new one
        else:
            allowed = [before]
        for n in groups[g][1]:
            jobs.append((n, allowed))

    def one(job):
        n, allowed = job
        data = prepared(tmp_path / ("cut%03d" % n))
        proc = run_code(data, lines, frames="none", prelude=CUT_PRELUDE,
                        extra_env={"CUT_AT": str(n)})
        assert proc.returncode == -signal.SIGKILL, (n, proc.returncode, proc.stderr[-2000:])
        history, counts = _restart_and_check(data)
        assert history in allowed, (n, history)
        return history, counts

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        outcomes = list(pool.map(one, jobs))
    assert len(outcomes) >= 25
    # both the old and the new save survive somewhere among the cuts
    kept = {len(h) if h is not None else None for h, _ in outcomes}
    assert {None, 0, 1, len(final) - 1, len(final)} <= kept, kept
    # a cut between the counted save and the statistics loses that count at most
    assert {sum(c) for _, c in outcomes} == {0, 1}


@pytest.mark.full
def test_power_cut_at_random_moments(tmp_path):
    """SIGKILL from outside at moments spread over a whole game, with a slow
    drive (2 ms a file step) so that many cuts land inside a save."""
    lines, game = _game_with_an_end(tmp_path)
    saves = [game.history()[:k] for k in range(game.plies + 1)]
    allowed = saves + [None]
    ref = tmp_path / "reference"
    t0 = time.monotonic()
    ok(run_code(prepared(ref), lines, frames="none", prelude=CUT_PRELUDE,
                extra_env={"CUT_SLOW": "0.002"}))
    whole = time.monotonic() - t0
    assert stats_counts(ref) == (1, 0, 0)

    kills = 16
    found = []
    for i in range(kills):
        data = tmp_path / ("kill%02d" % i)
        prepared(data)
        env = code_env(data, "none", {"CUT_SLOW": "0.002"})
        env["JARMO_EVENTS"] = write_events(data, lines)
        proc = subprocess.Popen(code_command(CUT_PRELUDE), cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            time.sleep(whole * (i + 0.5) / kills)
            proc.send_signal(signal.SIGKILL)
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        assert b"Traceback" not in err, err.decode()[-2000:]
        history, _ = _restart_and_check(data)
        assert history in allowed, (i, history)
        found.append(history)
    print("saves found after %d cuts: %s" % (kills, [None if h is None else len(h) for h in found]))
    assert any(h for h in found), "no cut came after the first move"
