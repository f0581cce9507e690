"""The AI on CPython at volume: thousands of legal-only games, every kind of
action used, greedy clearly beating random, and the self-play command line.

tests/core/test_ai.py holds the quick checks that also run on MicroPython;
tools/bench_ai.py has the full strength table (200 games per pairing).
"""

import os
import subprocess
import sys

import pytest

from host.selfplay import UsageError, parse_selfplay, run_games, summary
from jarmo import Game
from jarmo.ai import Player
from tests.core.test_ai import MIXES
from tests.micropython import mp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIND_NAMES = ("move", "recall", "place", "done", "flip", "flip+place", "redeploy")
GAMES_PER_PAIRING = 60
PAIRINGS = (("random", "random"), ("greedy", "random"), ("greedy", "greedy"))


def _play_checked(rules, expansions, south, north, seed, kinds):
    g = Game(rules, expansions, 200)
    players = (Player(south, seed * 2 + 1), Player(north, seed * 2 + 2))
    while g.result() is None:
        side = g.mover
        turn = players[side].choose(g)
        assert turn
        for code in turn:
            assert g.result() is None and g.mover == side
            legal = g.legal_codes()
            assert code in legal, (rules, expansions, code, legal, g.history())
            kind = code & 7
            if kind == 2 and g.stage == 0 and (rules == "jasyr"):
                kinds.add((rules, "whole-turn place"))
            elif kind == 2:
                kinds.add((rules, "place before the move" if g.stage < 2 else "place after the move"))
            else:
                kinds.add((rules, KIND_NAMES[kind]))
            g.play_code(code)
        assert g.result() is not None or g.mover != side
    return g


@pytest.mark.cpython_only
def test_thousands_of_seeded_games_play_only_legal_turns_and_use_every_kind_of_action():
    kinds = set()
    games = 0
    for rules, expansions in MIXES:
        for south, north in PAIRINGS:
            for seed in range(GAMES_PER_PAIRING):
                a, b = (south, north) if seed % 2 == 0 else (north, south)
                _play_checked(rules, expansions, a, b, seed, kinds)
                games += 1
    assert games >= 2000
    for expected in [
        ("classic", "recall"),
        ("standard", "place before the move"), ("standard", "place after the move"),
        ("standard", "done"), ("standard", "redeploy"),
        ("legendary", "flip"), ("legendary", "flip+place"), ("legendary", "redeploy"),
        ("jasyr", "whole-turn place"),
    ]:
        assert expected in kinds, (expected, sorted(kinds))


@pytest.mark.cpython_only
@pytest.mark.parametrize("rules", ["classic", "standard", "legendary", "jasyr"])
def test_greedy_beats_random_in_a_quick_match(rules):
    records = run_games(rules, 40, "greedy", "random", seed=11, swap=True)
    wins = sum(1 for r in records if r["player"] == 0)
    losses = sum(1 for r in records if r["player"] == 1)
    assert wins + losses >= 20
    assert wins >= 0.8 * (wins + losses), (wins, losses)


@pytest.mark.cpython_only
def test_level_2_beats_greedy_in_a_quick_match():
    records = run_games("classic", 20, 2, "greedy", seed=3, swap=True)
    wins = sum(1 for r in records if r["player"] == 0)
    losses = sum(1 for r in records if r["player"] == 1)
    assert wins > losses, (wins, losses)


@pytest.mark.cpython_only
def test_level_4_beats_level_3_in_a_quick_match():
    # tools/bench_ai.py plays 200 games per rule set; this is its small version.
    records = run_games("classic", 10, 4, 3, seed=5, swap=True, jobs=2 if hasattr(os, "fork") else 1)
    wins = sum(1 for r in records if r["player"] == 0)
    losses = sum(1 for r in records if r["player"] == 1)
    assert wins > losses, (wins, losses)


@pytest.mark.cpython_only
@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is missing")
def test_parallel_self_play_gives_the_same_games_as_one_process():
    one = run_games("standard", 6, "greedy", "random", seed=2, jobs=1, swap=True,
                    expansions=("heroes",))
    two = run_games("standard", 6, "greedy", "random", seed=2, jobs=2, swap=True,
                    expansions=("heroes",))
    assert one == two


@pytest.mark.cpython_only
def test_selfplay_command_prints_the_table():
    proc = subprocess.run(
        [sys.executable, "-m", "host.selfplay", "--rules", "classic", "--games", "6",
         "--south", "greedy", "--north", "random", "--seed", "1", "--jobs", "2", "--swap"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "south (White) wins" in out and "north (Black) wins" in out and "draws" in out
    assert "average length" in out and "ended by:" in out
    assert "player A greedy wins" in out
    assert "[" not in out.split("\n")[0]         # no progress bar when not on a terminal


@pytest.mark.cpython_only
def test_selfplay_arguments():
    opts = parse_selfplay(["--rules", "standard", "--games", "3", "--expansions", "heroes",
                           "challenges", "--ply-limit", "50", "--swap", "--north", "2"])
    assert opts["rules"] == "standard" and opts["games"] == 3
    assert opts["expansions"] == ["heroes", "challenges"] and opts["ply_limit"] == 50
    assert opts["swap"] and opts["north"] == "2" and opts["south"] == "greedy"
    assert parse_selfplay([])["ply_limit"] == 300
    for bad in (["--rules", "chess"], ["--games", "x"], ["--south", "hard"],
                ["--rules", "classic", "--expansions", "heroes"], ["--frobnicate"],
                ["--games"]):
        with pytest.raises(UsageError):
            parse_selfplay(bad)
    proc = subprocess.run([sys.executable, "-m", "host.selfplay", "--rules", "chess"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--rules must be one of" in proc.stderr


@pytest.mark.cpython_only
def test_a_selfplay_error_is_one_line_not_the_whole_usage():
    """Bug: after its error line, selfplay printed the whole usage text."""
    proc = subprocess.run([sys.executable, "-m", "host.selfplay", "--games", "x"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2 and proc.stdout == ""
    assert lines == ["python3 run.py selfplay: --games takes a whole number, not 'x' "
                     "(python3 run.py selfplay --help: every option)"], proc.stderr


@pytest.mark.cpython_only
def test_summary_counts():
    records = [
        {"winner": "south", "reason": "camp", "plies": 10, "player": 0},
        {"winner": "north", "reason": "camp", "plies": 20, "player": 0},
        {"winner": None, "reason": "limit", "plies": 300, "player": None},
    ]
    lines = "\n".join(summary(records, "classic", "greedy", "random", swap=True))
    assert "south (White) wins           1 ( 33.33 %)" in lines
    assert "draws                        1 ( 33.33 %)" in lines
    assert "player A greedy wins         2 ( 66.67 %)" in lines
    assert "average length 110.0 plies" in lines
    assert "camp 2 (66.7 %), limit 1 (33.3 %)" in lines


# Live heap added by importing jarmo.ai (16.9 KB: the opening book's look-up
# in slices of its own and level 4's variety margin; the book's reader itself
# is loaded only for a look-up: jarmo/book.py; the node budgets of both
# firmware kinds and the evaluation's camp weight in the rule sets' rows).
IMPORT_BUDGET = 17 * 1024 + 128
GREEDY_ALLOC_BUDGET = 4 * 1024  # bytes allocated by one greedy turn


def test_ai_fits_its_micropython_budget():
    mp.require_micropython()
    collect = "import gc; gc.collect()"
    measure_turn = """
import gc
from jarmo import Game
from jarmo.ai import Player
g = Game('standard', ('heroes', 'challenges'))
players = (Player('greedy', 1), Player('greedy', 2))
most = 0
for k in range(16):
    p = players[g.mover]
    p.choose(g)                      # first use of the buffers, then measure
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    turn = p.choose(g)
    grown = gc.mem_alloc() - before
    gc.enable()
    most = max(most, grown)
    for code in turn:
        g.play_code(code)
    if g.result() is not None:
        break
print('greedy', most)
"""
    rc, out, err = mp.run_micropython(
        [collect, "import jarmo.game, jarmo.board, jarmo.rng", collect, collect,
         "import gc; _base = gc.mem_alloc()", "import jarmo.ai", collect, collect,
         "import gc; print('import', gc.mem_alloc() - _base)", measure_turn])
    assert rc == 0, out + err
    found = dict(line.split() for line in out.split("\n") if line)
    assert int(found["import"]) <= IMPORT_BUDGET, out
    assert int(found["greedy"]) <= GREEDY_ALLOC_BUDGET, out


# Live heap a player holds after some turns (search stacks, buffers, history,
# transposition table, its private game), all levels alike: the emulated Pico
# leaves a game against the AI about 53 KB free with level 2's player, and
# the device budget is 50 KB (docs/AI.md, "Memory").
PLAYER_BUDGET = 9 * 1024


def test_every_level_holds_little_ram_between_turns():
    mp.require_micropython()
    collect = "import gc; gc.collect()"
    items = ["from jarmo import Game\nfrom jarmo.ai import Player, prepare_tables\n"
             "prepare_tables('legendary')\nprepare_tables('jasyr')"]
    for level in (2, 3, 4):
        for rules in ("standard", "legendary", "jasyr"):
            items += [collect, collect, "import gc; _base = gc.mem_alloc()",
                      "g = Game(%r, ('heroes', 'challenges'))\np = Player(%d, 1)\nq = Player(2, 2)\n"
                      "for k in range(10):\n"
                      "    if g.result() is None:\n"
                      "        for code in (p if g.mover == 0 else q).choose(g):\n"
                      "            g.play_code(code)" % (rules, level),
                      collect, collect, "import gc; _held = gc.mem_alloc()",
                      "p = None", collect, collect,
                      "import gc; print('level%d-%s', _held - gc.mem_alloc())\ng = q = None" % (level, rules)]
    rc, out, err = mp.run_micropython(items)
    assert rc == 0, out + err
    found = dict(line.split() for line in out.split("\n") if line)
    assert len(found) == 9, out
    for name, held in found.items():
        assert int(held) <= PLAYER_BUDGET, (name, out)
