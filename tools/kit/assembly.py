"""ASSEMBLY.md of a profile's kit: the steps, made from the profile and kit/bom.json.

Nothing here is typed per build: the parts table, the solder list, the
grid's chain and the checks come from hardware/profiles.py (pins, grid,
pitch, chain order), hardware/leds.py (which LED is which point) and
kit/bom.json (parts, roles, power), so a change there changes the guide.
"""

from hardware import leds, profiles
from jarmo import board
from tools.kit import bom

GRID_NAMES = {"bff": "Adafruit 5x5 NeoPixel Grid BFF",
              "strip60": "25 WS2812B cut from a strip of 60 LEDs a metre",
              "strip30": "25 WS2812B cut from a strip of 30 LEDs a metre"}


def chain(prof):
    """The points in the order of the LED chain: the first is the LED the
    data line enters (hardware/leds.py's table, inverted)."""
    table = leds.profile_map(prof)
    order = [None] * 25
    for point, pixel in enumerate(table):
        order[pixel] = board.NAMES[point]
    return order


def chain_rows(prof):
    """The chain cut into its five rows of five, each as 'a5 -> e5'."""
    order = chain(prof)
    return ["%s -> %s" % (order[i], order[i + 4]) for i in range(0, 25, 5)]


def solder_list(name):
    """(microcontroller pin, what it goes to) for every pin the profile uses."""
    prof = profiles.get(name)
    if bom.boosted(name):
        data = ("the level shifter's 1A; its 1Y through the 470 R resistor to the grid's data "
                "in (DIN) of its first LED, %s" % chain(prof)[0])
    else:
        data = "the grid's data in (DIN) of its first LED, %s" % chain(prof)[0]
    rows = [(prof["pixel_pin"], data)]
    for label, pin, seat, short, long in prof["keys"]:
        what = short if long is None else "%s, held: %s" % (short, long)
        player = " of player %d" % (seat + 1) if prof["tabletop"] else ""
        rows.append((pin, "button %s%s (%s); its other leg to GND" % (label, player, what)))
    if prof["display"]:
        rows.append(("SDA, SCL", "the OLED FeatherWing (I2C 0x3C), through the wing's headers"))
    if prof["led_power"]:
        rows.append((prof["led_power"], "the LED power switch's gate (N-MOSFET, through 100 R; "
                     "100 k to GND): high powers the grid"))
    if prof["link"]:
        tx, rx = prof["link"]
        rows.append((tx, "the link socket's TX (to the other board's RX through the crossed cable)"))
        rows.append((rx, "the link socket's RX"))
    return rows


def _table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def _grid_steps(prof):
    rows = chain_rows(prof)
    if prof["grid"] == "bff":
        return ["Solder the grid BFF as hardware/PROFILES.md shows for this profile; "
                "its LEDs are %s mm apart, chained %s." % (prof["pitch_mm"], ", then ".join(rows))]
    return ["Cut the strip into five pieces of five LEDs, on the copper pads between LEDs "
            "(keep the arrows: data runs along them).",
            "Lay the pieces in the LED carrier's channels, %s mm apart, the first piece's "
            "arrows pointing right as South sees the board; chain them back and forth: %s."
            % (prof["pitch_mm"], ", then ".join(rows)),
            "Join each piece's DO to the next piece's DI, and 5V and GND along the rows, with "
            "short wires at the row ends (the serpentine turns).",
            "Solder the 1000 uF capacitor across 5V and GND at the first LED, and the data "
            "line's series resistor at its DIN (the NeoPixel Uberguide's advice for strips)."]


def _case_steps(name, prof, case_files, with_case):
    stls = [f for f in case_files if f.endswith(".stl")]
    pictures = [f for f in case_files if f.endswith(".png")]
    if not case_files:
        return ["This build has no printed case: its grid's LEDs are %s mm apart, too close "
                "to engrave or read the board's lines. Print `overlay.svg` (docs/KIT.md, "
                "\"The overlay\") or build `handheld` for a board two people can read."
                % prof["pitch_mm"]]
    if not with_case:
        return ["Made without the case: `python3 run.py kit --profile %s` writes it." % name]
    return (["Print these parts (PLA, 0.2 mm layers, 0.4 mm nozzle; the diffuser in white "
             "or natural; print time and filament: docs/BENCHMARKS.md, \"The printed case\"):",
             ""] + ["- `%s` (and `%s` for CAD)" % (f, f[:-4] + ".step") for f in stls] + [""]
            + ["![%s](%s)" % (f[:-4], f) for f in pictures] + [""]
            + ["Lay the LED rows in the carrier's channels, the diffuser on the carrier, then "
               "the lid: each window sits over its LED. The battery and the LED power board "
               "go under the carrier, the Feather on its standoffs. Screw the lid to the base "
               "with the four M3 screws."])


def markdown(name, case_files=(), with_case=True):
    """The assembly guide of profile `name` as Markdown; case_files are the
    names of the case's files written beside it (none: no case)."""
    prof = profiles.get(name)
    out = ["# Building `%s`" % name, "",
           prof["board"] + ".", "",
           "The LED grid: %s, %s mm between LED centres (%s mm from the first to the last)."
           % (GRID_NAMES[prof["grid"]], prof["pitch_mm"], round(4 * prof["pitch_mm"], 2)),
           "Made by `python3 run.py kit --profile %s` from hardware/profiles.py, "
           "jarmo/board.py and kit/bom.json: change those, not this file." % name, "",
           "## Parts and power", "", bom.markdown(name), "",
           "The same list as a spreadsheet: [bom.csv](bom.csv).", "",
           "## Wiring", "", "![Wiring of %s](wiring.svg)" % name, ""]
    out += ["## Solder list", "",
            _table(("microcontroller pin", "goes to"), solder_list(name)), "",
            "Every button's other leg, the grid's GND and the battery's minus meet at the "
            "board's GND.", "",
            "## The LED grid", ""]
    out += ["%d. %s" % (i + 1, step) for i, step in enumerate(_grid_steps(prof))] + [""]
    out += ["## The case", ""] + _case_steps(name, prof, case_files, with_case) + [""]
    out += ["## First power-up", "",
            "1. Before the battery goes in: with a meter, BAT to GND and 5V to GND are not "
            "shorted; the battery's red wire goes to the socket's + (check the polarity "
            "printed beside the JST socket: cells from other sellers may be reversed).",
            "2. Plug in USB with the switch on. The CIRCUITPY drive appears. Copy the game: "
            "`python3 run.py deploy DRIVE --profile %s` (DRIVE is where the drive is mounted)."
            % name,
            "3. The grid lights the start position: South's pieces on rank 1, nearest you. "
            "If the picture is turned or mirrored, the chain is laid another way: "
            "fix the carrier, or the profile's `rotation` / `mirror` / `serpentine`.",
            "4. Press each button: %s." % ", ".join(
                "%s %s" % (k[0], k[3]) for k in prof["keys"]),
            "5. Unplug USB: the game runs on the battery. Switch off: everything goes dark; "
            "switch on: the saved game is offered."]
    return "\n".join(out) + "\n"
