"""boot.py: the drive stays the computer's on boards with a usable nvm; on
others it becomes writable for the program unless the USB-edit key is held."""

import os
import runpy
import sys
import types

import pytest

from hardware import profiles

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def storage(monkeypatch):
    fake = types.ModuleType("storage")
    fake.calls = []
    fake.remount = lambda path, readonly=False, **kw: fake.calls.append((path, readonly))
    monkeypatch.setitem(sys.modules, "storage", fake)
    return fake


@pytest.fixture
def without_nvm(monkeypatch):
    fake = types.ModuleType("microcontroller")
    fake.nvm = None
    monkeypatch.setitem(sys.modules, "microcontroller", fake)


@pytest.mark.parametrize("size", [4096, 8192])
def test_a_board_with_nvm_leaves_the_drive_to_the_computer(monkeypatch, storage, size):
    fake = types.ModuleType("microcontroller")
    fake.nvm = bytearray(size)
    monkeypatch.setitem(sys.modules, "microcontroller", fake)
    for name in ("qtpy_bff", "host", "no-such-profile"):
        _boot(monkeypatch, name)
    assert storage.calls == []


def test_an_nvm_too_small_for_the_log_is_not_used(monkeypatch, storage):
    fake = types.ModuleType("microcontroller")
    fake.nvm = bytearray(256)           # e.g. a SAMD21 board
    monkeypatch.setitem(sys.modules, "microcontroller", fake)
    _boot(monkeypatch, "host")
    assert storage.calls == [("/", False)]


def _profile(pin):
    # Blinka's simulated pins: Dx_INPUT_TRUE reads high (not pressed with a
    # pull-up), Dx_INPUT_FALSE reads low (pressed)
    return dict(profiles.QTPY_BFF, keys=(
        ("a", "Dx_INPUT_TRUE", 0, "next", None),
        ("c", pin, 0, "back", None),
    ))


def _boot(monkeypatch, name):
    monkeypatch.setenv("JARMO_PROFILE", name)
    runpy.run_path(os.path.join(ROOT, "boot.py"), run_name="__main__")


def test_without_nvm_remounts_writable_when_the_key_is_up(monkeypatch, storage, without_nvm):
    monkeypatch.setitem(profiles.PROFILES, "bootcheck", _profile("Dx_INPUT_TRUE"))
    _boot(monkeypatch, "bootcheck")
    assert storage.calls == [("/", False)]


def test_without_nvm_key_held_keeps_the_drive_editable_over_usb(monkeypatch, storage, without_nvm):
    monkeypatch.setitem(profiles.PROFILES, "bootcheck", _profile("Dx_INPUT_FALSE"))
    _boot(monkeypatch, "bootcheck")
    assert storage.calls == []


def test_without_nvm_unknown_profile_keeps_the_drive_editable(monkeypatch, storage, without_nvm):
    _boot(monkeypatch, "no-such-profile")
    assert storage.calls == []


def test_without_nvm_profile_without_edit_key(monkeypatch, storage, without_nvm):
    _boot(monkeypatch, "host")
    assert storage.calls == [("/", False)]
