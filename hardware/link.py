"""The link cable: a UART between two boards, the byte line jarmo/link.py takes.

Three wires: this board's TX to the other's RX, RX to TX, GND to GND. The
profile names the pins ("link": (TX, RX); hardware/profiles.py): QT Py
RP2040 TX GPIO20 / RX GPIO5 (UART1), Feather RP2040 TX GPIO0 / RX GPIO1
(UART0), Pico GP0 / GP1 (UART0). 115200 baud, 8N1. Reads never wait
(timeout=0): the main loop never blocks on the cable.
"""

BAUD = 115200


class UartLine:
    """readinto(buf) -> count of bytes now (0: none); write(data); waiting()."""

    def __init__(self, tx, rx):
        import board
        import busio
        self.uart = busio.UART(getattr(board, tx), getattr(board, rx), baudrate=BAUD,
                               timeout=0, receiver_buffer_size=256)
        self.ident = board_ident()

    def readinto(self, buf):
        uart = self.uart
        if not uart.in_waiting:
            return 0
        return uart.readinto(buf) or 0

    def write(self, data):
        self.uart.write(data)

    def waiting(self):
        """True when bytes came (the main loop's naps end for them)."""
        return self.uart.in_waiting > 0

    def retime(self):
        """The baud rate again, from clk_peri as it is now (a change of the
        CPU's clock moved it: hardware/cpuclock.py CpuClock)."""
        self.uart.baudrate = BAUD


def board_ident():
    """This board's identity: its microcontroller's unique id (8 bytes on
    an RP2040); it breaks a tie between two boards' equal offers."""
    try:
        import microcontroller
        return bytes(microcontroller.cpu.uid)
    except (ImportError, AttributeError, NotImplementedError):
        return b""


def make_line(profile):
    """The profile's link line, or None (no link pins, or they cannot be had:
    the menu then offers no Link)."""
    pins = profile.get("link")
    if not pins:
        return None
    try:
        return UartLine(pins[0], pins[1])
    except (ValueError, RuntimeError, AttributeError):
        return None
