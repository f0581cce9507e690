"""jarmo.stats: counts and percentages per rule set, persisted."""

from jarmo.stats import Stats, percent, row
from jarmo.storage import Store
from tests.app.fakefs import FakeFS
from tests.app.memstore import MemoryStore


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
    fs = FakeFS()
    stats = Stats(Store("/", fs))
    stats.record("legendary", "south")
    stats.record("legendary", None)
    again = Stats(Store("/", fs))
    assert again.counts("legendary") == (1, 0, 1)
    assert again.problem is None


def test_corrupt_stats_file_set_aside():
    fs = FakeFS()
    Stats(Store("/", fs)).record("jasyr", "north")
    slot = "/stats.0"                                  # the first save's slot
    fs.disk[slot] = fs.disk[slot].replace(b'[0, 1, 0]', b'[0, 7, 0]')   # a byte changed
    stats = Stats(Store("/", fs))
    assert stats.problem and "stats" in stats.problem
    assert stats.counts("jasyr") == (0, 0, 0)
    assert slot + ".bad" in fs.disk and slot not in fs.disk


def test_wellformed_but_wrong_json_set_aside():
    store = MemoryStore()
    for body in ('{"v": 3}', '[1, 2]', '{"v": 2, "classic": [1, 2, 3]}',
                 '{"v": 2, "classic": {"p2": [1, 2]}}', '{"v": 1, "classic": [1, 2]}', '{"v": 1, "classic": "abc"}'):
        store.files.clear()
        store.write("stats", body)
        stats = Stats(store)
        assert stats.problem, body
        assert "stats.bad" in store.files


def test_games_against_the_ai_count_as_you_against_that_level():
    stats = Stats(MemoryStore())
    stats.record("standard", "north", "ai1", you="north")      # you won as North
    stats.record("standard", "south", "ai1", you="north")      # the AI won
    stats.record("standard", None, "ai1", you="south")
    stats.record("standard", "south", "ai3", you="south")
    stats.record("standard", "south")                          # two players
    assert stats.counts("standard", "ai1") == (1, 1, 1)
    assert stats.counts("standard", "ai3") == (1, 0, 0)
    assert stats.keys("standard") == ["p2", "ai1", "ai3"]
    assert stats.lines("standard", "ai1", "greedy") == (
        "standard vs greedy", "You   1 (33.33 %)", "AI    1 (33.33 %)", "Draws 1 (33.33 %)")


def test_a_version_1_file_is_kept_as_earlier_games():
    store = MemoryStore()
    store.write("stats", '{"v": 1, "classic": [3, 2, 1]}')
    stats = Stats(store)
    assert stats.problem is None
    assert stats.keys("classic") == ["old"]
    assert stats.lines("classic", "old")[:2] == ("classic, earlier", "South 3 (50.00 %)")
    stats.record("classic", "north", "ai0", you="south")       # written back as version 2
    again = Stats(store)
    assert again.counts("classic", "old") == (3, 2, 1)
    assert again.counts("classic", "ai0") == (0, 1, 0)
    assert '"v": 2' in store.read("stats")
