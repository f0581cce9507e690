"""Two Apps linked by a wire (tests/core/linkwire.py) play one game with buttons.

Each board is the whole app on its own store; time runs on both in 10 ms
passes. What a player sees is checked: the menu's Link, each board's own
side as "you", the other board's turn shown within 100 ms, the link lost
said on the display and the LEDs, a board restarted from its save going on
with the same game.
"""

from jarmo.app import App
from jarmo.app_buttons import BACK, SELECT
from tests.app.drive import Clock, menu_to, new_game, play, set_option
from tests.app.memstore import MemoryStore, reboot
from tests.core.linkwire import wire


class Two:
    # two boards on one wire, one clock
    def __init__(self, seed_a=1, seed_b=2):
        self.ea, self.eb = wire()
        self.sa = MemoryStore()
        self.sb = MemoryStore()
        self.a = App(store=self.sa, seed=seed_a, line=self.ea)
        self.b = App(store=self.sb, seed=seed_b, line=self.eb)
        self.ca = Clock(self.a, 1000)
        self.cb = Clock(self.b, 1000)

    def run(self, ms):
        for _ in range(ms // 10):
            self.ca.run(10, 10)
            self.cb.now = self.ca.now
            self.cb.run(0)
            self.b.tick(self.cb.now)

    def mover(self):
        """The clock of the board whose player is to move."""
        for c in (self.ca, self.cb):
            if c.app.state == "play":
                return c
        return None

    def restart_b(self):
        self.sb = reboot(self.sb)
        self.b = App(store=self.sb, seed=7, line=self.eb)
        self.cb = Clock(self.b, self.ca.now)


def _start(two, rules="classic", side="South"):
    new_game(two.ca, rules, opponent="Link", side=side)
    assert two.a.state == "link"
    two.run(500)
    new_game(two.cb, "standard", opponent="Link", side="South")   # its own settings yield
    two.run(300)


def _play_turn(two):
    """The player to move plays a turn (the first legal action each time)."""
    c = two.mover()
    n = c.app.game.plies
    k = c.app.game.actions
    while c.app.game.plies == n and c.app.game.result() is None:
        play(c, c.app.game.legal()[0])
    c.turn = c.app.game.history_codes(k)
    return c


def _play_game(two):
    """Turns until the game ends, then its end until the result shows."""
    for _ in range(300):
        if two.a.game.result() is not None:
            break
        _play_turn(two)
        two.run(200)
    two.run(4000)


def _start_match(two, games, rules="classic", side="South"):
    """Board a proposes a match of `games` games; board b takes it."""
    new_game(two.ca, rules, opponent="Link", side=side, match="%d games" % games)
    two.run(500)
    new_game(two.cb, "standard", opponent="Link", side="South")    # its own settings yield
    two.run(300)


def test_link_is_offered_in_the_menu_only_with_a_cable():
    two = Two()
    set_option(two.ca, "Versus", "Link")
    alone = App()
    clock = Clock(alone)
    menu_to(clock, "Versus")
    for _ in range(8):
        assert "Link" not in alone.text[1 + [line[1:7] for line in alone.text[1:]].index("Versus")]
        clock.press(SELECT)


def test_the_board_that_chose_first_proposes_and_both_play_its_game_each_as_you():
    two = Two()
    _start(two, "classic", side="North")
    a, b = two.a, two.b
    assert a.game is not None and b.game is not None
    assert a.game.rules == b.game.rules == "classic"
    assert a.human_side() == 1 and b.human_side() == 0     # a asked for North
    assert b.state == "play" and a.state == "ai"            # South moves first: board b
    assert any("(you)" in line for line in b.text)
    assert any("(Link)" in line for line in a.text)


def test_a_whole_game_by_buttons_on_both_boards_ends_the_same_and_saves_the_same():
    two = Two()
    _start(two, "classic")
    worst = 0
    for _ in range(400):
        if two.a.game.result() is not None:
            break
        c = _play_turn(two)
        other = two.b if c.app is two.a else two.a
        n = c.app.game.actions
        t = 0
        while other.game.actions < n and t < 2000:
            two.run(10)
            t += 10
        worst = max(worst, t)
        assert other.game.history_codes(0) == c.app.game.history_codes(0)
        two.run(500)
    assert two.a.game.result() is not None
    assert two.a.game.result() == two.b.game.result()
    assert two.a.game.snapshot() == two.b.game.snapshot()
    assert worst <= 100         # a turn shows on the other board within 100 ms
    assert two.sa.game()[2] == two.sb.game()[2]      # the same actions saved on both
    assert two.a.link.refused == 0 and two.b.link.refused == 0


def test_a_pulled_cable_is_said_on_both_boards_and_the_game_goes_on_when_it_is_back():
    two = Two()
    _start(two)
    _play_turn(two)
    two.run(300)
    two.ea.cut = two.eb.cut = True
    c = _play_turn(two)             # played while the cable is out
    two.run(2500)
    for app in (two.a, two.b):
        assert "Link lost: cable?" in app.text, app.text
        assert app.link.lost()
    # the red corners blink on the LEDs
    lit = False
    for _ in range(20):
        two.run(100)
        lit = lit or two.a.pixel(0) == 0xFF0000 and two.a.pixel(24) == 0xFF0000
    assert lit
    two.ea.cut = two.eb.cut = False
    two.run(1000)
    assert two.a.game.history_codes(0) == two.b.game.history_codes(0)
    assert not two.a.link.lost() and not two.b.link.lost()
    assert "Link lost: cable?" not in two.a.text
    assert c.app.state == "ai"


def test_the_player_may_leave_to_the_menu_and_the_game_is_kept():
    two = Two()
    _start(two)
    two.ea.cut = two.eb.cut = True
    two.run(2000)
    waiting = two.a if two.a.state == "ai" else two.b
    clock = two.ca if waiting is two.a else two.cb
    clock.press(BACK)
    assert waiting.state == "menu" and waiting.game is not None
    menu_to(clock, "Resume")
    clock.press(SELECT)
    assert waiting.state == "ai"


def test_a_board_that_restarts_resumes_the_linked_game_and_goes_on():
    two = Two()
    _start(two)
    for _ in range(3):
        _play_turn(two)
        two.run(300)
    before = two.a.game.history_codes(0)
    two.restart_b()
    assert two.b.game is not None and two.b.state in ("play", "ai")   # resumed at once
    two.run(1000)
    assert two.b.game.history_codes(0) == before
    _play_turn(two)
    two.run(300)
    assert two.a.game.history_codes(0) == two.b.game.history_codes(0)


def test_a_linked_match_goes_on_to_its_next_game_on_both_boards_sides_swapped():
    two = Two()
    _start_match(two, 2)
    assert two.a.match is not None and two.b.match is not None
    assert two.a.human_side() == 0 and two.b.human_side() == 1
    _play_game(two)
    assert two.a.state == two.b.state == "result"
    two.ca.press(SELECT)                # the next game on board a; b's player still reads
    two.run(2000)
    assert two.a.match.number == 2 and two.a.link.status(two.ca.now) == 0
    assert not any(line.startswith("Link") for line in two.a.text), two.a.text
    two.cb.press(SELECT)
    two.run(500)
    assert two.a.match.number == two.b.match.number == 2
    assert two.a.human_side() == 1 and two.b.human_side() == 0      # swapped
    assert two.b.state == "play" and two.a.state == "ai"
    _play_turn(two)
    two.run(300)
    assert two.a.game.history_codes(0) == two.b.game.history_codes(0) != []
    assert two.a.link.status(two.ca.now) == 0


def test_the_other_board_s_menu_says_a_game_is_offered_until_it_is_taken():
    two = Two()
    new_game(two.ca, "classic", opponent="Link")
    set_option(two.cb, "Versus", "Link")
    two.run(600)
    assert two.b.text[0] == "Link offers a game"
    two.ca.press(BACK)              # board a's player gives up waiting
    assert two.a.state == "menu"
    two.run(1500)
    assert two.b.text[0] != "Link offers a game"


def test_a_linked_game_is_saved_with_its_tag():
    from jarmo.game import Game
    from jarmo.match import Match
    from jarmo.store_game import link_tag, load, start_payload
    m = Match("standard", 2)
    m.game.play_code(m.game.legal_codes()[0])
    start = start_payload(m.game, m, 6, 1, -1, 0xBEEF)
    assert link_tag(start) == 0xBEEF
    assert load(start, [], 6)[1].games == 2
    assert link_tag(start_payload(Game("classic"), None, 0, 0, -1)) == -1


def test_a_new_linked_game_after_one_with_the_same_settings_starts_afresh():
    two = Two()
    _start(two)
    _play_game(two)
    two.ca.press(BACK)              # board a keeps the finished game (the menu)
    two.cb.press(SELECT)            # board b's player goes on to the menu
    assert two.a.game is not None and two.a.game.result() is not None
    menu_to(two.ca, "New")
    two.ca.press(SELECT)            # the same settings again: a proposes
    two.run(600)
    menu_to(two.cb, "New")
    two.cb.press(SELECT)
    two.run(600)
    assert two.a.game.actions == two.b.game.actions == 0
    assert two.a.link_tag == two.b.link_tag
    _play_turn(two)
    two.run(300)
    assert two.a.game.history_codes(0) == two.b.game.history_codes(0)
    assert len(two.a.game.history_codes(0)) >= 1


def _ends_game(game, codes):
    for c in codes:
        game.play_code(c)
    over = game.result() is not None
    for _ in codes:
        game.undo()
    return over


def _restart(two, which):
    """Board a or b restarts from its flash (a reset, or the power back)."""
    if which == "a":
        two.sa = reboot(two.sa)
        two.a = App(store=two.sa, seed=5, line=two.ea)
        two.ca = Clock(two.a, two.cb.now)
        return two.a
    two.restart_b()
    return two.b


def _play_to_the_last_turn(two):
    """Turns until the next one ends the game; returns the mover's clock."""
    from tests.core.linkwire import whole_turn
    for _ in range(400):
        c = two.mover()
        g = c.app.game
        turn = whole_turn(g)
        for _ in turn:
            g.undo()
        if _ends_game(g, turn):
            return c
        _play_turn(two)
        two.run(300)
    raise AssertionError("no end")


def test_the_last_turn_played_with_the_cable_out_reaches_the_other_board_after_the_winner_leaves_and_restarts():
    for leave, restart in ((True, False), (True, True), (False, True)):
        two = Two()
        _start(two)
        winner = _play_to_the_last_turn(two)
        which = "a" if winner.app is two.a else "b"
        other = two.b if which == "a" else two.a
        two.ea.cut = two.eb.cut = True
        _play_turn(two)                 # the last turn, with the cable out
        two.run(4000)
        app = two.a if which == "a" else two.b
        assert app.state == "result" and "Last turn on its way" in app.text, app.text
        if leave:
            (two.ca if which == "a" else two.cb).press(SELECT)
            assert app.state == "menu" and app.game is None
            assert app.text[0] == "Last turn on its way"
        if restart:
            app = _restart(two, which)
            two.run(300)
            assert "Last turn on its way" in app.text, app.text     # the result, again
        assert other.game.result() is None
        two.ea.cut = two.eb.cut = False
        two.run(3000)
        assert other.game.result() is not None, other.text
        assert other.game.history_codes(0) == app.link.game.history_codes(0)
        assert other.game.result() == app.link.game.result()
        assert "Last turn on its way" not in app.text
        # delivered and acknowledged: the winner's flash lets it go once it is left
        if app.state == "result":
            (two.ca if which == "a" else two.cb).press(SELECT)
        two.run(1000)
        assert (two.sa if which == "a" else two.sb).game() is None


def test_a_board_without_leds_text_blinks_white_corners_while_the_last_turn_is_on_its_way():
    two = Two()
    two.a.has_display = two.b.has_display = False
    _start(two)
    _play_to_the_last_turn(two)
    two.ea.cut = two.eb.cut = True
    c = two.mover() or two.ca
    _play_turn(two)
    two.run(4000)
    two.ea.cut = two.eb.cut = True
    colours = set()
    for _ in range(30):
        two.run(100)
        colours.add(c.app.pixel(0))
    assert 0xFFFFFF in colours and 0xFF0000 in colours      # on its way; the link down


def test_a_board_that_lost_the_linked_game_gets_it_back_from_the_other_board():
    two = Two()
    _start(two)
    for _ in range(4):
        _play_turn(two)
        two.run(300)
    before = two.a.game.history_codes(0)
    two.sb = MemoryStore()          # board b's flash lost everything but its settings
    two.b = App(store=two.sb, seed=7, line=two.eb)
    two.cb = Clock(two.b, two.ca.now)
    set_option(two.cb, "Versus", "Link")
    two.run(2000)
    assert two.b.game is not None and two.b.game.history_codes(0) == before
    assert two.b.human_side() == 1 - two.a.human_side()
    _play_turn(two)
    two.run(500)
    assert two.a.game.history_codes(0) == two.b.game.history_codes(0)
    assert two.sb.game()[2] == two.sa.game()[2]


def test_a_board_that_lost_a_match_s_later_game_gets_it_back_with_the_results_before_it():
    two = Two()
    _start_match(two, 4, "standard", "North")
    for _ in range(2):
        _play_game(two)
        assert two.a.state == two.b.state == "result"
        for clock in (two.ca, two.cb):
            clock.press(SELECT)         # the next game
        two.run(500)
    for _ in range(3):
        _play_turn(two)
        two.run(300)
    results = two.a.match.results
    assert two.a.match.number == 3 and len(results) == 2
    before = two.a.game.history_codes(0)
    side = two.b.human_side()
    two.sb = MemoryStore()          # board b's flash lost everything but its settings
    two.b = App(store=two.sb, seed=7, line=two.eb)
    two.cb = Clock(two.b, two.ca.now)
    set_option(two.cb, "Versus", "Link")
    two.run(2000)
    m = two.b.match
    assert m is not None and m.number == 3 and m.games == 4 and m.results == results
    assert two.b.game.history_codes(0) == before
    assert two.b.human_side() == side and two.b.human0 == two.a.human0 ^ 1
    assert m.totals == two.a.match.totals
    _play_turn(two)
    two.run(500)
    assert two.a.game.history_codes(0) == two.b.game.history_codes(0)
    # saved with its results: a restart resumes game 3 of the same match
    two.restart_b()
    two.run(1000)
    assert two.b.match.number == 3 and two.b.match.results == results
    _play_game(two)
    assert two.a.state == two.b.state == "result"
    assert two.a.match.totals == two.b.match.totals


def test_a_board_that_lost_its_own_last_turn_gets_it_back_from_the_other_board():
    two = Two()
    _start(two)
    for _ in range(3):
        _play_turn(two)
        two.run(300)
    c = _play_turn(two)             # the mover's turn reaches the other board...
    two.run(300)
    mover = "a" if c.app is two.a else "b"
    store = two.sa if mover == "a" else two.sb
    before = (two.a if mover == "b" else two.b).game.history_codes(0)
    # ... then the mover's flash loses that turn (its last TURN record torn)
    saved = store.game()
    fresh = MemoryStore()
    fresh.start_game(saved[1])
    fresh.add_turn(saved[2][:len(saved[2]) - len(c.turn)])
    if mover == "a":
        two.sa = fresh
        two.a = App(store=fresh, seed=5, line=two.ea)
        two.ca = Clock(two.a, two.cb.now)
    else:
        two.sb = fresh
        two.b = App(store=fresh, seed=7, line=two.eb)
        two.cb = Clock(two.b, two.ca.now)
    two.run(2000)
    assert two.a.game.history_codes(0) == two.b.game.history_codes(0) == before


def test_a_match_goes_on_only_once_the_other_board_has_saved_the_last_turn():
    # the other board acknowledges the last turn when it comes, and a power
    # cut then tears its save: the winner must not go on to the next game
    # (its link would let go of the last turn that the other board lacks)
    from jarmo.store_log import Store
    from tests.app.cutflash import CutFlash, PowerCut
    two = Two()
    flashes = {"a": CutFlash(seed=3), "b": CutFlash(seed=4)}
    two.sa, two.sb = Store(flashes["a"]), Store(flashes["b"])
    two.a = App(store=two.sa, seed=1, line=two.ea)
    two.b = App(store=two.sb, seed=2, line=two.eb)
    two.ca, two.cb = Clock(two.a, 1000), Clock(two.b, 1000)
    _start_match(two, 2)
    winner = _play_to_the_last_turn(two)
    other = "b" if winner.app is two.a else "a"
    flashes[other].cut_after(0)         # its next write is torn: the last turn's
    _play_turn(two)
    dead = set()
    for _ in range(300):                # 3 s: the winner's player presses Next again and again
        t = two.ca.now + 10
        for name, app in (("a", two.a), ("b", two.b)):
            if name not in dead:
                try:
                    app.tick(t)
                except PowerCut:
                    dead.add(name)
        two.ca.now = two.cb.now = t
        if winner.app.state == "result":
            winner.press(SELECT)
    assert dead == {other}
    assert winner.app.match.number == 1 and "Last turn on its way" in winner.app.text
    flashes[other].reboot()
    receiver = _restart(two, other)
    two.run(6000)
    assert receiver.game.result() is not None and receiver.state == "result"
    for clock in (two.ca, two.cb):
        if clock.app.state == "result":
            clock.press(SELECT)         # the next game, on both
    two.run(1000)
    assert two.a.match.number == two.b.match.number == 2
    assert two.a.match.results == two.b.match.results
