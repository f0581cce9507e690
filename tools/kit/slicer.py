"""Slice the case's STL parts with PrusaSlicer, headless, and read the figures.

    python tools/kit/slicer.py [--profile handheld ...] [--work build/kit/slice]

Each part is sliced on its own with the settings written by
write_config() (0.2 mm layers, 0.4 mm nozzle, PLA, 15 % infill, no
supports: every part is designed to print flat side down), onto a
250 x 210 mm bed (a part longer than the bed's depth is turned a quarter
turn).  The estimated print time and the filament used (mm and g) come
from the comments PrusaSlicer writes at the end of the G-code.  main()
prints a markdown table for each profile, for docs/BENCHMARKS.md.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

SLICER = "prusa-slicer"
BED = (250.0, 210.0)

# PrusaSlicer 2.5 configuration keys (prusa-slicer --help-fff)
SETTINGS = {
    "printer_technology": "FFF",
    "bed_shape": "0x0,%gx0,%gx%g,0x%g" % (BED[0], BED[0], BED[1], BED[1]),
    "max_print_height": "210",
    "nozzle_diameter": "0.4",
    "layer_height": "0.2",
    "first_layer_height": "0.2",
    "perimeters": "2",
    "top_solid_layers": "5",
    "bottom_solid_layers": "4",
    "fill_density": "15%",
    "fill_pattern": "gyroid",
    "support_material": "0",
    "filament_diameter": "1.75",
    "filament_density": "1.24",
    "filament_cost": "25",
    "temperature": "210",
    "first_layer_temperature": "215",
    "bed_temperature": "60",
    "first_layer_bed_temperature": "60",
    "gcode_flavor": "marlin2",
    "machine_max_acceleration_extruding": "1250",
    "machine_max_acceleration_travel": "1250",
}


def unavailable_reason():
    """None if PrusaSlicer can be run, else why not."""
    if shutil.which(SLICER) is None:
        return "%s is not installed (Debian/Ubuntu: apt-get install prusa-slicer)" % SLICER
    return None


def write_config(path):
    with open(path, "w") as f:
        for key, value in SETTINGS.items():
            f.write("%s = %s\n" % (key, value))
    return path


def parse_duration(text):
    """Seconds of PrusaSlicer's '1d 2h 3m 4s' style duration."""
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    found = re.findall(r"(\d+)\s*([dhms])", text)
    if not found:
        raise ValueError("no duration in %r" % text)
    return sum(int(n) * units[u] for n, u in found)


def parse_gcode(path):
    """{seconds, filament_mm, filament_g} from the G-code's closing comments."""
    with open(path, errors="replace") as f:
        tail = f.read()[-40000:]

    def value(pattern):
        match = re.search(pattern, tail, re.MULTILINE)
        if match is None:
            raise ValueError("%s: no line matching %r" % (path, pattern))
        return match.group(1).strip()

    return {"seconds": parse_duration(value(r"^; estimated printing time \(normal mode\) = (.+)$")),
            "filament_mm": float(value(r"^; filament used \[mm\] = ([\d.]+)")),
            "filament_g": float(value(r"^; filament used \[g\] = ([\d.]+)"))}


def _needs_turn(stl_path):
    """True if the part's depth exceeds the bed's but it fits turned."""
    import trimesh
    w, d, _ = trimesh.load(stl_path).extents
    return d > BED[1] and w <= BED[1]


def slice_part(stl_path, work_dir, config_path):
    """Slice one STL; RuntimeError with PrusaSlicer's own message if it fails."""
    part = os.path.splitext(os.path.basename(stl_path))[0]
    gcode = os.path.join(work_dir, part + ".gcode")
    cmd = [SLICER, "--export-gcode", "--load", config_path, "--center", "%g,%g" % (BED[0] / 2, BED[1] / 2)]
    if _needs_turn(stl_path):
        cmd += ["--rotate", "90"]
    cmd += ["-o", gcode, stl_path]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0 or not os.path.exists(gcode):
        message = [ln for ln in (proc.stderr + proc.stdout).splitlines() if "[trace]" not in ln]
        raise RuntimeError("prusa-slicer failed on %s (exit %d): %s"
                           % (part, proc.returncode, "\n".join(message[-20:])))
    figures = parse_gcode(gcode)
    figures["part"] = part
    return figures


def slice_parts(stl_paths, work_dir):
    """Slice every STL in turn (one slicer at a time); a list of
    {part, seconds, filament_mm, filament_g}."""
    os.makedirs(work_dir, exist_ok=True)
    config = write_config(os.path.join(work_dir, "config.ini"))
    return [slice_part(path, work_dir, config) for path in stl_paths]


def hours(seconds):
    return "%d h %02d min" % (seconds // 3600, round(seconds % 3600 / 60))


def grams(g):
    return ("%.0f g" if g >= 10 else "%.1f g") % g


def table(profile_name, rows):
    """Markdown table of one profile's parts."""
    out = ["**%s**" % profile_name, "",
           "| part | print time | filament |", "|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %.2f m, %s |" % (r["part"], hours(r["seconds"]),
                                                 r["filament_mm"] / 1000, grams(r["filament_g"])))
    total = sum(r["seconds"] for r in rows)
    out.append("| all | %s | %.2f m, %s |" % (hours(total), sum(r["filament_mm"] for r in rows) / 1000,
                                             grams(sum(r["filament_g"] for r in rows))))
    return "\n".join(out) + "\n"


def main(argv=None):
    from tools.kit import case
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", action="append", help="profile (repeatable; default: every one with a case)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "kit", "slice"))
    args = ap.parse_args(argv)
    reason = unavailable_reason()
    if reason:
        ap.error(reason)
    from hardware import profiles
    names = args.profile or [n for n in profiles.PROFILES if case.has_case(n)]
    for name in names:
        folder = os.path.join(args.work, name)
        paths = [p for p in case.write_case(name, folder, render=False) if p.endswith(".stl")]
        print(table(name, slice_parts(paths, folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
