"""A wiring diagram (SVG) of a board profile's build.

    python3 tools/kit/wiring.py --profile NAME [--out PATH]

Made from hardware/profiles.py (the pins) and kit/bom.json (the parts and the
power design): the microcontroller on the left with one row per wire, the
parts on the right, each wire drawn straight across at its part's row and
labelled with the microcontroller's pin.  Wires between two parts run in
their own vertical channel right of the parts.  Each wire end at the
microcontroller carries `data-pin` (the profile's pin name) and
`data-signal` (what runs on it), so that tests can read the diagram.
"""

import argparse
import html
import os
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware import profiles  # noqa: E402
from hardware.leds import profile_map  # noqa: E402
from jarmo.board import NAMES  # noqa: E402
from tools.kit import bom  # noqa: E402

FONT = 11
CHAR_W = 0.6 * FONT             # a monospace character's advance
ROW = 18
TITLE_H = 24
BOX_GAP = 16
MCU_X, MCU_W = 20, 150
GAP = 150                       # between the microcontroller and the parts: the wires' labels
TOP = 40
LED_STEP = 16
POWER_PINS = ("BAT", "EN", "GND", "USB", "3V", "5V", "VSYS")
BOARDS = {"adafruit_feather_rp2040": "feather_rp2040", "adafruit_qtpy_rp2040": "qtpy_rp2040",
          "raspberry_pi_pico": "pico"}


class Circuit:
    """Parts with rows (terminals or notes) and the wires between them."""

    def __init__(self, title):
        self.title = title
        self.parts = []         # (id, title, [(key, label)], grid or None)
        self.wires = []         # (a, b, label); an end is ("mcu", pin, signal) or (part id, row key)

    def part(self, pid, title, rows, grid=None):
        self.parts.append((pid, title, list(rows), grid))

    def to_mcu(self, pin, signal, pid, key, label=None):
        self.wires.append((("mcu", pin, signal), (pid, key), label or pin))

    def link(self, a, b, label):
        self.wires.append((a, b, label))


def _key_label(key):
    label, _pin, _seat, short, long = key
    return "%s: %s%s" % (label, short, "/" + long if long else "")


def _display(c, p):
    wing_keys = [k for k in p["keys"] if k[1] in ("D9", "D6", "D5")]
    rows = [("SDA", "SDA (I2C 0x3C)"), ("SCL", "SCL")] + [(k[1], "button " + _key_label(k)) for k in wing_keys]
    c.part("display", "OLED FeatherWing 128x64 (4650), stacked", rows + [("3V", "3V"), ("GND", "GND")])
    c.to_mcu("SDA", "I2C SDA", "display", "SDA")
    c.to_mcu("SCL", "I2C SCL", "display", "SCL")
    for k in wing_keys:
        c.to_mcu(k[1], "button " + k[0], "display", k[1])
    c.to_mcu("3V", "3V", "display", "3V")
    c.to_mcu("GND", "GND", "display", "GND")
    return {k[1] for k in wing_keys}


def _buttons(c, p, on_wing, nav):
    keys = [k for k in p["keys"] if k[1] not in on_wing]
    if not keys:
        return
    title = "5-way switch, common to GND" if nav else "buttons: pin to GND when pressed"
    c.part("buttons", title, [(k[1], _key_label(k)) for k in keys] + [("GND", "common (GND)")])
    for k in keys:
        c.to_mcu(k[1], "button " + k[0], "buttons", k[1])
    c.to_mcu("GND", "GND", "buttons", "GND")


def _grid(c, p, strip):
    kind = {"bff": "5x5 NeoPixel Grid BFF (5646)", "strip60": "WS2812B strip 60/m, 5 rows of 5",
            "strip30": "WS2812B strip 30/m, 5 rows of 5"}[p["grid"]]
    rows = [("DIN", "DIN (BFF pad A3)" if p["grid"] == "bff" else "DIN"), ("VDD", "5V / + (VDD)"), ("GND", "GND / -")]
    c.part("grid", "LED grid: " + kind, rows, grid=p)
    c.to_mcu("GND", "GND", "grid", "GND")
    if strip:
        c.part("shifter", "74AHCT125 level shifter", [("1A", "1A (in)"), ("1Y", "1Y (out)"), ("VCC", "VCC 5V"),
                                                      ("1OE", "1OE (to GND)"), ("GND", "GND")])
        c.part("r470", "470R series resistor", [("a", "a"), ("b", "b")])
        c.to_mcu(p["pixel_pin"], "grid data", "shifter", "1A")
        c.to_mcu("GND", "GND", "shifter", "1OE")
        c.to_mcu("GND", "GND", "shifter", "GND")
        c.link(("shifter", "1Y"), ("r470", "a"), "DATA 5V")
        c.link(("r470", "b"), ("grid", "DIN"), "DIN")
    else:
        c.to_mcu(p["pixel_pin"], "grid data", "grid", "DIN")


def _led_supply(c, p, strip, supply):
    """The grid's supply: through the LED power switch (and the boost of a strip), or the 5V pin."""
    if p["led_power"] is None:
        c.to_mcu(supply, supply, "grid", "VDD")
        return
    c.part("switch", "LED power switch: AO3401 + 2N7002", [
        ("G", "gate in (100R, 100k to GND)"), ("S", "P-FET source (100k to G)"), ("D", "P-FET drain: out"),
        ("GND", "N-FET source: GND")])
    c.to_mcu(p["led_power"], "LED power", "switch", "G")
    c.to_mcu(supply, supply, "switch", "S")
    c.to_mcu("GND", "GND", "switch", "GND")
    if not strip:
        c.link(("switch", "D"), ("grid", "VDD"), "VLED")
        return
    c.part("boost", "MiniBoost 5V 1A (4654)", [("VIN", "VIN"), ("GND", "GND"), ("5V", "5V out"),
                                                ("5V2", "5V out"), ("5V3", "5V out")])
    c.part("cap", "1000 uF across the strip", [("+", "+"), ("-", "-")])
    c.to_mcu("GND", "GND", "boost", "GND")
    c.to_mcu("GND", "GND", "cap", "-")
    c.link(("switch", "D"), ("boost", "VIN"), "VLED")
    c.link(("boost", "5V"), ("grid", "VDD"), "5V")
    c.link(("boost", "5V2"), ("shifter", "VCC"), "5V")
    c.link(("boost", "5V3"), ("cap", "+"), "5V")


def _battery(c, capacity):
    c.part("battery", "LiPo %s mAh, JST-PH" % capacity, [("+", "+ (red)"), ("-", "- (black)")])


def _power(c, p, data):
    capacity = bom.battery_mah(p["_name"], data)
    _battery(c, capacity)
    board = p["board_id"]
    if board == "adafruit_feather_rp2040":
        c.to_mcu("BAT", "BAT", "battery", "+", "BAT (JST +)")
        c.to_mcu("GND", "GND", "battery", "-", "GND (JST -)")
        c.part("onoff", "on/off slide switch (805)", [("1", "common"), ("2", "side: closed = off")])
        c.to_mcu("EN", "EN", "onoff", "1")
        c.to_mcu("GND", "GND", "onoff", "2")
        return "BAT"
    charger = "Charger BFF (5397): slide switch" if board == "adafruit_qtpy_rp2040" else \
        "LiPo SHIM (PIM557): power button"
    out = "5V" if board == "adafruit_qtpy_rp2040" else "VSYS"
    c.part("charger", charger, [("B+", "JST-PH +"), ("B-", "JST-PH -"), ("OUT", out), ("GND", "GND")])
    c.link(("battery", "+"), ("charger", "B+"), "+")
    c.link(("battery", "-"), ("charger", "B-"), "-")
    c.to_mcu(out, out, "charger", "OUT")
    c.to_mcu("GND", "GND", "charger", "GND")
    return out


def _link(c, p):
    tx, rx = p["link"]
    c.part("link", "link socket JST-PH 3 (B3B-PH-K-S)", [("1", "1: TX"), ("2", "2: GND"), ("3", "3: RX"),
                                                         ("note", "cable crossed: 1-3, 2-2, 3-1")])
    c.to_mcu(tx, "link TX", "link", "1")
    c.to_mcu("GND", "GND", "link", "2")
    c.to_mcu(rx, "link RX", "link", "3")


def circuit(profile_name, data=None):
    """The build's circuit: parts and wires, from the profile and kit/bom.json."""
    data = data or bom.load()
    p = dict(profiles.get(profile_name), _name=profile_name)
    bom._build(profile_name, data)
    strip = p["grid"] != "bff"
    c = Circuit("%s: %s" % (profile_name, data["parts"][BOARDS[p["board_id"]]]["name"]))
    on_wing = _display(c, p) if p["display"] else set()
    _buttons(c, p, on_wing, nav=profile_name == "joystick")
    supply = _power(c, p, data)
    _grid(c, p, strip)
    _led_supply(c, p, strip, supply)
    _link(c, p)
    return c


# ---------------------------------------------------------------- layout

def _text(x, y, s, anchor="start", size=FONT, attrs=""):
    return '<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s"%s>%s</text>' % (
        x, y, size, anchor, attrs, html.escape(s))


def _grid_height(grid):
    return 0 if grid is None else 5 * LED_STEP + 28


def _place(c):
    """Each part's box (y top, height) and each row's centre y."""
    y = TOP + TITLE_H + 8
    boxes, rows = {}, {}
    for pid, _title, prow, grid in c.parts:
        height = TITLE_H + len(prow) * ROW + _grid_height(grid) + 6
        boxes[pid] = (y, height)
        for i, (key, _label) in enumerate(prow):
            rows[(pid, key)] = y + TITLE_H + i * ROW + ROW / 2
        y += height + BOX_GAP
    return boxes, rows, y


def _part_width(c):
    longest = max(max([len(t) + 2] + [len(label) for _k, label in rows]) for _p, t, rows, _g in c.parts)
    return max(260, int(longest * CHAR_W) + 24)


def _grid_svg(grid, x, y):
    """The 25 LEDs as South sees them and the chain through them, in the
    profile's order (hardware/leds.py's table: serpentine, mirrored)."""
    table = profile_map(grid)
    place = [None] * 25
    for point, pixel in enumerate(table):
        place[pixel] = (x + 70 + (point % 5) * LED_STEP, y + 8 + (4 - point // 5) * LED_STEP)
    out = ['<polyline fill="none" stroke="#888" stroke-width="1" points="%s"/>'
           % " ".join("%.1f,%.1f" % pt for pt in place)]
    out.extend('<circle cx="%.1f" cy="%.1f" r="4" fill="#fff" stroke="#333"/>' % pt for pt in place)
    first = place[0]
    out.append('<circle class="first-led" cx="%.1f" cy="%.1f" r="4" fill="#333"/>' % first)
    out.append(_text(x + 8, y + 12, "DIN -> %s" % NAMES[table.index(0)], size=9))
    out.append(_text(x + 70 + 5 * LED_STEP + 6, y + 12, "pitch %.4g mm" % grid["pitch_mm"], size=9))
    chain = "serpentine" if grid["serpentine"] else "row by row"
    if grid["mirror"]:
        chain += ", right to left"
    out.append(_text(x + 70 + 5 * LED_STEP + 6, y + 26, "chain: " + chain, size=9))
    return out


def _parts_svg(c, boxes, rows, px, pw):
    out = []
    for pid, title, prow, grid in c.parts:
        top, height = boxes[pid]
        out.append('<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="#f7f7f7" stroke="#333" data-part="%s"/>'
                   % (px, top, pw, height, pid))
        out.append(_text(px + 6, top + 16, title, attrs=' font-weight="bold"'))
        for key, label in prow:
            out.append(_text(px + 10, rows[(pid, key)] + 4, label))
        if grid is not None:
            out.extend(_grid_svg(grid, px, top + TITLE_H + len(prow) * ROW))
    return out


def _mcu_svg(c, rows, bottom):
    out = ['<rect x="%d" y="%d" width="%d" height="%.1f" fill="#eef4ff" stroke="#333" data-part="mcu"/>'
           % (MCU_X, TOP, MCU_W, bottom - TOP - BOX_GAP),
           _text(MCU_X + 6, TOP + 16, "microcontroller", attrs=' font-weight="bold"')]
    for (a, b, _label) in c.wires:
        if a[0] == "mcu":
            y = rows[b]
            out.append(_text(MCU_X + MCU_W - 6, y + 4, a[1], anchor="end",
                             attrs=' data-pin="%s" data-signal="%s"' % (a[1], html.escape(a[2]))))
    return out


def _wires_svg(c, rows, px, pw):
    out = []
    channel = px + pw + 12 + 10 * CHAR_W
    for a, b, label in c.wires:
        if a[0] == "mcu":
            y = rows[b]
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#c33" data-pin="%s" data-signal="%s"/>'
                       % (MCU_X + MCU_W, y, px, y, a[1], html.escape(a[2])))
            out.append(_text(MCU_X + MCU_W + GAP / 2, y - 3, label, anchor="middle", size=10))
            continue
        y1, y2 = rows[a], rows[b]
        channel += 12
        out.append('<polyline fill="none" stroke="#36c" points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" '
                   'data-net="%s"/>' % (px + pw, y1, channel, y1, channel, y2, px + pw, y2, html.escape(label)))
        out.append(_text(px + pw + 6, y1 - 3, label, size=10))
        out.append(_text(px + pw + 6, y2 - 3, label, size=10))
    return out, channel


def _notes(profile_name, data, y, width):
    p = data["builds"][profile_name]["power"]
    lines = []
    for head, body in (("grid's supply", p["grid_feed"]), ("on/off", p["switch"]["where"]), ("why", p["why"])):
        lines.extend(textwrap.wrap("%s: %s" % (head, body), int(width / CHAR_W) - 2))
    return [_text(MCU_X, y + 16 + i * 15, line) for i, line in enumerate(lines)], y + 16 + len(lines) * 15


def wiring_svg(profile_name, data=None):
    """The build's wiring diagram as SVG text."""
    data = data or bom.load()
    c = circuit(profile_name, data)
    boxes, rows, bottom = _place(c)
    px = MCU_X + MCU_W + GAP
    pw = _part_width(c)
    wires, right = _wires_svg(c, rows, px, pw)
    width = int(right + 30)
    notes, height = _notes(profile_name, data, bottom, width - 2 * MCU_X)
    body = ([_text(MCU_X, 24, "Jarmo wiring, " + c.title, size=14, attrs=' font-weight="bold"')]
            + _mcu_svg(c, rows, bottom) + _parts_svg(c, boxes, rows, px, pw) + wires + notes)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="monospace" data-profile="%s">\n'
            '<rect width="100%%" height="100%%" fill="#fff"/>\n%s\n</svg>\n'
            % (width, height + 20, width, height + 20, profile_name, "\n".join(body)))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 tools/kit/wiring.py",
                                 description="Write a board profile's wiring diagram (SVG) from "
                                             "hardware/profiles.py and kit/bom.json.")
    ap.add_argument("--profile", metavar="NAME", default="handheld", help="the build (default: handheld)")
    ap.add_argument("--out", metavar="PATH", help="where to write (default: build/kit/NAME/wiring.svg)")
    args = ap.parse_args(argv)
    out = args.out or os.path.join(ROOT, "build", "kit", args.profile, "wiring.svg")
    try:
        svg = wiring_svg(args.profile)
    except ValueError as err:
        print("wiring: %s" % err, file=sys.stderr)
        return 2
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(svg)
    print("wrote %s" % os.path.relpath(out, os.getcwd()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
