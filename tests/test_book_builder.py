"""The opening book builder (tools/book.py): reproducible from its seed however
the work is split over processes, and an interrupted run resumes from its
work file without searching again what it had finished."""

import re

import pytest

from jarmo import book as B
from jarmo.game import Game
from tools import book as builder

ARGS = ["--plies", "2", "--plies-other", "1", "--mixes", "jasyr+heroes+challenges,classic",
        "--factor", "1", "--seeds", "2", "--replies", "1", "--seed", "5"]


def build(tmp_path, name, *extra):
    work = tmp_path / (name + ".jsonl")
    out = tmp_path / (name + ".bin")
    assert builder.main(ARGS + ["--work", str(work), "--out", str(out)] + list(extra)) == 0
    return work, out.read_bytes()


def searched(text):
    return int(re.findall(r"(\d+) searched in this run", text)[-1])


@pytest.mark.cpython_only
def test_the_same_seed_gives_the_same_book_on_one_process_or_two(tmp_path, capsys):
    _work, one = build(tmp_path, "one", "--jobs", "1")
    _work, two = build(tmp_path, "two", "--jobs", "2")
    assert one == two
    assert len(one) >= 6 * B.RECORD and B.entries(Game("jasyr", ("heroes", "challenges")), one)
    assert B.entries(Game("classic"), one)
    _work, other = build(tmp_path, "other", "--jobs", "1", "--seed", "6")
    assert other != one                   # another seed: other tie-breaks somewhere


@pytest.mark.cpython_only
def test_an_interrupted_build_resumes_and_gives_the_same_book(tmp_path, capsys):
    work, whole = build(tmp_path, "whole", "--jobs", "1")
    total = searched(capsys.readouterr().out)
    lines = work.read_text().splitlines(True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:3]) + lines[3][:20])     # killed while writing line 4
    assert builder.main(ARGS + ["--work", str(cut), "--out", str(tmp_path / "cut.bin"),
                                "--jobs", "1"]) == 0
    assert searched(capsys.readouterr().out) == total - 3
    assert (tmp_path / "cut.bin").read_bytes() == whole


@pytest.mark.cpython_only
def test_write_only_searches_nothing(tmp_path, capsys):
    work, whole = build(tmp_path, "whole", "--jobs", "1")
    capsys.readouterr()
    out = tmp_path / "again.bin"
    assert builder.main(ARGS + ["--work", str(work), "--out", str(out), "--write-only"]) == 0
    assert searched(capsys.readouterr().out) == 0 and out.read_bytes() == whole
