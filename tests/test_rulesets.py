"""A rule set is one row of jarmo/rulesets.py: the game, the AI, the menu
and How to play read its row, never its name."""

import ast
import pathlib

import pytest

from jarmo import rulesets as R
from jarmo.ai import Player
from jarmo.game import Game
from tests.core.random_games import play_random_game

JARMO = pathlib.Path(__file__).resolve().parents[1] / "jarmo"
FEATURES = ("SCORED", "MARKS", "BAN", "TIES_STAND", "CAMP_SAFE", "GUARDS_STAY", "FORWARD",
            "TAKEN_HELD", "ONE_ACTION", "NO_EXPANSIONS")
# Modules where a rule set's name is data (a battle's rule set, the lesson's
# game, a default argument), not a test of which rule set is played.
NAMES_AS_DATA = ("rulesets.py", "store_campaign.py")


def test_each_feature_is_its_own_bit():
    bits = [getattr(R, name) for name in FEATURES]
    assert all(b and b & (b - 1) == 0 for b in bits)
    assert len(set(bits)) == len(bits)
    every = sum(bits)
    assert all(row[R.FEATURES] & ~every == 0 for row in R.ROWS)


def test_the_rule_sets_are_the_rows_in_order():
    assert R.RULE_SETS == ("classic", "standard", "legendary", "jasyr")   # saved settings index them
    assert [R.row(name)[R.NAME] for name in R.RULE_SETS] == list(R.RULE_SETS)
    with pytest.raises(ValueError, match="expected one of classic, standard"):
        R.row("chess")


def test_every_feature_is_read_by_the_rules_core():
    source = (JARMO / "game.py").read_text()
    assert [name for name in FEATURES if "R." + name not in source] == []


def test_every_row_has_its_how_to_play_pages_and_its_rules_in_the_players_doc():
    from jarmo.app_help import SECTIONS
    titles = [title for title, _texts in SECTIONS]
    rules_doc = (JARMO.parent / "docs" / "RULES.md").read_text().lower()
    for name in R.RULE_SETS:
        assert name[:1].upper() + name[1:] in titles, name
        assert name in rules_doc, name


def test_no_module_tests_which_rule_set_is_played_by_its_name():
    # the game and the app, and the simulator, self-play and the benchmarks
    found = []
    root = JARMO.parent
    paths = sorted(JARMO.glob("*.py")) + sorted((root / "host").glob("*.py")) + sorted(
        (root / "tools").glob("*.py"))
    for path in paths:
        if path.name in NAMES_AS_DATA:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                for side in [node.left] + node.comparators:
                    if isinstance(side, ast.Constant) and side.value in R.RULE_SETS:
                        found.append("%s:%d" % (path.relative_to(root), node.lineno))
    assert found == []


def test_a_new_variant_is_a_row(monkeypatch):
    # standard's scoring with jasyr's forward-only lines: no code names it
    rows = R.ROWS + (("forward", R.SCORED | R.FORWARD, 1, 900, 600, 1800, 600, 5400, 190),)
    monkeypatch.setattr(R, "ROWS", rows)
    monkeypatch.setattr(R, "RULE_SETS", tuple(r[R.NAME] for r in rows))
    for seed in range(6):
        game = play_random_game("forward", ("heroes",), seed)
        assert game.result() is not None
    game = Game("forward")
    assert game.row[R.FEATURES] == R.SCORED | R.FORWARD
    player = Player(3, seed=1)
    turn = player.choose(game)
    assert (player.budget, player.time_ms) == (600, 900)     # the AI takes the row's tuning
    for code in turn:
        game.play_code(code)
    assert game.legal()
