"""The evaluation's tuner (tools/tune.py): its terms are eval_scored's, term
for term, so the weights it fits are the ones the device would use; its
positions are reproducible however the games are split over processes; the
fit predicts the outcomes at least as well as the weights it started from;
and a match plays the search with other weights."""

import json
import re

import pytest

from jarmo import ai, evaluation
from jarmo.game import Game
from jarmo.rng import Rng
from tools import tune


def random_positions(rules, games, seed):
    for k in range(games):
        rng = Rng(seed + k)
        g = Game(rules, (), 200)
        while g.outcome is None:
            yield g
            codes = g.legal_codes()
            g.play_code(codes[rng.below(len(codes))])


@pytest.mark.cpython_only
@pytest.mark.parametrize("rules", ["classic", "standard"])
def test_the_terms_and_the_shipped_weights_give_eval_scored_exactly(rules):
    """The rule set's weights: standard values a piece on the enemy camp at
    187 (fitted: docs/AI.md, "Tuned weights"), classic at the tally's 200."""
    w = tune.shipped(rules)
    assert w[1] == {"standard": 187, "classic": 200}[rules]
    tables = ai._tables(Game(rules))
    seen = 0
    for g in random_positions(rules, 12, 100):
        for side in (0, 1):
            expected = evaluation.eval_scored(g, tables, side)
            assert tune.value(tune.terms(g, tables, side, w), w) == expected, g.dump()
            seen += 1
    assert seen > 500


@pytest.mark.cpython_only
def test_a_weight_moves_the_value_by_its_term():
    tables = ai._tables(Game("standard"))
    pool = tune.NAMES.index("pool")        # (a recoverable piece is never captured)
    moved = 0
    for g in random_positions("standard", 6, 7):
        w = tune.shipped("standard")
        t = tune.terms(g, tables, g.mover, w)
        more = w[:pool] + (w[pool] + 10,) + w[pool + 1:]
        assert tune.terms(g, tables, g.mover, more) == t
        assert tune.value(t, more) == tune.value(t, w) + 10 * t[pool]
        moved += t[pool] != 0
    assert moved > 10


def positions(tmp_path, name, jobs):
    path = tmp_path / (name + ".jsonl")
    assert tune.main(["positions", "--rules", "standard", "--games", "4", "--budget", "40",
                      "--jobs", str(jobs), "--data", str(path)]) == 0
    return path


@pytest.mark.cpython_only
def test_positions_are_the_same_on_one_process_or_two_and_fit_the_outcomes(tmp_path, capsys):
    one = positions(tmp_path, "one", 1)
    two = positions(tmp_path, "two", 2)
    assert one.read_text() == two.read_text()
    rows = [json.loads(line) for line in one.read_text().splitlines()]
    assert len(rows) > 40
    assert all(row[0] in (0, 0.5, 1) and len(row) == 1 + len(tune.NAMES) for row in rows)
    capsys.readouterr()
    assert tune.main(["fit", "--rules", "standard", "--epochs", "30", "--data", str(one)]) == 0
    out = capsys.readouterr().out
    before = float(re.search(r"error with the starting weights ([0-9.]+)", out).group(1))
    after = float(re.findall(r"error ([0-9.]+)  ", out)[-1])
    assert after <= before
    fitted = re.search(r"fitted \(WEIGHT_NAMES\): (\S+)", out).group(1).split(",")
    assert len(fitted) == len(tune.WEIGHT_NAMES)


@pytest.mark.cpython_only
def test_a_match_plays_other_weights_against_the_shipped_ones(capsys):
    assert tune.weighted_eval(tune.shipped("classic"), "classic") is evaluation.eval_scored
    other = ",".join(str(x) for x in (150,) + tune.shipped("classic")[2:])
    plain = ai.eval_scored
    try:
        assert tune.main(["match", "--rules", "classic", "--games", "2", "--budget", "30",
                          "--jobs", "1", "--ply-limit", "40", "--weights", other]) == 0
    finally:
        ai.eval_scored = plain
    out = capsys.readouterr().out
    assert re.search(r"--weights v --against: (\d+)-(\d+)-(\d+)", out)
    counts = [int(n) for n in re.search(r"(\d+)-(\d+)-(\d+)", out).groups()]
    assert sum(counts) == 2
    with pytest.raises(SystemExit):
        tune.main(["match", "--weights", "1,2,3"])
