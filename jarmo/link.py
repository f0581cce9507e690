# Link: two boards play one game over a byte line (a UART cable, a TCP socket).
#
# Pure logic over a byte transport (docs/LINK.md): the transport's
# readinto(buf) returns how many bytes it put into buf (0 or None: none
# now, never waits) and write(data) sends bytes (dropped when the line is
# down). Time comes in as int ms (poll(now)). The same code runs on a board
# (hardware/link.py, busio.UART) and on a PC (host/link.py, a socket).
#
# A frame: SOF, length, sequence, type, payload (length bytes), CRC-16
# (jarmo.checksum.crc16 of length .. payload, high byte first). Bytes that
# do not make a frame are noise: skipped and counted, never acted on.
#
# What goes over the line:
#   HELLO   every BEAT ms: the greeting (version, a boot nonce, the board's
#           identity, its clock) and the game this board has (rule set,
#           expansions, match length and number, its side, its count of
#           actions and a hash of its move list; DONE: it is over and both
#           hold it all). It is the keepalive too: nothing heard for LOST
#           ms of the other board's clock = link down (its clock in two
#           HELLOs against ours says its pace: an emulated board runs at a
#           tenth of a simulator's real time, or slower).
#   OFFER   a board whose player chose New game against the link proposes:
#           rule set, expansions, match length, its side in game 1, seed;
#           its nonce and identity break a tie between two offers.
#   ACCEPT  the other board takes that offer (both start the same game).
#   TURN    action codes from action number `start` on, with a hash of the
#           game's state after them: sent until acknowledged (every RETRY
#           ms); a board takes only what extends its own list, so a turn
#           received twice is applied once.
#   ACK     the receiver's count of actions and its state hash.
#   REFUSE  an illegal or out-of-turn TURN, with the reason: never applied.
#   PAST    a match's game 2 or later, to a board with no game: its
#           description and the results of the match's games before it (a
#           board whose save was lost takes the match up again with them).
#
# Resync needs no extra frames: each HELLO says how many actions the board
# has; a board that has more (and whose list starts with the other's, by the
# hash) sends the rest as TURN frames. So a pulled cable, a lost frame or a
# board that restarted from its save all heal the same way.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.checksum import crc16

VERSION = const(2)
SOF = const(0x7E)
_MAX = const(40)             # payload bytes a frame holds at most
_CODES = const(16)           # action codes a TURN frame holds at most
_BEAT = const(250)           # ms between HELLOs
_RETRY = const(80)           # ms before an unacknowledged TURN goes again
_LOST = const(1000)          # ms of the other board's clock without a frame: the link is down
_STALL = const(50)           # ms of the other board's clock a frame's start may wait for its
                             # rest (its bytes come back to back, 4 ms at most): longer, with
                             # the line read dry, it was noise
_PACE_MAX = const(1024)      # the slowest pace taken (16: the same as ours; 1024: 64 times slower)
_ID = const(8)               # bytes of a board's identity in its HELLO
_HELLO_LEN = const(16 + _ID)  # (then the sender's clock, 2 bytes)
_LISTEN = const(300)         # ms a board waits for an offer before it proposes

_HELLO = const(0x48)
_OFFER = const(0x4F)
_ACCEPT = const(0x41)
TURN = const(0x54)
_ACK = const(0x4B)
_REFUSE = const(0x52)
_PAST = const(0x50)

# status(): what the player is told
UP = const(0)               # linked, same game (or no game on either board)
NO_CABLE = const(1)         # never heard the other board
LOST_LINK = const(2)        # heard it, then nothing for LOST ms
OLD_VERSION = const(3)      # the other board speaks another version
OTHER_GAME = const(4)       # the other board has no game, or another one
DIFFERENT = const(5)        # the move lists differ: cannot go on together

# refusal reasons (REFUSE payload, the log)
WHY = ("illegal action", "out of turn", "state differs")
_ILLEGAL = const(0)
_OUT_OF_TURN = const(1)
_HASH = const(2)

_BUF = const(160)           # receive buffer: more than two whole frames

# HELLO flags (byte 3)
_HAS = const(1)             # the sender has a linked game (described after)
_BOTH_HOLD = const(2)      # that game is over and each board holds all of it


def state_hash(game):
    """CRC-16 of the game's position (Game.snapshot) and its count of actions."""
    return crc16(game.snapshot(), 0, -1, crc16(bytes((game.actions & 255,))))


def code_hash(codes, n, crc=0xFFFF):
    """CRC-16 of the first n action codes of a list, 2 bytes each."""
    two = bytearray(2)
    for i in range(n):
        c = codes[i]
        two[0] = c >> 8
        two[1] = c & 255
        crc = crc16(two, 0, 2, crc)
    return crc


def frame(buf, seq, kind, payload):
    """Write one frame into buf (a bytearray of at least len(payload) + 6);
    returns its length."""
    n = len(payload)
    buf[0] = SOF
    buf[1] = n
    buf[2] = seq & 255
    buf[3] = kind
    buf[4:4 + n] = payload
    c = crc16(buf, 1, 4 + n)
    buf[4 + n] = c >> 8
    buf[5 + n] = c & 255
    return n + 6


class Link:
    # One end of the link. The App binds the running game to it (bind) and
    # calls poll(now) every pass; the players module's Link player takes the
    # other board's actions from it (take).

    def __init__(self, transport, nonce=0, ident=b""):
        self.transport = transport
        self.nonce = nonce & 0xFFFF
        # the board's identity (microcontroller.cpu.uid; a stand-in on a PC):
        # two boards that drew the same nonce and make the same offer in the
        # same millisecond still differ in it, so one offer wins on both
        self.ident = bytes(ident[:_ID]) + bytes(_ID - len(ident[:_ID]))
        self.peer_ident = b""
        self.pace = 16          # our ms for 16 of the other board's (its clock in HELLOs)
        self._hello_t = None    # when its last HELLO came (our clock)
        self._peer_t = 0        # ... and its clock then (16 bits)
        self._now = 0           # the time of this poll (our HELLO carries it)
        self._rx = bytearray(_BUF)
        self._n = 0
        self._head_t = 0        # when rx's first byte became its first (a frame's start waits)
        self._chunk = bytearray(32)
        self._tx = bytearray(_MAX + 6)
        self._pay = bytearray(_MAX)
        self.seq = 0
        # counters (docs/LINK.md): frames sent, received, dropped; noise bytes; refusals
        self.sent = 0
        self.received = 0
        self.bad = 0
        self.noise = 0
        self.refused = 0
        self.log = []           # the latest refusals, in words (the other's and ours)
        self.heard = None       # ms of the last good frame, None: never
        self._beat = None       # ms of our last HELLO
        self.peer_nonce = -1
        self.peer_version = -1
        self.peer = None        # the other board's game: its description (bind)
        self.peer_done = False  # ... over, and it knows this board holds all of it
        self.peer_count = -1    # its count of actions (-1: unknown)
        self.peer_hash = 0
        self.diverged = False
        # the game bound here
        self.game = None
        self.desc = None        # bytes: rule set, expansions, games, number, our side, tag (2)
        self.inbox = []         # the other board's actions checked but not yet played
        self.inbox_at = 0       # the action number of inbox[0]
        self._inbox_hash = 0    # the state hash once the inbox is played
        self._hashed = -1       # the count _list_hash is for
        self._list_hash = 0
        self._turn_at = None    # ms our last TURN went out
        self._turn_seq = -1
        self._turn_t0 = None
        self._checked = None    # (count, hash) of the peer's last HELLO found a prefix of ours
        self.kept = False       # the game is over here and kept only until the other board has it
        self.past = b""         # the bound match game's earlier results (4 bytes a game; the App)
        self.peer_past = b""    # the other board's PAST: its description (7), then its results
        # offers
        self.offer = None       # our offer (bytes), while our player waits
        self.offer_t = 0        # when our player began to wait
        self.peer_offer = None  # the other board's offer (bytes) and when it was last heard
        self.peer_offer_t = 0
        self.accepted = None    # an offer both took: the App starts its game (then None)
        self.accepted_ours = False
        self.latency = -1       # ms from our last TURN to its ACK (the first try's)

    # ------------------------------------------------------------ the game

    def bind(self, game, desc):
        """The game the link plays now (a Game, or None) and its description:
        bytes of rule set index, expansion bits, games in the match (0 one
        game), the game's number in the match, this board's side (0 South),
        and the game's tag (2 bytes, from the offer: two games with the same
        settings are told apart by it)."""
        if game is not self.game:
            self.inbox = []
            self._hashed = -1
            self._checked = None
            self._turn_at = None
            self.diverged = False
            self.kept = False
            self.past = b""
        self.game = game
        self.desc = desc
        self._beat = None       # say so at once

    def count(self):
        """Actions this board has: played, and checked in the inbox."""
        g = self.game
        n = g.actions
        end = self.inbox_at + len(self.inbox)
        return end if self.inbox and end > n else n

    def take(self):
        """The other board's actions not yet played (a new list), or None."""
        g = self.game
        if g is None or not self.inbox:
            return None
        k = g.actions - self.inbox_at
        if k >= len(self.inbox) or k < 0:
            return None
        return self.inbox[k:]

    def same(self):
        """True when the other board has this board's game (other side)."""
        d = self.desc
        p = self.peer
        if d is None or p is None:
            return False
        for i in (0, 1, 2, 3, 5, 6):
            if d[i] != p[i]:
                return False
        return p[4] == 1 - d[4]

    def later(self, ahead=True):
        """True when the other board is at a later game of this board's match
        (it can be there only once it held all of this one); ahead=False:
        at the game before this board's (this board went on once it had all
        of that one; the other board's player still reads its result)."""
        d = self.desc
        p = self.peer
        if d is None or p is None or not d[2] or not (
                p[3] > d[3] if ahead else p[3] == d[3] - 1 and p[4] == d[4]):
            return False
        return (p[0] == d[0] and p[1] == d[1] and p[2] == d[2] and p[5] == d[5]
                and p[6] == d[6])

    def _silent(self, now):
        # nothing heard for LOST ms of the other board's clock (longer here
        # when it runs slower than this one: an emulated board), at least LOST
        return _diff(now, self.heard) >= self.lost_ms()

    def lost_ms(self):
        """Our ms of silence that are LOST ms of the other board's clock."""
        return max(_LOST, (_LOST * self.pace) >> 4)

    def up(self, now):
        return self.heard is not None and not self._silent(now) and self.peer_version == VERSION

    def status(self, now):
        """UP, NO_CABLE, LOST_LINK, OLD_VERSION, OTHER_GAME or DIFFERENT."""
        if self.heard is None:
            return NO_CABLE
        if self._silent(now):
            return LOST_LINK
        if self.peer_version != VERSION:
            return OLD_VERSION
        if self.diverged:
            return DIFFERENT
        if self.game is not None and not self.same() and not self.later() and not self.later(False):
            return OTHER_GAME
        return UP

    def synced(self):
        """True when the other board has every action of ours (or is at a
        later game of the match)."""
        g = self.game
        return g is None or self.peer_count >= g.actions and self.same() or self.later()

    def delivered(self):
        """True when the other board holds all of this finished game and
        has saved it (its HELLO says DONE: it played the last action, which
        an ACK does not say), or is at a later game of the match."""
        return self.peer_done and self.same() or self.later()

    def offers_game(self):
        """The other board's linked game (its description, as seen from
        there) if it is one this board should take: it goes on, or it is
        over and the other board does not know that this board holds it.
        None while this board plays a game of its own, or keeps that one."""
        p = self.peer
        if p is None or self.peer_done or self.game is not None and (not self.kept or self.same()):
            return None
        return p

    # ------------------------------------------------------------ offers

    def propose(self, payload, now):
        """Our player waits for a game: rule set, expansions, games, our side
        in game 1, seed (2 bytes). The other board's own offer, if it came
        while we listened first, is taken instead (App: link.accepted)."""
        self.offer = bytes(payload[:6])
        self.offer_t = None     # the wait starts at the next poll (now may be stale)
        self._beat = None

    def withdraw(self):
        self.offer = None

    def accept(self, now):
        """Take the other board's offer (it must be there): _ACCEPT, and the
        offer becomes link.accepted."""
        o = self.peer_offer
        self._send(_ACCEPT, o, len(o))
        self._send(_ACCEPT, o, len(o))     # twice: one may be lost (HELLO covers both)
        self.accepted = o
        self.accepted_ours = False
        self.peer_offer = None
        self.offer = None

    def offered(self, now):
        """The other board's offer, if it is still being made, else None."""
        if self.peer_offer is not None and _diff(now, self.peer_offer_t) >= self.lost_ms():
            self.peer_offer = None
        return self.peer_offer

    # ------------------------------------------------------------ a pass

    def poll(self, now):
        """Read what came, answer it; send a _HELLO, an offer, a turn when due."""
        if self.offer is not None and self.offer_t is None:
            self.offer_t = now
        self._now = now
        t = self.transport
        chunk = self._chunk
        rx = self._rx
        for _ in range(4):
            k = t.readinto(chunk)
            if not k:
                if self._n and _diff(now, self._head_t) >= (_STALL * max(16, self.pace)) >> 4:
                    self._skip_head(now)
                break
            n = self._n
            if not n:
                self._head_t = now
            if n + k > _BUF:
                # no room: the oldest bytes go (a frame cannot be this long)
                self.noise += n + k - _BUF
                self._drop(n + k - _BUF, now)
                n = self._n
            rx[n:n + k] = chunk[:k] if k < 32 else chunk
            self._n = n + k
            self._parse(now)
        g = self.game
        if g is not None and self.inbox and g.actions >= self.inbox_at + len(self.inbox):
            self.inbox = []     # all played
        if self._beat is None or _diff(now, self._beat) >= _BEAT:
            self._beat = now
            self._hello()
            if self.offer is not None and _diff(now, self.offer_t) >= _LISTEN:
                self._send_offer(now)
            if self.past and self.peer is None and g is not None and self.up(now):
                self._send_past()       # the other board has no game: it may have lost this match
        if g is not None and self.up(now) and self.same() and not self.diverged:
            self._send_turn(now)

    def send_turn(self, now):
        """Send this board's new actions now, if the other board lacks them
        (poll does it too; the App calls this right after a turn, so it goes
        out in the same pass)."""
        g = self.game
        if (g is not None and self._turn_at is None and self.peer_count < g.actions
                and self.up(now) and self.same() and not self.diverged):
            self._send_turn(now)

    # ------------------------------------------------------------ receiving

    def _parse(self, now):
        rx = self._rx
        n = self._n
        i = 0
        while i < n:
            if rx[i] != SOF:
                self.noise += 1
                i += 1
                continue
            if n - i < 4:
                break
            ln = rx[i + 1]
            if ln > _MAX:
                self.bad += 1
                i += 1
                continue
            end = i + ln + 6
            if end > n:
                break
            c = crc16(rx, i + 1, i + 4 + ln)
            if rx[end - 2] != c >> 8 or rx[end - 1] != c & 255:
                self.bad += 1
                i += 1
                continue
            self.received += 1
            self._frame(rx[i + 2], rx[i + 3], i + 4, ln, now)
            i = end
        if i:
            self._drop(i, now)

    def _drop(self, k, now):
        # rx's first k bytes go; the byte now first waits from now
        rx = self._rx
        n = self._n - k
        for j in range(n):
            rx[j] = rx[j + k]
        self._n = n
        self._head_t = now

    def _skip_head(self, now):
        # A frame's start that waited _STALL ms for bytes that never came: a
        # noise byte equal to SOF, whose length byte would hold back every
        # frame after it until that many bytes came. It goes; what follows
        # is parsed again.
        self.bad += 1
        self._drop(1, now)
        self._parse(now)

    def _frame(self, seq, kind, at, ln, now):
        rx = self._rx
        if kind == _HELLO:
            if ln < _HELLO_LEN:
                self.peer_version = rx[at] if ln else -1
                self.heard = now
                return
            self.peer_version = rx[at]
            if self.peer_version != VERSION:
                self.heard = now
                return
            nonce = rx[at + 1] << 8 | rx[at + 2]
            again = nonce == self.peer_nonce
            if not again:
                self.peer_nonce = nonce     # the other board (re)started: tell it ours
                self._beat = None
            if ln >= _HELLO_LEN + 2:
                # the other board's clock against ours between two of its
                # HELLOs: its pace (a pulled cable stretches both alike)
                theirs = rx[at + _HELLO_LEN] << 8 | rx[at + _HELLO_LEN + 1]
                if again and self._hello_t is not None:
                    d = (theirs - self._peer_t) & 0xFFFF
                    ours = _diff(now, self._hello_t)
                    # (a HELLO sent at once after another, say on a restart,
                    # is too close to it for its pace: passes' jitter)
                    if 100 <= d < 30000 and 0 <= ours < 60000:
                        d = (ours << 4) // d
                        self.pace = (3 * self.pace + (d if d < _PACE_MAX else _PACE_MAX)) >> 2
                self._peer_t = theirs
            self._hello_t = now
            self.heard = now
            self.peer_ident = bytes(rx[at + 16:at + 16 + _ID])
            flags = rx[at + 3]
            if flags & _HAS:
                p = self.peer
                if p is None or p != rx[at + 4:at + 11]:
                    self.peer = bytes(rx[at + 4:at + 11])
                    self._checked = None
            else:
                self.peer = None
            self.peer_done = bool(flags & _BOTH_HOLD)
            self.peer_count = rx[at + 11] << 8 | rx[at + 12]
            self.peer_hash = rx[at + 13] << 8 | rx[at + 14]
            self._check_prefix()
            if self.offer is not None and self.peer is not None and self.peer_count == 0:
                # our ACCEPT's answer may be lost: the other board started our offer
                o = self.offer
                p = self.peer
                if (p[0] == o[0] and p[1] == o[1] and p[2] == o[2] and p[3] <= 1
                        and p[4] == 1 - o[3] and p[5] == o[4] and p[6] == o[5]):
                    self._accepted_ours()
            return
        if self.peer_version != VERSION:
            return
        self.heard = now
        if kind == _OFFER:
            if ln < 16:
                return
            o = bytes(rx[at:at + 6])
            # the proposer's nonce and identity come with its offer (a HELLO
            # that told them may have been lost)
            self.peer_nonce = rx[at + 6] << 8 | rx[at + 7]
            self.peer_ident = bytes(rx[at + 8:at + 16])
            if self.offer is not None:
                # both wait: the board that proposed first keeps its offer;
                # if both did at once, the bigger nonce, then the bigger
                # identity (equal only for one board talking to itself)
                if _diff(now, self.offer_t) >= _LISTEN and (
                        self.nonce > self.peer_nonce if self.nonce != self.peer_nonce
                        else self.ident > self.peer_ident):
                    return
            self.peer_offer = o
            self.peer_offer_t = now
            if self.offer is not None:
                self.accept(now)
        elif kind == _ACCEPT:
            if ln >= 6 and self.offer is not None and bytes(rx[at:at + 6]) == self.offer:
                self._accepted_ours()
        elif kind == TURN:
            self._turn(seq, at, ln)
        elif kind == _ACK:
            if ln >= 5:
                self._ack(rx[at], rx[at + 1] << 8 | rx[at + 2], rx[at + 3] << 8 | rx[at + 4], now)
        elif kind == _PAST:
            if 7 <= ln <= _MAX and not (ln - 7) & 3:
                self.peer_past = bytes(rx[at:at + ln])
        elif kind == _REFUSE:
            # about our outstanding TURN only (not a frame someone else sent)
            if ln >= 2 and rx[at] == self._turn_seq and self._turn_at is not None:
                self.refused += 1
                self._note("the other board refused our turn: " + WHY[rx[at + 1] % len(WHY)])
                self.diverged = True

    def _accepted_ours(self):
        self.accepted = self.offer
        self.accepted_ours = True
        self.offer = None

    def _turn(self, seq, at, ln):
        rx = self._rx
        g = self.game
        if ln < 5 or (ln - 5) & 1:
            return
        if g is None or not self.same():
            return              # not this game (yet): the HELLOs say which each board has
        start = rx[at] << 8 | rx[at + 1]
        flags = rx[at + 2]
        want = rx[at + 3] << 8 | rx[at + 4]
        k = (ln - 5) >> 1
        have = self.count()
        if start > have:
            return              # a gap: our HELLO tells the count, the rest comes again
        if start + k <= have:
            self._send_ack(seq)     # had it already: applied once
            return
        # new actions: check them on the game (played, then taken back)
        skip = have - start
        played = 0
        why = -1
        # this board's own actions come back only from a board that holds
        # more of the game than this one (this board lost them: a power cut
        # tore its save); else a turn of our side is out of turn
        mine = -1 if self.peer_count >= start + k else self.desc[4]
        pending = self.inbox[g.actions - self.inbox_at:] if self.inbox else ()
        for i in range(len(pending) + k - skip):
            if i < len(pending):
                code = pending[i]
            else:
                j = at + 5 + 2 * (skip + i - len(pending))
                code = rx[j] << 8 | rx[j + 1]
            if g.result() is not None or mine >= 0 and (g.turn == "north") == (mine == 1):
                why = _OUT_OF_TURN
                break
            try:
                g.play_code(code)
            except ValueError:
                why = _ILLEGAL
                break
            played += 1
        h = state_hash(g) if why < 0 else 0
        if why < 0 and flags & 1 and h != want:
            why = _HASH
        for _ in range(played):
            g.undo()
        if why >= 0:
            self._refuse(seq, why)
            return
        if not self.inbox or self.inbox_at + len(self.inbox) <= g.actions:
            self.inbox = []
            self.inbox_at = g.actions
        for i in range(skip, k):
            j = at + 5 + 2 * i
            self.inbox.append(rx[j] << 8 | rx[j + 1])
        self._inbox_hash = h        # the state once the inbox is played
        self._send_ack(seq)

    def _refuse(self, seq, why):
        self.refused += 1
        self._note("refused a turn of the other board: " + WHY[why])
        p = self._pay
        p[0] = seq
        p[1] = why
        self._send(_REFUSE, p, 2)

    def _note(self, text):
        self.log.append(text)
        if len(self.log) > 4:
            self.log.pop(0)

    def _ack(self, seq, count, h, now):
        g = self.game
        if g is None:
            return
        if count > self.peer_count:
            self.peer_count = count
        if seq == self._turn_seq and self._turn_t0 is not None:
            self.latency = _diff(now, self._turn_t0)
            self._turn_t0 = None
        if count >= g.actions:
            self._turn_at = None
            if count == g.actions and h != state_hash(g):
                self.diverged = True
                self._note("the other board's position differs")
        else:
            self._turn_at = None    # more to send: at once
            self._send_turn(now)

    def _check_prefix(self):
        # the other board's list must start as ours (or ours as its): else the
        # games went apart and neither may go on
        g = self.game
        if g is None or not self.same() or self.peer_count < 0:
            return
        key = (self.peer_count, self.peer_hash)
        if key == self._checked:
            return
        n = self.count()
        if self.peer_count <= n:
            codes = g.history_codes(0) + (self.take() or [])
            if code_hash(codes, self.peer_count) != self.peer_hash:
                self.diverged = True
                self._note("the move lists differ")
                return
        self._checked = key
        self.diverged = False

    # ------------------------------------------------------------ sending

    def _send(self, kind, payload, n):
        self.seq = (self.seq + 1) & 255
        mv = memoryview(self._tx)
        size = frame(self._tx, self.seq, kind, memoryview(payload)[:n])
        self.transport.write(mv[:size])
        self.sent += 1
        return self.seq

    def _send_ack(self, seq):
        g = self.game
        p = self._pay
        c = self.count()
        h = state_hash(g) if c == g.actions else self._inbox_hash
        p[0] = seq
        p[1] = c >> 8
        p[2] = c & 255
        p[3] = h >> 8
        p[4] = h & 255
        self._send(_ACK, p, 5)

    def _hello(self):
        p = self._pay
        g = self.game
        p[0] = VERSION
        p[1] = self.nonce >> 8
        p[2] = self.nonce & 255
        p[16:16 + _ID] = self.ident
        p[_HELLO_LEN] = self._now >> 8 & 255
        p[_HELLO_LEN + 1] = self._now & 255
        if g is None:
            for i in range(3, 16):
                p[i] = 0
        else:
            # DONE: over, and the other board holds all of it
            p[3] = _HAS | (_BOTH_HOLD if g.result() is not None and self.synced() else 0)
            p[4:11] = self.desc
            c = self.count()
            h0 = self._hashed
            if c != h0:
                if 0 <= h0 < c:
                    # only the actions since the last HELLO (a long game: less work)
                    if h0 >= g.actions:
                        new = self.inbox[h0 - self.inbox_at:]
                    else:
                        new = g.history_codes(h0) + (self.take() or [])
                    self._list_hash = code_hash(new, c - h0, self._list_hash)
                else:
                    self._list_hash = code_hash(g.history_codes(0) + (self.take() or []), c)
                self._hashed = c
            p[11] = c >> 8
            p[12] = c & 255
            p[13] = self._list_hash >> 8
            p[14] = self._list_hash & 255
            p[15] = 0
        self._send(_HELLO, p, _HELLO_LEN + 2)

    def _send_offer(self, now):
        p = self._pay
        p[0:6] = self.offer
        p[6] = self.nonce >> 8
        p[7] = self.nonce & 255
        p[8:16] = self.ident
        self._send(_OFFER, p, 16)

    def _send_past(self):
        p = self._pay
        p[0:7] = self.desc
        n = len(self.past)
        p[7:7 + n] = self.past
        self._send(_PAST, p, 7 + n)

    def _send_turn(self, now):
        g = self.game
        n = g.actions
        start = self.peer_count
        if start < 0 or start >= n or self.count() != n:
            return
        if self._turn_at is not None and _diff(now, self._turn_at) < _RETRY:
            return
        k = n - start
        if k > _CODES:
            k = _CODES
        codes = g.history_codes(start)
        p = self._pay
        p[0] = start >> 8
        p[1] = start & 255
        last = start + k == n
        h = state_hash(g) if last else 0
        p[2] = 1 if last else 0
        p[3] = h >> 8
        p[4] = h & 255
        for i in range(k):
            p[5 + 2 * i] = codes[i] >> 8
            p[6 + 2 * i] = codes[i] & 255
        if self._turn_at is None:
            self._turn_t0 = now     # the first try (latency)
        self._turn_at = now
        self._turn_seq = self._send(TURN, p, 5 + 2 * k)


def _diff(a, b):
    # ms from b to a on a clock that wraps at 2**29 (adafruit_ticks)
    d = (a - b) & 0x1FFFFFFF
    return d - 0x20000000 if d & 0x10000000 else d
