"""The simulator's log (host/log.py) follows what the screen shows: a game's
turns and its end in the display's words, and the guided first game's own
moves, never the game before it."""

from host.log import EventLog
from jarmo.app import App
from jarmo.app_buttons import MENU, SELECT
from jarmo.app_lesson import SCRIPT, STEPS
from tests.app.drive import Clock, menu_to, new_game, play
from tests.app.memstore import MemoryStore
from tests.app.test_lesson import follow


def test_the_lesson_logs_its_own_moves_not_the_last_games():
    app = App(store=MemoryStore(), tabletop=True)
    clock = Clock(app)
    log = EventLog()
    new_game(clock, "standard", opponent="human")
    play(clock, "a1-c2")
    log.see(app)
    assert log.entries[-1] == "South moved a1 to c2."
    clock.press(MENU)
    menu_to(clock, "First game")
    clock.press(SELECT)
    log.see(app)
    assert log.entries[-1] == "Started: First game (the lesson)"
    mark = len(log.entries)
    original = clock.run

    def run(ms, step=16):       # the screen draws, the log looks
        original(ms, step)
        log.see(app)
    clock.run = run
    follow(app, clock)
    log.see(app)
    lesson = log.entries[mark:]
    played = [e.split(" played ")[1].rstrip(".") for e in lesson if " played " in e]
    assert played == SCRIPT, lesson
    assert lesson[0] == "You played e1-d3." and lesson[1] == "North played b5-a3."
    assert lesson[-1] == "Game over: " + STEPS[-1]
    assert "a1 to c2" not in " ".join(lesson)


def test_the_log_says_the_end_in_the_end_screens_words():
    from tools.screens import WIPEOUT
    app = App(store=MemoryStore(), tabletop=True)
    clock = Clock(app)
    log = EventLog()
    new_game(clock, "standard", opponent="human")
    for a in WIPEOUT.split():
        play(clock, a)
        log.see(app)
    assert log.entries[-1] == "Game over: North's pieces are all taken. South wins.", \
        log.entries[-1]
    assert not any("wipeout" in e for e in log.entries)


def test_resumed_after_one_turn_says_one_turn_once_resumed():
    """Bug: the log said "Resumed" while the start's menu ("Saved game
    found") still offered the game; it says so once Resume is chosen."""
    app = App(store=MemoryStore(), tabletop=True)
    clock = Clock(app)
    new_game(clock, "standard", opponent="human")
    play(clock, "a1-c2")
    from tests.app.memstore import reboot
    again = App(store=reboot(app.store))
    log = EventLog()
    log.see(again)
    assert again.state == "menu" and again.game is not None
    assert log.entries == []
    clock = Clock(again)
    menu_to(clock, "Resume")
    clock.press(SELECT)
    log.see(again)
    assert again.state == "play"
    assert log.entries == ["Resumed: standard, after 1 turn"]


def test_a_new_game_starts_a_new_log():
    """Bug: a new game kept the previous game's lines in the log."""
    app = App(store=MemoryStore(), tabletop=True)
    clock = Clock(app)
    log = EventLog()
    new_game(clock, "standard", opponent="human")
    log.see(app)                    # the screen drawn
    play(clock, "a1-c2")
    log.see(app)
    assert log.entries == ["Started: standard", "South moved a1 to c2."]
    clock.press(MENU)
    log.see(app)                    # the menu over the game: still its log
    assert log.entries[-1] == "South moved a1 to c2."
    new_game(clock, "classic", opponent="human")
    clock.press(SELECT)             # "New game? The game in play is left unfinished": yes
    log.see(app)
    assert app.state == "play" and app.game.rules == "classic"
    assert log.entries == ["Started: classic"]
