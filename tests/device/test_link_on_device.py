"""Two emulated boards wired by a link cable (tests/device/pair.mjs) play one game by buttons.

Each board runs the project as `run.py deploy` writes it on stock
CircuitPython, its link UART cross-wired to the other's (QT Py: TX GPIO20 /
RX GPIO5, UART1; Feather: GPIO0/1, UART0), one byte per 10 bit-times at
115200 baud. The settings (classic rules, Versus: Link) are in each board's
nvm at power-on; then only buttons: New game on board a (it proposes),
New game on board b (it accepts), and select, select on the board whose
turn it is (its first piece to its first target), at a quick player's pace
(QUICK), until the game ends.
Checked: the same game saved on both, the same final position on both
boards' LEDs, each turn shown on the other board within 100 emulated ms,
and the same with the cable pulled in mid-turn, a board reset in mid-game
and random bytes on the line, on both kinds of firmware. The faults test,
and the last turn played with the cable out, start from saves that the
same app wrote on this PC a few turns before the end (HostPair,
near_the_end): the boards power on into the linked game and finish it as
the PC did. All marked `full` (python3 run.py test --full).
"""

import random
import re

import pytest

from jarmo import link
from jarmo.app import App
from jarmo.app_base import DEFAULT_SETTINGS, LINKED, NEEDS, OPPONENT, RULE, opponent_row
from jarmo.app_buttons import NEXT, SELECT
from jarmo.game import Game
from jarmo.link import TURN, frame
from jarmo.notation import action_text
from jarmo.rulesets import RULE_SETS
from jarmo.store_flash import Flash
from jarmo.store_log import R_SETTINGS, Store
from tests import needs
from tests.app.drive import picks
from tests.core.linkwire import wire
from tests.device import stage
from tests.device.device import DevicePair, fat_read  # noqa: F401  (fat_read: debugging)

PRESS_MS = 80
GAP_MS = 120
# A quick player's taps (the whole-game tests: a game in half the emulated
# time). The faults test keeps a human's pace through its faults; the rest of
# its game goes quickly.
QUICK = (40, 60)
HUMAN = (PRESS_MS, GAP_MS)
UART = {"adafruit_qtpy_rp2040": 1, "adafruit_feather_rp2040": 0, "raspberry_pi_pico": 0}
SEED = 11               # every board's JARMO_SEED (and HostPair's, to play their game)
FAULT_TURNS = 8         # the faults test's turns: 6 with its faults, then 2 to the end
RESET_AFTER = 4         # board b's reset: after 2 turns, the one with the cable out and 1 more

pytestmark = pytest.mark.full


def turn_frame(start, codes):
    """The bytes of a TURN frame (jarmo/link.py) with a good CRC."""
    p = bytearray(5 + 2 * len(codes))
    p[0], p[1] = start >> 8, start & 255
    for i, c in enumerate(codes):
        p[5 + 2 * i], p[6 + 2 * i] = c >> 8, c & 255
    buf = bytearray(len(p) + 6)
    return bytes(buf[:frame(buf, 77, TURN, p)])


def link_settings_nvm():
    """A board's nvm with the settings record: classic rules, Versus: Link."""
    s = bytearray(DEFAULT_SETTINGS)
    s[0] = RULE_SETS.index("classic")
    s[OPPONENT - RULE] = opponent_row(LINKED, NEEDS)
    flash = Flash()
    Store(flash).write(R_SETTINGS, bytes(s))
    return bytes(flash[0:len(flash)])


class HostPair:
    """The same two boards on this PC: two Apps on a simulated wire
    (tests/core/linkwire.py), each with link_settings_nvm() on its flash and
    the boards' seed, played as Linked plays them (New game on a, then on b;
    select on the mover until its turn is over). The boards' own policy
    gives the same game on the PC: its saves let a test start a linked
    game at its last turns."""

    def __init__(self):
        self.flashes = [Flash(data=link_settings_nvm()) for _ in range(2)]
        self.now = 1000
        self.power_on()
        self.tap(self.apps[0])          # New game on a, then b
        self.run(800)
        self.tap(self.apps[1])
        self.run(300)

    def power_on(self):
        """Both boards start (again) from their flash, on a new wire."""
        self.ends = wire(late=True)
        self.apps = [self._app(i) for i in range(2)]
        self.run(300)

    def reset(self, i):
        """Board i loses power and starts again from its flash, on the same wire."""
        self.apps[i] = self._app(i)
        self.run(300)

    def _app(self, i):
        # board i's App as it starts: from its flash, on its end of the wire
        return App(store=Store(self.flashes[i]), seed=SEED, line=self.ends[i], has_display=False)

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 10
            for e in self.ends:
                e.arrive()
            for app in self.apps:
                app.tick(self.now)

    def tap(self, app, button=SELECT):
        app.press(button, app.turn_side() if app.game is not None else 0)
        app.tick(self.now)
        self.run(100)

    def mover(self):
        movers = [app for app in self.apps if app.state == "play"]
        return movers[0] if movers else None

    def play_turn(self):
        """select on the mover until its turn is over, as Linked.play_turn;
        then the other board has it. False at the game's end."""
        app = self.mover()
        if app is None:
            return False
        for _ in range(12):
            self.tap(app)
            if app.state != "play":
                break
        self.run(300)
        return True

    def replay_turn(self, codes):
        """The mover plays its turn of `codes` (a whole game's action codes)
        by cursor: next to each choice, select. Returns the buttons pressed."""
        app = self.mover()
        buttons = []
        while app.state == "play":
            for choice in picks(app, action_text(codes[app.game.actions])):
                for _ in range(40):
                    if app.board.cursor == choice:
                        break
                    self.tap(app, NEXT)
                    buttons.append("next")
                self.tap(app)
                buttons.append("select")
        self.run(300)
        return buttons

    def nvms(self):
        """Each board's flash now: its nvm at power-on."""
        return [bytes(f[0:len(f)]) for f in self.flashes]

    def game(self):
        return self.apps[0].game.history()


def _board(tmp_path, name, profile_name, firmware_option, kind="stock", nvm=None, **settings):
    prof = stage.profile(profile_name)
    needs.require(stage.firmware_unavailable(profile_name, kind, firmware_option))
    drive = stage.build_drive(str(tmp_path / name), profile_name, trace=2, frozen=kind == "frozen",
                              JARMO_SEED=SEED, **settings)
    return prof, dict(firmware=stage.firmware(profile_name, kind, firmware_option),
                      drive_dir=drive, neopixel_pin=prof["pixel_pin"],
                      i2c_ack=0x3C if prof["display"] == "sh1107_128x64" else None,
                      nvm=nvm or link_settings_nvm(), uart=UART[prof["board_id"]])


class Linked:
    # the pair with each board's profile, and the moves of the game
    def __init__(self, pair, prof_a, prof_b, pace=QUICK):
        self.pair = pair
        self.press_ms, self.gap_ms = pace   # a tap: held, then the wait after it
        self.boards = (pair.a, pair.b)
        pair.a.profile = prof_a
        pair.b.profile = prof_b
        self.latencies = []
        # ms to add to a board's times to give them on board a's clock: each counts from its own
        # start (a Feather's takes longer than a QT Py's), and from 0 again after a reset
        self.offset = [0.0, pair.a.run(0) - pair.b.run(0)]
        self.since = [0, 0]         # its frames from this one on are of its latest power-on

    def tap(self, dev, button="select"):
        dev.press(stage.key_pin(dev.profile, button), self.press_ms)
        self.pair.run(self.gap_ms)

    def state(self, dev):
        names = stage.Trace(dev.console).state_names()
        return names[-1] if names else None

    def start(self):
        a, b = self.boards
        for dev in self.boards:
            dev.wait_for(r"^@@STATE menu", 8000)
        self.pair.run(300)
        self.tap(a)                          # New game: board a waits, then proposes
        a.wait_for(r"^@@STATE link", 3000)
        self.pair.run(800)
        self.tap(b)                          # New game: board b takes a's offer
        for dev in self.boards:
            dev.wait_for(r"^@@STATE (play|ai)", 5000)
        self.pair.run(300)

    def mover(self):
        for dev in self.boards:
            if self.state(dev) == "play":
                return dev
        return None

    def play_turn(self, buttons=None, cut_mid_turn=False):
        """select, select on the board to move until its turn is over (or
        `buttons`, the turn's buttons in order); then wait until the other
        board shows it. Returns the latency in ms."""
        dev = self.mover()
        assert dev is not None, [self.state(d) for d in self.boards]
        other = self.boards[1 - self.boards.index(dev)]
        cut_at = 1 if buttons is None else len(buttons) - 1
        for k in range(12 if buttons is None else len(buttons)):
            if k == cut_at and cut_mid_turn:
                self.pair.connect(False)     # pulled between the piece and its target
            self.tap(dev, "select" if buttons is None else buttons[k])
            if buttons is None and self.state(dev) != "play":
                break
        done = dev.wait_for(r"^@@STATE (ai|end)", 3000)
        if cut_mid_turn:
            return done
        t_done = dev.last_match_t()
        other.wait_for(r"^@@STATE (play|end)", 3000)
        t_seen = other.last_match_t()
        # the game's line the trace prints after each state line: a state's
        # line can come over the USB console before it (shown_game)
        for d in self.boards:
            d.wait_for(r"^@@GAME ", 1000)
        # the frame each board sent in the pass that played the turn: the
        # mover's when its turn went out, the other's when it showed it
        i = self.boards.index(dev)
        sent = max(t for t, _ in dev.frames[self.since[i]:] if t <= t_done) + self.offset[i]
        shown = max(t for t, _ in other.frames[self.since[1 - i]:] if t <= t_seen) + self.offset[1 - i]
        self.latencies.append(round(shown - sent, 1))
        return shown - sent

    def reset(self, i):
        """Board i loses power and starts again: its clock restarts at 0."""
        dev = self.boards[i]
        self.since[i] = len(dev.frames)
        dev.reset()
        mine = dev.run(0)
        theirs = self.boards[1 - i].run(0)
        self.offset[i] = theirs + self.offset[1 - i] - mine

    def over(self):
        return any(self.state(d) in ("end", "result") for d in self.boards)

    def games(self, most_ms=1000):
        """The games on the boards' logs, once each log holds the game its
        board shows (a received turn is saved in the pass after it is shown),
        or as they are after most_ms."""
        for _ in range(most_ms // 50):
            games = [stage.board_game(d) for d in self.boards]
            if all((g or []) == shown_game(d) for g, d in zip(games, self.boards)):
                break
            self.pair.run(50)
        return games


def result_frame(moves, has_display):
    """The LED frame (hex, RGB per point) the result of a classic game of
    these moves shows on a board with or without a display, drawn by the
    app on this PC: the final position with the last move's trail, or the
    points as counts of lit LEDs."""
    from jarmo.app import App
    from jarmo.app_base import S_RESULT
    from jarmo.game import Game
    from jarmo.notation import parse_action
    app = App(has_display=has_display)
    game = Game("classic")
    for m in moves:
        game.play(m)
    app.set_game(game, None, 0, 0, True)
    app.board.trail = parse_action(moves[-1]) >> 3 & 31
    app.goto(S_RESULT)
    app.tick(1000)
    return bytes(app.frame).hex()


def hues(frame_hex):
    """Each point's colour without its brightness (pieces on the enemy camp
    breathe: the frame's brightness depends on when it was drawn), None if dark."""
    data = bytes.fromhex(frame_hex)
    out = []
    for p in range(25):
        rgb = data[3 * p:3 * p + 3]
        top = max(rgb)
        out.append(None if not top else tuple((c * 8 + top // 2) // top for c in rgb))
    return out


def same_hues(shown, drawn):
    """The same points lit in the same colours: each channel in eighths of
    the brightest, within one (a dim breathing piece rounds otherwise)."""
    return len(shown) == len(drawn) and all(
        (a is None) == (b is None) and (a is None or all(abs(x - y) <= 1 for x, y in zip(a, b)))
        for a, b in zip(shown, drawn))


def assert_same_end(linked):
    for dev in linked.boards:
        dev.wait_for(r"^@@STATE (end|result)", 5000)
    linked.pair.run(4000)                    # the end animation is over: the result shows
    games = linked.games()
    assert games[0] is not None and games[0] == games[1]
    # the LEDs of the final position: each board's last frame is what the
    # app draws for that game's result on a board of its kind
    for dev in linked.boards:
        _version, _level, frame = stage.Trace(dev.console).frames()[-1]
        drawn = hues(result_frame(games[0], dev.profile["display"] is not None))
        assert same_hues(hues(frame), drawn), (hues(frame), drawn)
        assert "Traceback" not in "\n".join(dev.console)
    a, b = linked.boards
    if a.profile is b.profile:
        assert a.frames[-1][1] == b.frames[-1][1]      # the same bytes on both grids


def shown_game(dev):
    """The moves of the game the board shows (its latest @@GAME line)."""
    return stage.Trace(dev.console).last_game() or []


def _link_lines(dev):
    """A board's latest link and state lines (an assertion's message)."""
    return "\n".join([x for x in dev.console if x.startswith(("@@LINK", "@@STATE", "@@GAME", "@@TEXT"))][-10:])


def play_game(linked, most=120):
    for _ in range(most):
        if linked.over():
            break
        linked.play_turn()
    assert linked.over()


@pytest.mark.parametrize("kind", stage.KINDS)
def test_qtpy_and_qtpy_play_a_whole_game_by_buttons(tmp_path, firmware_option, kind):
    pa, a = _board(tmp_path, "A", "qtpy_bff", firmware_option, kind, **stage.HEAP)
    pb, b = _board(tmp_path, "B", "qtpy_bff", firmware_option, kind, **stage.HEAP)
    with DevicePair(a, b, timeout_s=600) as pair:
        linked = Linked(pair, pa, pb)
        linked.start()
        play_game(linked)
        assert_same_end(linked)
        assert max(linked.latencies) <= 100, str(linked.latencies)
        # the heap in a linked game, after a collection, at every turn
        least = min(free for dev in linked.boards for name, free, _us, _ms in
                    stage.Trace(dev.console).states() if name in ("play", "ai"))
        assert least >= 50 * 1024, least
        print("latencies", linked.latencies, pair.wire_stats(), "least free", least)
        for dev in linked.boards:
            st = dev.stats()
            print("emulated s %.1f, the CPU asleep %.1f %%, wall s %.1f"
                  % (st["emulated_s"], 100 * st["idle_s"] / st["emulated_s"], st["wall_s"]))


def test_a_board_whose_clock_went_down_while_it_idled_still_links(tmp_path, firmware_option):
    """Board A offers a linked game (its UART made at the full clock), its
    player steps back to the menu and leaves it to go dark: its CPU runs at
    48 MHz, and on an RP2040 that moves clk_peri, the UART's clock, too.
    A press wakes it, the next offers, board B takes it, and they play a
    turn each: A's UART was retimed at each change (the wire garbles bytes
    sent at another baud rate than the receiver's)."""
    pa, a = _board(tmp_path, "A", "qtpy_bff", firmware_option, JARMO_DIM_S=1, JARMO_OFF_S=2)
    pb, b = _board(tmp_path, "B", "qtpy_bff", firmware_option)
    with DevicePair(a, b, timeout_s=600) as pair:
        linked = Linked(pair, pa, pb)
        board_a = linked.boards[0]
        board_a.wait_for(r"^@@STATE menu", 8000)
        pair.run(300)
        linked.tap(board_a)                 # New game: A opens the link and offers
        board_a.wait_for(r"^@@STATE link", 3000)
        linked.tap(board_a, "back")         # back to the menu, the UART kept
        board_a.wait_for(r"^@@STATE menu", 3000)
        assert board_a.stats()["clock_hz"] == 125000000
        board_a.wait_for(r"^@@IDLE 2 ", 4000)
        pair.run(300)
        assert board_a.stats()["clock_hz"] == 48000000, "dark: A's CPU runs slow"
        linked.tap(board_a)                 # a press wakes A: the full clock
        linked.tap(board_a)                 # New game: A offers
        board_a.wait_for(r"^@@STATE link", 3000)
        assert board_a.stats()["clock_hz"] == 125000000
        pair.run(800)
        linked.tap(linked.boards[1])        # New game: B takes A's offer
        for dev in linked.boards:
            dev.wait_for(r"^@@STATE (play|ai)", 5000)
        pair.run(300)
        for _ in range(2):
            linked.play_turn()
        games = linked.games()
        assert games[0] == games[1] and len(games[0]) >= 2, games
        wire = pair.wire_stats()
        assert wire["garbled"] == 0, wire
        print("latencies", linked.latencies, wire)


@pytest.mark.parametrize("kind", stage.KINDS)
def test_qtpy_and_feather_play_through_a_pulled_cable_a_reset_and_noise(tmp_path, firmware_option, kind):
    """The faults come in a linked game's last FAULT_TURNS turns: the game up to
    them is played on this PC (near_the_end, board b's reset included), the
    boards power on with its saves and play its turns, faults and all, to
    the end the PC's game had."""
    (nvm_a, nvm_b), at_start, whole, turns = near_the_end(FAULT_TURNS, reset_b_after=RESET_AFTER)
    turns = iter(turns)
    pa, a = _board(tmp_path, "A", "qtpy_bff", firmware_option, kind, nvm=nvm_a)
    pb, b = _board(tmp_path, "B", "feather_oled", firmware_option, kind, nvm=nvm_b)
    with DevicePair(a, b, timeout_s=900) as pair:
        linked = Linked(pair, pa, pb, HUMAN)
        for dev in linked.boards:
            dev.wait_for(r"^@@STATE (play|ai)", 8000)   # the linked game goes on at once
            assert stage.board_game(dev) == at_start
        pair.run(300)
        for _ in range(2):
            linked.play_turn(next(turns))
        # the cable pulled in mid-turn: between the piece and its target
        mover = linked.mover()
        other = linked.boards[1 - linked.boards.index(mover)]
        linked.play_turn(next(turns), cut_mid_turn=True)
        # the link is lost after 1000 ms of the other board's clock (jarmo/link.py
        # times it in the other board's pace), said 600 ms later (jarmo/linkplay.py)
        for dev in linked.boards:
            dev.wait_for(r"^@@TEXT .*Link lost: cable\?", 6000)
        pair.connect(True)
        other.wait_for(r"^@@STATE play", 3000)       # the turn played meanwhile arrives
        linked.play_turn(next(turns))
        # board b loses power in mid-game, in the middle of its own turn or waiting
        if linked.mover() is pair.b:
            linked.tap(pair.b)                     # its piece selected, then the power goes
        linked.reset(1)
        pair.b.wait_for(r"^@@STATE (play|ai)", 8000)  # the linked game resumes at once
        pair.run(1500)
        games = linked.games()
        assert games[0] == games[1], games
        # random bytes on the line, both ways, during two turns: a turn's frame may be lost to
        # them (read as the rest of a noise frame, dropped by its CRC) and go again RETRY ms later
        rng = random.Random(19)
        through_noise = []
        for _ in range(2):
            for _ in range(4):
                for dev in linked.boards:
                    dev.inject(bytes(rng.getrandbits(8) for _ in range(24)))
                pair.run(60)
            linked.play_turn(next(turns))
            through_noise.append(linked.latencies.pop())
        assert max(through_noise) <= 100 + link._RETRY, through_noise
        # a turn the other board never sent, with a good CRC: out of turn for
        # the board to move, illegal for the board that waits; refused, logged
        mover = linked.mover()
        waiting = linked.boards[1 - linked.boards.index(mover)]
        moves = shown_game(mover)          # its log may not hold the last turn yet: saved a pass later
        game = Game("classic")
        for m in moves:
            game.play(m)
        own = game.legal_codes()[0]                     # the mover's own move
        empty = next(p for p in range(25) if not game.piece_at(p))
        mover.inject(turn_frame(len(moves), [own]))
        waiting.inject(turn_frame(len(moves), [empty << 3 | ((empty + 5) % 25) << 8]))
        pair.run(300)
        assert any(line == "@@LINKLOG refused a turn of the other board: out of turn"
                   for line in mover.console), _link_lines(mover)
        assert any(line == "@@LINKLOG refused a turn of the other board: illegal action"
                   for line in waiting.console), _link_lines(waiting)
        assert stage.board_game(mover) == stage.board_game(waiting) == moves
        linked.press_ms, linked.gap_ms = QUICK        # the rest of the game, quickly
        for buttons in turns:
            linked.play_turn(buttons)
        assert linked.over()
        assert_same_end(linked)
        games = linked.games()
        assert games[0] == whole                        # the PC's game, to its end
        links = [stage.Trace(d.console).lines for d in linked.boards]
        refused = [int(re.search(r"refused=(\d+)", [x for x in lines if x.startswith("@@LINK ")][-1]).group(1))
                   for lines in links]
        assert refused == [1, 1]        # the two injected turns, and nothing else
        # every other turn shown on the other board within 100 ms (the two turns
        # around the pulled cable and the reset are not timed)
        assert max(linked.latencies) <= 100, str(linked.latencies)
        for dev in linked.boards:
            assert "Traceback" not in "\n".join(dev.console)
        print("latencies", linked.latencies, "through noise", through_noise, pair.wire_stats())


class RealTime:
    """The simulator's clock: real time, as host/sim.py's loop runs it (the
    drive helpers' press and run, each pass ticking the App on the clock)."""

    def __init__(self, app):
        import time
        self.app = app
        self.monotonic = time.monotonic
        self.t0 = time.monotonic()

    @property
    def now(self):
        return int((self.monotonic() - self.t0) * 1000) + 1000

    def press(self, button, player=0):
        self.app.press(button, player)
        self.app.tick(self.now)

    def run(self, ms=0, step=0):
        self.app.tick(self.now)


def test_a_simulator_in_real_time_plays_linked_turns_with_an_emulated_board(tmp_path, firmware_option):
    """The simulator's App on a TCP line (host/link.py), on a real-time clock;
    the emulated QT Py's link UART bridged to the same port (emulator.mjs
    --uart-tcp), the board at a fraction of real time (0.1 to 0.2 alone,
    less on a busy machine). Several turns each way: the same game on both,
    each turn shown on the other end, and neither end ever says the link
    is lost (each times the link in the other's pace)."""
    from host.link import TcpLine
    from jarmo.app import App
    from jarmo.linkplay import NOTES
    from tests.app.drive import play
    from tests.app.memstore import MemoryStore
    from tests.device.device import Device
    from tests.hardware.test_sim_link import free_port

    prof, spec = _board(tmp_path, "A", "qtpy_bff", firmware_option)
    port = free_port()
    line = TcpLine(port)
    app = App(store=MemoryStore(), seed=3, line=line)
    sim = RealTime(app)
    said = set()            # every link note the simulator showed

    def run(dev, ms):
        # the board in 20 ms slices; the simulator's pass between them, in real time
        for _ in range(max(1, ms // 20)):
            dev.run(20)
            sim.run()
            said.update(x for x in app.text if x in NOTES)

    def until(dev, regex, ms):
        pattern = re.compile(regex)
        for _ in range(ms // 20):
            if any(pattern.search(x) for x in dev.console[-12:]):
                return
            run(dev, 20)
        raise AssertionError("no %r on the board within %d ms: %r" % (regex, ms, dev.console[-12:]))

    def tap(dev):
        dev.set_pin(stage.key_pin(prof, "select"), 0)
        run(dev, PRESS_MS)
        dev.set_pin(stage.key_pin(prof, "select"), "z")
        run(dev, 100)

    try:
        with Device(spec["firmware"], spec["drive_dir"], neopixel_pin=prof["pixel_pin"],
                    nvm=spec["nvm"], timeout_s=600,
                    args=["--uart-tcp", str(port), "--uart", str(spec["uart"])]) as dev:
            dev.profile = prof
            dev.wait_for(r"^@@STATE menu", 8000)
            app.new_game(rules="classic", opponent="link", side="south")   # the simulator proposes
            until(dev, r"^@@TEXT Link offers a game", 3000)
            tap(dev)                                                       # the board accepts
            until(dev, r"^@@STATE ai", 3000)
            for _ in range(20):
                if app.state == "play":
                    break
                run(dev, 100)
            assert app.state == "play" and app.game.rules == "classic"
            said.clear()
            lines = len(dev.console)
            for turn in range(3):
                play(sim, app.game.legal()[0])                # the simulator's turn
                until(dev, r"^@@STATE play", 3000)            # shown on the board
                for _ in range(8):                            # the board's turn, by buttons
                    tap(dev)
                    if app.state == "play":
                        break
                for _ in range(20):
                    if app.state == "play":
                        break
                    run(dev, 100)
                assert app.state == "play", (turn, app.text)
            run(dev, 300)
            assert stage.board_game(dev) == app.game.history() and len(app.game.history()) >= 6
            assert app.link.refused == 0
            lost = [x for x in dev.console[lines:] if x.startswith("@@TEXT") and "cable?" in x]
            assert not said and not lost, (said, lost)
            print("simulator against the board: the board's pace %.2f of real time" % (
                dev.run(0) / max(1, sim.now - 1000)))
    finally:
        line.close()


def near_the_end(turns_left=3, reset_b_after=None):
    """A linked game whose boards power on `turns_left` turns before its
    end: (the boards' nvms then, the game then, the whole game, the buttons
    of each turn left). HostPair plays it on this PC by Linked's policy,
    then again up to that turn, powers its boards on as the boards will be
    and plays the same moves by cursor (a resumed game's cursor starts
    again, and select alone would play other moves). `reset_b_after`: after
    that many of those turns board b loses power, as the faults test resets
    it (a select first if it is b's turn), and its cursor starts again."""
    host = HostPair()
    turns = 0
    while host.play_turn():
        turns += 1
    whole = host.game()
    codes = host.apps[0].game.history_codes()
    host = HostPair()
    for _ in range(turns - turns_left):
        host.play_turn()
    nvms, game = host.nvms(), host.game()
    host.power_on()
    presses = []
    for played in range(turns_left):
        if played == reset_b_after:
            if host.mover() is host.apps[1]:
                host.tap(host.apps[1])
            host.reset(1)
        presses.append(host.replay_turn(codes))
    assert host.mover() is None and host.game() == whole
    return nvms, game, whole, presses


def test_the_last_turn_with_the_cable_out_reaches_the_other_board_after_its_winner_leaves_and_resets(
        tmp_path, firmware_option):
    """The winner's last turn goes with the cable out; its player leaves the
    result at once and the board is reset; the cable back, the other board
    gets the turn and ends the same game. The game up to its last turns is
    played on this PC (near_the_end: the same app, the boards' policy): the
    boards power on with its saves, and the linked game goes on at once."""
    (nvm_a, nvm_b), at_start, whole, turns = near_the_end()
    pa, a = _board(tmp_path, "A", "qtpy_bff", firmware_option, nvm=nvm_a)
    pb, b = _board(tmp_path, "B", "qtpy_bff", firmware_option, nvm=nvm_b)
    with DevicePair(a, b, timeout_s=900) as pair:
        linked = Linked(pair, pa, pb)
        for dev in linked.boards:
            dev.wait_for(r"^@@STATE (play|ai)", 8000)   # the linked game goes on at once
            assert stage.board_game(dev) == at_start
        pair.run(300)
        for buttons in turns[:-1]:
            linked.play_turn(buttons)
        last = linked.mover()
        other = linked.boards[1 - linked.boards.index(last)]
        pair.connect(False)
        linked.play_turn(turns[-1], cut_mid_turn=True)
        assert linked.state(last) in ("end", "result")
        game = stage.board_game(last)
        assert game == whole                        # the boards played on as the PC did
        pair.run(3500)
        assert linked.state(other) == "ai"          # it has not got the last turn
        linked.tap(last)                            # leave the result at once
        linked.tap(last)
        last.wait_for(r"^@@STATE menu", 3000)
        assert any("Last turn on its way" in line for line in last.console[-40:]), last.console[-40:]
        linked.reset(linked.boards.index(last))
        pair.run(3000)
        assert linked.state(other) == "ai"
        pair.connect(True)
        other.wait_for(r"^@@STATE (end|result)", 8000)
        pair.run(4000)
        assert stage.board_game(other) == game
        assert "Traceback" not in "\n".join(last.console + other.console)
        print("latencies", sorted(linked.latencies), pair.wire_stats())


def test_equal_offers_from_equal_seeds_in_the_same_millisecond_start_one_game(tmp_path, firmware_option):
    """Two QT Pys with the same seed and the same settings choose New game at
    the same instant: one offer wins on both, each board plays its own side."""
    pa, a = _board(tmp_path, "A", "qtpy_bff", firmware_option)
    pb, b = _board(tmp_path, "B", "qtpy_bff", firmware_option)
    with DevicePair(a, b, timeout_s=600) as pair:
        linked = Linked(pair, pa, pb)
        for dev in linked.boards:
            dev.wait_for(r"^@@STATE menu", 8000)
        pair.run(300)
        for dev in linked.boards:
            dev.set_pin(stage.key_pin(dev.profile, "select"), 0)
        pair.run(PRESS_MS)
        for dev in linked.boards:
            dev.set_pin(stage.key_pin(dev.profile, "select"), "z")
        for dev in linked.boards:
            dev.wait_for(r"^@@STATE (play|ai)", 8000)
        pair.run(1000)
        assert sorted(linked.state(d) for d in linked.boards) == ["ai", "play"]
        linked.play_turn()
        linked.play_turn()
        games = linked.games()
        assert games[0] == games[1] and len(games[0]) >= 2
