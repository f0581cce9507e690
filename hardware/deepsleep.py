"""Sleep until a button is pressed: CircuitPython's `alarm` with a pin
alarm on every button of the profile (hardware/power.py calls it after the
board has been dark JARMO_SLEEP_S seconds).

On a battery the board deep-sleeps and draws its least; a press restarts
code.py, which sees `alarm.wake_alarm` and resumes the saved game.

While a USB host is attached CircuitPython would only pretend to
deep-sleep, and the pretence keeps the CPU busy all the time (the emulated
RP2040, stock and Jarmo's firmware: 100 % busy, where the dark board's
naps keep it 12 %; in the web page that is a whole core of the visitor's
computer): there the board light-sleeps on the same pin alarms instead,
the CPU waiting for an interrupt, and a press wakes it where it was, the
game still in RAM.

Imported only when the board goes to sleep: its code is not in the heap
while the game runs.
"""


def sleep_until_pressed(buttons, profile):
    """Sleep with a pin alarm on each of the profile's buttons. Deep sleep
    does not return; True after a light sleep (a USB host attached: the
    buttons scan again, the press that woke the board is spent on waking
    it); False on a board without `alarm` (it stays dark, as before)."""
    try:
        import alarm
        import alarm.pin
    except ImportError:
        return False
    import board
    import supervisor
    pins = []
    for entry in profile["keys"]:
        pin = getattr(board, entry[1])
        if pin not in pins:
            pins.append(pin)
    buttons.deinit()            # keypad holds the pins; the alarms take them over
    pressed = not profile["pull_up"]
    try:
        alarms = [alarm.pin.PinAlarm(pin=pin, value=pressed, pull=True) for pin in pins]
        if supervisor.runtime.usb_connected:
            alarm.light_sleep_until_alarms(*alarms)     # (and it lets the pins go again)
            buttons.restart(profile)
            return True
        alarm.exit_and_deep_sleep_until_alarms(*alarms)
    except (ValueError, RuntimeError, MemoryError):
        pass
    # a pin the alarm cannot watch: start afresh (code.py resumes the game)
    supervisor.reload()
    return False
