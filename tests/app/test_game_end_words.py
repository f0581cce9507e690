"""The end of a game says how it ended, who wins and why the points decide
it, all on its first page; and an action that would end the game against its own player is
asked first (SELECT again plays it, any other button plays on)."""

import pytest

from jarmo import Game
from jarmo.app import App
from jarmo.app_buttons import NEXT, SELECT
from tests.app.drive import Clock, goto, picks, play, wait_state
from tests.app.memstore import MemoryStore

# A standard game (random, seed 4) whose last turn is South's: its last
# piece, a4-c5, enters North's camp and brings a piece back; `done` then
# ends the game with every South piece in camp, and the tally (2 a piece in
# camp, 1 on the board, 0 held) gives North 3 to South's 2. Placing the
# piece (@b1) plays on.
CAMP_ON_DONE = (
    "b1-a3 c5-b3 a1-b3 e5-d3 a3-b1 d3-d2 b1-a3 d2-c2 c1-a2 a5-c4 b3-a1 c2-e3 a1-c2 c4-d4 "
    "c2-e3 d5-e3 a2-c3 d4-e2 e1-d3 e2-c1 c3-a4 e3-d5 d1-b2 d5-e3 a4-c3 b5-a3 b2-c4 a3-b5 "
    "d3-c1 b5-a3 c4-a5 e3-c2 c1-a2 a3-b5 c3-a4 b5-a3 a4-c5 c2-e3 a2-c1 a3-b5 c1-a2 b5-d4 "
    "a2-c3 e3-c2 c3-a4 c2-a1 @e5 a4-c3 e5-d3 c3-a2 d4-c4 a2-c3 c4-a5 c3-a4 a5-b3 a4-c3 "
    "b3-b4 c3-a2 d3-e5 a2-c3 b4-b3 c3-d1 b3-b2 d1-c3 e5-c4 c3-a4 c4-d4 a4-c3 d4-d3 c3-a2 "
    "b2-c4 a2-c1 c4-b2 c1-a2 d3-b4 a2-c3 b2-b3 c3-a4 b3-c5 a4-c5").split()


def two_players_at(actions):
    """A two-player standard game at the table, played up to `actions`."""
    app = App(store=MemoryStore(), tabletop=True)
    clock = Clock(app)
    app.new_game(rules="standard", opponent="human")
    clock.press(NEXT)
    g = app.game
    for a in actions:
        g.play(a)
    app.next_turn()
    clock.run(50)
    return app, clock


def pick_done(clock):
    app = clock.app
    seat = app.turn_side()
    for c in picks(app, "done"):
        goto(clock, c)
        clock.press(SELECT, seat)


def test_done_that_loses_the_game_is_asked_first():
    app, clock = two_players_at(CAMP_ON_DONE)
    assert app.game.turn == "south" and "done" in app.game.legal() and "@b1" in app.game.legal()
    pick_done(clock)
    assert app.game.result() is None and app.state == "play"       # not yet
    said = " ".join(app.text)
    assert "That ends the game: North wins 3 to 2" in said and "SELECT again: yes" in said, said
    clock.press(NEXT, 0)                                            # anything else: play on
    assert app.game.result() is None and "ends the game" not in " ".join(app.text)
    play(clock, "@b1")                                              # placing plays on
    assert app.game.result() is None


def test_select_again_ends_it_and_the_first_page_says_how_who_and_why():
    """Bug: "You ended it: AI all in camp. You win 4 to 2." gave the score's
    reason only on the next page, 4 s later: the score read as a riddle. The
    first page says how it ended (whose pieces, in whose camp), who wins by
    how much and what the points are for."""
    app, clock = two_players_at(CAMP_ON_DONE)
    pick_done(clock)
    clock.press(SELECT, 0)                                          # yes
    r = app.game.result()
    assert r is not None and r.winner == "north" and r.points == (2, 3)
    first = ("South's pieces are", "all in North's camp.", "North wins 3 to 2.",
             "Camp 2 each, others 1", "SELECT: menu")
    assert app.text == first, app.text
    wait_state(clock, "result")
    assert app.text == first
    pages = set()
    for _ in range(3):
        pages.add(app.text)
        clock.run(4100)
    said = " ".join(" ".join(p) for p in pages)
    assert "Points: 2 a piece in the enemy camp, 1 on the board, 0 held." in said, said
    assert all(p[-1] == "SELECT: menu" and len(p) <= 5 for p in pages)


def test_a_winning_end_is_not_asked():
    from tools.screens import WIPEOUT
    moves = WIPEOUT.split()
    app, clock = two_players_at(moves[:-1])
    play(clock, moves[-1])                                          # c1-d3 takes the last piece
    assert app.game.result().winner == "south" and app.state == "end"
    assert app.text == ("North's pieces are", "all taken.", "South wins.", "SELECT: menu"), app.text


@pytest.mark.parametrize("reason, rules", [("camp", "standard"), ("wipeout", "standard"),
                                           ("repetition", "standard"), ("stuck", "classic"),
                                           ("stuck", "jasyr"), ("limit", "standard")])
def test_every_way_a_game_ends_is_said_with_its_score_and_reason_on_one_page(reason, rules):
    """Every reason of jarmo.game.REASONS, on a finished game put on the result screen."""
    from jarmo.app_end import end_words
    app = App(store=MemoryStore())
    app.new_game(rules=rules, opponent="greedy")
    g = app.game
    import random
    rng = random.Random(1)
    for seed in range(4000):
        g = Game(rules, ply_limit=40 if reason == "limit" else None)
        rng.seed(seed)
        while g.result() is None:
            g.play(rng.choice(g.legal()))
        if g.result().reason == reason:
            break
    else:
        raise AssertionError("no random game ended by %s" % reason)
    app.game = g
    app.board.read(g)
    from jarmo.app_end import result_pages
    how, won, why = end_words(app)
    r = g.result()
    assert won.startswith("A draw" if r.winner is None else
                          "You win" if r.winner == "south" else "AI wins"), won
    assert bool(why) == (r.points is not None and reason != "wipeout"), why
    # how it ended, with its subject: whose pieces, who cannot move, ...
    assert how.split()[0] in ("Your", "AI's", "You", "AI", "Both", "The"), how
    assert " ended it" not in how
    first = result_pages(app)[0]
    assert len(first) <= 4 and all(len(line) <= 21 for line in first), first
    assert " ".join(first).startswith(how + " " + won), first
    if why:                         # the score's reason beside the score
        assert first[-1] in ("Camp 2 each, others 1", "Tie: more in camp won"), first
