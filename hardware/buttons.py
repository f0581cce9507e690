"""Buttons: keypad.Keys events -> (jarmo button code, seat).

keypad scans and debounces in the background; poll() drains its queue
into app.press once per main-loop pass, using one preallocated Event.
A key with a long-press name sends its short name when released early, or
its long name as soon as it has been held for long_ms; as it goes down it
sends its short name with KEY_DOWN or'ed in, so that the press is seen at
once (the app marks it, or acts on the tap then: press() returns True, and
the key's release and hold send nothing more).
"""

import keypad
from adafruit_ticks import ticks_diff

from jarmo import app_buttons as codes

_NONE = 255  # "no long-press code"
SCAN_S = 0.005  # keypad's scan period (its default 0.02 alone took 10 ms of a
                # press's 20 ms median budget from press to light)


class Buttons:
    """Keys of a profile.

    keys: None to build keypad.Keys from the profile's pins, or any object
    whose .events is a keypad.EventQueue (the simulator feeds its own).
    """

    def __init__(self, profile, keys=None):
        entries = profile["keys"]
        n = len(entries)
        self.labels = tuple(e[0] for e in entries)
        self.seat = bytes(e[2] for e in entries)
        self.short = bytes(codes.code(e[3]) for e in entries)
        self.long = bytes(codes.code(e[4]) if e[4] else _NONE for e in entries)
        self.long_ms = int(profile["long_ms"])
        self._down_at = [0] * n       # ticks_ms when a long-press key went down
        self._held = bytearray(n)     # 0 up, 1 down (long pending), 2 long sent
        self._has_long = any(c != _NONE for c in self.long)
        self.keys = _scanner(profile) if keys is None else keys
        self._event = keypad.Event()

    def restart(self, profile):
        """Scan the profile's pins again, after deinit() gave them to a sleep's
        pin alarms (hardware/deepsleep.py); a key held meanwhile counts as up."""
        self.keys = _scanner(profile)
        for k in range(len(self._held)):
            self._held[k] = 0

    def poll(self, now, press):
        """Send pending key events to press(button, player); True (keeps the loop going).
        press(short | KEY_DOWN, player) as a key with a hold goes down: a true
        answer means its tap was taken then."""
        ev = self._event
        get_into = self.keys.events.get_into
        while get_into(ev):
            k = ev.key_number
            if ev.pressed:
                if self.long[k] == _NONE:
                    press(self.short[k], self.seat[k])
                else:
                    self._down_at[k] = now
                    acted = press(self.short[k] | codes.KEY_DOWN, self.seat[k])
                    self._held[k] = 2 if acted else 1
            else:
                if self._held[k] == 1:
                    press(self.short[k], self.seat[k])
                self._held[k] = 0
        if self._has_long:
            held = self._held
            for k in range(len(held)):
                if held[k] == 1 and ticks_diff(now, self._down_at[k]) >= self.long_ms:
                    held[k] = 2
                    press(self.long[k], self.seat[k])
        return True

    def waiting(self):
        """True when a key's event waits in keypad's queue (the main loop's
        sleep ends then)."""
        return bool(self.keys.events)

    def deinit(self):
        """Stop the scanner and release the pins.

        Not on a PC: Blinka 10.0's keypad.Keys.deinit() joins its scanning
        thread, whose loop never ends, so the call never returns.  That
        thread is a daemon; a PC process can simply exit without deinit.
        """
        deinit = getattr(self.keys, "deinit", None)
        if deinit is not None:
            deinit()


def _scanner(profile):
    """keypad.Keys on the profile's pins, scanned every SCAN_S (a press waits
    half of it on average)."""
    import board
    pins = tuple(getattr(board, e[1]) for e in profile["keys"])
    return keypad.Keys(pins, value_when_pressed=not profile["pull_up"], pull=True, interval=SCAN_S)
