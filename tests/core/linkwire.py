"""A wire between two jarmo.link.Link ends, for the tests (runs under MicroPython too).

Each end is a transport (readinto, write). The wire can be cut, drop
frames, and have bytes injected; a Pair steps two boards' links in 10 ms
passes and plays what each one takes, as the App's opponent turn would.
"""

from jarmo.game import Game
from jarmo.link import Link


class End:
    made = 0

    def __init__(self):
        End.made += 1
        self.ident = bytes((0, 0, 0, 0, 0, 0, End.made >> 8 & 255, End.made & 255))   # a board's uid
        self.inq = bytearray()
        self.other = None
        self.cut = False
        self.drop = 0           # writes to drop (whole frames)
        self.written = 0
        self.late = False       # bytes reach the other end at its next arrive()
        self.flight = bytearray()

    def readinto(self, buf):
        n = min(len(buf), len(self.inq))
        if not n:
            return 0
        buf[0:n] = self.inq[0:n]
        self.inq = self.inq[n:]
        return n

    def write(self, data):
        self.written += 1
        if self.cut:
            return
        if self.drop:
            self.drop -= 1
            return
        (self.other.flight if self.late else self.other.inq).extend(bytes(data))

    def arrive(self):
        """Bytes in flight (late) reach this end: two boards that send in
        the same millisecond each send before hearing the other."""
        if self.flight:
            self.inq.extend(self.flight)
            self.flight = bytearray()


def wire(late=False):
    a = End()
    b = End()
    a.other = b
    b.other = a
    a.late = b.late = late
    return a, b


def whole_turn(game):
    """The codes of one whole turn of the side to move (first legal action each time)."""
    plies = game.plies
    out = []
    while game.plies == plies and game.result() is None:
        code = game.legal_codes()[0]
        game.play_code(code)
        out.append(code)
    return out


class Board:
    # one board: its game, its side, its link
    def __init__(self, end, side, rules="standard", nonce=1):
        self.end = end
        self.side = side
        self.game = Game(rules)
        self.link = Link(end, nonce, end.ident)
        self.link.bind(self.game, bytes((1, 0, 0, 0, side, 0, 9)))

    def mine(self):
        return (self.game.turn == "north") == (self.side == 1)

    def step(self, now):
        self.link.poll(now)
        codes = self.link.take()
        if codes:
            for c in codes:
                self.game.play_code(c)
            self.link.poll(now)


class Pair:
    def __init__(self, rules="standard"):
        ea, eb = wire()
        self.a = Board(ea, 0, rules, 11)
        self.b = Board(eb, 1, rules, 22)
        self.now = 0

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 10
            self.a.step(self.now)
            self.b.step(self.now)

    def play_turn(self):
        """The side to move plays a whole turn on its board."""
        board = self.a if self.a.mine() else self.b
        return whole_turn(board.game)

    def same(self):
        return self.a.game.history_codes(0) == self.b.game.history_codes(0)
