"""jarmo.storage: saves in two slots, written in place, that survive a power cut at every step."""

import os

from jarmo.storage import BLOCK, Store, checksum, parse, record, unwrap, wrap
from tests.app.fakefs import FakeFS, PowerCut


def test_a_record_reads_back_and_every_damage_is_seen():
    data = record(7, '{"a": 1}\nline two')
    assert len(data) % BLOCK == 0
    assert parse(data) == (7, '{"a": 1}\nline two')
    assert parse(bytes(BLOCK)) == (-1, None)                 # a blank slot
    assert parse(record(8, None)) == (8, None)               # a deleted name
    torn = bytes(data[:20]) + bytes(len(data) - 20)
    changed = bytes(data).replace(b"two", b"tw0")
    for bad in (torn, changed, b"hello\n" + bytes(data), b"JARMO2 x y z\nabc"):
        try:
            parse(bad)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % bad[:40])


def test_the_older_single_file_format_still_reads():
    text = '{"a": 1}\nline two'
    assert unwrap(wrap(text)) == text
    for bad in (wrap(text)[:-1], "hello\n" + text, ""):
        try:
            unwrap(bad)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % bad)


def test_checksum_is_adler32():
    import zlib
    data = b"Jarmo is an old Tatar game" * 40
    assert checksum(data) == "%08x" % zlib.adler32(data)


def test_store_on_a_real_directory(tmp_path):
    store = Store(str(tmp_path))
    assert store.read("game") is None and store.error is None
    store.write("game", "one")
    store.write("game", "two")
    assert store.read("game") == "two"
    assert Store(str(tmp_path)).read("game") == "two"        # after a restart too
    assert sorted(os.listdir(tmp_path)) == ["game.0", "game.1"]
    for name in ("game.0", "game.1"):
        (tmp_path / name).write_bytes(b"garbage")
    store = Store(str(tmp_path))
    assert store.read("game") is None
    assert store.error == "game: not a Jarmo file"
    store.set_aside("game")
    assert sorted(os.listdir(tmp_path)) == ["game.0.bad", "game.1.bad"]
    assert store.read("game") is None and store.error is None


def test_writes_alternate_between_the_slots_in_place():
    fs = FakeFS()
    store = Store("/", fs)
    store.prepare(("game",))
    sizes = {p: len(d) for p, d in fs.disk.items()}
    fs.steps = []
    for i in range(5):
        store.write("game", "save %d" % i)
    assert store.read("game") == "save 4"
    assert sorted(fs.disk) == ["/game.0", "/game.1"]
    assert {p: len(d) for p, d in fs.disk.items()} == sizes     # never reallocated
    assert [parse(fs.disk[p])[0] for p in ("/game.0", "/game.1")] == [4, 3]
    assert "rename" not in fs.steps and "remove" not in fs.steps


def test_a_save_from_the_older_format_moves_into_slots():
    fs = FakeFS()
    fs.disk["/game"] = wrap("from version 1")
    store = Store("/", fs)
    assert store.read("game") == "from version 1"
    store.prepare(("game", "stats"))
    assert sorted(fs.disk) == ["/game.0", "/game.1", "/stats.0", "/stats.1"]
    assert store.read("game") == "from version 1"
    assert store.read("stats") is None and store.error is None


def test_a_foreign_file_is_reported_not_raised():
    fs = FakeFS()
    fs.disk["/game"] = "print('hello')\n"
    store = Store("/", fs)
    assert store.read("game") is None
    assert store.error == "game: not a Jarmo file"
    store.set_aside("game")
    assert "/game.bad" in fs.disk and "/game" not in fs.disk


def test_delete_forgets_and_the_name_can_be_written_again():
    fs = FakeFS()
    store = Store("/", fs)
    store.write("game", "a game")
    store.delete("game")
    assert store.read("game") is None and store.error is None
    assert Store("/", fs).read("game") is None
    store.write("game", "the next game")
    assert Store("/", fs).read("game") == "the next game"


def test_an_outgrown_slot_is_made_again():
    fs = FakeFS()
    store = Store("/", fs)
    store.prepare(("settings",))
    long_text = "x" * 3000
    store.write("settings", "short")
    store.write("settings", long_text)
    assert Store("/", fs).read("settings") == long_text
    store.write("settings", long_text + "y")
    assert Store("/", fs).read("settings") == long_text + "y"


def _fs_after(saves, prepared=True):
    fs = FakeFS()
    store = Store("/", fs)
    if prepared:
        store.prepare(("game",))
    for text in saves:
        store.write("game", text)
    return fs


def _steps_of_one_save(saves=("old",), prepared=True):
    fs = _fs_after(saves, prepared)
    fs.steps = []
    Store("/", fs).write("game", "new")
    return len(fs.steps)


OLD = "old save " * 100          # two blocks: a cut can fall between them
NEW = "new save " * 100


def test_a_power_cut_at_every_step_leaves_the_old_save_or_the_new():
    for before in ((OLD,), ("older", OLD)):
        steps = _steps_of_one_save(before)
        assert steps >= 6        # read slots, stat, open, blocks, sync, close
        seen = set()
        for cut in range(steps + 1):
            fs = _fs_after(before)
            fs.cut_after(cut)
            try:
                Store("/", fs).write("game", NEW)
            except PowerCut:
                pass
            fs.reboot()
            after = Store("/", fs)
            got = after.read("game")
            assert got in (OLD, NEW), (cut, got)
            assert after.error is None, (cut, after.error)
            seen.add(got[:3])
            after.write("game", "later")                     # and saving goes on
            assert Store("/", fs).read("game") == "later"
        assert seen == {"old", "new"}


def test_a_power_cut_during_the_first_save_leaves_nothing_or_the_new():
    for prepared in (True, False):
        for cut in range(_steps_of_one_save((), prepared) + 1):
            fs = _fs_after((), prepared)
            fs.cut_after(cut)
            try:
                Store("/", fs).write("stats", NEW)
            except PowerCut:
                pass
            fs.reboot()
            store = Store("/", fs)
            assert store.read("stats") in (None, NEW)
            assert store.error is None


def test_sliced_saves_write_at_most_one_block_a_step():
    fs = _fs_after((OLD,))
    store = Store("/", fs, sliced=True)
    store.read("game")
    store.write("game", NEW)
    assert store.busy and Store("/", fs).read("game") == OLD   # queued, not written
    units = 0
    while store.busy:
        fs.steps = []
        store.step()
        units += 1
        assert fs.steps.count("write") <= 1 and "sync" not in fs.steps[1:]
    assert units == 1 + len(record(2, NEW)) // BLOCK + 2       # open, blocks, sync, close
    assert Store("/", fs).read("game") == NEW


def test_a_newer_save_replaces_one_still_waiting():
    fs = _fs_after((OLD,))
    store = Store("/", fs, sliced=True)
    store.write("settings", "first")
    store.write("game", "turn 1")
    store.write("game", "turn 2")
    assert store.read("game") == "turn 2"                    # read finishes the queue
    assert Store("/", fs).read("game") == "turn 2"
    assert Store("/", fs).read("settings") == "first"


def test_a_read_finishes_its_own_queued_writes_not_another_files():
    fs = _fs_after((OLD,))
    store = Store("/", fs, sliced=True)
    store.read("stats")
    store.write("game", "turn 1")
    fs.steps = []
    assert store.read("stats") is None                       # nothing of it queued
    assert store.busy and "write" not in fs.steps and "sync" not in fs.steps   # the save waits
    store.write("settings", "first")
    assert store.read("settings") == "first"                 # the older game save went first
    assert not store.busy and Store("/", fs).read("game") == "turn 1"


def test_a_power_cut_between_sliced_steps():
    for cut_at in range(8):
        fs = _fs_after((OLD,))
        store = Store("/", fs, sliced=True)
        store.write("game", NEW)
        for _ in range(cut_at):
            store.step()
        fs.reboot()                      # power off between two passes
        assert Store("/", fs).read("game") in (OLD, NEW)


def test_a_read_only_file_system():
    class ReadOnly(FakeFS):
        def open(self, path, mode="r"):
            if "w" in mode or "+" in mode:
                raise OSError(30, "read-only")
            return FakeFS.open(self, path, mode)

    try:
        Store("/", ReadOnly()).write("game", "x")
    except OSError as e:
        assert e.args[0] == 30
    else:
        raise AssertionError("no OSError")
    sliced = Store("/", ReadOnly(), sliced=True)
    sliced.write("game", "x")
    while sliced.step():
        pass
    assert sliced.problem.args[0] == 30 and not sliced.busy


def test_a_damaged_slot_is_reported_while_the_other_save_still_serves():
    fs = _fs_after(("turn 1", "turn 2"))
    fs.disk["/game.1"] = b"\x89PNG garbage" + bytes(500)     # turn 2 lived there
    store = Store("/", fs)
    assert store.read("game") == "turn 1"
    assert store.error == "game: not a Jarmo file"
    store.set_aside("game")
    assert sorted(fs.disk) == ["/game.0", "/game.1.bad"]
    assert store.read("game") == "turn 1" and store.error is None
    store.write("game", "turn 3")                            # the slot is made again
    assert Store("/", fs).read("game") == "turn 3"


def test_a_changed_byte_is_damage_a_missing_end_is_a_cut():
    fs = _fs_after(("turn 1", "turn 2"))
    good = bytes(fs.disk["/game.1"])
    fs.disk["/game.1"] = good.replace(b"turn 2", b"turn 3")
    store = Store("/", fs)
    assert store.read("game") == "turn 1" and store.error == "game: bad checksum"
    cut = good[:good.index(b"\nEND")] + bytes(len(good) - good.index(b"\nEND"))
    fs.disk["/game.1"] = cut
    assert store.read("game") == "turn 1" and store.error is None
