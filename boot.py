"""Jarmo: runs once at power-up, before code.py.

The game keeps everything it saves in microcontroller.nvm, a flash sector
outside the CIRCUITPY drive (hardware/flash.py), so on boards that have one
(every RP2040 board) this file does nothing: the drive stays writable from
the computer at all times, and the game never writes it.

It also checks settings.toml's lines (hardware/settings_check.py) and
prints what it finds, which CircuitPython keeps in /boot_out.txt for
code.py: the checker's code never enters code.py's heap.

Only a board without a usable nvm keeps the log in a file on the drive, and
CircuitPython lets either the computer or the program write the drive,
never both. There this file gives the program write access, unless the
profile's USB-edit key is held while powering up: then the drive stays
writable from the computer and the game runs without saving.
"""

import os

from hardware import flash, settings_check


def edit_key_held(profile):
    """True if the profile's USB-edit key is down right now."""
    import board
    import digitalio
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


if flash.nvm() is None:
    # the profiles only here: every board with nvm boots sooner without them
    from hardware import profiles
    PROFILE = profiles.PROFILES.get(os.getenv("JARMO_PROFILE", profiles.DEFAULT))
    if PROFILE is not None and not edit_key_held(PROFILE):
        import storage
        storage.remount("/", readonly=False)

# settings.toml's lines checked here, in boot.py's own heap: the findings go
# into /boot_out.txt, where code.py reads them (hardware/config.py)
settings_check.report()
