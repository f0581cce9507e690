"""How to play: the menu item, its pages on the display, the LED examples."""

import sys

from jarmo.app import App
from jarmo.app_base import HELP, S_MENU, wrap
from jarmo.app_buttons import BACK, MENU, NEXT, PREV, SELECT
from tests.app.drive import Clock, menu_to, set_option


def open_help(app, clock):
    menu_to(clock, "How to play")
    clock.press(SELECT)
    assert app.state == "help"


def pages_read(app, clock, n):
    titles = []
    for _ in range(n):
        titles.append(app.text[0])
        clock.press(NEXT)
    return titles


def test_every_page_fits_the_display_without_cutting_a_word():
    from jarmo.app_help import SECTIONS
    for title, texts in SECTIONS:
        assert 3 <= len(texts) <= 6 or title == "How to play", title
        for text in texts:
            lines = wrap(text, 21, 99)
            assert len(lines) <= 4, (title, lines)        # under the title line
            assert " ".join(lines) == " ".join(text.split()), text
    assert [t for t, _ in SECTIONS] == ["How to play", "Board", "Classic", "Standard",
                                        "Legendary", "Jasyr", "Heroes", "Challenges"]


def total(app):
    """How many pages the part of How to play shown has, by its title line ("Board 5/16")."""
    return int(app.text[0].rsplit("/", 1)[1])


def test_how_to_play_pages_forward_and_back_and_leaves_to_the_menu():
    app = App()
    clock = Clock(app)
    open_help(app, clock)
    n = total(app)
    assert app.text == ("How to play 1/%d" % n, "NEXT, PREV: turn the", "pages. SELECT: back",
                        "where you were.")
    clock.press(NEXT)
    assert app.text[0] == "How to play 2/%d" % n
    clock.press(PREV)
    assert app.text[0] == "How to play 1/%d" % n
    clock.press(PREV)                       # PREV on the first page: back to the menu
    assert app.state == "menu" and ">How to play" in app.text
    assert "jarmo.app_help" not in sys.modules      # its pages left RAM
    for leave in (SELECT, BACK, MENU):
        clock.press(SELECT)
        assert app.state == "help"
        clock.press(NEXT)
        clock.press(leave)
        assert app.state == "menu" and "jarmo.app_help" not in sys.modules


def test_the_rule_set_and_expansions_of_the_menu_come_first():
    app = App()
    clock = Clock(app)
    set_option(clock, "Rules", "legendary")
    set_option(clock, "Heroes", "on")
    open_help(app, clock)
    # the rules in play are numbered through, whatever the section: 4/20, Board 5/20 ...
    assert total(app) == 20
    titles = pages_read(app, clock, 4 + 5 + 5 + 5 + 1)
    assert titles[3:] == (["How to play 4/20"]
                          + ["Board %d/20" % k for k in range(5, 10)]
                          + ["Legendary %d/20" % k for k in range(10, 15)]
                          + ["Heroes %d/20" % k for k in range(15, 20)]
                          + ["Other rules 20/20"])
    # then the other rule sets, counted apart; NEXT past the last page starts again
    seen = pages_read(app, clock, 40)
    assert seen[0] == "Classic 1/19" and "Challenges 19/19" in seen
    assert "How to play 1/20" in seen


def test_how_to_play_shows_the_rules_in_play_and_the_rest_one_step_away():
    """Bug: How to play was 38 pages for every rule set and both expansions,
    and standard, the default, began on page 10 of them. The pages of the
    rules in play are the whole count (the common pages, standard's, and a
    last page that leads on); the other rule sets are one NEXT past it."""
    app = App()
    clock = Clock(app)
    open_help(app, clock)
    n = total(app)
    titles = pages_read(app, clock, n)
    assert n == 16 and titles[-1] == "Other rules 16/16", titles
    assert {t.rsplit(" ", 1)[0] for t in titles} == {"How to play", "Board", "Standard",
                                                     "Other rules"}
    assert titles[9] == "Standard 10/16"
    clock.press(PREV)
    assert " ".join(app.text[1:]) == ("NEXT: the rule sets and expansions not in this game. "
                                      "SELECT: back where you were.")
    clock.press(NEXT)
    assert app.text[0] == "Classic 1/23"            # one step away
    clock.press(PREV)
    assert app.text[0] == "Other rules 16/16"
    clock.press(SELECT)
    assert app.state == "menu"


def test_in_a_game_how_to_play_shows_that_games_rules():
    """The rules in play are the running game's, not the menu's next game's."""
    app = App()
    clock = Clock(app)
    app.new_game(rules="jasyr", expansions=("challenges",), opponent="human")
    clock.press(MENU)
    set_option(clock, "Rules", "classic")           # "For the next game:"
    app.how_to_play()
    n = total(app)
    titles = pages_read(app, clock, n)
    assert [t for t in titles if not t.startswith(("How to play", "Board"))] == (
        ["Jasyr %d/%d" % (k, n) for k in range(10, 14)]
        + ["Challenges %d/%d" % (k, n) for k in range(14, 17)] + ["Other rules 17/17"])


def test_every_rule_set_and_expansion_has_pages():
    app = App()
    clock = Clock(app)
    open_help(app, clock)
    titles = set(pages_read(app, clock, 60))
    for section in ("Classic", "Standard", "Legendary", "Jasyr", "Heroes", "Challenges"):
        assert any(t.startswith(section + " ") for t in titles), section


def test_open_from_a_game_and_back_to_the_game():
    for leave in (SELECT, BACK, MENU, PREV):
        app = App()
        clock = Clock(app)
        app.new_game(rules="standard", opponent="human")
        app.how_to_play()                   # the simulator's ? key
        assert app.state == "help" and app.text[0].startswith("How to play 1/")
        clock.press(leave)
        assert app.state == "play"          # the turn it was opened in, not the menu


def test_open_from_the_menu_and_back_to_the_menu():
    app = App()
    clock = Clock(app)
    app.new_game(rules="standard", opponent="human")
    clock.press(MENU)
    app.how_to_play()
    clock.press(BACK)
    assert app.state == "menu"


def lit(app):
    return [i for i in range(25) if app.frame[3 * i:3 * i + 3] != b"\x00\x00\x00"]


def test_led_only_boards_show_lit_examples():
    app = App(has_display=False)
    clock = Clock(app)
    menu_to_led(app, clock)
    clock.press(SELECT)
    assert app.state == "help"
    pictures = set()
    for _ in range(7):                      # the move example, frame by frame
        clock.run(800)
        pictures.add(bytes(app.frame))
    assert len(pictures) >= 4               # it moves
    clock.run(800 * 7 - 16 * 7)
    b1_before = bytes(app.frame)
    clock.press(NEXT)                       # the capture example
    clock.run(100)
    assert bytes(app.frame) != b1_before and len(lit(app)) == 2     # d2 and b3
    clock.press(NEXT)
    clock.press(NEXT)                       # round to the move again
    clock.press(PREV)
    clock.press(PREV)
    clock.press(PREV)                       # from the first example: out
    assert app.state == "menu"


def menu_to_led(app, clock):
    """The LED-only menu: NEXT until the How to play LED (a3) blinks."""
    for _ in range(20):
        if app.states[S_MENU].item == HELP:
            return
        clock.press(NEXT)
    raise AssertionError("no How to play item")
