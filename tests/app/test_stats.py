"""jarmo.store_stats: counts and percentages per rule set, persisted."""

from jarmo.store_log import R_STATS
from jarmo.store_stats import OLD, Stats, percent, row
from tests.app.memstore import MemoryStore, reboot


def test_percentages_like_the_site():
    # the online site's table: valge 3514 (40.65 %), must 4224 (48.87 %), viigid 905 (10.47 %)
    total = 3514 + 4224 + 905
    assert percent(3514, total) == "40.65"
    assert percent(4224, total) == "48.87"
    assert percent(905, total) == "10.47"
    assert row("South", 3514, total) == "South 3514 (40.65 %)"
    assert percent(0, 0) == "0.00" and percent(1, 1) == "100.00"
    assert len(row("Draws", 99999, 99999)) <= 21


def test_record_counts_and_lines():
    stats = Stats(MemoryStore())
    for w in ("south", "north", None, "south"):
        stats.record("standard", w)
    stats.record("classic", "north")
    assert stats.counts("standard") == (2, 1, 1)
    assert stats.counts("classic") == (0, 1, 0)
    assert stats.counts("jasyr") == (0, 0, 0)
    assert stats.lines("standard") == ("standard, 2 players", "South 2 (50.00 %)",
                                       "North 1 (25.00 %)", "Draws 1 (25.00 %)")


def test_persisted_and_reloaded():
    store = MemoryStore()
    stats = Stats(store)
    stats.record("legendary", "south")
    stats.record("legendary", None, game=41)
    again = Stats(reboot(store))
    assert again.counts("legendary") == (1, 0, 1)
    assert again.counted == 41 and again.problem is None


def test_big_counts_and_every_opponent_survive_the_record():
    store = MemoryStore()
    stats = Stats(store)
    for opp in range(OLD):                                  # two players and ids 1..14
        stats.table["classic"][opp] = [3514 + opp, 4224, 905]
    stats.table["jasyr"][5] = [0, 2 ** 20, 1]
    stats.table["standard"][OLD] = [1, 2, 3]
    stats.record("legendary", "north", 1, you="south", game=65535)
    again = Stats(reboot(store))
    assert again.table == stats.table and again.counted == 65535


def test_a_stats_record_that_is_not_one_is_reported_once_and_cleared():
    for body in (b"\x07", b"\x03\x00\x00\x00\x41\x80", b"\x03\x05\x00\x00",
                 b"\x03\x00\x00\x00\x10\x01\x02"):
        store = MemoryStore()
        store.write(R_STATS, body)
        stats = Stats(reboot(store))
        assert stats.problem == "statistics: unreadable, cleared", body
        assert stats.counts("standard") == (0, 0, 0)
        assert Stats(reboot(store)).problem is None


def test_games_against_an_opponent_count_as_you_against_it():
    stats = Stats(MemoryStore())
    stats.record("standard", "north", 2, you="north")      # you won as North
    stats.record("standard", "south", 2, you="north")      # AI greedy (id 2) won
    stats.record("standard", None, 2, you="south")
    stats.record("standard", "south", 4, you="south")
    stats.record("standard", "south")                      # two players
    assert stats.counts("standard", 2) == (1, 1, 1)
    assert stats.counts("standard", 4) == (1, 0, 0)
    assert stats.keys("standard") == [0, 2, 4]
    assert stats.lines("standard", 2, "AI greedy") == (
        "standard vs greedy", "You   1 (33.33 %)", "AI    1 (33.33 %)", "Draws 1 (33.33 %)")
    stats.record("standard", "north", 6, you="south")      # the linked board won
    assert stats.lines("standard", 6, "Link")[:3] == (
        "standard vs Link", "You   0 (0.00 %)", "Link  1 (100.00 %)")


def test_the_first_files_totals_are_kept_as_earlier_games():
    stats = Stats(MemoryStore())
    stats.table["classic"][OLD] = [3, 2, 1]
    assert stats.keys("classic") == [OLD]
    assert stats.lines("classic", OLD)[:2] == ("classic, earlier", "South 3 (50.00 %)")
