"""The opening book (jarmo/book.py, on CPython): the file and the frozen bytes give the
same turns, a missing or damaged book is named and ignored (the AI searches
instead), a book turn is always legal, and level 4's variety."""

import gc
import os

import pytest

from jarmo import Game
from jarmo import book as B
from jarmo.ai import Player
from jarmo.rng import Rng
from tests.core.test_ai import play_turn
from tools.book import header, record

SHIPPED = os.path.join(os.path.dirname(B.__file__), B.FILE)


def small_book(tmp_path):
    """A book of three positions of standard (the opening, after two first
    turns), two weighted entries at the opening; (path, data)."""
    g = Game("standard")
    first = Player("greedy", 1).choose(g)
    other = Player("greedy", 2).choose(g)
    rows = [record(B.position_key(g), 3, first), record(B.position_key(g), 1, other)]
    for turn in (first, other):
        for c in turn:
            g.play_code(c)
        rows.append(record(B.position_key(g), 1, Player("greedy", 3).choose(g)))
        g = Game("standard")
    data = header(len(rows), 4) + b"".join(sorted(rows))
    path = tmp_path / "book.bin"
    path.write_bytes(data)
    return str(path), data


def answers(book, seeds=range(8)):
    out = []
    for seed in seeds:
        p = Player(4, seed)
        p.book = book
        out.append(p.choose(Game("standard")))
    return out


def test_the_file_and_the_frozen_bytes_give_the_same_turns(tmp_path):
    path, data = small_book(tmp_path)
    g = Game("standard")
    assert B.entries(g, path) == B.entries(g, data) and len(B.entries(g, data)) == 2
    assert answers(path) == answers(data)
    assert len(set(tuple(t) for t in answers(data))) == 2     # both weighted entries drawn


def test_a_book_answer_costs_no_search_and_the_game_goes_on_after_it(tmp_path):
    path, _data = small_book(tmp_path)
    g = Game("standard")
    p = Player(4, 5)
    p.book = path
    for _ in range(4):                      # two book turns, then the search
        turn = p.choose(g)
        assert (p.nodes == 0) == (g.plies < 2), (g.plies, p.nodes)
        play_turn(g, turn)


def watch_the_book(monkeypatch):
    """The calls level 4 makes to the book's reader and the collector, in
    order; forget() says the reader was code in RAM, as on the device."""
    calls = []
    ask = B.ask
    monkeypatch.setattr(B, "ask", lambda p, g, buf: calls.append("ask") or ask(p, g, buf))
    monkeypatch.setattr(B, "forget", lambda: calls.append("forget") or True)
    monkeypatch.setattr(gc, "collect", lambda: calls.append("collect"))
    return calls


def test_level_4_asks_its_book_and_forgets_it_in_steps_of_their_own(tmp_path, monkeypatch):
    """A look-up loads the reader (on the device 9 ms) and asks it (5 ms);
    forgetting it collects the heap: each is a step() of its own, never start()
    or a slice of the search, so the app's loop keeps its pace (docs/AI.md,
    "Slices").  The answer is the one-call answer of the same seed."""
    path, _data = small_book(tmp_path)
    g = Game("standard")
    expected = []
    for book in (path, "no-such-book.bin"):      # a book turn, and a search after the book
        p = Player(4, 5)
        p.book = book
        expected.append(p.choose(g))
    calls = watch_the_book(monkeypatch)
    for book, answer in zip((path, "no-such-book.bin"), expected):
        p = Player(4, 5)
        p.book = book
        del calls[:]
        p.start(g)
        assert calls == []
        assert p.step() is None and calls == ["ask"]
        del calls[:]
        turn = p.step()
        assert calls == ["forget", "collect"]
        if book == path:
            assert turn == answer and p.nodes == 0
        else:
            assert turn is None and "missing" in p.book_problem
            del calls[:]
            while turn is None:
                turn = p.step()
            assert turn == answer and p.nodes > 0 and calls == []
        assert Game("standard").dump() == g.dump()


def test_a_missing_book_file_is_named_and_level_4_searches(monkeypatch):
    monkeypatch.setattr(B, "FILE", "no-such-book.bin")
    g = Game("standard")
    p = Player(4, 1)
    play_turn(g, p.choose(g))
    assert p.nodes > 0
    assert "no-such-book.bin" in p.book_problem and "missing" in p.book_problem


@pytest.mark.parametrize("damage", ["magic", "truncated", "record", "illegal"])
def test_a_damaged_book_is_named_and_ignored(tmp_path, damage):
    path, data = small_book(tmp_path)
    data = bytearray(data)
    if damage == "magic":
        data[0] ^= 0xFF
    elif damage == "truncated":
        del data[-5:]
    elif damage == "record":
        for k in range(B.RECORD, len(data), B.RECORD):
            data[k + 8] ^= 0x5A            # a changed action: the check byte fails
    else:                                  # a well-formed record of an illegal turn
        g = Game("standard")
        data = bytearray(header(1, 4) + record(B.position_key(g), 1, [0x7FFF]))
    with open(path, "wb") as f:
        f.write(data)
    for book in (path, bytes(data)):       # the file, and the same bytes frozen
        g = Game("standard")
        p = Player(4, 1)
        p.book = book
        play_turn(g, p.choose(g))          # the search answered
        assert p.nodes > 0
        if damage != "illegal":
            assert "damaged" in p.book_problem, p.book_problem
            assert (path if book == path else "(frozen)") in p.book_problem


def test_every_turn_of_the_shipped_book_met_in_play_is_legal():
    """Level 4 with the shipped book against every level, in each of the
    book's mixes: every answer legal, and the book answered some turns."""
    if not os.path.exists(SHIPPED):
        pytest.fail("jarmo/book.bin is missing: python3 run.py book")
    hits = 0
    for rules, exps in (("standard", ()), ("classic", ()), ("jasyr", ("heroes", "challenges")),
                        ("legendary", ())):
        for seed in range(4):
            g = Game(rules, exps, 12)
            players = [Player(4, seed), Player(("random", "greedy", 3, 4)[seed], seed + 7)]
            players[1].book = None
            if seed % 2:
                players.reverse()
            while g.result() is None:
                p = players[g.mover]
                turn = p.choose(g)
                hits += p.level == 4 and p.book is not None and p.nodes == 0
                play_turn(g, turn)
            assert all(getattr(p, "book_problem", None) is None for p in players)
    assert hits >= 8, hits


def test_level_4_plays_different_games_from_different_seeds_and_the_same_from_one():
    def game(seed):
        g = Game("standard", (), 24)
        players = (Player(4, seed), Player(3, 100 + seed))
        players[0].book = None             # the search's own variety
        while g.result() is None:
            play_turn(g, players[g.mover].choose(g))
        return g.history()
    games = [game(seed) for seed in range(4)]
    assert len(set(tuple(h) for h in games)) >= 3
    assert game(2) == games[2]


def test_the_weighted_choice_follows_the_weights(tmp_path):
    _path, data = small_book(tmp_path)
    g = Game("standard")
    (w1, t1), (w2, t2) = B.entries(g, data)
    rng = Rng(3)
    buf = [0] * 40
    drawn = [tuple(B.turn(g, rng, buf, data)) for _ in range(400)]
    heavy = tuple(t1) if w1 > w2 else tuple(t2)
    assert 0.65 < drawn.count(heavy) / 400.0 < 0.85      # weights 3 and 1

