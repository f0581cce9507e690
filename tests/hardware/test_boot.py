"""boot.py: the drive becomes writable for the program unless the USB-edit key is held."""

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


def test_remounts_writable_when_the_key_is_up(monkeypatch, storage):
    monkeypatch.setitem(profiles.PROFILES, "bootcheck", _profile("Dx_INPUT_TRUE"))
    _boot(monkeypatch, "bootcheck")
    assert storage.calls == [("/", False)]


def test_key_held_keeps_the_drive_editable_over_usb(monkeypatch, storage):
    monkeypatch.setitem(profiles.PROFILES, "bootcheck", _profile("Dx_INPUT_FALSE"))
    _boot(monkeypatch, "bootcheck")
    assert storage.calls == []


def test_unknown_profile_keeps_the_drive_editable(monkeypatch, storage):
    _boot(monkeypatch, "no-such-profile")
    assert storage.calls == []


def test_profile_without_edit_key(monkeypatch, storage):
    _boot(monkeypatch, "host")
    assert storage.calls == [("/", False)]
