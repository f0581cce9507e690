"""Board profiles as plain data: pins, pixel order, buttons, display.

A profile is a dict.  Keys:

  "board"        text for people: which boards and wings
  "pixel_pin"    board pin name of the NeoPixel grid's data line
  "pixel_order"  "GRB" for WS2812 / SK6812 NeoPixels
  "rotation"     0, 90, 180 or 270: how far the board picture is turned
                 clockwise on the LED grid (see hardware/leds.py)
  "serpentine"   True if every second LED row runs backwards (the chain
                 order: a strip cut into rows and chained back and forth)
  "mirror"       True if the rows run right to left as South sees them
                 (the BFF's chain: its first LED top right, its jumpers at
                 the top; Adafruit's board file for product 5646)
  "grid"         which LED grid: "bff" (Adafruit's 5x5 NeoPixel Grid BFF),
                 "strip60" / "strip30" (WS2812B strip of 60 / 30 LEDs a
                 metre, cut into five rows of five); its part in kit/bom.json
  "pitch_mm"     distance between neighbouring LED centres, in mm (the
                 overlay, the case's windows and lines: tools/kit/)
  "brightness"   0..255 cap applied on top of the app's own brightness
                 (small grids get hot and draw much current at full power)
  "keys"         tuple of (label, pin, seat, short, long): label is the name
                 printed next to the button (and the simulator key), seat
                 0 or 1 (tabletop: the two players), short the button name
                 sent on press, long the name sent instead when held for
                 "long_ms" (or None: the short name is sent at once)
  "long_ms"      hold time of a long press
  "pull_up"      True: buttons connect the pin to GND (internal pull-up)
  "display"      None, or "sh1107_128x64" (OLED FeatherWing 4650)
  "tabletop"     True: two players face each other, no display
  "usb_edit_key" label of the key that, held at power-up, keeps the
                 CIRCUITPY drive writable over USB (boot.py; only on a
                 board without a usable nvm, hardware/flash.py)
  "board_id"     CircuitPython's id of the board (its firmware's name on
                 circuitpython.org); the device tests boot that firmware
  "link"         None, or (TX pin, RX pin) of the link cable's UART (a
                 second board, docs/LINK.md; hardware/link.py)
  "led_power"    None, or the pin that switches the LEDs' power (a MOSFET,
                 high = on; hardware/power.py turns it off while the board
                 is idle and dark; wiring in hardware/PROFILES.md)

Pin names are strings, looked up with getattr(board, name) at setup, so
this module imports nothing and costs only its constants.
Button names are those of jarmo/app_buttons.py.  Each field and the value most
boards share is written once, in profile()'s signature; the three-button
set once, in three_buttons().  (Built by calls, the profiles also leave
about 0.9 KB more heap free on the board than dict literals did: 68,144
against 67,264 bytes at the menu on the emulated QT Py.)
"""


# LED centre to centre: the BFF's 0.1 inch (Adafruit's board file for product
# 5646); a strip's 1000 mm / LEDs a metre (its rows are laid at the same
# distance, so the grid is square).
BFF_PITCH_MM = 2.54
STRIP60_PITCH_MM = 16.667
STRIP30_PITCH_MM = 33.333


def three_buttons(next_pin, select_pin, back_pin, labels="abc", seat=0):
    """The three-button set: next (held: prev), select (held: menu), back."""
    return ((labels[0], next_pin, seat, "next", "prev"),
            (labels[1], select_pin, seat, "select", "menu"),
            (labels[2], back_pin, seat, "back", None))


def profile(board, pixel_pin, keys=(), board_id=None, display=None, brightness=64,
            tabletop=False, usb_edit_key="c", pixel_order="GRB", rotation=0, serpentine=False,
            mirror=False,
            long_ms=600, pull_up=True, link=("TX", "RX"), led_power=None,
            grid="bff", pitch_mm=BFF_PITCH_MM):
    """A profile: every field named once here, with the default most boards share."""
    return {"board": board, "pixel_pin": pixel_pin, "pixel_order": pixel_order,
            "rotation": rotation, "serpentine": serpentine, "mirror": mirror, "brightness": brightness,
            "keys": keys, "long_ms": long_ms, "pull_up": pull_up, "display": display,
            "tabletop": tabletop, "usb_edit_key": usb_edit_key, "board_id": board_id,
            "link": link, "led_power": led_power, "grid": grid, "pitch_mm": pitch_mm}


FEATHER_OLED = profile(
    board="Feather RP2040 + 128x64 OLED FeatherWing (SH1107) + 5x5 NeoPixel grid",
    pixel_pin="D10",
    keys=three_buttons("D9", "D6", "D5"),
    display="sh1107_128x64",
    board_id="adafruit_feather_rp2040",
    led_power="D11",            # the grid is fed from the battery through a MOSFET
    mirror=True,                # the BFF's chain (hardware/PROFILES.md, "The LED grid")
)

# The readable handheld: the docs' default build (docs/KIT.md).  The Feather
# and its wing as in feather_oled; the grid is 25 WS2812B cut from a strip of
# 60 a metre, five rows of five chained back and forth, 16.7 mm apart.
HANDHELD = dict(
    FEATHER_OLED,
    board="Feather RP2040 + 128x64 OLED FeatherWing (SH1107) + 5x5 grid of WS2812B strip (16.7 mm)",
    grid="strip60",
    pitch_mm=STRIP60_PITCH_MM,
    serpentine=True,
    mirror=False,
)

QTPY_BFF = profile(
    board="QT Py RP2040 + 5x5 NeoPixel Grid BFF + three buttons",
    pixel_pin="A3",
    brightness=48,
    keys=three_buttons("A0", "A1", "A2"),
    board_id="adafruit_qtpy_rp2040",
    mirror=True,                # the BFF's chain (hardware/PROFILES.md, "The LED grid")
)

JOYSTICK = profile(
    board="Feather RP2040 + 128x64 OLED FeatherWing + 5-way switch + 5x5 grid",
    pixel_pin="D10",
    keys=(
        ("i", "D11", 0, "up", None),
        ("k", "D12", 0, "down", None),
        ("j", "D13", 0, "left", None),
        ("l", "D24", 0, "right", None),
        ("o", "D25", 0, "select", None),
        ("a", "D9", 0, "next", "prev"),
        ("b", "D6", 0, "menu", None),
        ("c", "D5", 0, "back", None),
    ),
    display="sh1107_128x64",
    board_id="adafruit_feather_rp2040",
    led_power="A0",
    mirror=True,                # the BFF's chain (hardware/PROFILES.md, "The LED grid")
)

# Two players across a table: 25 WS2812B cut from a strip of 30 a metre,
# 33.3 mm apart, so that the board reads from either side.
TABLETOP = profile(
    board="Feather RP2040 + 5x5 grid of WS2812B strip (33.3 mm) + two sets of three buttons",
    pixel_pin="D10",
    keys=three_buttons("A0", "A1", "A2", "123", 0) + three_buttons("D11", "D12", "D13", "890", 1),
    tabletop=True,
    usb_edit_key="3",
    board_id="adafruit_feather_rp2040",
    led_power="D9",
    grid="strip30",
    pitch_mm=STRIP30_PITCH_MM,
    serpentine=True,
)

PICO = profile(
    board="Raspberry Pi Pico + 5x5 NeoPixel grid on GP16 + three buttons on GP13-15",
    pixel_pin="GP16",
    brightness=48,
    keys=three_buttons("GP13", "GP14", "GP15"),
    link=("GP0", "GP1"),        # UART0: free beside the grid and the buttons
    board_id="raspberry_pi_pico",
    led_power="GP17",
    mirror=True,                # the BFF's chain (hardware/PROFILES.md, "The LED grid")
)

# Blinka's simulated board on a PC (BLINKA_OS_AGNOSTIC=1).  Input comes
# from a host event source (file, script or terminal), not from pins.
HOST = profile(
    board="PC: CPython + Adafruit Blinka (simulated pins)",
    pixel_pin="NEOPIXEL",
    brightness=255,
    usb_edit_key=None,
    link=None,                  # the simulator links over TCP (--link, host/link.py)
)

PROFILES = {
    "feather_oled": FEATHER_OLED,
    "handheld": HANDHELD,
    "qtpy_bff": QTPY_BFF,
    "joystick": JOYSTICK,
    "tabletop": TABLETOP,
    "pico": PICO,
    "host": HOST,
}

DEFAULT = "feather_oled"


def get(name):
    """The profile called name; ValueError naming the known ones if unknown."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError("unknown profile %r: expected one of %s"
                         % (name, ", ".join(sorted(PROFILES))))


def led_switch(profile):
    """The LEDs' power switch of a profile (its "led_power" pin, driven high
    for on), or None: hardware/power.py's Idle cuts the LEDs' supply with it
    while they are dark. (Made here at start-up: this module then leaves
    the heap.)"""
    pin_name = profile.get("led_power")
    if pin_name is None:
        return None
    import board
    import digitalio
    switch = digitalio.DigitalInOut(getattr(board, pin_name))
    switch.switch_to_output(value=True)
    return switch
