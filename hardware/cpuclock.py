"""The CPU's clock, lowered while the board is dark (hardware/power.py Idle).

Loaded at the first dark: until then its code stays off the heap (on stock
CircuitPython a module's code is heap). The measured saving, the harness
that follows the clock and what a change moves: docs/BENCHMARKS.md, "Power".
"""


class CpuClock:
    """The CPU's clock (microcontroller.cpu.frequency): the start-up one,
    or low_hz while the board is dark.

    On an RP2040 a change also moves clk_peri, which times the UARTs (the
    pico-sdk puts it on the USB PLL's 48 MHz): Idle.retime (the link's
    UART, hardware/link.py) sets its baud rate again after each change. A
    change waits 10 ms in stock CircuitPython (its core voltage settling),
    so it comes only with a change of the idle level or for a sweep of the
    heap. A board whose CircuitPython cannot set the clock keeps it (tried
    once)."""

    def __init__(self, cpu, low_hz):
        self.cpu = cpu
        self.full_hz = cpu.frequency
        self.low_hz = low_hz
        self.slowed = False

    def slow(self, on):
        """Slow (low_hz) or full; True if the clock changed."""
        if on == self.slowed:
            return False
        self.slowed = on
        hz = self.low_hz if on else self.full_hz
        if hz == self.cpu.frequency:
            return False
        try:
            self.cpu.frequency = hz
        except (AttributeError, NotImplementedError, ValueError):
            self.low_hz = self.full_hz  # not settable here: never again
            return False
        return True


def cpu_clock(mhz):
    """The CPU's clock, lowered to mhz while dark (a board with no
    microcontroller.cpu: a clock that stays as it is)."""
    try:
        import microcontroller
        return CpuClock(microcontroller.cpu, mhz * 1000000)
    except (ImportError, AttributeError, NotImplementedError):
        return CpuClock(_Fixed(), 0)


class _Fixed:
    frequency = 0       # (low_hz 0 = full_hz: never changed)
