"""jarmo.store_flash: a flash sector in a file, as nvm behaves (the store on a
PC, and on a board without a usable nvm)."""

from jarmo.store_flash import FileNvm, Flash
from jarmo.store_log import R_SETTINGS, Store


def test_a_new_file_is_an_erased_sector_and_keeps_what_is_written(tmp_path):
    path = str(tmp_path / "jarmo.nvm")
    nvm = FileNvm(path)
    assert len(nvm) == 4096 and nvm[0:4096] == b"\xff" * 4096
    Store(nvm).write(R_SETTINGS, b"\x01\x02")
    again = FileNvm(path)
    assert Store(again).read(R_SETTINGS) == b"\x01\x02"
    assert (tmp_path / "jarmo.nvm").stat().st_size == 4096


def test_writes_into_erased_bytes_program_and_others_erase_the_sector():
    flash = Flash()
    flash[10:14] = b"abcd"
    assert (flash.programs, flash.erases) == (1, 0)
    flash[300:600] = b"x" * 300                 # two pages: 300-511, 512-599
    assert (flash.programs, flash.erases) == (3, 0)
    flash[12:14] = b"zz"                        # over used bytes: the sector again
    assert flash.erases == 1 and flash.programs == 3 + 16
    assert flash[10:14] == b"abzz" and flash[300:303] == b"xxx" and flash[0] == 0xFF


def test_a_file_of_another_size_is_taken_as_a_sector(tmp_path):
    path = tmp_path / "jarmo.nvm"
    path.write_bytes(b"\xa5short")
    nvm = FileNvm(str(path))
    assert len(nvm) == 4096 and nvm[0:6] == b"\xa5short" and nvm[6] == 0xFF
    assert Store(nvm).problems == ["saves: unreadable, started afresh"]
