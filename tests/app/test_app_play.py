"""The app during a game: picks, LEDs, refusals, whole scripted games."""

from jarmo import app_turn as T
from jarmo import app_view as V
from jarmo.app import App
from jarmo.app_base import S_PLAY
from jarmo.app_buttons import BACK, DOWN, MENU, NEXT, PREV, RIGHT, SELECT, UP
from jarmo.board import point
from tests.app.drive import Clock, Rand, goto, joy_to, new_game, play, play_out, wait_state
from tests.app.memstore import MemoryStore

SOUTH_ARCHER = V.PIECE[0]
NORTH_ARCHER = V.PIECE[5]


def start(rules="standard", **kw):
    app = App(store=kw.pop("store", None), has_display=kw.pop("has_display", True),
              tabletop=kw.pop("tabletop", False))
    clock = Clock(app)
    new_game(clock, rules, **kw)
    clock.run(1000)
    return app, clock


def test_start_position_on_the_leds():
    app, clock = start("standard", heroes=True)
    clock.run(600)          # cursor in its dark half: a1 shows its piece
    assert app.pixel("b1") == SOUTH_ARCHER
    assert app.pixel("e1") == V.PIECE[4]            # South's Golden Soldier (guard)
    assert app.pixel("a5") == V.PIECE[9]            # North's Golden Soldier
    assert app.pixel("c5") == NORTH_ARCHER
    assert app.pixel("c3") == 0
    assert app.text[1] == "South to move"


def test_cursor_blinks_between_two_ticks():
    app, clock = start()
    clock.press(NEXT)                 # cursor to b1, blink phase restarts
    on = app.pixel("b1")
    clock.run(512)
    off = app.pixel("b1")
    assert on == V.CURSOR[0] and off == SOUTH_ARCHER
    clock.run(512)
    assert app.pixel("b1") == V.CURSOR[0]
    assert app.frame_version > 0


def test_selecting_a_piece_lights_its_targets():
    app, clock = start("classic")
    goto(clock, point("b1"))
    clock.press(SELECT)
    assert app.states[S_PLAY].sel == point("b1")
    assert app.text[2].startswith("b1 to ")
    targets = [n for n in app.text[2][6:].split()]
    assert sorted(targets) == sorted(a[3:] for a in app.game.legal() if a.startswith("b1-"))
    clock.run(600)
    assert app.pixel("b1") == V.SELECTED
    for name in targets:
        if point(name) != app.board.cursor:
            assert app.pixel(name) == V.TARGET
    # PREV steps back: nothing selected, the cursor on the piece
    clock.press(PREV)
    assert app.states[S_PLAY].sel == -1 and app.board.cursor == point("b1")


def test_a_move_shows_on_the_leds():
    app, clock = start("standard", tabletop=True)
    play(clock, "b1-d2")
    clock.run(1024)
    assert app.game.history() == ["b1-d2"]
    assert app.text[1] == "North to move"
    if app.board.cursor != point("d2"):
        assert app.pixel("d2") == SOUTH_ARCHER
    assert app.pixel("b1") == V.TRAIL        # where the last move came from
    assert "South moved b1 to d2." in app.text


def test_capture_flash():
    app, clock = start("classic", tabletop=True)
    # b1-d2, c5-b3 (not yet), ... find a capture with a fixed script
    for a in ("b1-d2", "e5-d3"):
        play(clock, a)
    assert "d2-d3" in app.game.legal()
    play(clock, "d2-d3")
    clock.run(16, 16)
    assert app.pixel("d3") == V.WHITE          # strobe on
    clock.run(128, 16)
    assert app.pixel("d3") != V.WHITE          # strobe off
    clock.run(1500)
    assert app.game.piece("d3") == "Sm"        # the capturer is marked now
    if app.board.cursor != point("d3"):
        c = app.pixel("d3")
        assert c and (c >> 16) > (c & 255)     # South's colour family, breathing


def test_illegal_pick_is_refused_and_the_game_unchanged():
    app, clock = start("standard")
    before = app.game.dump()
    goto(clock, point("a1"))
    clock.press(SELECT)                        # a1 selected
    joy_to(clock, "a5")                        # joystick to North's piece
    clock.press(SELECT)
    assert app.text[2:4] == ("No: no line joins a1", "and a5")
    assert app.text[-1] == "at a5: North archer"    # the cursor is still named
    assert app.game.dump() == before
    assert app.states[S_PLAY].sel == -1
    clock.run(16, 16)
    assert app.pixel("a5") == V.RED
    clock.run(1000)
    clock.press(DOWN)
    assert app.pixel("a5") == NORTH_ARCHER
    clock.press(UP)
    # an enemy piece with nothing selected
    clock.press(SELECT)
    assert "not yours" in " ".join(app.text)
    # an empty point that takes no placement
    clock.press(DOWN)
    clock.press(DOWN)
    clock.press(SELECT)                        # a3: empty
    assert app.text == ("South to move", "No: a3 is empty: pick", "one of your pieces",
                        "first", "at a3: empty")
    assert app.game.dump() == before
    assert app.state == "play"


def test_reselect_another_piece_and_deselect():
    app, clock = start("standard")
    goto(clock, point("a1"))
    clock.press(SELECT)
    joy_to(clock, "b1")          # the cursor leaves the targets for b1
    clock.press(SELECT)
    assert app.states[S_PLAY].sel == point("b1")
    joy_to(clock, "b1")
    clock.press(SELECT)          # the selected piece again: deselect
    assert app.states[S_PLAY].sel == -1


def test_tabletop_ignores_the_seat_not_on_turn():
    app, clock = start("standard", tabletop=True)
    cur = app.board.cursor
    clock.press(NEXT, 1)
    clock.press(SELECT, 1)
    assert app.board.cursor == cur and app.states[S_PLAY].sel == -1
    clock.press(NEXT, 0)
    assert app.board.cursor != cur
    play(clock, "a1-c2")
    clock.press(NEXT, 0)
    assert app.game.turn == "north"
    clock.press(MENU, 0)                       # any seat can open the menu
    assert app.state == "menu"
    clock.press(BACK, 1)
    assert app.state == "play"


def test_tabletop_north_seat_joystick_is_mirrored():
    app, clock = start("standard", tabletop=True)
    play(clock, "a1-c2")
    goto(clock, point("c5"))
    clock.press(UP, 1)          # North looks at the board from the other side
    assert app.board.cursor == point("c4")
    clock.press(RIGHT, 1)
    assert app.board.cursor == point("b4")


def test_pseudo_choices_menu_icon_and_done():
    app, clock = start("standard")
    goto(clock, T.PICK_MENU)
    assert "at menu" in app.text
    clock.run(16, 16)
    for i in range(25):
        lit = app.pixel(i) != 0
        assert lit == bool(V.ICON_MENU >> i & 1)
    clock.press(SELECT)
    assert app.state == "menu"
    clock.press(PREV)
    assert app.state == "play"


def test_cursor_property_for_the_simulator():
    app, clock = start("standard")
    assert app.cursor == app.board.cursor and 0 <= app.cursor < 25
    goto(clock, point("b1"))
    assert app.cursor == point("b1")
    joy_to(clock, "c3")
    assert app.cursor == point("c3")
    goto(clock, T.PICK_MENU)
    assert app.cursor == -1                    # on a pseudo choice, not a point
    goto(clock, point("b1"))
    clock.press(MENU)
    assert app.state == "menu" and app.cursor == -1
    clock.press(MENU)
    assert app.state == "play" and app.cursor == point("b1")
    try:
        app.cursor = 3
    except AttributeError:
        pass
    else:
        raise AssertionError("cursor is read-only")


def test_prev_with_nothing_selected_opens_the_menu():
    app, clock = start("legendary")
    clock.press(PREV)
    assert app.state == "menu" and app.text[1] == ">Resume"
    clock.press(SELECT)
    assert app.state == "play"


def _special_game(rules, expansions, seeds, want):
    """Play seeded two-player games through the buttons until every action
    shape in `want` has been played; return the shapes seen."""
    seen = set()
    for seed in seeds:
        app = App(store=MemoryStore(), tabletop=True)
        clock = Clock(app)
        new_game(clock, rules, heroes="heroes" in expansions, challenges="challenges" in expansions)
        played = play_out(clock, Rand(seed))
        for a in played:
            if a == "done":
                seen.add("done")
            elif a.startswith("r@"):
                seen.add("r@")
            elif "*@" in a:
                seen.add("*@")
            elif a.endswith("*"):
                seen.add("*")
            elif a.startswith("@"):
                seen.add("@")
            elif "@" in a:
                seen.add("recall")
            else:
                seen.add("move")
        assert app.state == "end", (seed, app.state)
        assert app.game.history() == played         # every action came from the buttons
        r = app.game.result()
        assert app.celebrate == (None if r.winner is None else V.SIDE_COLOURS[0 if r.winner == "south" else 1])
        wait_state(clock, "result")
        assert app.celebrate is None
        assert app.stats.counts(rules) != (0, 0, 0)
        if want <= seen:
            return seen
    return seen


def test_whole_games_classic_with_recalls():
    seen = _special_game("classic", (), range(40), {"move", "recall"})
    assert {"move", "recall"} <= seen, seen


def test_whole_games_standard_heroes_challenges():
    seen = _special_game("standard", ("heroes", "challenges"), range(60), {"move", "@", "done", "r@"})
    assert {"move", "@", "done", "r@"} <= seen, seen


def test_whole_games_legendary_flips():
    seen = _special_game("legendary", ("heroes",), range(60), {"move", "*", "*@"})
    assert {"move", "*"} <= seen, seen


def test_whole_games_jasyr():
    seen = _special_game("jasyr", ("challenges",), range(5), {"move"})
    assert "move" in seen


def test_end_of_game_led_only_shows_points():
    app = App(has_display=False, tabletop=True)
    clock = Clock(app)
    new_game(clock, "classic")
    play_out(clock, Rand(3))
    assert app.state == "end"
    clock.run(200)
    assert any(app.frame)                      # the celebration runs
    wait_state(clock, "result")
    s, n = app.game.result().points
    clock.now = (clock.now | 4095) + 1 - 4096 if clock.now & 4096 else clock.now
    app.tick(clock.now & ~4096)
    lit_s = sum(1 for i in range(25) if app.pixel(i) == V.SIDE_COLOURS[0])
    lit_n = sum(1 for i in range(25) if app.pixel(i) == V.SIDE_COLOURS[1])
    assert (lit_s, lit_n) == (min(s, 12), min(n, 12))
    # how it ended, in a sentence with its subject ("South's pieces are all in ...")
    assert app.text[0].split()[0] in ("South's", "North's", "South", "North", "Both", "The"), \
        app.text
    clock.press(SELECT)
    assert app.state == "menu" and app.game is None


def test_held_piece_placement_points_blink_and_done_icon():
    from tests.app.drive import choose
    for seed in range(40):
        app = App(tabletop=True, has_display=False)
        clock = Clock(app)
        new_game(clock, "standard")
        rng = Rand(seed)
        while app.state == "play":
            legal = app.game.legal()
            if "done" in legal and any(a.startswith("@") for a in legal):
                spots = [point(a[1:]) for a in legal if a.startswith("@")]
                side = app.turn_side()
                clock.run(700)                    # any capture strobe is over
                goto(clock, T.PICK_DONE)
                clock.run(16, 16)
                lit = [i for i in range(25) if app.pixel(i)]
                assert lit == [i for i in range(25) if V.ICON_DONE >> i & 1]
                clock.press(UP)                   # back onto the board (c1)
                while app.board.cursor in spots:
                    clock.press(UP)
                phases = set()
                for _ in range(4):
                    clock.run(256)
                    phases.add(app.pixel(spots[0]))
                assert phases == {0, V.PIECE[side * 5]}, phases
                goto(clock, T.PICK_DONE)
                clock.press(SELECT)               # done: the turn ends
                assert app.game.history()[-1] == "done"
                return
            play(clock, choose(rng, legal))
    raise AssertionError("no open turn with a held piece in 40 games")
