"""The link protocol (jarmo/link.py): two boards, one game, over a byte line.

Plain functions and asserts: they run under MicroPython too. The wire is
tests/core/linkwire.py: two ends that can be cut, drop frames, take noise.
"""

from jarmo.checksum import crc16
from jarmo.game import Game
from jarmo.link import (
    DIFFERENT,
    LOST_LINK,
    NO_CABLE,
    OTHER_GAME,
    SOF,
    TURN,
    UP,
    Link,
    frame,
    state_hash,
)
from tests.core.linkwire import Board, Pair, whole_turn, wire


def _turn_frame(start, codes, seq=1, h=None):
    """The bytes of a TURN frame (as the other board would send it)."""
    p = bytearray(5 + 2 * len(codes))
    p[0] = start >> 8
    p[1] = start & 255
    if h is not None:
        p[2] = 1
        p[3] = h >> 8
        p[4] = h & 255
    for i in range(len(codes)):
        p[5 + 2 * i] = codes[i] >> 8
        p[6 + 2 * i] = codes[i] & 255
    buf = bytearray(len(p) + 6)
    n = frame(buf, seq, TURN, p)
    return bytes(buf[:n])


def test_a_frame_is_start_length_sequence_type_payload_and_crc():
    buf = bytearray(20)
    n = frame(buf, 7, TURN, b"\x01\x02\x03")
    assert n == 9
    assert buf[0] == SOF and buf[1] == 3 and buf[2] == 7 and buf[3] == TURN
    assert bytes(buf[4:7]) == b"\x01\x02\x03"
    c = crc16(buf, 1, 7)
    assert buf[7] == c >> 8 and buf[8] == c & 255


def test_two_linked_boards_greet_and_say_up():
    p = Pair()
    assert p.a.link.status(0) == NO_CABLE
    p.run(300)
    assert p.a.link.status(p.now) == UP
    assert p.b.link.status(p.now) == UP
    assert p.a.link.same() and p.b.link.same()


def test_a_turn_reaches_the_other_board_and_is_acknowledged():
    p = Pair()
    p.run(300)
    codes = p.play_turn()           # South (board a) moves
    p.run(30)
    assert p.same()
    assert p.b.game.history_codes(0) == codes
    assert p.a.link.synced() and p.a.link.latency >= 0
    p.play_turn()                   # North answers on board b
    p.run(30)
    assert p.same() and p.b.link.synced()


def test_a_whole_game_stays_the_same_on_both_boards():
    p = Pair("classic")
    p.run(300)
    for _ in range(300):
        if p.a.game.result() is not None:
            break
        p.play_turn()
        p.run(20)
        assert p.same()
    assert p.a.game.result() is not None
    assert p.b.game.result() == p.a.game.result()
    assert p.a.game.snapshot() == p.b.game.snapshot()


def test_a_lost_turn_is_sent_again_until_acknowledged():
    p = Pair()
    p.run(300)
    p.a.end.drop = 3                # the next three frames from a are lost
    p.play_turn()
    p.run(20)
    assert not p.same()
    p.run(400)
    assert p.same() and p.a.link.synced()


def test_a_turn_received_twice_is_applied_once():
    p = Pair()
    p.run(300)
    codes = p.play_turn()
    raw = _turn_frame(0, codes, 9, state_hash(p.a.game))
    p.b.end.inq.extend(raw)
    p.b.end.inq.extend(raw)
    p.run(20)
    p.b.end.inq.extend(raw)         # and once more, late
    p.run(20)
    assert p.b.game.history_codes(0) == codes
    assert p.b.link.refused == 0


def test_noise_on_the_line_is_skipped_and_counted():
    p = Pair()
    p.run(300)
    noise = bytes((SOF, 3, 0, 0x54, 1, 2, 3, 4, 5, 0xFF, SOF, SOF, 0x00, 0x13)) * 3
    p.b.end.inq.extend(noise)
    codes = p.play_turn()
    p.a.end.other.inq.extend(noise)
    p.run(300)
    assert p.same() and p.b.game.history_codes(0) == codes
    assert p.b.link.noise + p.b.link.bad > 0
    assert p.b.link.refused == 0


def test_a_noise_byte_like_a_long_frames_start_holds_back_the_frames_after_it_only_briefly():
    # SOF and a length of 40: 46 bytes that never come. The frame after it
    # is read once the start has waited 50 ms with the line read dry (its
    # bytes would have come back to back), not when 46 more bytes came.
    p = Pair()
    p.run(300)
    p.a.end.drop = 1000             # a's own frames are lost: b gets only these bytes
    codes = p.play_turn()
    raw = _turn_frame(0, codes, 9, state_hash(p.a.game))
    p.b.end.inq.extend(bytes((SOF, 40, 0x13)) + raw)
    p.run(30)
    assert p.b.game.history_codes(0) == []
    p.run(60)
    assert p.b.game.history_codes(0) == codes
    assert p.b.link.bad >= 1 and p.b.link.refused == 0


def test_random_bytes_between_frames_never_change_the_game():
    import random
    random.seed(5)
    p = Pair()
    p.run(300)
    for _ in range(12):
        p.play_turn()
        for _ in range(5):
            p.a.end.other.inq.extend(bytes(random.getrandbits(8) for _ in range(7)))
            p.b.end.other.inq.extend(bytes(random.getrandbits(8) for _ in range(7)))
            p.run(20)
        p.run(300)
        assert p.same()
    assert p.a.link.refused == 0 and p.b.link.refused == 0


def test_a_turn_out_of_turn_is_refused_and_logged_never_applied():
    p = Pair()
    p.run(300)
    # it is South's turn (board a), yet "board a" gets a turn from North
    g = Game("standard")
    g.play_code(g.legal_codes()[0])      # a South move, as if North's board sent it
    p.a.end.inq.extend(_turn_frame(0, g.history_codes(0)))
    p.run(20)
    assert p.a.game.actions == 0 and p.a.link.take() is None
    assert p.a.link.refused == 1
    assert "out of turn" in p.a.link.log[-1]
    # the other board sent no such turn: the refusal is not about its turns
    assert p.b.link.refused == 0 and p.b.link.status(p.now) == UP
    p.play_turn()
    p.run(30)
    assert p.same()


def test_an_illegal_turn_is_refused_and_logged_never_applied():
    p = Pair()
    p.run(300)
    p.play_turn()
    p.run(30)
    # North's board "sends" a move from a1 (no North piece there)
    bad = 0 | (0 << 3) | (10 << 8)
    p.a.end.inq.extend(_turn_frame(p.a.game.actions, [bad]))
    before = p.a.game.snapshot()
    p.run(20)
    assert p.a.game.snapshot() == before and p.a.link.take() is None
    assert p.a.link.refused == 1 and "illegal" in p.a.link.log[-1]


def test_a_turn_whose_state_hash_differs_is_refused():
    p = Pair()
    p.run(300)
    p.play_turn()
    p.run(30)
    g = Game("standard")
    for c in p.a.game.history_codes(0):
        g.play_code(c)
    codes = whole_turn(g)
    p.a.end.inq.extend(_turn_frame(p.a.game.actions, codes, 5, state_hash(g) ^ 1))
    p.run(20)
    assert p.a.link.refused == 1 and "state" in p.a.link.log[-1]
    assert p.a.link.take() is None


def test_a_pulled_cable_says_lost_then_the_game_goes_on_when_it_is_back():
    p = Pair()
    p.run(300)
    p.a.end.cut = p.b.end.cut = True
    codes = p.play_turn()               # played on a while the cable is out
    p.run(1500)
    assert p.a.link.status(p.now) == LOST_LINK and p.b.link.status(p.now) == LOST_LINK
    assert p.b.game.actions == 0
    p.a.end.cut = p.b.end.cut = False
    p.run(400)
    assert p.a.link.status(p.now) == UP
    assert p.b.game.history_codes(0) == codes and p.same()


def test_a_board_that_restarts_from_an_older_save_is_brought_up_to_date():
    p = Pair()
    p.run(300)
    p.play_turn()
    p.run(30)
    p.play_turn()
    p.run(30)
    p.play_turn()
    p.run(30)
    full = p.a.game.history_codes(0)
    # board b loses power after it acknowledged South's second turn, before
    # it played and saved it: its save holds the first two turns. (Its own
    # turns are always in its save: a board sends a turn after saving it.)
    saved = Game("standard")
    for c in full[:2]:
        saved.play_code(c)
    p.b.game = saved
    p.b.link = Link(p.b.end, 99)
    p.b.link.bind(saved, bytes((1, 0, 0, 0, 1, 0, 9)))
    p.run(500)
    assert p.b.game.history_codes(0) == full and p.same()


def test_the_board_ahead_never_takes_a_turn_twice_after_a_restart():
    p = Pair()
    p.run(300)
    p.play_turn()
    p.run(30)
    before = p.a.game.history_codes(0)
    # board a restarts from its save (with every action): the same list again
    g = Game("standard")
    for c in before:
        g.play_code(c)
    p.a.game = g
    p.a.link = Link(p.a.end, 77)
    p.a.link.bind(g, bytes((1, 0, 0, 0, 0, 0, 9)))
    p.run(500)
    assert p.a.game.history_codes(0) == before == p.b.game.history_codes(0)


def test_move_lists_that_went_apart_are_named_not_merged():
    p = Pair()
    p.run(300)
    # board b's game holds another South move than board a's
    g = Game("standard")
    legal = g.legal_codes()
    p.a.game.play_code(legal[0])
    p.b.game.play_code(legal[1])
    p.a.game.play_code(p.a.game.legal_codes()[0])
    p.run(500)
    assert DIFFERENT in (p.a.link.status(p.now), p.b.link.status(p.now))
    assert p.b.game.actions == 1


def test_another_game_on_the_other_board_is_said():
    ea, eb = wire()
    a = Board(ea, 0)
    b = Board(eb, 0)        # both think they are South
    for now in range(10, 400, 10):
        a.step(now)
        b.step(now)
    assert a.link.status(400) == OTHER_GAME


def test_the_board_that_waits_first_proposes_and_the_other_accepts():
    ea, eb = wire()
    a = Link(ea, 5)
    b = Link(eb, 6)
    offer = bytes((1, 1, 0, 1, 0x12, 0x34))     # standard + heroes, one game, proposer North
    a.propose(offer, 0)
    now = 0
    while now < 1000 and b.offered(now) is None:
        now += 10
        a.poll(now)
        b.poll(now)
    assert b.offered(now) == offer
    b.accept(now)
    assert b.accepted == offer and not b.accepted_ours
    for _ in range(5):
        now += 10
        a.poll(now)
        b.poll(now)
    assert a.accepted == offer and a.accepted_ours


def test_two_boards_that_propose_at_once_agree_on_one_offer():
    ea, eb = wire()
    a = Link(ea, 5)
    b = Link(eb, 6)
    a.propose(bytes((1, 0, 0, 0, 0, 1)), 0)
    b.propose(bytes((2, 0, 0, 0, 0, 2)), 0)
    now = 0
    while now < 2000 and (a.accepted is None or b.accepted is None):
        now += 10
        a.poll(now)
        b.poll(now)
    assert a.accepted == b.accepted
    assert a.accepted_ours != b.accepted_ours


def test_the_move_list_hash_of_a_hello_is_the_hash_of_the_whole_list():
    from jarmo.link import code_hash
    p = Pair()
    p.run(300)
    for _ in range(6):
        p.play_turn()
        p.run(300)
        for board in (p.a, p.b):
            codes = board.game.history_codes(0)
            assert board.link._list_hash == code_hash(codes, len(codes))


def test_boards_whose_games_went_apart_say_so_whichever_notices_first():
    p = Pair()
    p.run(300)
    # board b's game takes another South move than a's: b refuses a's turn
    g = p.b.game
    p.a.game.play_code(g.legal_codes()[0])
    g.play_code(g.legal_codes()[1])
    p.b.link.inbox = []
    p.run(200)
    assert p.a.link.status(p.now) == DIFFERENT or p.b.link.status(p.now) == DIFFERENT


def test_two_boards_with_the_same_nonce_and_the_same_offer_in_the_same_millisecond_agree():
    # equal seeds: equal nonces and equal offers, each sent before the other
    # is heard; the boards' identities (cpu.uid) break the tie
    ea, eb = wire(late=True)
    a = Link(ea, 7, b"\x01board-a")
    b = Link(eb, 7, b"\x01board-b")
    offer = bytes((0, 0, 0, 1, 0x55, 0x66))        # classic, one game, proposer North
    a.propose(offer, 0)
    b.propose(offer, 0)
    now = 0
    while now < 3000 and (a.accepted is None or b.accepted is None):
        now += 10
        ea.arrive()
        eb.arrive()
        a.poll(now)
        b.poll(now)
    assert a.accepted == b.accepted == offer
    assert a.accepted_ours != b.accepted_ours      # one proposer: one North, one South
    assert b.accepted_ours                          # the greater identity's offer


def test_a_board_that_runs_slower_is_not_taken_for_a_pulled_cable():
    # an emulated board at 0.1x real time, or 0.025x on a busy machine: its
    # HELLOs come 2.5 or 10 s apart here; a pulled cable is still said after
    # LOST ms of its clock
    for slower in (10, 40):
        ea, eb = wire()
        fast = Link(ea, 1)
        slow = Link(eb, 2)
        now = 0
        worst = 0
        for _ in range(4000 * slower // 10):
            now += 10
            fast.poll(now)
            if now % (10 * slower) == 0:
                slow.poll(now // slower)
            if now > 6000 * slower // 10:
                worst = max(worst, fast.status(now))
        assert worst == 0 and fast.up(now), slower
        assert abs(fast.lost_ms() - 1000 * slower) <= 150 * slower and slow.lost_ms() == 1000  # the pace
        ea.cut = eb.cut = True      # then the cable is pulled
        t = now
        while fast.up(now):
            now += 10
            fast.poll(now)
            if now % (10 * slower) == 0:
                slow.poll(now // slower)
        assert now - t <= 1000 * slower + 300 * slower, slower
