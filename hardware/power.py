"""Idle power: the LEDs dim after a short idle time, and go off after a longer one.

Idle time counts from the last button press or the last pass with work
(app.busy: the AI thinking, a save in steps), so the AI's turn never dims
the board.  Three levels:

  AWAKE   the game as always
  DIM     the LEDs at a quarter of their level (a press acts as usual)
  OFF     the LEDs dark (and their power switched off, when the profile
          names a "led_power" pin: a WS2812 draws about 1 mA dark), the
          display's contrast at 0; the main loop naps between polls
          (hardware/mainloop.py). The press that ends it only wakes the
          board: the game is exactly where it was, in RAM.

Dark for JARMO_SLEEP_S more (default 600 s), the board deep-sleeps where
CircuitPython has `alarm` (hardware/deepsleep.py: a pin alarm on every
button); a button then starts code.py afresh, which resumes the saved game
(a pick in progress is not saved). With a USB host attached it light-sleeps
on the same alarms instead, and a button wakes it where it was. Without
`alarm` the board stays dark.

Dimmed or dark, the CPU runs at a lower clock (CpuClock: JARMO_IDLE_MHZ,
default 48, 0 keeps it): most of an idle board's current is its clocks
running, busy or waiting. It is back at full speed before a press's answer,
the AI's turn or a save: any of them wakes the board. A linked game keeps
the full clock (its UART's bytes come at any time).

The times are settings (settings.toml JARMO_DIM_S, JARMO_OFF_S and
JARMO_SLEEP_S, seconds; 0 turns that level off; hardware/config.py reads
them). The logic takes integer ms and no hardware, so the simulator and the
tests run it as the board does.
"""

from adafruit_ticks import ticks_diff

AWAKE = 0
DIM = 1
OFF = 2
DIM_S = 30          # defaults (hardware/config.py): a player who thinks for half a
OFF_S = 120         # minute sees the board dim, and after two minutes it goes dark
DIM_SHIFT = 2       # DIM draws at level >> DIM_SHIFT (a quarter)
IDLE_MHZ = 48       # the CPU's clock while dimmed or dark (default); USB keeps its own 48 MHz


class Idle:
    """The idle level from the time of the last press or work."""

    def __init__(self, dim_ms=DIM_S * 1000, off_ms=OFF_S * 1000, switch=None, sleep_ms=0,
                 clock=None):
        self.dim_ms = dim_ms
        self.off_ms = off_ms
        self.sleep_ms = sleep_ms    # ms dark before deep sleep (0: never)
        self.sleeper = None         # the deep sleep (code.py's: hardware/deepsleep.py), or None
        self.switch = switch        # the LEDs' power (a MOSFET's gate): .value, or None
        self.clock = clock          # the CPU's clock (CpuClock), slow unless AWAKE; or None
        self.held = False           # True: the clock stays full whatever the level (a linked game)
        self.since = None           # ms of the last press or work (None: not yet)
        self.level = AWAKE

    def touch(self, now):
        """A press or work at `now`: the idle time starts again."""
        self.since = now

    def update(self, now):
        """The level at `now` (AWAKE, DIM or OFF); a change is kept in .level."""
        if self.since is None:
            self.since = now
        idle = ticks_diff(now, self.since)
        level = AWAKE
        if self.off_ms and idle >= self.off_ms:
            level = OFF
        elif self.dim_ms and idle >= self.dim_ms:
            level = DIM
        if level != self.level:
            self.level = level
            if self.switch is not None:
                self.switch.value = level != OFF
            if self.clock is not None:
                self.clock.slow(level != AWAKE and not self.held)
        return level

    def sleep_due(self, now):
        """True when the board has been dark for sleep_ms and can deep-sleep."""
        return (self.sleeper is not None and self.level == OFF and self.sleep_ms > 0
                and ticks_diff(now, self.since) >= self.off_ms + self.sleep_ms)

    def deep_sleep(self):
        """Sleep now: a deep sleep does not return; True after a light sleep
        (hardware/deepsleep.py: USB attached), which a press ended, and which
        may come again; False where the board has neither: it is tried once,
        then the board stays dark and naps."""
        sleeper = self.sleeper
        self.sleeper = None
        if sleeper is not None and sleeper():
            self.sleeper = sleeper
            return True
        return False

    def wake(self, now):
        """A press at `now`; True if the board was OFF (the press only wakes it)."""
        was_off = self.level == OFF
        self.touch(now)
        self.update(now)
        return was_off


def led_switch(profile):
    """The LEDs' power switch of a profile (its "led_power" pin, driven high
    for on), or None."""
    pin_name = profile.get("led_power")
    if pin_name is None:
        return None
    import board
    import digitalio
    switch = digitalio.DigitalInOut(getattr(board, pin_name))
    switch.switch_to_output(value=True)
    return switch


class CpuClock:
    """The CPU's clock (microcontroller.cpu.frequency): the start-up one
    while awake, low_hz while idle.

    On an RP2040 a change also moves clk_peri, which times the UARTs (the
    pico-sdk puts it on the USB PLL's 48 MHz): `retime` (the link's UART,
    hardware/link.py) sets its baud rate again after each change. A change
    waits 10 ms in CircuitPython (its core voltage settling), so it comes
    only with a change of the idle level. A board whose CircuitPython cannot
    set the clock keeps it (tried once)."""

    def __init__(self, cpu, low_hz):
        self.cpu = cpu
        self.full_hz = cpu.frequency
        self.low_hz = low_hz
        self.retime = None

    def slow(self, on):
        hz = self.low_hz if on else self.full_hz
        if hz == self.cpu.frequency:
            return
        try:
            self.cpu.frequency = hz
        except (AttributeError, NotImplementedError, ValueError):
            self.low_hz = self.full_hz  # not settable here: never again
            return
        if self.retime is not None:
            self.retime()


def cpu_clock(mhz):
    """The CPU's clock, lowered to mhz while idle, or None (mhz 0, or a
    board with no microcontroller.cpu)."""
    if not mhz:
        return None
    try:
        import microcontroller
        return CpuClock(microcontroller.cpu, mhz * 1000000)
    except (ImportError, AttributeError, NotImplementedError):
        return None
