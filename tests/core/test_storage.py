"""The store: an append-only log of records in one 4 KB flash sector.

Plain functions and asserts: they run under MicroPython too. The flash is
jarmo.flashfile.Flash, which behaves as CircuitPython's nvm on an RP2040
(programs into erased bytes, an erase for anything else); CutFlash cuts the
power in the middle of any program or erase.
"""

from jarmo.flashfile import Flash
from jarmo.storage import (
    R_CAMPAIGN,
    R_SETTINGS,
    R_STATS,
    RESERVE,
    Store,
    parse_at,
    record,
)
from tests.app.cutflash import CutFlash, PowerCut


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
    store.step()
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
    store.step()
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
    store.step()
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
    store.step()                    # the log filled up: compacted
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
            store.step()
    assert store.game() == (gid, b"long", list(range(1000)))
    assert Store(store.nvm).game() == (gid, b"long", list(range(1000)))


def test_a_cut_during_compaction_loses_at_most_what_was_kept_and_never_raises():
    # the one window where saves can be lost (docs/APP.md, Saves): a cut
    # in the erase or before the program ends; reading afterwards never
    # raises, and what survives is intact
    outcomes = {}
    for cut in range(0, 18):
        flash = CutFlash(seed=cut + 7)
        store = Store(flash)
        store.write(R_STATS, b"stats")
        store.write(R_CAMPAIGN, b"campaign")
        for i in range(70):
            store.write(R_SETTINGS, bytes((i,)) * 60)
        assert store.busy
        flash.cut_after(cut)
        try:
            store.step()
        except PowerCut:
            pass
        flash.reboot()
        after = Store(flash)
        kept = (after.read(R_STATS), after.read(R_CAMPAIGN), after.read(R_SETTINGS))
        assert kept[0] in (None, b"stats") and kept[1] in (None, b"campaign")
        assert kept[2] is None or kept[2] == bytes((kept[2][0],)) * 60
        outcomes[cut] = kept
        after.write(R_STATS, b"again")          # and the store works on
        if after.busy:
            after.step()
        assert Store(flash).read(R_STATS) == b"again"
    assert outcomes[17] == (b"stats", b"campaign", bytes((69,)) * 60)   # no cut: all kept
    assert outcomes[0] == (None, None, None)                          # cut in the erase


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
        def _erase(self):
            raise OSError(5)

    store = Store(Refusing())
    for i in range(50):
        store.write(R_SETTINGS, bytes((i,)) * 100)
    assert store.busy
    try:
        store.step()
        raise AssertionError("the refusal was not passed on")
    except OSError:
        pass
    assert not store.busy
