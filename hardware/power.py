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

Dark, the CPU runs at a lower clock (CpuClock: JARMO_IDLE_MHZ, default 48,
0 keeps it): most of a dark board's current is its clocks running, busy or
waiting. Only dark: there nothing is drawn, and a pass's work is a poll; a
dimmed board still draws its LEDs and text, which at 48 MHz take 2.6 times
as long, over the 50 ms a press may wait. A collection of the heap, the
one long piece of work a dark board does, runs at the full clock (the
main loop sets it in the pass before; the next update lowers it again).
The press that wakes the board sets the full clock again. A linked game
keeps the full clock (its UART's bytes come at any time).

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


class Idle:
    """The idle level from the time of the last press or work."""

    def __init__(self, dim_ms=DIM_S * 1000, off_ms=OFF_S * 1000, switch=None, sleep_ms=0,
                 idle_mhz=0, clock=None):
        self.dim_ms = dim_ms
        self.off_ms = off_ms
        self.sleep_ms = sleep_ms    # ms dark before deep sleep (0: never)
        self.sleeper = None         # the deep sleep (code.py's: hardware/deepsleep.py), or None
        self.switch = switch        # the LEDs' power (a MOSFET's gate): .value, or None
        # the CPU's clock while OFF: its MHz (0: kept as it is) until the first
        # dark makes its hardware/cpuclock.py CpuClock
        self.clock = idle_mhz if clock is None else clock
        self.retime = None          # called after each change of the clock (the link's UART)
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
        # (every update: again after a sweep's pass at the full clock, hardware/mainloop.py)
        self.pace(level == OFF and not self.held)
        return level

    def pace(self, slow):
        """The CPU's clock slow (dark) or full. Its module is loaded at the
        first dark: a game that never goes dark keeps its code off the heap."""
        clock = self.clock
        if type(clock) is int:
            if not (slow and clock):
                return
            from hardware.cpuclock import cpu_clock
            clock = self.clock = cpu_clock(clock)
        if clock.slow(slow) and self.retime is not None:
            self.retime()

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
