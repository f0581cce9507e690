"""The printable case of a strip-grid build, made with build123d.

    python tools/kit/case.py [--profile handheld] [--out build/kit/PROFILE] [--no-render]

From hardware/profiles.py (grid, pitch, display, keys), kit/outlines.json
(the parts' sizes, from the makers' board files and data sheets) and
jarmo/board.py (the lines), builds:

  lid          top plate: the 38 lines, the dotted line, the camp markers and
               the camps' names as engraved grooves, a window over every
               LED, openings for the OLED and the buttons, screw holes
  diffuser     thin plate under the lid (print in white or natural PLA)
  carrier      the LED strips' plate: one channel a row at the pitch, and
               walls between the LEDs so that each lights its own window
  base         floor and walls: battery bay, standoffs for the Feather,
               posts for the carrier and the boards, USB-C, slide switch
               and link socket openings, bosses for the lid's M3 screws
  button-caps  printed plungers from the lid down to the buttons

Coordinates: millimetres, x to South's right, y towards North, z up from
the underside of the base; the grid's centre at x = y = 0.  Every part is
exported where it sits in the assembled case, which is also how it prints
(flat side down).  assembly() gives the same parts with the electronic
parts' outlines and the LED centres, for the checks in tests/kit/.
"""

import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware import profiles  # noqa: E402
from jarmo import board  # noqa: E402

OUTLINES_PATH = os.path.join(ROOT, "kit", "outlines.json")

WALL = 2.4              # side walls (the check asks >= 1.6 mm)
FLOOR = 2.0
LID_T = 2.4
GROOVE_DEPTH = 0.6      # leaves 1.8 mm of lid under a groove
DIFFUSER_T = 0.8        # deliberately thin: light passes through it
DIFFUSER_MIN = 0.6
BAFFLE_T = 2.0          # walls between the LEDs' cells
CARRIER_T = 2.4
CHANNEL_DEPTH = 0.6
FIT = 0.5               # designed gap between a part and what holds it
BOSS_R = 3.2
BOSS_INSET = 1.5        # boss centre inside the interior's corner
PILOT_D = 2.5           # M3 self-tapping into PLA
SCREW_HOLE_D = 3.4
STANDOFF_D = 5.5
STANDOFF_PILOT_D = 2.0  # M2.5 self-tapping, for the Feather
CAP_PROTRUDE = 1.5      # how far a button cap stands above the lid
CAP_FLANGE_T = 2.0
CAP_PLAY = 0.4          # free travel between a cap and its button
CORNER_R = 3.0

# How each strip grid is laid out: window size, light gap, margin of the
# cells beyond the outer LEDs (in pitches), room at the strip ends for the
# serpentine's wires, width of the engraved grooves.
GRID_STYLE = {
    "strip60": {"window": 0.45, "light_gap": 3.0, "cell_margin": 0.5, "end_room": 2.5, "text_h": 5.0,
                "groove_w": 1.0},
    "strip30": {"window": 0.40, "light_gap": 5.0, "cell_margin": 0.3, "end_room": 2.5, "text_h": 7.0,
                "groove_w": 1.4},
}


# What write_case writes for a profile with a case: each part as STL and
# STEP, and the pictures (kept here so that the guide and the docs can name
# them without the CAD run; tests/kit/test_case.py checks they agree).
PART_NAMES = ("lid", "diffuser", "carrier", "base", "button-caps")
PICTURES = ("render.png", "render-open.png")


def file_names(profile_name):
    """The names of the files write_case writes for the profile ([] without a case)."""
    if not has_case(profile_name):
        return []
    return [n + ext for n in PART_NAMES for ext in (".stl", ".step")] + list(PICTURES)


def has_case(profile_name):
    """True if the profile's grid is cut from a strip (its LEDs are far enough apart for a lid)."""
    return profiles.get(profile_name)["grid"] in GRID_STYLE


def load_outlines():
    with open(OUTLINES_PATH) as f:
        return json.load(f)


# --- electronic parts' outlines -------------------------------------------------

def box(name, x0, y0, z0, x1, y1, z1, seat="-z", holes=()):
    """An electronic part's outline as a box; seat is the side it rests on
    (not grown by the clearance check); holes (x, y, d) go through in z."""
    return {"name": name, "kind": "box", "min": (x0, y0, z0), "max": (x1, y1, z1),
            "seat": seat, "holes": tuple(holes)}


def cylinder(name, centre, axis, r, start, end, seat):
    """A cylinder along axis "x" or "z": centre gives the other two
    coordinates, start..end the extent along the axis."""
    return {"name": name, "kind": "cyl", "centre": tuple(centre), "axis": axis, "r": r,
            "start": start, "end": end, "seat": seat}


def outline_manifold(part, grow=0.0):
    """The outline as a manifold3d solid, grown by `grow` on every side but
    its seat (holes shrink by as much)."""
    import manifold3d as m3
    seat = part["seat"]
    if part["kind"] == "box":
        lo = list(part["min"])
        hi = list(part["max"])
        for i, axis in enumerate("xyz"):
            if seat != "-" + axis:
                lo[i] -= grow
            if seat != "+" + axis:
                hi[i] += grow
        solid = m3.Manifold.cube([hi[i] - lo[i] for i in range(3)]).translate(lo)
        for x, y, d in part["holes"]:
            r = d / 2 - grow
            if r > 0:
                hole = m3.Manifold.cylinder(hi[2] - lo[2] + 2, r, circular_segments=48)
                solid = solid - hole.translate((x, y, lo[2] - 1))
        return solid
    axis = part["axis"]
    start, end = part["start"] - grow, part["end"] + grow
    if seat == "-" + axis:
        start += grow
    if seat == "+" + axis:
        end -= grow
    solid = m3.Manifold.cylinder(end - start, part["r"] + grow, circular_segments=64)
    if axis == "z":
        cx, cy = part["centre"]
        return solid.translate((cx, cy, start))
    cy, cz = part["centre"]
    return solid.rotate((0, 90, 0)).translate((start, cy, cz))


# --- layout -------------------------------------------------------------------

def led_centre(p, pitch):
    """(x, y) of point p's LED: file a..e left to right, rank 5 at the top."""
    return ((p % 5 - 2) * pitch, (p // 5 - 2) * pitch)


def layout(profile_name):
    """Every size and position of a profile's case, as a dict."""
    prof = profiles.get(profile_name)
    if prof["grid"] not in GRID_STYLE:
        raise ValueError("profile %r has no case (grid %r)" % (profile_name, prof["grid"]))
    parts = load_outlines()
    style = GRID_STYLE[prof["grid"]]
    strip = parts[prof["grid"]]
    led = parts["ws2812b_5050"]
    pitch = prof["pitch_mm"]
    L = {"profile": profile_name, "pitch": pitch, "style": style, "parts": parts,
         "display": prof["display"], "tabletop": prof["tabletop"], "strip": strip, "led": led}
    L["window_d"] = style["window"] * pitch
    L["strip_half"] = 2.5 * pitch
    L["ix1"] = L["strip_half"] + style["end_room"]
    L["ix0"] = -L["ix1"]
    L["carrier_x"] = L["ix1"] - FIT
    L["carrier_y"] = (2 + style["cell_margin"]) * pitch
    if prof["tabletop"]:
        _tabletop_layout(L)
    else:
        _handheld_layout(L)
    # the grid's stack, down from the diffuser
    L["diffuser_z"] = L["lid_z"] - DIFFUSER_T
    L["led_top"] = L["diffuser_z"] - style["light_gap"]
    L["led_z"] = L["led_top"] - led["h"]
    L["strip_z"] = L["led_z"] - strip["thickness"]
    L["carrier_top"] = L["strip_z"] + CHANNEL_DEPTH
    L["carrier_z"] = L["carrier_top"] - CARRIER_T
    L["bosses"] = [(x, y) for x in (L["ix0"] + BOSS_INSET, L["ix1"] - BOSS_INSET)
                   for y in (L["iy0"] + BOSS_INSET, L["iy1"] - BOSS_INSET)]
    L["electronics"] = _electronics(L)
    return L


def _handheld_layout(L):
    """Grid at the top, the Feather with its OLED wing below it (South's
    side), the MOSFET board, slide switch and link socket beside it, the
    battery under the LED carrier."""
    p = L["pitch"]
    parts = L["parts"]
    strip_w = L["strip"]["width"]
    boss_y = 2 * p + strip_w / 2 + FIT + BOSS_R
    L["iy1"] = max(L["carrier_y"] + FIT, boss_y + BOSS_INSET)
    L["fx"] = L["ix0"] + parts["feather_rp2040"]["usb_c"]["overhang_x"] + FIT
    L["fy"] = -(L["carrier_y"] + FIT) - parts["feather_rp2040"]["pcb"]["d"]
    L["iy0"] = L["fy"] - (BOSS_INSET + BOSS_R + FIT)
    L["feather_z"] = FLOOR + 4.0
    wing = parts["oled_featherwing_128x64"]
    pcb_top = L["feather_z"] + parts["feather_rp2040"]["pcb"]["t"]
    L["wing_z"] = pcb_top + wing["stacking"]["female_header_height"]
    button_top = L["wing_z"] + wing["pcb"]["t"] + wing["buttons"]["body"]["h"]
    L["lid_z"] = button_top + CAP_PLAY + CAP_FLANGE_T
    # under the carrier: the battery to the North, the perfboard to the South
    bat = parts["lipo_1200"]
    bat_y = L["iy1"] - FIT - 2.0 - FIT - bat["d"] / 2
    L["battery"] = ("lipo_1200", 0.0, bat_y)
    mb = parts["mosfet_board"]
    L["mosfet_rect"] = (-mb["w"] / 2, -L["carrier_y"] + 1.0, mb["w"] / 2, -L["carrier_y"] + 1.0 + mb["d"])
    L["mosfet_z"] = FLOOR + 1.5
    L["switch_y"] = L["fy"] + 19.0
    L["switch_z"] = FLOOR + 6.0
    L["socket_y"] = L["fy"] + 7.0
    L["socket_z"] = FLOOR + 8.0
    L["button_boards"] = []


def _tabletop_layout(L):
    """Grid in the middle, one band of three buttons beyond each camp, the
    Feather, battery, MOSFET board, switch and socket under the carrier."""
    parts = L["parts"]
    bb = parts["button_board"]
    L["iy1"] = L["carrier_y"] + FIT + bb["d"] + 1.0
    L["iy0"] = -L["iy1"]
    L["fx"] = L["ix0"] + parts["feather_rp2040"]["usb_c"]["overhang_x"] + FIT
    L["fy"] = -parts["feather_rp2040"]["pcb"]["d"] / 2
    L["feather_z"] = FLOOR + 4.0
    feather = parts["feather_rp2040"]
    mb = parts["mosfet_board"]
    L["mosfet_z"] = FLOOR + 1.5
    # the carrier clears the tallest part under it
    under = max(L["feather_z"] + feather["pcb"]["t"] + feather["components_above_pcb"],
                L["mosfet_z"] + mb["t"] + mb["parts_h"])
    carrier_z = under + FIT + 0.1
    led_h = L["led"]["h"]
    strip_t = L["strip"]["thickness"]
    L["lid_z"] = (carrier_z + CARRIER_T - CHANNEL_DEPTH + strip_t + led_h
                  + L["style"]["light_gap"] + DIFFUSER_T)
    L["battery"] = ("lipo_2500", 1.5, 0.0)
    # turned a quarter: its long side along y, between the battery and the right wall
    L["mosfet_rect"] = (36.0, -mb["w"] / 2, 36.0 + mb["d"], mb["w"] / 2)
    L["switch_y"] = 0.4 * L["iy1"]
    L["switch_z"] = FLOOR + 3.0
    L["socket_y"] = -0.4 * L["iy1"]
    L["socket_z"] = FLOOR + 6.0
    band_y = L["carrier_y"] + FIT + bb["d"] / 2 + 0.2
    L["button_boards"] = [(0.0, -band_y, 0), (0.0, band_y, 1)]


def _electronics(L):
    """The outlines of every electronic part, placed."""
    parts = L["parts"]
    out = []
    out += _feather_outlines(L)
    if L["display"]:
        out += _wing_outlines(L)
    name, bx, by = L["battery"]
    bat = parts[name]
    out.append(box("battery", bx - bat["w"] / 2, by - bat["d"] / 2, FLOOR,
                   bx + bat["w"] / 2, by + bat["d"] / 2, FLOOR + bat["h"]))
    out += _grid_outlines(L)
    mb = parts["mosfet_board"]
    x0, y0, x1, y1 = L["mosfet_rect"]
    z = L["mosfet_z"]
    out.append(box("mosfet_board", x0, y0, z, x1, y1, z + mb["t"]))
    out.append(box("mosfet_board_parts", x0 + 1, y0 + 1, z + mb["t"], x1 - 1, y1 - 1, z + mb["t"] + mb["parts_h"]))
    out += _switch_outlines(L)
    out += _socket_outlines(L)
    out += _tactile_outlines(L)
    return out


def _feather_outlines(L):
    f = L["parts"]["feather_rp2040"]
    fx, fy, z = L["fx"], L["fy"], L["feather_z"]
    top = z + f["pcb"]["t"]
    holes = [(fx + x, fy + y, f["mounting_holes"]["d"]) for x, y in f["mounting_holes"]["xy"]]
    usb = f["usb_c"]["box"]
    reset = f["reset_button"]["box"]
    out = [box("feather_pcb", fx, fy, z, fx + f["pcb"]["w"], fy + f["pcb"]["d"], top, holes=holes),
           box("feather_usb_c", fx + usb[0], fy + usb[1], top, fx + usb[2], fy + usb[3], top + f["usb_c"]["h"]),
           box("feather_reset", fx + reset[0], fy + reset[1], top, fx + reset[2], fy + reset[3], top + 3.5),
           # the rest of the components, clear of the header rows, the USB and reset
           box("feather_parts", fx + usb[2] + 0.05, fy + 2.6, top, fx + reset[0] - 0.05, fy + 20.3,
               top + f["components_above_pcb"])]
    return out


def _wing_outlines(L):
    f = L["parts"]["feather_rp2040"]
    w = L["parts"]["oled_featherwing_128x64"]
    fx, fy = L["fx"], L["fy"]
    pcb_top = L["feather_z"] + f["pcb"]["t"]
    wz = L["wing_z"]
    rows = f["header_rows"]
    out = []
    for name in ("bottom_row", "top_row"):
        row = rows[name]
        x0 = fx + row["x_first"] - rows["pitch"] / 2
        x1 = x0 + row["pins"] * rows["pitch"]
        y = fy + row["y"]
        out.append(box("header_" + name, x0, y - 1.27, pcb_top, x1, y + 1.27, wz))
    top = wz + w["pcb"]["t"]
    holes = [(fx + x, fy + y, w["mounting_holes"]["d"]) for x, y in w["mounting_holes"]["xy"]]
    out.append(box("wing_pcb", fx, fy, wz, fx + w["pcb"]["w"], fy + w["pcb"]["d"], top, holes=holes))
    ob = w["oled_module"]["box"]
    out.append(box("oled", fx + ob[0], fy + ob[1], top, fx + ob[2], fy + ob[3], top + w["oled_module"]["h"]))
    body = w["buttons"]["body"]
    for label in ("A", "B", "C", "reset"):
        x, y = w["buttons"][label]["xy"]
        out.append(box("wing_button_" + label, fx + x - body["w"] / 2, fy + y - body["d"] / 2, top,
                       fx + x + body["w"] / 2, fy + y + body["d"] / 2, top + body["h"]))
    return out


def _grid_outlines(L):
    strip, led, p = L["strip"], L["led"], L["pitch"]
    out = []
    for row in range(5):
        y = (row - 2) * p
        out.append(box("strip_row%d" % (row + 1), -L["strip_half"], y - strip["width"] / 2, L["strip_z"],
                       L["strip_half"], y + strip["width"] / 2, L["led_z"]))
    for q in range(25):
        x, y = led_centre(q, p)
        out.append(box("led_" + board.NAMES[q], x - led["w"] / 2, y - led["d"] / 2, L["led_z"],
                       x + led["w"] / 2, y + led["d"] / 2, L["led_top"]))
    return out


def _switch_outlines(L):
    sw = L["parts"]["slide_switch"]
    body, lever = sw["body"], sw["lever"]
    x1 = L["ix1"] - FIT
    y, z = L["switch_y"], L["switch_z"]
    lz = z + body["h"] / 2
    return [box("slide_switch", x1 - body["d"], y - body["w"] / 2, z, x1, y + body["w"] / 2, z + body["h"]),
            box("slide_switch_lever", x1, y - lever["w"] / 2, lz - lever["h"] / 2,
                x1 + lever["length"], y + lever["w"] / 2, lz + lever["h"] / 2, seat="-x")]


SOCKET_RIB = 2.2    # the ribs the link socket's board is glued to


def _socket_outlines(L):
    """The link socket: its header's mating face flush with the wall's
    outside, through an opening; its little board rests on two ribs."""
    sk = L["parts"]["link_socket"]
    header, pcb = sk["header"], sk["board"]
    y, z = L["socket_y"], L["socket_z"]
    outside = L["ix1"] + WALL
    face = outside - header["h"]
    return [box("link_socket", face, y - header["w"] / 2, z - header["d"] / 2,
                outside, y + header["w"] / 2, z + header["d"] / 2, seat="-x"),
            box("link_socket_board", face - pcb["t"], y - pcb["w"] / 2, z - pcb["h"] / 2,
                face, y + pcb["w"] / 2, z + pcb["h"] / 2, seat="+x")]


def _tactile_outlines(L):
    if not L["button_boards"]:
        return []
    bb = L["parts"]["button_board"]
    t = L["parts"]["tactile_12mm"]
    top = L["lid_z"] - CAP_FLANGE_T - CAP_PLAY
    board_top = top - t["actuator"]["top"]
    out = []
    for bx, by, seat in L["button_boards"]:
        z0 = board_top - bb["t"]
        out.append(box("button_board_%d" % seat, bx - bb["w"] / 2, by - bb["d"] / 2, z0,
                       bx + bb["w"] / 2, by + bb["d"] / 2, board_top))
        for k in (-1, 0, 1):
            x = bx + k * bb["switch_spacing"]
            b = t["body"]
            out.append(box("tactile_%d_%d" % (seat, k + 1), x - b["w"] / 2, by - b["d"] / 2, board_top,
                           x + b["w"] / 2, by + b["d"] / 2, board_top + b["h"]))
            out.append(cylinder("tactile_%d_%d_actuator" % (seat, k + 1), (x, by), "z", t["actuator"]["d"] / 2,
                                board_top + b["h"], top, "-z"))
    return out


def buttons(L):
    """(x, y, flange w, flange d, stem d, flange bottom z) of every printed button cap."""
    out = []
    if L["display"]:
        w = L["parts"]["oled_featherwing_128x64"]
        f = L["parts"]["feather_rp2040"]
        top = L["wing_z"] + f["pcb"]["t"] + w["buttons"]["body"]["h"]
        for label in ("A", "B", "C"):
            x, y = w["buttons"][label]["xy"]
            out.append((L["fx"] + x, L["fy"] + y, 7.0, 4.0, 3.0, top + CAP_PLAY))
    for e in L["electronics"]:
        if e["name"].endswith("_actuator"):
            cx, cy = e["centre"]
            out.append((cx, cy, 11.0, 11.0, 8.0, e["end"] + CAP_PLAY))
    return out


# --- the lid's engraving (2D, in the lid's plane) --------------------------------

STROKE_FONT = {
    "N": [[(0, 0), (0, 1), (0.6, 0), (0.6, 1)]],
    "O": [[(0.15, 0), (0.45, 0), (0.6, 0.2), (0.6, 0.8), (0.45, 1), (0.15, 1), (0, 0.8), (0, 0.2), (0.15, 0)]],
    "R": [[(0, 0), (0, 1), (0.45, 1), (0.6, 0.85), (0.6, 0.65), (0.45, 0.5), (0, 0.5)], [(0.3, 0.5), (0.6, 0)]],
    "T": [[(0, 1), (0.6, 1)], [(0.3, 1), (0.3, 0)]],
    "H": [[(0, 0), (0, 1)], [(0.6, 0), (0.6, 1)], [(0, 0.5), (0.6, 0.5)]],
    "S": [[(0.6, 0.85), (0.45, 1), (0.15, 1), (0, 0.85), (0, 0.65), (0.15, 0.5), (0.45, 0.5), (0.6, 0.35),
           (0.6, 0.15), (0.45, 0), (0.15, 0), (0, 0.15)]],
    "U": [[(0, 1), (0, 0.15), (0.15, 0), (0.45, 0), (0.6, 0.15), (0.6, 1)]],
}


def text_segments(text, cx, cy, height, turned=False):
    """Stroke segments of `text` (capitals of STROKE_FONT) centred on (cx, cy);
    turned: upside down, for the player across the table."""
    advance = 0.9 * height
    width = advance * (len(text) - 1) + 0.6 * height
    segs = []
    for i, ch in enumerate(text):
        x0 = -width / 2 + i * advance
        for stroke in STROKE_FONT[ch]:
            for (ax, ay), (bx, by) in zip(stroke, stroke[1:]):
                a = (x0 + ax * height, (ay - 0.5) * height)
                b = (x0 + bx * height, (by - 0.5) * height)
                if turned:
                    a, b = (-a[0], -a[1]), (-b[0], -b[1])
                segs.append((cx + a[0], cy + a[1], cx + b[0], cy + b[1]))
    return segs


def shortened(a, b, pitch, gap):
    """The segment between the LEDs of points a and b, stopping `gap` short of each."""
    (x0, y0), (x1, y1) = led_centre(a, pitch), led_centre(b, pitch)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    return (x0 + ux * gap, y0 + uy * gap, x1 - ux * gap, y1 - uy * gap)


def engraving(L):
    """Everything engraved into the lid: {"lines": [...], "dotted": [...],
    "text": [...]} of segments (x0, y0, x1, y1), and "rings" (x, y, r)."""
    p = L["pitch"]
    gap = L["window_d"] / 2 + 1.0
    lines = [shortened(a, b, p, gap) for a, b in board.line_pairs(board.LINES)]
    dotted = []
    dash = 3 * L["style"]["groove_w"]
    for a, b in board.line_pairs(board.DOTTED_LINE):
        x0, y0, x1, y1 = shortened(a, b, p, gap)
        length = math.hypot(x1 - x0, y1 - y0)
        n = max(1, int((length + dash) // (2 * dash)))
        step = (length - dash) / max(1, n - 1) if n > 1 else 0
        for k in range(n):
            t0 = k * step / length
            t1 = (k * step + dash) / length
            dotted.append((x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1))
    rings = [led_centre(board.point(n), p) + (p * 0.42,) for n in board.MARKERS]
    h = L["style"]["text_h"]
    text_y = 2 * p + L["window_d"] / 2 + 1.0 + h / 2 + 0.6
    text = (text_segments("SOUTH", 0.0, -text_y, h)
            + text_segments("NORTH", 0.0, text_y, h, turned=L["tabletop"]))
    return {"lines": lines, "dotted": dotted, "rings": rings, "text": text}


# --- printed parts ---------------------------------------------------------------

def _outer_footprint(L):
    return (L["ix0"] - WALL, L["iy0"] - WALL, L["ix1"] + WALL, L["iy1"] + WALL)


def _plate(x0, y0, x1, y1, z0, t, r=CORNER_R):
    from build123d import Pos, RectangleRounded, extrude
    sketch = Pos((x0 + x1) / 2, (y0 + y1) / 2) * RectangleRounded(x1 - x0, y1 - y0, r)
    return Pos(0, 0, z0) * extrude(sketch, t)


def _block(x0, y0, z0, x1, y1, z1):
    from build123d import Align, Box, Pos
    return Pos(x0, y0, z0) * Box(x1 - x0, y1 - y0, z1 - z0, align=(Align.MIN, Align.MIN, Align.MIN))


def _post(x, y, z0, z1, d):
    from build123d import Align, Cylinder, Pos
    return Pos(x, y, z0) * Cylinder(d / 2, z1 - z0, align=(Align.CENTER, Align.CENTER, Align.MIN))


def _slots(segments, width):
    """One 2D sketch of round-ended grooves along the segments."""
    from build123d import Pos, Rot, SlotCenterToCenter
    sketch = None
    for x0, y0, x1, y1 in segments:
        length = math.hypot(x1 - x0, y1 - y0)
        angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
        slot = Pos((x0 + x1) / 2, (y0 + y1) / 2) * Rot(0, 0, angle) * SlotCenterToCenter(max(length, 1e-3), width)
        sketch = slot if sketch is None else sketch + slot
    return sketch


def build_lid(L):
    from build123d import Circle, Pos, extrude
    x0, y0, x1, y1 = _outer_footprint(L)
    z, top = L["lid_z"], L["lid_z"] + LID_T
    lid = _plate(x0, y0, x1, y1, z, LID_T)
    eng = engraving(L)
    w = L["style"]["groove_w"]
    sketch = _slots(eng["lines"] + eng["dotted"] + eng["text"], w)
    for x, y, r in eng["rings"]:
        sketch += Pos(x, y) * (Circle(r + w / 2) - Circle(r - w / 2))
    lid -= Pos(0, 0, top - GROOVE_DEPTH) * extrude(sketch, GROOVE_DEPTH + 1)
    holes = [Pos(*led_centre(q, L["pitch"])) * Circle(L["window_d"] / 2) for q in range(25)]
    holes += [Pos(x, y) * Circle(SCREW_HOLE_D / 2) for x, y in L["bosses"]]
    holes += _button_openings(L)
    cut = holes[0]
    for h in holes[1:]:
        cut += h
    lid -= Pos(0, 0, z - 1) * extrude(cut, LID_T + 2)
    if L["display"]:
        a = L["parts"]["oled_featherwing_128x64"]["active_area"]["box"]
        m = 0.5
        lid -= _block(L["fx"] + a[0] - m, L["fy"] + a[1] - m, z - 1, L["fx"] + a[2] + m, L["fy"] + a[3] + m, top + 1)
    return lid


def _button_openings(L):
    """2D holes for the caps' stems: one round hole each, or one slot for a
    row of caps closer together than a hole and a 1.6 mm web."""
    from build123d import Circle, Pos, SlotCenterToCenter
    caps = buttons(L)
    if L["display"]:
        xs = [c[0] for c in caps]
        ys = [c[1] for c in caps]
        stem = caps[0][4]
        centre = (sum(xs) / len(xs), (max(ys) + min(ys)) / 2)
        return [Pos(*centre) * SlotCenterToCenter(max(ys) - min(ys), stem + 2 * (FIT - 0.2), rotation=90)]
    return [Pos(x, y) * Circle(stem / 2 + FIT - 0.2) for x, y, _, _, stem, _ in caps]


def _boss_notches(L, z0, z1):
    """Square corners cut out of the grid's plates, clear of the lid's
    screw bosses (square: a round notch would leave thin wedges by the strip
    channels)."""
    cut = None
    for x, y in L["bosses"]:
        r = BOSS_R + FIT
        sx = 1 if x > 0 else -1
        sy = 1 if y > 0 else -1
        c = _block(min(x - sx * r, x + sx * 20), min(y - sy * r, y + sy * 20), z0 - 1,
                   max(x - sx * r, x + sx * 20), max(y - sy * r, y + sy * 20), z1 + 1)
        cut = c if cut is None else cut + c
    return cut


def build_diffuser(L):
    cx, cy = L["carrier_x"], L["carrier_y"]
    plate = _block(-cx, -cy, L["diffuser_z"], cx, cy, L["lid_z"])
    return plate - _boss_notches(L, L["diffuser_z"], L["lid_z"])


def build_carrier(L):
    p, cx, cy = L["pitch"], L["carrier_x"], L["carrier_y"]
    z0, top, z1 = L["carrier_z"], L["carrier_top"], L["diffuser_z"]
    part = _block(-cx, -cy, z0, cx, cy, top)
    h = BAFFLE_T / 2
    walls = [_block(x - h, -cy, top, x + h, cy, z1) for x in (-1.5 * p, -0.5 * p, 0.5 * p, 1.5 * p)]
    walls += [_block(-cx, y - h, top, cx, y + h, z1) for y in (-1.5 * p, -0.5 * p, 0.5 * p, 1.5 * p)]
    walls += [_block(-cx, -cy, top, -cx + BAFFLE_T, cy, z1), _block(cx - BAFFLE_T, -cy, top, cx, cy, z1),
              _block(-cx, -cy, top, cx, -cy + BAFFLE_T, z1), _block(-cx, cy - BAFFLE_T, top, cx, cy, z1)]
    for w in walls:
        part += w
    half = L["strip"]["width"] / 2 + FIT
    tunnel_top = L["led_z"] + FIT
    for row in range(5):
        y = (row - 2) * p
        part -= _block(-cx - 1, y - half, L["strip_z"], cx + 1, y + half, tunnel_top)
    return part - _boss_notches(L, z0, z1)


def build_caps(L):
    from build123d import Compound
    caps = []
    top = L["lid_z"] + LID_T + CAP_PROTRUDE
    for x, y, fw, fd, stem, z in buttons(L):
        flange = _block(x - fw / 2, y - fd / 2, z, x + fw / 2, y + fd / 2, z + CAP_FLANGE_T)
        caps.append(flange + _post(x, y, z + CAP_FLANGE_T, top, stem))
    if not caps:
        return None
    return Compound(children=[c.solid() for c in caps])


def build_base(L):
    x0, y0, x1, y1 = _outer_footprint(L)
    H = L["lid_z"]
    base = _plate(x0, y0, x1, y1, 0, H)
    base -= _block(L["ix0"], L["iy0"], FLOOR, L["ix1"], L["iy1"], H + 1)
    for feature in _base_features(L):
        base += feature
    for cut in _base_cuts(L):
        base -= cut
    return base


def _base_features(L):
    f = L["parts"]["feather_rp2040"]
    out = [_post(x, y, FLOOR - 0.5, L["lid_z"], 2 * BOSS_R) for x, y in L["bosses"]]
    out += [_post(L["fx"] + x, L["fy"] + y, FLOOR - 0.5, L["feather_z"], STANDOFF_D)
            for x, y in f["mounting_holes"]["xy"]]
    cx, cy = L["carrier_x"], L["carrier_y"]
    post_xy = [(sx * (cx - 4.0), sy * (cy - 6.0)) for sx in (-1, 1) for sy in (-1, 1)]
    if L["tabletop"]:
        post_xy += [(0.0, -(cy - 6.0)), (0.0, cy - 6.0)]
    out += [_post(x, y, FLOOR - 0.5, L["carrier_z"], 6.0) for x, y in post_xy]
    for e in L["electronics"]:
        if e["name"] == "link_socket_board":
            (bx0, by0, bz0), (bx1, by1, bz1) = e["min"], e["max"]
            out += [_block(bx1, y0, FLOOR - 0.5, L["ix1"] + 0.5, y1, bz1)
                    for y0, y1 in ((by0, by0 + SOCKET_RIB), (by1 - SOCKET_RIB, by1))]
        if e["name"] in ("mosfet_board",) or e["name"].startswith("button_board"):
            (bx0, by0, bz0), (bx1, by1, _) = e["min"], e["max"]
            out += [_post(x, y, FLOOR - 0.5, bz0, 4.0) for x in (bx0 + 2, bx1 - 2) for y in (by0 + 2, by1 - 2)]
        if e["name"] == "slide_switch":
            (sx0, sy0, sz0), (_, sy1, _) = e["min"], e["max"]
            out.append(_block(sx0, sy0, FLOOR - 0.5, L["ix1"] + 0.5, sy1, sz0))
    out += _battery_ribs(L)
    return out


def _battery_ribs(L):
    """Low ribs around the battery, 1/2 of each side long, keeping it in its bay."""
    b = next(e for e in L["electronics"] if e["name"] == "battery")
    (bx0, by0, _), (bx1, by1, _) = b["min"], b["max"]
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    w, d = (bx1 - bx0) / 4, (by1 - by0) / 4
    z1 = FLOOR + 3.0
    t = 2.0
    return [_block(cx - w, by0 - FIT - t, FLOOR - 0.5, cx + w, by0 - FIT, z1),
            _block(cx - w, by1 + FIT, FLOOR - 0.5, cx + w, by1 + FIT + t, z1),
            _block(bx0 - FIT - t, cy - d, FLOOR - 0.5, bx0 - FIT, cy + d, z1),
            _block(bx1 + FIT, cy - d, FLOOR - 0.5, bx1 + FIT + t, cy + d, z1)]


def _base_cuts(L):
    f = L["parts"]["feather_rp2040"]
    out = [_post(x, y, L["lid_z"] - 10.0, L["lid_z"] + 1, PILOT_D) for x, y in L["bosses"]]
    out += [_post(L["fx"] + x, L["fy"] + y, L["feather_z"] - 3.0, L["feather_z"] + 1, STANDOFF_PILOT_D)
            for x, y in f["mounting_holes"]["xy"]]
    # USB-C: room for a plug's overmould (12 x 6.5 mm) through the wall
    usb_y = L["fy"] + f["usb_c"]["centre_y"]
    usb_z = L["feather_z"] + f["pcb"]["t"] + f["usb_c"]["h"] / 2
    out.append(_block(L["ix0"] - WALL - 1, usb_y - 6.5, usb_z - 3.6, L["ix0"] + 0.5, usb_y + 6.5, usb_z + 3.6))
    lever = next(e for e in L["electronics"] if e["name"] == "slide_switch_lever")
    travel = L["parts"]["slide_switch"]["lever"]["travel"]
    (_, ly0, lz0), (_, ly1, lz1) = lever["min"], lever["max"]
    out.append(_block(L["ix1"] - 0.5, ly0 - travel / 2 - FIT, lz0 - FIT, L["ix1"] + WALL + 1,
                      ly1 + travel / 2 + FIT, lz1 + FIT))
    # the link plug's way in: its housing's size with room around it
    sk = L["parts"]["link_socket"]
    y, z = L["socket_y"], L["socket_z"]
    w, d = max(sk["plug"]["w"], sk["header"]["w"]) / 2 + FIT, max(sk["plug"]["d"], sk["header"]["d"]) / 2 + FIT
    out.append(_block(L["ix1"] - 0.5, y - w, z - d, L["ix1"] + WALL + 1, y + w, z + d))
    return out


def assembly(profile_name):
    """The case as data: {"layout", "parts": {name: build123d shape},
    "electronics": [outline dicts], "leds": [(x, y, z top)], "engraving"}."""
    L = layout(profile_name)
    parts = {"lid": build_lid(L), "diffuser": build_diffuser(L), "carrier": build_carrier(L),
             "base": build_base(L)}
    caps = build_caps(L)
    if caps is not None:
        parts["button-caps"] = caps
    leds = [led_centre(q, L["pitch"]) + (L["led_top"],) for q in range(25)]
    return {"layout": L, "parts": parts, "electronics": L["electronics"], "leds": leds,
            "engraving": engraving(L)}


def size(L):
    """Outside size of the closed case (w, d, h) in mm, without the button caps."""
    x0, y0, x1, y1 = _outer_footprint(L)
    return (round(x1 - x0, 1), round(y1 - y0, 1), round(L["lid_z"] + LID_T, 1))


# --- export and pictures ----------------------------------------------------------

PART_COLOURS = {"lid": (60, 90, 160), "diffuser": (235, 235, 225), "carrier": (90, 90, 90),
                "base": (60, 90, 160), "button-caps": (220, 120, 40)}


def write_case(profile_name, out_dir, render=True, asm=None):
    """Write every part as STL and STEP, and the pictures, into out_dir;
    return the paths.  asm: assembly(profile_name) if already built."""
    from build123d import export_step, export_stl
    os.makedirs(out_dir, exist_ok=True)
    asm = asm or assembly(profile_name)
    written = []
    for name, shape in asm["parts"].items():
        stl = os.path.join(out_dir, name + ".stl")
        step = os.path.join(out_dir, name + ".step")
        export_stl(shape, stl, tolerance=0.01, angular_tolerance=0.2)
        export_step(shape, step)
        written += [stl, step]
    if render:
        written += render_pictures(asm, out_dir)
    return written


def _meshes(asm, out_dir, lift=None):
    """(trimesh mesh, colour) of the printed parts (from their STL) and the electronics."""
    import trimesh
    lift = lift or {}
    out = []
    for name in asm["parts"]:
        mesh = trimesh.load(os.path.join(out_dir, name + ".stl"))
        mesh.apply_translation((0, 0, lift.get(name, 0.0)))
        out.append((mesh, PART_COLOURS.get(name, (150, 150, 150))))
    for e in asm["electronics"]:
        m = outline_manifold(e).to_mesh()
        mesh = trimesh.Trimesh(m.vert_properties[:, :3], m.tri_verts)
        colour = (250, 250, 200) if e["name"].startswith("led_") else (40, 120, 60)
        if e["name"] == "battery":
            colour = (170, 170, 190)
        out.append((mesh, colour))
    return out


def render_pictures(asm, out_dir):
    """render.png: the closed case; render-open.png: exploded, electronics inside."""
    paths = [os.path.join(out_dir, "render.png"), os.path.join(out_dir, "render-open.png")]
    printed = len(asm["parts"])
    render_png(_meshes(asm, out_dir)[:printed], paths[0])
    H = asm["layout"]["lid_z"]
    lift = {"lid": 2.2 * H, "diffuser": 1.5 * H, "carrier": 0.9 * H, "button-caps": 2.2 * H}
    render_png(_meshes(asm, out_dir, lift), paths[1])
    return paths


def render_png(meshes, path, size=(1200, 900), azimuth=-30.0, elevation=40.0):
    """A shaded picture of the meshes, seen from South's left and above:
    each triangle lit by its normal, hidden surfaces removed by a depth buffer."""
    import numpy as np
    from PIL import Image
    az, el = math.radians(azimuth), math.radians(elevation)
    toward_eye = np.array([math.cos(el) * math.sin(az), -math.cos(el) * math.cos(az), math.sin(el)])
    right = np.array([math.cos(az), math.sin(az), 0.0])
    up = np.cross(toward_eye, right)
    light = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])
    tris, cols = [], []
    for mesh, colour in meshes:
        v = mesh.vertices[mesh.faces]
        n = mesh.face_normals
        keep = n @ toward_eye > 0
        shade = 0.35 + 0.65 * np.clip(n[keep] @ light, 0, 1)
        tris.append(v[keep])
        cols.append(np.outer(shade, colour))
    tris, cols = np.concatenate(tris), np.concatenate(cols)
    sx, sy, depth = tris @ right, tris @ up, tris @ toward_eye
    scale = 0.9 * min(size[0] / np.ptp(sx), size[1] / np.ptp(sy))
    px = (sx - (sx.max() + sx.min()) / 2) * scale + size[0] / 2
    py = size[1] / 2 - (sy - (sy.max() + sy.min()) / 2) * scale
    zbuf = np.full((size[1], size[0]), -np.inf)
    img = np.full((size[1], size[0], 3), 255, dtype=np.uint8)
    for i in range(len(tris)):
        _raster(px[i], py[i], depth[i], cols[i], zbuf, img)
    Image.fromarray(img).save(path)
    return path


def _raster(x, y, z, colour, zbuf, img):
    """Draw one triangle (screen x, y, depth towards the eye) into the buffers."""
    import numpy as np
    x0, x1 = max(int(x.min()), 0), min(int(x.max()) + 1, zbuf.shape[1] - 1)
    y0, y1 = max(int(y.min()), 0), min(int(y.max()) + 1, zbuf.shape[0] - 1)
    if x0 > x1 or y0 > y1:
        return
    area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0])
    if abs(area) < 1e-9:
        return
    gx, gy = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
    w0 = ((x[1] - gx) * (y[2] - gy) - (x[2] - gx) * (y[1] - gy)) / area
    w1 = ((x[2] - gx) * (y[0] - gy) - (x[0] - gx) * (y[2] - gy)) / area
    w2 = 1 - w0 - w1
    inside = (w0 >= -1e-6) & (w1 >= -1e-6) & (w2 >= -1e-6)
    d = w0 * z[0] + w1 * z[1] + w2 * z[2]
    region = zbuf[y0:y1 + 1, x0:x1 + 1]
    nearer = inside & (d > region)
    region[nearer] = d[nearer]
    img[y0:y1 + 1, x0:x1 + 1][nearer] = colour.astype(np.uint8)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", default="handheld")
    ap.add_argument("--out", default=None, help="folder (default build/kit/PROFILE)")
    ap.add_argument("--no-render", action="store_true")
    args = ap.parse_args(argv)
    if not has_case(args.profile):
        ap.error("profile %r has no case (its grid is not a strip)" % args.profile)
    out = args.out or os.path.join(ROOT, "build", "kit", args.profile)
    for path in write_case(args.profile, out, render=not args.no_render):
        print(os.path.relpath(path, ROOT))
    print("case %s x %s x %s mm" % size(layout(args.profile)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
