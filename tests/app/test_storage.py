"""jarmo.storage: atomic saves that survive a power cut at every step."""

import os

from jarmo.storage import Store, checksum, unwrap, wrap
from tests.app.fakefs import FakeFS, PowerCut


def test_wrap_round_trip_and_checks():
    text = '{"a": 1}\nline two'
    assert unwrap(wrap(text)) == text
    stored = wrap(text)
    for bad in (stored[:-1], stored.replace("two", "tw0"), "hello\n" + text, "", "JARMO1 x y\nz"):
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
    assert sorted(os.listdir(tmp_path)) == ["game"]
    (tmp_path / "game").write_text("garbage")
    assert store.read("game") is None
    assert "game" in store.error
    store.set_aside("game")
    assert sorted(os.listdir(tmp_path)) == ["game.bad"]
    assert store.read("game") is None and store.error is None


def test_foreign_file_is_reported_not_raised():
    fs = FakeFS()
    fs.disk["/game"] = "print('hello')\n"
    store = Store("/", fs)
    assert store.read("game") is None
    assert store.error == "game: not a Jarmo file"
    store.set_aside("game")
    assert "/game.bad" in fs.disk and "/game" not in fs.disk


def test_rename_onto_existing_file_is_never_needed():
    fs = FakeFS()
    store = Store("/", fs)
    for i in range(5):
        store.write("game", "save %d" % i)   # FakeFS refuses rename onto a file
    assert store.read("game") == "save 4"
    assert list(fs.disk) == ["/game"]


def test_only_a_valid_new_file_is_used_and_the_rename_finished():
    fs = FakeFS()
    fs.disk["/game.new"] = wrap("newer")
    store = Store("/", fs)
    assert store.read("game") == "newer"
    assert list(fs.disk) == ["/game"]
    fs.disk["/game.new"] = wrap("newer still")
    assert store.read("game") == "newer still"
    fs.disk["/game.new"] = wrap("torn")[:-2]
    assert store.read("game") == "newer still" and store.error is None


def _steps_of_one_save():
    fs = FakeFS()
    store = Store("/", fs)
    store.write("game", "old")
    fs.steps = []
    store.write("game", "new")
    return len(fs.steps)


def test_power_cut_at_every_step_leaves_old_or_new():
    steps = _steps_of_one_save()
    assert steps >= 6      # open write flush close sync remove rename sync
    seen = set()
    for cut in range(steps + 1):
        fs = FakeFS()
        store = Store("/", fs)
        store.write("game", "old save " * 20)
        fs.cut_after(cut)
        try:
            store.write("game", "new save " * 20)
        except PowerCut:
            pass
        fs.reboot()
        after = Store("/", fs)
        got = after.read("game")
        assert got in ("old save " * 20, "new save " * 20), (cut, fs.disk)
        assert after.error is None, (cut, after.error)
        seen.add(got[:3])
        # and the store keeps working after the reboot
        after.write("game", "later")
        assert Store("/", fs).read("game") == "later"
    assert seen == {"old", "new"}


def test_power_cut_during_the_first_save_leaves_nothing_or_new():
    for cut in range(_steps_of_one_save() + 1):
        fs = FakeFS()
        fs.cut_after(cut)
        try:
            Store("/", fs).write("stats", "first")
        except PowerCut:
            pass
        fs.reboot()
        store = Store("/", fs)
        assert store.read("stats") in (None, "first")
        assert store.error is None


def test_power_cut_during_recovery_read():
    fs = FakeFS()
    store = Store("/", fs)
    store.write("game", "old")
    fs.disk["/game.new"] = wrap("new")      # as if cut before the rename
    for cut in range(8):
        disk = dict(fs.disk)
        fs.cut_after(cut)
        try:
            Store("/", fs).read("game")
        except PowerCut:
            pass
        fs.reboot()
        assert Store("/", fs).read("game") == "new"
        fs.disk = disk


def test_read_only_file_system_raises_oserror_on_write():
    class ReadOnly(FakeFS):
        def open(self, path, mode="r"):
            if "w" in mode:
                raise OSError(30, "read-only")
            return FakeFS.open(self, path, mode)

    store = Store("/", ReadOnly())
    try:
        store.write("game", "x")
    except OSError as e:
        assert e.args[0] == 30
    else:
        raise AssertionError("no OSError")
