"""The maker's kit of every board profile, from the project's own data.

    python3 run.py kit [--profile NAME ...] [--out DIR] [--no-case]

For each profile (all but the PC's `host`) it writes into DIR/PROFILE/
(DIR is build/kit by default):

  bom.csv       the parts, product numbers, quantities and prices (kit/bom.json)
  wiring.svg    the wiring diagram (hardware/profiles.py's pins, kit/bom.json)
  overlay.svg   the board's lines at the profile's LED pitch (tools/overlay.py)
  *.stl *.step  the printable case's parts, for a profile with a case
  *.png         the case's pictures (tools/kit/case.py)
  ASSEMBLY.md   the steps: parts, pictures, solder list, power, first power-up

A change to a profile, to the board's table or to the parts' data changes
every file at the next run.  --no-case leaves out the case (its CAD takes
the most time).  --docs writes the default build's kit (its STL and STEP
aside) into docs/kit/handheld/, which the README and the web page show.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware import profiles  # noqa: E402
from tools import overlay  # noqa: E402
from tools.kit import assembly, bom, case, wiring  # noqa: E402  (case: its CAD loads on first use)

DEFAULT_OUT = os.path.join(ROOT, "build", "kit")
DOCS_KIT = os.path.join(ROOT, "docs", "kit")
DOCS_PROFILE = "handheld"       # the docs' default build (docs/KIT.md)


def kit_profiles():
    """The profiles a maker builds: every one with a board (not the PC's)."""
    return [name for name, prof in profiles.PROFILES.items() if prof["board_id"] is not None]


def _write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def make_kit(name, out_dir, with_case=True):
    """Write the kit of profile `name` into out_dir; the paths written."""
    prof = profiles.get(name)
    os.makedirs(out_dir, exist_ok=True)
    csv_path = os.path.join(out_dir, "bom.csv")
    bom.write_csv(name, csv_path)
    written = [csv_path,
               _write(os.path.join(out_dir, "wiring.svg"), wiring.wiring_svg(name)),
               _write(os.path.join(out_dir, "overlay.svg"), overlay.overlay_svg(prof["pitch_mm"]))]
    if with_case and case.has_case(name):
        written += case.write_case(name, out_dir, render=True)
    written.append(_write(os.path.join(out_dir, "ASSEMBLY.md"),
                          assembly.markdown(name, case.file_names(name), with_case)))
    return written


def write_docs(with_case=True):
    """The kit of the docs' build (DOCS_PROFILE) into docs/kit/, without the
    case's STL and STEP files (the README and the web page show its
    pictures; the guide is read there): the same files `kit` writes."""
    out_dir = os.path.join(DOCS_KIT, DOCS_PROFILE)
    with tempfile.TemporaryDirectory() as tmp:
        for path in make_kit(DOCS_PROFILE, tmp, with_case):
            if not path.endswith((".stl", ".step")):
                os.makedirs(out_dir, exist_ok=True)
                shutil.copyfile(path, os.path.join(out_dir, os.path.basename(path)))
    return out_dir


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", action="append", choices=kit_profiles(), metavar="NAME",
                    help="only this profile (again for more; default every one: %s)"
                    % ", ".join(kit_profiles()))
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder (default build/kit)")
    ap.add_argument("--no-case", action="store_true", help="leave out the printable case")
    ap.add_argument("--docs", action="store_true",
                    help="write the %s kit's guide, diagrams and pictures into docs/kit/ instead"
                    % DOCS_PROFILE)
    args = ap.parse_args(argv)
    if args.docs:
        print("wrote %s" % os.path.relpath(write_docs(not args.no_case)))
        return 0
    for name in args.profile or kit_profiles():
        started = time.monotonic()
        out_dir = os.path.join(args.out, name)
        written = make_kit(name, out_dir, with_case=not args.no_case)
        print("%s: %d files in %s, parts $%.2f, %.1f s"
              % (name, len(written), os.path.relpath(out_dir), bom.total(name),
                 time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
