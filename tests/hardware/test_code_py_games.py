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

import os
import re
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from jarmo import app_base as B  # noqa: E402
from jarmo import app_view as V
from jarmo.store_flash import FileNvm, Flash
from jarmo.store_game import load as load_game
from jarmo.store_log import R_GAME, R_SETTINGS, R_STATS, R_TURN, Store
from jarmo.store_stats import Stats
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

# the first line of the result's first page: how the game ended (jarmo/app_end.py)
RESULT = re.compile(r"^(?:(?:Your|AI's|South's|North's) pieces|(?:You|AI|South|North) cannot move"
                    r"|The turn limit|Both sides went)")
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
    # "Link" only on a board with a link cable
    offered = [B.opponent(r) for r in range(len(B.OPPONENTS) // B.OPP) if not B.opponent(r, B.NEEDS) & B.LINKED]
    steps = (offered.index(opponent) - offered.index(cursor[down][9:])) % len(offered)
    if look_through and not steps:
        steps = len(offered)
    return ["next"] * down + ["select"] * steps + ["up"] * down + ["select"]


def is_result(text, result):
    """True if text is the result screen's first page for result: how the
    game ended, who wins (by how many points, with what the points are for), SELECT."""
    said = " ".join(text)
    if not text or not RESULT.match(text[0]) or text[-1] != "SELECT: menu":
        return False
    won = "A draw" if result.winner is None else " win"
    points = ""
    if result.points is not None and result.reason != "wipeout" and result.winner:
        points = " %d to %d." % (max(result.points), min(result.points))
    tie = result.points is not None and result.points[0] == result.points[1]
    why = "" if not points else ("Tie: more in camp won" if tie else "Camp 2 each, others 1")
    return won in said and points in said and why in said


def shows_result(frames, result):
    """One of the last frames shows the result's first page (the pages take turns)."""
    return any(is_result(f.text, result) for f in frames[-4:])


def stats_text(rules, counts, opponent=", 2 players", rows=ROWS):
    total = sum(counts)
    lines = [rules + (" " if opponent[0] != "," else "") + opponent]
    for label, n in zip(rows, counts):
        h = n * 10000 // total if total else 0
        lines.append("%-5s %d (%d.%02d %%)" % (label, n, h // 100, h % 100))
    return lines + ["NEXT: more PREV: back"]


def log_of(data):
    """The device's store as the next power-up finds it, read from a copy of
    its log (data/jarmo.nvm), so reading changes nothing."""
    path = os.path.join(str(data), "jarmo.nvm")
    if not os.path.exists(path):
        return Store(Flash())
    with open(path, "rb") as f:
        return Store(Flash(data=f.read()))


def saved(data):
    """The device's game in progress as (info, Game), or (None, None); info:
    its opponent, whether the statistics counted it, its id."""
    store = log_of(data)
    found = store.game()
    if found is None:
        return None, None
    gid, start, codes = found
    game, match, opp, human, battle = load_game(start, codes, 5, R_GAME in store.damaged)
    return {"opp": opp, "counted": Stats(store).counted == gid, "id": gid}, game


def stats_counts(data, rules="standard"):
    """Counts of all opponents together (jarmo.store_stats: per opponent key)."""
    table = Stats(log_of(data)).table.get(rules, {})
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
    first = [f for f in shown if f.text[:2] == ["standard vs greedy", "South (you) to move"]][0]
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
    assert d["opp"] == B.opponent(B.OPPONENTS[::B.OPP].index("AI greedy"), B.IDENT) and d["counted"] is True
    assert shows_result(shown, game.result()), shown[-1].text
    assert shown[-1].colours == board_colours(game, trail=True)   # the winning move's trail
    assert moves == arrivals(game.history()[:-1])   # every action was shown as played
    winner = game.result().winner
    counts = tuple(int(w == winner) for w in ("south", "north", None))
    assert stats_counts(data) == counts

    # next power-up: a finished game is not offered again; the statistics have it
    again = ok(run_code(data, ["wait 100", "up", "up", "select", "wait 100"]))  # up past How to play
    assert again[0].text[:2] == ["Jarmo", ">New game"]
    assert again[-1].text == stats_text("standard", counts, "vs greedy", ("You", "AI", "Draws"))
    assert stats_counts(data) == counts            # counted once, not again
    assert saved(data) == (None, None)             # nothing left to resume


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
        results = [f for f in part if is_result(f.text, game.result())]
        assert results, "game %d: no result for %r" % (k + 1, game.result())
        assert results[-1].colours == board_colours(game, trail=True)
        if game.result().winner is not None:          # the winner's colour celebrates
            side = 0 if game.result().winner == "south" else 1
            assert results[0].celebrate == V.SIDE_COLOURS[side]

    # the statistics screen: one game each, a third each
    assert shown[-1].text == stats_text("standard", (1, 1, 1))
    assert shown[-1].text[1] == "South 1 (33.33 %)"
    leds = shown[-1].colours
    white = scaled(V.WHITE)
    assert [leds[f + "5"] for f in "abcde"] == [white, white, 0, 0, 0]   # rule set 2
    lit = {}
    for rank, colour in (("1", V.SIDE_COLOURS[0]), ("2", V.NEUTRAL), ("3", V.SIDE_COLOURS[1])):
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


# ----------------------------------------------------------------- damaged saves

def _flip(key, nth=0):
    # a bit of the nth record of key (from the end: -1 the newest) flipped
    def spoil(raw, store):
        positions = store.turns() if key == R_TURN else [store.newest[key]]
        out = bytearray(raw)
        out[positions[nth] + 5] ^= 0x08
        return bytes(out)
    return spoil


def _torn(raw, store):
    # the newest record half erased again, as a power cut in its programming leaves it
    out = bytearray(raw)
    last = store.turns()[-1]
    for i in range(last + 4, store.end):
        out[i] = 0xFF
    return bytes(out)


# how the log is spoilt, what the notice says (None: no notice), and the
# history resumed (None: nothing to resume)
DAMAGE = {
    "another program's data": (lambda raw, store: b"\x89PNG\r\n\x1a\n junk " * 200 + raw[:96],
                               "saves: unreadable, started afresh", None),
    "a bit flipped in a turn": (_flip(R_TURN, 0), "game: damaged", []),
    "a bit flipped in the start": (_flip(R_GAME), "game: damaged", None),
    "the statistics": (_flip(R_STATS), "statistics: damaged", ["a1-c2", "e5-d3"]),
    "the last turn torn": (_torn, None, ["a1-c2"]),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damage_on_flash_is_named_and_a_torn_save_is_not_damage(tmp_path, damage):
    spoil, reason, resumed = DAMAGE[damage]
    data = tmp_path / "device"
    thumb = Thumb("standard")
    lines = new_game_lines(tmp_path, "human")
    lines += thumb.play("a1-c2") + thumb.play("e5-d3") + ["wait 500"]
    ok(run_code(data, lines))
    if damage == "the statistics":                  # statistics to damage, and a record after them
        store = Store(FileNvm(os.path.join(str(data), "jarmo.nvm")))
        Stats(store).record("classic", "south")
        store.write(R_SETTINGS, store.read(R_SETTINGS))
    path = os.path.join(str(data), "jarmo.nvm")
    with open(path, "rb") as f:
        raw = f.read()
    bad = spoil(raw, log_of(data))[:4096]
    assert bad != raw
    with open(path, "wb") as f:
        f.write(bad)

    # power-up: the notice and a red cross, or straight to the menu
    shown = ok(run_code(data, ["wait 100", "select", "wait 100"]))
    first = shown[0]
    if reason is None:
        assert first.text[0] in ("Jarmo", "Saved game found")
    else:
        assert reason in " ".join(first.text), first.text
        assert first.text[-1] == "Press any button"
        cross = {"a1", "b2", "c3", "d4", "e5", "e1", "d2", "b4", "a5"}
        for p, c in first.colours.items():
            if p in cross:
                assert c >> 16 and not c & 0xFFFF, (p, hex(c))      # red
            else:
                assert c == 0, p
    menu = [f for f in shown if f.text and f.text[0] in ("Jarmo", "Saved game found")][0]
    if resumed is None:
        assert menu.text[:2] == ["Jarmo", ">New game"]              # nothing to resume
        assert saved(data) == (None, None)
    else:
        title = "Saved game found" if resumed else "Jarmo"     # announced once a turn was played
        assert menu.text[:2] == [title, ">Resume"]
        assert saved(data)[1].history() == resumed

    # the next power-up is a normal one
    later = ok(run_code(data, ["wait 100"]))
    assert later[0].text[0] in ("Jarmo", "Saved game found")


# ----------------------------------------------------------------- power cuts

def prepared(data):
    """A device folder after its first power-up: the log file is made and
    marked as imported (once), so the logged runs see only saves."""
    ok(run_code(data, ["wait 100"], frames="none"))
    return data


def _game_with_an_end(tmp_path):
    """A two-player game to its end, then SELECT to leave the result (the
    game is ended in the log): every kind of write the device does."""
    thumb = Thumb("standard")
    lines = new_game_lines(tmp_path, "human", look_through=True)
    lines += thumb.play_out(advance, first_legal)
    lines += ["wait 3500", "select", "wait 100"]
    return lines, thumb.game


def _states(log, start):
    """What each file operation of a logged run leaves in the log file: a
    list of (steps of the operation, saved history or None, statistics
    counted) after it, from the file's content before the run."""
    image = bytearray(start)
    pos = 0
    out = []
    for n, op, _name, text in log:
        if op == "open":
            out.append([[], None, 0])
            pos = 0
        out[-1][0].append(n)
        if op == "seek":
            pos = int(text)
        elif op == "write":
            data = text.encode("latin-1")
            image[pos:pos + len(data)] = data
            pos += len(data)
        elif op == "close":
            store = Store(Flash(data=bytes(image[:4096])))
            found = store.game()
            history = load_game(found[1], found[2], 5)[0].history() if found else None
            out[-1][1:] = [history, sum(sum(c) for t in Stats(store).table.values()
                                        for c in t.values())]
    return out


def _restart_and_check(data):
    """Power up after a cut: no crash, no notice, a menu; resume the saved
    game (if any) and play it to its end, or start a new one. Returns the saved
    history found (None: no save) and the statistics at the end."""
    info, game = saved(data)        # what the device will find
    presses = ["wait 100", "select", "wait 100"]
    over = game is not None and game.result() is not None
    thumb = None
    if game is not None and not over:
        thumb = Thumb(game=saved(data)[1])          # resumed: the cursor starts on a1
        presses += thumb.play_out(advance, first_legal) + ["wait 3500"]
    shown = ok(run_code(data, presses))
    if game is None or over:
        # nothing to resume: a finished game is counted (if it was not) and forgotten
        assert shown[0].text[:2] == ["Jarmo", ">New game"], shown[0].text
        assert shown[-1].text[0].startswith("standard") and shown[-1].text[1].startswith("South")
    else:
        # announced when a turn of it was played (jarmo/app_start.py _worth_resuming)
        title = "Saved game found" if game.plies else "Jarmo"
        assert shown[0].text[:2] == [title, ">Resume"], shown[0].text
        assert shown[0].colours == board_colours(game)
        assert shows_result(shown, thumb.game.result()), shown[-1].text
    counts = stats_counts(data)
    assert sum(counts) <= 2, "a game was counted twice"
    return (game.history() if game is not None else None), counts


def test_power_cut_at_every_step_of_a_save(tmp_path):
    lines, game = _game_with_an_end(tmp_path)
    ref = prepared(tmp_path / "reference")
    with open(ref / "jarmo.nvm", "rb") as f:
        start = f.read()
    log_path = str(tmp_path / "reference.log")
    ok(run_code(ref, lines, frames="none", prelude=CUT_PRELUDE, extra_env={"CUT_LOG": log_path}))
    states = _states(read_cut_log(log_path), start)
    final = game.history()
    # settings while choosing the opponent, the game at its start and after
    # every turn, the statistics when it ends, the end of the game when the
    # result is left: each one append (no erase: the log has room)
    histories = [h for _, h, _ in states]
    assert [h for h in histories if h is not None][:len(final) + 1] == \
        [final[:k] for k in range(len(final) + 1)]
    assert histories[-1] is None and states[-1][2] == 1
    assert stats_counts(ref) == (1, 0, 0)

    # cut the power at every step of: the first settings, the first three
    # saves of the game, the last turn, the statistics, and the end
    games = [i for i, (_, h, _) in enumerate(states) if h is not None]
    stats = next(i for i, (_, _, c) in enumerate(states) if c)
    chosen = sorted({0, games[0], games[1], games[2], stats - 1, stats, len(states) - 1})
    jobs = []
    for g in chosen:
        before = states[g - 1][1:] if g else [None, 0]
        for n in states[g][0]:
            jobs.append((n, [before[0], states[g][1]], {before[1], states[g][2]}))

    def one(job):
        n, allowed, counted = job
        data = prepared(tmp_path / ("cut%03d" % n))
        proc = run_code(data, lines, frames="none", prelude=CUT_PRELUDE,
                        extra_env={"CUT_AT": str(n)})
        assert proc.returncode == -signal.SIGKILL, (n, proc.returncode, proc.stderr[-2000:])
        found = stats_counts(data)
        history, counts = _restart_and_check(data)
        assert history in allowed, (n, history, allowed)
        assert sum(found) in counted, (n, found, counted)
        return history, found

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        outcomes = list(pool.map(one, jobs))
    assert len(outcomes) >= 20
    # both the old and the new save survive somewhere among the cuts
    kept = {len(h) if h is not None else None for h, _ in outcomes}
    assert {None, 0, 1, len(final)} <= kept, kept
    # a cut in the statistics' write leaves the count or not, never twice
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
