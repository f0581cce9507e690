"""Project Bundles: the game as a zip per board profile and CircuitPython version.

    python3 run.py bundle [--profile P ...] [--mpy-cross PATH ...] [--out DIR]
                          [--firmware auto|yes|no]
    python3 run.py bundle --requirements     # rewrite device/requirements.txt

Like the Project Bundle of an Adafruit Learn guide: one zip holds a folder
"CircuitPython 10.x" whose contents are copied onto the CIRCUITPY drive
as they are: code.py, boot.py, settings.toml (with the profile), the
packages jarmo/ and hardware/ and lib/ (the libraries every profile
imports) compiled to .mpy by CircuitPython's own mpy-cross.  Each
mpy-cross makes the bundles of its CircuitPython major version (read from
its banner): give one --mpy-cross per version.  The zips are written to
build/ as jarmo-PROFILE-CircuitPython-N.x.zip (from CircuitPython 9, the
oldest the game runs on: a version without its mpy-cross gets the .py
sources, which every version runs), and beside them Jarmo's
firmware for each profile, jarmo-PROFILE-VERSION.uf2 (tools/firmware.py:
CircuitPython with the game frozen in; --firmware auto, the default, builds
them where the ARM compiler is installed, yes insists (and installs it), no
leaves them out).  mpy-cross, when none is given or on PATH, is the pinned
one (firmware/artifacts.json: fetched or built on first use).

The same libraries, by their names in the CircuitPython library bundle, are
in device/requirements.txt (every board's), for `circup install -r`.
"""

import argparse
import importlib.util
import io
import os
import re
import shutil
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REQUIREMENTS = os.path.join(ROOT, "device", "requirements.txt")
# The pip package each library comes from (requirements.txt pins it).
DISTRIBUTIONS = {"neopixel": "adafruit-circuitpython-neopixel",
                 "adafruit_ticks": "adafruit-circuitpython-ticks"}


def _tool(name):
    """tools/NAME.py, loaded as a module (tools/ is not a package on sys.path)."""
    spec = importlib.util.spec_from_file_location("jarmo_" + name.replace("/", "_"),
                                                  os.path.join(ROOT, "tools", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


deploy = _tool("deploy")
artifacts = _tool("artifacts")
kit_bom = _tool("kit/bom")


def board_profiles():
    """The profiles a board can run (all but the PC's own)."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from hardware import profiles
    return {name: p for name, p in profiles.PROFILES.items() if name != "host"}


def major_version(banner):
    """10 for "CircuitPython 10.3.0-alpha.4 ... mpy-cross emitting mpy v6.3"."""
    m = re.search(r"CircuitPython (\d+)\.", banner)
    if not m:
        raise deploy.DeployError("cannot tell the CircuitPython version from %r" % banner)
    return int(m.group(1))


def requirements_text():
    """The circup requirements of every board: one library a line, by its
    name in the CircuitPython library bundle, pinned to the version
    requirements.txt installs."""
    from importlib import metadata
    lines = ["# Jarmo's libraries for every board, for `circup install -r`",
             "# (python3 run.py bundle --requirements writes this file from tools/deploy.py)"]
    for module, _files in deploy.LIBRARIES:
        try:
            version = "==" + metadata.version(DISTRIBUTIONS[module])
        except metadata.PackageNotFoundError:
            version = ""
        lines.append(module + version)
    return "\n".join(lines) + "\n"


# The oldest CircuitPython the game runs on (busdisplay and i2cdisplaybus
# came with 9; the README says so).
OLDEST_MAJOR = 9


def major_version_of(name):
    """10 for "jarmo-pico-CircuitPython-10.x.zip"."""
    return int(re.search(r"CircuitPython-(\d+)\.x", name).group(1))


def bundles(profile, compilers, out_dir, root=ROOT, log=print):
    """The Project Bundles of one profile for every CircuitPython from
    OLDEST_MAJOR to the newest compiler's: compiled .mpy where a compiler of
    that version is given, else the .py sources (any version runs them); their paths."""
    by_major = dict((major_version(c.banner), c) for c in compilers)
    newest = max(by_major)
    return [bundle(profile, by_major.get(major), out_dir, root, log, major)
            for major in range(min(OLDEST_MAJOR, newest), newest + 1)]


def bundle(profile, compiler, out_dir, root=ROOT, log=print, major=None):
    """Write the Project Bundle of one profile for compiler's CircuitPython
    major version (compiler None: the .py sources, for `major`); its path."""
    profiles = board_profiles()
    if profile not in profiles:
        raise deploy.DeployError("no board profile %r: give one of %s"
                                 % (profile, ", ".join(sorted(profiles))))
    if compiler is not None:
        major = major_version(compiler.banner)
    name = "jarmo-%s" % profile
    folder = "%s/CircuitPython %d.x/" % (name, major)
    deploy.fill_lib(os.path.join(root, "lib"), log=lambda s: None)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "%s-CircuitPython-%d.x.zip" % (name, major))
    with open(os.path.join(root, "device", "settings.toml")) as f:
        settings = deploy.settings_text(None, f.read(), profile)
    with tempfile.TemporaryDirectory() as build, zipfile.ZipFile(
            path + ".part", "w", zipfile.ZIP_DEFLATED) as z:
        for src, rel, compile_it in deploy.plan(root, compiler=compiler):
            if compile_it:
                out = os.path.join(build, rel)
                compiler.compile(src, out, rel[:-4] + ".py")
                src = out
            z.write(src, folder + rel)
        z.writestr(folder + "settings.toml", settings)
        z.writestr(name + "/requirements.txt", requirements_text())
        z.writestr(name + "/README.txt", readme(profile, major, profiles[profile],
                                                compiled=compiler is not None))
    os.replace(path + ".part", path)
    log("wrote %s" % os.path.relpath(path, os.getcwd()))
    return path


def readme(profile, major, p, compiled=True):
    out = io.StringIO()
    out.write("Jarmo for %s (profile %s), CircuitPython %d.x\n\n" % (p["board"], profile, major))
    if not compiled:
        out.write("The game is here as .py sources, which every CircuitPython version runs\n"
                  "(the .mpy bundle of a newer version starts faster and leaves more RAM).\n\n")
    out.write("1. Install CircuitPython %d on the board (circuitpython.org/downloads);\n"
              "   it shows up as a drive called CIRCUITPY.\n" % major)
    out.write("2. Copy everything inside the folder \"CircuitPython %d.x\" onto CIRCUITPY,\n"
              "   replacing what is there (code.py, boot.py, settings.toml, jarmo/,\n"
              "   hardware/, lib/).\n" % major)
    out.write("3. Unplug and plug in again: the game starts. It saves in the board's own\n"
              "   flash (microcontroller.nvm), not on the drive: CIRCUITPY stays writable,\n"
              "   and a new version is copied the same way.\n")
    out.write("\nThe libraries are in lib/ already; with circup, `circup install -r\n"
              "requirements.txt` (beside this file) installs the same ones.\n")
    out.write("\nOr install Jarmo's firmware instead (the game runs from flash: twice the\n"
              "free RAM, a stronger AI): jarmo-%s-VERSION.uf2, published beside this\n"
              "zip. Hold BOOT while plugging the board in, drag the UF2 onto the RPI-RP2\n"
              "drive, then copy only code.py, boot.py and settings.toml from the folder\n"
              "above onto CIRCUITPY.\n" % profile)
    out.write("\nThe wiring diagram: `python3 run.py kit --profile %s` writes\n"
              "build/kit/%s/wiring.svg (docs/KIT.md tells the build).\n\n" % (profile, profile))
    out.write(kit_bom.text(profile))
    return out.getvalue()


def _firmware_tool():
    return _tool("firmware")


def firmwares(names, out_dir, mode, log=print, tool=None):
    """Jarmo's firmware of each profile beside the zips (mode "auto": where
    it can be built, "yes": FirmwareError where not, "no": none); their paths."""
    if mode == "no":
        return []
    tool = tool or _firmware_tool()
    why = tool.unavailable_reason()
    if why and mode == "auto":
        log("no firmware in the bundle: %s" % why)
        return []
    out = []
    for name in names:
        try:
            fw = tool.build_firmware(name, out_dir, log=log)
        except tool.FirmwareError as err:
            raise deploy.DeployError(str(err)) from None
        log("wrote %s" % os.path.relpath(fw.path, os.getcwd()))
        out.append(fw.path)
    return out


def find_compilers(paths):
    """CircuitPython mpy-cross programs: the given paths, else the one on PATH,
    else the pinned one (tools/artifacts.py: fetched or built from the pinned
    source on first use); DeployError if none can be had."""
    if not paths:
        found = shutil.which("mpy-cross")
        if found:
            paths = [found]
        else:
            try:
                paths = [artifacts.path("mpy-cross")]
            except artifacts.ArtifactError as err:
                raise deploy.DeployError("a bundle holds .mpy files, and CircuitPython's mpy-cross could "
                                         "not be had: %s (or give one with --mpy-cross PATH)" % err) from None
    return [deploy.find_mpy_cross(p) for p in paths]


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 run.py bundle",
        description="Write the game as Project Bundle zips (as Adafruit's Learn guides offer "
                    "them): one per board profile and CircuitPython major version, compiled "
                    "with CircuitPython's mpy-cross, into build/.")
    ap.add_argument("--profile", action="append", metavar="P",
                    help="a board profile (repeatable; default: every board profile)")
    ap.add_argument("--mpy-cross", action="append", metavar="PATH",
                    help="CircuitPython's mpy-cross, one per CircuitPython major version "
                         "(default: mpy-cross on PATH, else the pinned one, fetched or built on first use)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build"), metavar="DIR",
                    help="where the zips go (default: build/)")
    ap.add_argument("--firmware", choices=("auto", "yes", "no"), default="auto",
                    help="Jarmo's firmware (UF2) of each profile beside the zips: auto (where the "
                         "ARM compiler is installed), yes (installing it), no")
    ap.add_argument("--requirements", action="store_true",
                    help="only rewrite device/requirements.txt")
    args = ap.parse_args(argv)
    if args.requirements:
        with open(REQUIREMENTS, "w") as f:
            f.write(requirements_text())
        print("wrote %s" % os.path.relpath(REQUIREMENTS, ROOT))
        return 0
    try:
        names = args.profile or sorted(board_profiles())
        if "host" in names:
            raise deploy.DeployError("host is the PC's profile (the simulator's), not a board's")
        compilers = find_compilers(args.mpy_cross)
        for name in names:
            bundles(name, compilers, args.out)
        firmwares(names, args.out, args.firmware)
    except (ValueError, deploy.DeployError) as err:
        print("bundle: %s" % err, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
