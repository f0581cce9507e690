"""Copy Jarmo onto a CircuitPython board's CIRCUITPY drive.

    python tools/deploy.py /media/$USER/CIRCUITPY [--profile feather_oled]
    python tools/deploy.py --lib-only

Fills the repository's lib/ with the Adafruit libraries the device needs,
taken from the pip packages installed in this Python (requirements.txt), then
copies code.py, boot.py, jarmo/, hardware/ (without the host-only modules),
lib/ and settings.toml to the drive.  Files whose content is unchanged are
not rewritten (each write makes CircuitPython restart the program).

settings.toml: written from device/settings.toml when the drive has none;
with --profile, JARMO_PROFILE is set in it (other lines are kept).

Built into CircuitPython on RP2040 boards, so not copied: adafruit_pixelbuf,
displayio, terminalio, keypad, i2cdisplaybus, busdisplay.  For a board
without a built-in adafruit_pixelbuf, add --with-pixelbuf.
Libraries are copied as .py source; the board compiles them at import.
"""

import argparse
import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (pip module, files inside it or None for a single-file module)
LIBRARIES = (
    ("neopixel", None),
    ("adafruit_ticks", None),
    ("adafruit_displayio_sh1107", None),
    ("adafruit_display_text", ("__init__.py", "label.py")),
    ("adafruit_led_animation", ("__init__.py", "color.py", "pulse_generator.py",
                                "animation/__init__.py", "animation/pulse.py")),
)
PIXELBUF = ("adafruit_pixelbuf", None)

HOST_ONLY = ("host.py", "sim.py")   # hardware/ modules that never go on the board
TOP_FILES = ("code.py", "boot.py")
PACKAGES = ("jarmo", "hardware")


def _source(module):
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise SystemExit("%s is not installed in this Python (%s): pip install -r "
                         "requirements.txt, or run with .venv/bin/python" % (module, sys.executable))
    return spec.origin


def library_files(with_pixelbuf=False):
    """(source path, path under lib/) of every library file the device needs."""
    out = []
    libs = LIBRARIES + ((PIXELBUF,) if with_pixelbuf else ())
    for module, files in libs:
        origin = _source(module)
        if files is None:
            out.append((origin, os.path.basename(origin)))
        else:
            base = os.path.dirname(origin)
            for name in files:
                out.append((os.path.join(base, name), module + "/" + name))
    return out


def project_files(root=ROOT):
    """(source path, path on the drive) of the program's own files."""
    out = [(os.path.join(root, name), name) for name in TOP_FILES]
    for package in PACKAGES:
        folder = os.path.join(root, package)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".py"):
                continue
            if package == "hardware" and name in HOST_ONLY:
                continue
            out.append((os.path.join(folder, name), package + "/" + name))
    return out


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def copy_file(src, dst, log):
    """Copy if the content differs; True if written."""
    data = _read(src)
    if os.path.exists(dst) and _read(dst) == data:
        return False
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "wb") as f:
        f.write(data)
    log("  wrote %s" % dst)
    return True


def fill_lib(lib_dir, with_pixelbuf=False, log=print):
    """Fill lib_dir from the installed pip packages; the number of files written."""
    n = 0
    for src, rel in library_files(with_pixelbuf):
        n += copy_file(src, os.path.join(lib_dir, rel), log)
    return n


def settings_text(existing, template, profile):
    """settings.toml to write: the existing one (or the template) with JARMO_PROFILE set."""
    text = existing if existing is not None else template
    if profile is None:
        return text
    line = 'JARMO_PROFILE = "%s"' % profile
    if re.search(r"(?m)^JARMO_PROFILE\s*=.*$", text):
        return re.sub(r"(?m)^JARMO_PROFILE\s*=.*$", line, text)
    return text.rstrip("\n") + "\n" + line + "\n"


def remove_stale(drive, keep, log):
    """Remove .py/.mpy files in the drive's jarmo/ and hardware/ that are not ours."""
    removed = 0
    for package in PACKAGES:
        folder = os.path.join(drive, package)
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            rel = package + "/" + name
            if (name.endswith(".py") or name.endswith(".mpy")) and rel not in keep:
                os.remove(os.path.join(folder, name))
                log("  removed %s" % rel)
                removed += 1
    return removed


def deploy(drive, profile=None, with_pixelbuf=False, root=ROOT, log=print):
    """Copy everything onto drive; the number of files written to the drive."""
    if profile is not None:
        sys.path.insert(0, root)
        from hardware import profiles
        profiles.get(profile)   # ValueError for an unknown name
    if not os.path.exists(os.path.join(drive, "boot_out.txt")):
        log("note: %s has no boot_out.txt; is it a CIRCUITPY drive?" % drive)
    lib_dir = os.path.join(root, "lib")
    fill_lib(lib_dir, with_pixelbuf, log)      # lib/ first: the drive's lib/ is copied from it
    n = 0
    files = project_files(root)
    for src, rel in files:
        n += copy_file(src, os.path.join(drive, rel), log)
    remove_stale(drive, set(rel for _src, rel in files), log)
    for src, rel in library_files(with_pixelbuf):
        n += copy_file(os.path.join(lib_dir, rel), os.path.join(drive, "lib", rel), log)
    target = os.path.join(drive, "settings.toml")
    existing = None
    if os.path.exists(target):
        with open(target) as f:
            existing = f.read()
    with open(os.path.join(root, "device", "settings.toml")) as f:
        template = f.read()
    text = settings_text(existing, template, profile)
    if text != existing:
        with open(target, "w") as f:
            f.write(text)
        log("  wrote %s" % target)
        n += 1
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description="Copy Jarmo onto a CIRCUITPY drive.")
    ap.add_argument("drive", nargs="?", help="the mounted CIRCUITPY drive")
    ap.add_argument("--profile", help="set JARMO_PROFILE in the drive's settings.toml")
    ap.add_argument("--lib-only", action="store_true", help="only fill the repository's lib/")
    ap.add_argument("--with-pixelbuf", action="store_true",
                    help="also copy adafruit_pixelbuf (boards without it built in)")
    args = ap.parse_args(argv)
    if args.lib_only:
        n = fill_lib(os.path.join(ROOT, "lib"), args.with_pixelbuf)
        print("lib/: %d file(s) written" % n)
        return 0
    if not args.drive:
        ap.error("give the CIRCUITPY drive's path, or --lib-only")
    if not os.path.isdir(args.drive):
        ap.error("%s is not a folder" % args.drive)
    try:
        n = deploy(args.drive, args.profile, args.with_pixelbuf)
    except ValueError as err:
        ap.error(str(err))
    print("%s: %d file(s) written" % (args.drive, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
