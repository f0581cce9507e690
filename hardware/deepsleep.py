"""Deep sleep until a button is pressed: CircuitPython's `alarm` with a pin
alarm on every button of the profile (hardware/power.py calls it after the
board has been dark JARMO_SLEEP_S seconds).

The board then draws its least; a press restarts code.py, which sees
`alarm.wake_alarm` and resumes the saved game (code.py). While a USB host
is attached, CircuitPython only pretends to deep-sleep (it waits for the
alarm, then restarts code.py the same way): that is what the emulated board
does (tests/device/test_power_on_device.py).

Imported only when the board goes to sleep: its code is not in the heap
while the game runs.
"""


def sleep_until_pressed(buttons, profile):
    """Deep sleep with a pin alarm on each of the profile's buttons; returns
    only on a board without `alarm` (the board stays dark, as before)."""
    try:
        import alarm
        import alarm.pin
    except ImportError:
        return
    import board
    pins = []
    for entry in profile["keys"]:
        pin = getattr(board, entry[1])
        if pin not in pins:
            pins.append(pin)
    buttons.deinit()            # keypad holds the pins; the alarms take them over
    try:
        pressed = not profile["pull_up"]
        alarm.exit_and_deep_sleep_until_alarms(
            *[alarm.pin.PinAlarm(pin=pin, value=pressed, pull=True) for pin in pins])
    except (ValueError, RuntimeError, MemoryError):
        # a pin the alarm cannot watch: start afresh (code.py resumes the game)
        import supervisor
        supervisor.reload()

