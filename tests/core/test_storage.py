"""The store: an append-only log of records in a 4 KB flash sector (of one or two).

Plain functions and asserts: they run under MicroPython too. The flash is
jarmo.store_flash.Flash, which behaves as CircuitPython's nvm on an RP2040
(programs into erased bytes, an erase for anything else); CutFlash cuts the
power in the middle of any program or erase.
"""

from jarmo.store_flash import Flash
from jarmo.store_log import (
    R_CAMPAIGN,
    R_IMPORTED,
    R_SETTINGS,
    R_STATS,
    RESERVE,
    Store,
    parse_at,
    record,
)
from tests.app.cutflash import CutFlash, PowerCut


def _steps(store):
    """The main loop's passes while the store compacts: half a compaction each."""
    while store.busy:
        store.step()


def _codes(n, first=0):
    # action codes (13 bits) that are easy to tell apart
    return [(first + i) % 8000 for i in range(n)]


def test_a_record_reads_back_after_a_power_cycle_and_the_newest_wins():
    flash = Flash()
    store = Store(flash)
    store.write(R_SETTINGS, b"\x01\x02")
    store.write(R_STATS, b"stats")
    store.write(R_SETTINGS, b"\x03")
    again = Store(flash)
    assert again.read(R_SETTINGS) == b"\x03"
    assert again.read(R_STATS) == b"stats"
    assert again.read(R_CAMPAIGN) is None
    assert again.problems == []


def test_an_empty_record_means_none():
    store = Store(Flash())
    store.write(R_STATS, b"x")
    store.write(R_STATS, b"")
    assert store.read(R_STATS) is None
    assert Store(store.nvm).read(R_STATS) is None


def test_appending_programs_a_few_bytes_and_never_erases():
    flash = Flash()
    store = Store(flash)
    store.start_game(b"\x01")
    for i in range(40):
        store.add_turn(_codes(2, i))
    assert flash.erases == 0
    assert flash.programs <= 41 * 2          # a record spans at most two pages
    assert store.end == len(record(0x4A, 0, b"JARMO\x01")) + 8 + 40 * 11


def test_the_game_is_its_start_and_every_turn_after_it():
    store = Store(Flash())
    first = store.start_game(b"one")
    store.add_turn([1, 2])
    store.write(R_SETTINGS, b"\x00")          # other records do not break the chain
    store.add_turn([3])
    assert store.game() == (first, b"one", [1, 2, 3])
    second = store.start_game(b"two")
    assert second != first
    store.add_turn([7])
    assert Store(store.nvm).game() == (second, b"two", [7])
    store.end_game()
    assert store.game() is None
    assert Store(store.nvm).game() is None


def test_a_blank_sector_is_an_empty_store():
    store = Store(Flash())
    assert store.problems == [] and store.game() is None and store.read(R_SETTINGS) is None
    assert store.free == 4096


def test_another_programs_data_is_reported_and_replaced_at_the_first_save():
    flash = Flash(data=b"hello from another program" + b"\xff" * 4070)
    store = Store(flash)
    assert store.problems == ["saves: unreadable, started afresh"]
    assert store.read(R_SETTINGS) is None and store.game() is None
    store.write(R_SETTINGS, b"\x05")
    assert store.busy and flash.erases == 0  # the erase waits for a pass of its own
    assert store.read(R_SETTINGS) == b"\x05"
    _steps(store)
    assert flash.erases == 1 and not store.busy
    again = Store(flash)
    assert again.problems == [] and again.read(R_SETTINGS) == b"\x05"


def test_a_record_torn_by_a_power_cut_is_skipped_without_a_word():
    # a cut at every page program of one append: the old value or the new,
    # never a report, and the log goes on after the torn bytes
    for cut in range(3):
        flash = CutFlash(seed=cut + 1)
        store = Store(flash)
        store.write(R_SETTINGS, b"old")
        flash.cut_after(cut)
        try:
            store.write(R_SETTINGS, b"n" * 250)      # spans two pages
        except PowerCut:
            pass
        flash.reboot()
        after = Store(flash)
        assert after.problems == [], after.problems
        assert after.read(R_SETTINGS) in (b"old", b"n" * 250)
        after.write(R_STATS, b"next")
        again = Store(flash)
        assert again.problems == [] and again.read(R_STATS) == b"next"
        assert again.read(R_SETTINGS) in (b"old", b"n" * 250)
        assert flash.erases == 0


def test_damage_that_no_power_cut_explains_is_reported_by_name():
    flash = Flash()
    store = Store(flash)
    store.write(R_STATS, b"counts")
    at = store.end
    store.write(R_SETTINGS, b"\x01\x02\x03")
    store.write(R_CAMPAIGN, b"\x01")
    flash.data[at + 6] ^= 0x10                      # a bit flips in the settings record
    again = Store(flash)
    assert again.problems == ["settings: damaged"]
    assert again.read(R_SETTINGS) is None           # the damaged record is not used
    assert again.read(R_STATS) == b"counts" and again.read(R_CAMPAIGN) == b"\x01"


def test_a_full_sector_compacts_once_in_a_pass_of_its_own():
    flash = Flash()
    store = Store(flash)
    store.write(R_STATS, b"s" * 100)
    for i in range(50):
        store.write(R_SETTINGS, bytes((i,)) * 100)   # 50 x 107 bytes: more than 4 KB
    assert store.busy and flash.erases == 0
    assert store.read(R_SETTINGS) == bytes((49,)) * 100
    _steps(store)
    assert flash.erases == 1 and not store.busy
    again = Store(flash)
    assert again.read(R_SETTINGS) == bytes((49,)) * 100 and again.read(R_STATS) == b"s" * 100
    assert again.free > 4096 - 300


def test_between_games_it_compacts_only_when_a_game_might_not_fit():
    flash = Flash()
    store = Store(flash)
    store.tidy()
    assert not store.busy
    store.start_game(b"g")
    while store.free >= RESERVE:
        store.add_turn(_codes(2))
    store.end_game()
    store.tidy()
    assert store.busy
    _steps(store)
    assert flash.erases == 1 and store.free > 4096 - 40


def test_compaction_keeps_the_game_in_progress_and_numbers_are_never_reused():
    flash = Flash()
    store = Store(flash)
    ids = [store.start_game(b"old")]
    store.add_turn([1])
    ids.append(store.start_game(b"game"))
    played = []
    for i in range(320):
        store.add_turn(_codes(3, i))
        played.extend(_codes(3, i))
    _steps(store)                    # the log filled up: compacted
    assert flash.erases == 1
    assert store.game() == (ids[1], b"game", played)
    again = Store(flash)
    assert again.game() == (ids[1], b"game", played)
    ids.append(again.start_game(b"next"))
    assert len(set(ids)) == 3


def test_a_game_longer_than_the_sector_holds_turn_by_turn_still_fits():
    # 1000 actions would take 9 KB as one record a turn; compaction packs them
    store = Store(Flash())
    gid = store.start_game(b"long")
    for i in range(1000):
        store.add_turn([i])
        if store.busy:
            _steps(store)
    assert store.game() == (gid, b"long", list(range(1000)))
    assert Store(store.nvm).game() == (gid, b"long", list(range(1000)))


def _full_store(flash):
    """A store with statistics, campaign, settings written over and over and a
    game of 30 turns, so full that its next step() compacts."""
    store = Store(flash)
    store.write(R_IMPORTED, b"\x01")
    store.write(R_STATS, b"stats")
    store.write(R_CAMPAIGN, b"campaign")
    gid = store.start_game(b"game")
    for i in range(30):
        store.add_turn(_codes(2, 2 * i))
    i = 0
    while not store.busy:
        store.write(R_SETTINGS, bytes((i % 256,)) * 60)
        i += 1
    return store, gid


def _kept(store):
    """(statistics, campaign, settings, game, imported) as the store reads them."""
    return (store.read(R_STATS), store.read(R_CAMPAIGN), store.read(R_SETTINGS), store.game(),
            store.read(R_IMPORTED))


def _cut_in_compaction(size, cut, seed):
    """(what the log held before, after a cut at the compaction's cut-th
    flash operation, the problems said at the next start). The record
    waiting for the compaction (settings) is the save in progress: it may be
    lost, and is then taken as written (the settings before it are kept)."""
    flash = CutFlash(size, seed=seed)
    store, _gid = _full_store(flash)
    before = _kept(Store(Flash(size, bytes(flash.data))))
    waiting = store.read(R_SETTINGS)
    flash.cut_after(cut)
    try:
        _steps(store)
    except PowerCut:
        pass
    flash.reboot()
    after = Store(flash)
    kept = _kept(after)
    if kept[2] == waiting:
        kept = kept[:2] + before[2:3] + kept[3:]
    return before, kept, after.problems


def test_a_cut_anywhere_in_a_compaction_on_two_sectors_loses_nothing():
    """Jarmo's firmware: the compaction writes the other sector, its R_FORMAT
    record last; the older sector stays whole until a later compaction."""
    for cut in range(0, 19):        # the erase, 16 page programs, R_FORMAT, none
        for seed in (1, 2, 3):
            before, after, problems = _cut_in_compaction(8192, cut, seed + 10 * cut)
            assert after == before and problems == [], (cut, seed, after, problems)


def test_a_cut_in_a_compaction_on_one_sector_names_every_kind_it_lost():
    """Stock CircuitPython: a torn erase or program is told from a new
    sector; what is still whole is kept, each kind lost is named, and the
    drive's older saves are not imported over it (R_IMPORTED stays)."""
    names = {0: "statistics", 1: "campaign", 2: "settings", 3: "game"}
    silent = 0
    lost_some = 0
    for cut in range(0, 19):
        for seed in (1, 2, 3):
            before, after, problems = _cut_in_compaction(4096, cut, seed + 10 * cut)
            lost = [names[k] for k in range(4) if after[k] != before[k]]
            said = " ".join(problems)
            assert all(x is None for x in after[:4] if x not in before), (cut, after)
            assert after[4] == b"\x01", (cut, seed)         # never imported again
            if lost:
                lost_some += 1
                assert said.startswith("saves lost in a power cut: "), (cut, seed, problems)
                silent += any(name not in said for name in lost)
    assert silent == 0
    # a cut in the erase loses all; one in a page program what is not yet
    # programmed (the live set fills a few pages: later cuts lose nothing)
    assert lost_some >= 3


def test_the_newer_sector_wins_and_compaction_alternates_between_two():
    flash = Flash(8192)
    store = Store(flash)
    store.write(R_STATS, b"one")
    for i in range(3):
        store.write(R_SETTINGS, bytes((i,)))
        store.compact()
        again = Store(flash)
        assert again.current == store.current == (i + 1) % 2 and again.gen == i + 1
        assert again.read(R_SETTINGS) == bytes((i,)) and again.read(R_STATS) == b"one"
    assert flash.erases == 2            # the second sector was blank the first time


def test_a_stock_log_in_the_second_sector_is_taken_over_by_two_sectors():
    """Jarmo's firmware flashed over stock: the stock nvm is the second of
    the two sectors, the first holds the old firmware's last bytes."""
    stock = Flash()
    Store(stock).write(R_STATS, b"kept")
    flash = Flash(8192, bytes(range(256)) * 16 + bytes(stock.data))
    store = Store(flash)
    assert store.current == 1 and store.read(R_STATS) == b"kept" and store.problems == []


def test_a_newer_versions_log_is_kept_until_the_player_starts_afresh():
    for size in (4096, 8192):
        flash = Flash(size)
        log = bytes(record(0x4A, 3, b"JARMO\x02")) + bytes(record(R_STATS, 4, b"new"))
        flash[0:len(log)] = log
        image = bytes(flash.data)
        store = Store(flash)
        assert store.locked and store.problems[0] == "newer Jarmo saves: kept, not written"
        store.write(R_STATS, b"old")
        store.start_game(b"g")
        store.add_turn([1, 2])
        assert not store.busy and bytes(flash.data) == image and store.read(R_STATS) is None
        store.start_afresh()
        store.write(R_STATS, b"mine")
        _steps(store)
        again = Store(flash)
        assert not again.locked and again.read(R_STATS) == b"mine" and again.problems == []

def test_a_last_record_that_ends_in_erased_looking_bytes_is_still_read():
    # a CRC or payload ending in 0xFF looks like erased flash at the log's end
    for n in range(300):
        store = Store(Flash())
        store.write(R_SETTINGS, bytes((n % 256,)) + b"\xff" * (n % 5))
        again = Store(store.nvm)
        assert again.read(R_SETTINGS) == bytes((n % 256,)) + b"\xff" * (n % 5), n
        assert again.end == store.end and again.problems == []


def test_parse_at_needs_a_whole_record_with_its_crc():
    rec = record(0x50, 7, b"abc")
    data = bytes(rec) + b"\xff"
    assert parse_at(data, 0, len(rec)) == len(rec)
    assert parse_at(data, 0, len(rec) - 1) == 0
    broken = bytearray(rec)
    broken[5] ^= 1
    assert parse_at(broken, 0, len(rec)) == 0


def test_a_compaction_the_flash_refuses_is_given_up_not_tried_every_pass():
    class Refusing(Flash):
        def _erase(self, start, end):
            raise OSError(5)

    store = Store(Refusing())
    for i in range(50):
        store.write(R_SETTINGS, bytes((i,)) * 100)
    assert store.busy
    try:
        _steps(store)
        raise AssertionError("the refusal was not passed on")
    except OSError:
        pass
    assert not store.busy


def test_damaged_bytes_among_the_games_turns_are_named_once_as_the_game():
    for seed in range(1, 9):
        flash = Flash()
        store = Store(flash)
        store.write(R_STATS, b"s" * 30)
        store.start_game(b"g" * 9)
        for i in range(20):
            store.add_turn(_codes(2, 2 * i))
        store.write(R_SETTINGS, b"p" * 10)
        first = store.turns()[3]
        at = first + seed * 3              # 20 bytes from a turn's header or inside it on
        for i in range(at, at + 20):
            flash.data[i] ^= 0x5A
        again = Store(flash)
        assert again.problems == ["game: damaged"], (seed, again.problems)
