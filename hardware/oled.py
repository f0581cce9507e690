"""The physical display of a profile: made once at start-up, then this module
is forgotten (code.py: jarmo.unload.forget_module), so its code, its
start-up bytes and their interned names are not kept in the heap of a board
that runs .mpy files from the drive. The text on it is hardware/display.py's.
"""

import displayio

# The SH1107's start-up commands (command, count | 0x80, arguments, then a
# delay in ms), as adafruit_displayio_sh1107 2.0.6 (MIT) sends them to the
# OLED FeatherWing 128x64 (product 4650) turned 90 degrees: multiplex ratio
# 0x3F (64 rows), display offset 0x60. Every delay is 0: without the 0x80
# flag CircuitPython's BusDisplay waits 10 ms after each command (130 ms
# before the first frame); the SH1107 takes the next command at once.
SH1107_START = (
    b"\xae\x80\x00"          # display off
    b"\xdc\x81\x00\x00"      # display start line 0
    b"\x81\x81\x4f\x00"      # contrast
    b"\x20\x80\x00"          # column addressing
    b"\xa0\x80\x00"          # segment remap
    b"\xc0\x80\x00"          # common output scan direction
    b"\xa8\x81\x3f\x00"      # multiplex ratio: 64 rows
    b"\xd3\x81\x60\x00"      # display offset 0x60 (this wing's)
    b"\xd9\x81\x22\x00"      # pre-charge / discharge periods
    b"\xdb\x81\x35\x00"      # VCOM deselect level
    b"\xa4\x80\x00"          # show the RAM's contents
    b"\xa6\x80\x00"          # normal, not inverted
    # the panel stays off (adafruit's turns it on here, then waits 100 ms):
    # its RAM holds noise at power-up; switch_on() lights it once the first
    # picture is in
)
DISPLAY_ON = 0xAF


def make_sh1107_128x64():
    """The OLED FeatherWing 128x64 (product 4650) on the board's I2C pins."""
    import board
    import busio
    from busdisplay import BusDisplay
    from i2cdisplaybus import I2CDisplayBus  # CircuitPython 9+
    displayio.release_displays()
    # 400 kHz (the SH1107's fast mode), not board.I2C()'s 100 kHz: a text
    # refresh then holds the main loop a quarter as long (emulated Feather:
    # a pass with a refresh took up to 410 ms at 100 kHz)
    i2c = busio.I2C(board.SCL, board.SDA, frequency=400_000)
    bus = I2CDisplayBus(i2c, device_address=0x3C)
    # the settings adafruit_displayio_sh1107's SH1107 class passes for this wing
    return BusDisplay(bus, SH1107_START, width=128, height=64, rotation=90, color_depth=1,
                      auto_refresh=False,
                      grayscale=True, pixels_in_byte_share_row=False, data_as_commands=True,
                      brightness_command=0x81, single_byte_bounds=True, SH1107_addressing=True)


def switch_on(display):
    """Light the panel: after the first refresh, which filled its RAM."""
    display.bus.send(DISPLAY_ON, b"")


def make_display(kind):
    """The physical display of a profile's "display" entry, or None."""
    if kind == "sh1107_128x64":
        return make_sh1107_128x64()
    return None
