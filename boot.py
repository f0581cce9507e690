"""Jarmo: runs once at power-up, before code.py; lets the game save.

CircuitPython lets either the computer (over USB) or the program write the
CIRCUITPY drive, never both.  This file gives the program write access, so
saved games and statistics survive power-off; the drive then shows up
read-only on the computer.

To copy new files onto the board, hold the profile's USB-edit button (C on
the OLED FeatherWing and the QT Py build, button 3 on the tabletop build;
see hardware/PROFILES.md) while plugging in or pressing reset: the drive
stays writable from the computer and the game runs without saving.  An
unknown JARMO_PROFILE also leaves the drive writable, so that
settings.toml can be fixed.
"""

import os

import board
import digitalio
import storage

from hardware import profiles


def edit_key_held(profile):
    """True if the profile's USB-edit key is down right now."""
    wanted = profile["usb_edit_key"]
    for label, pin_name, _seat, _short, _long in profile["keys"]:
        if label == wanted:
            pull_up = profile["pull_up"]
            pin = digitalio.DigitalInOut(getattr(board, pin_name))
            pin.switch_to_input(pull=digitalio.Pull.UP if pull_up else digitalio.Pull.DOWN)
            held = pin.value != pull_up
            pin.deinit()
            return held
    return False


PROFILE = profiles.PROFILES.get(os.getenv("JARMO_PROFILE", profiles.DEFAULT))
if PROFILE is not None and not edit_key_held(PROFILE):
    storage.remount("/", readonly=False)
