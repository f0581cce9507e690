#!/usr/bin/env python3
"""CircuitPython firmware with Jarmo frozen in: one UF2 per profile.

    python3 run.py firmware --profile pico          # build/jarmo-pico-VERSION.uf2
    python3 run.py firmware --all --out DIR         # every device profile
    python3 run.py firmware --profile qtpy_bff --verbose

The UF2 is CircuitPython 10.3 for the profile's board, built offline by the
kit in ../shared/circuitpython-kit/ (its README), with what `run.py deploy`
ships frozen in, unmodified: the packages jarmo/ and hardware/ and the
libraries every profile imports (neopixel, adafruit_ticks).  A board's
profiles share one firmware.  Frozen code runs from flash, so the heap
holds only the game's data.  CircuitPython's version string ends in
"-jarmo" (boot_out.txt shows it): `run.py deploy` then writes only
code.py, boot.py and settings.toml.

Small patches (SOURCE_PATCHES) give the game's log two flash sectors
where stock CircuitPython has one (jarmo/store_log.py, docs/SAVES.md):
microcontroller.nvm is 8 KB, taken from the end of the firmware area
(1020 KB -> 1016 KB), so the CIRCUITPY drive starts where it did (1 MB);
and a write to nvm over used bytes erases only the 4 KB sector it falls
in, not the whole of nvm.  A third lets a change of the CPU's clock skip
its 10 ms wait for the core voltage when the voltage stays (the idle
clock: hardware/power.py). A fourth drops the pico-sdk's 200 ms wait at
every start for a double tap of reset (into the UF2 bootloader; BOOTSEL
held at power-up still gets there): the game lights 200 ms sooner after a
power-up and after a deep sleep. A fifth lets `time.sleep` idle the last
part of a 1 ms tick too, to the next interrupt, where stock spins it out:
the main loop's naps kept the CPU busy half a tick each (the QT Py idle at
its menu: 10.3 % busy, against 15.1 % without it).
The build also turns native code on (MAKE_OPTIONS: the search's modules,
NATIVE_MODULES, are frozen as native Thumb code; word-aligned by a patch
to mpy-tool.py), builds in the C module firmware/_jarmo (the search's
hottest functions in C, put in the place of their Python by the frozen
copies: C_KERNELS) and leaves out the CircuitPython modules the game never
imports (UNUSED_MODULES), given to make through MAKEFLAGS.
VERSION, in the file name, is `git describe --tags --always --dirty`.
The version string and the build date are the same for every build
(the date: 2025-12-01), because nearly every object file depends on
them: a rebuild after an edit then takes seconds, not minutes.

Everything is made in a cache folder outside the checkout, never in the
kit's folder (it may be read-only): $JARMO_FIRMWARE_CACHE, else
$XDG_CACHE_HOME/jarmo-firmware, else ~/.cache/jarmo-firmware.  It holds the
kit's work folder (sources, the kit's venv, a build folder per board), the
staged frozen files, a log per build and each UF2 under a hash of all its
inputs, so an unchanged firmware is a copy.  On first use the kit installs
the ARM compiler with apt (sudo when not root) and its Python packages with
pip.  A board's first build takes about 2 to 4 minutes on 2 cores, a
rebuild after an edit a few seconds.  A lock file serialises builds (one
build folder per board is shared by every checkout of this user).

For other tools (a release bundle): build_firmware(profile, out_dir) builds
one and returns a Firmware (path, size, seconds...).
"""

import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tools import deploy  # noqa: E402

KIT_DIRS = (os.path.join(os.path.dirname(ROOT), "shared", "circuitpython-kit"),
            "/work/shared/circuitpython-kit")
# The kit's default (`git describe --first-parent` of the CircuitPython
# commit it holds) and the mark tools/deploy.py looks for in boot_out.txt.
CP_VERSION = "10.3.0-alpha.4-53-gcd3da4a5d8" + deploy.FIRMWARE_MARK
SOURCE_DATE_EPOCH = "1764547200"  # 2025-12-01, the banner's build date
FLASH_LIMIT = 1016 * 1024       # the firmware's flash area: stock's 1020 KB less nvm's second sector
NVM_SIZE = 8192                 # microcontroller.nvm of Jarmo's firmware: two 4 KB sectors

# (file in the source tree, stock text, Jarmo's text): applied to the kit's
# extracted sources before a build (and part of the UF2's cache key).
SOURCE_PATCHES = (
    ("ports/raspberrypi/mpconfigport.h",
     "#define CIRCUITPY_FIRMWARE_SIZE (1020 * 1024)",
     "#define CIRCUITPY_FIRMWARE_SIZE (1016 * 1024)"),
    ("ports/raspberrypi/mpconfigport.h",
     "#define CIRCUITPY_INTERNAL_NVM_SIZE         (4 * 1024)",
     "#define CIRCUITPY_INTERNAL_NVM_SIZE         (8 * 1024)"),
    ("ports/raspberrypi/link-rp2040.ld",
     "firmware_size = DEFINED(firmware_size) ? firmware_size : 1020K ;",
     "firmware_size = DEFINED(firmware_size) ? firmware_size : 1016K ;"),
    # the sector the write falls in, not always nvm's first: a write never
    # erases the other sector (the game's log keeps its older copy there)
    ("ports/raspberrypi/common-hal/nvm/ByteArray.c",
     "    memcpy(buffer, (uint8_t *)CIRCUITPY_INTERNAL_NVM_START_ADDR, FLASH_SECTOR_SIZE);\n"
     "    #pragma GCC diagnostic pop\n"
     "    memcpy(buffer + address, bytes, len);\n",
     "    uint32_t sector = CIRCUITPY_INTERNAL_NVM_START_ADDR + address - address % FLASH_SECTOR_SIZE;\n"
     "    address %= FLASH_SECTOR_SIZE;\n"
     "    if (address + len > FLASH_SECTOR_SIZE) {\n"
     "        len = FLASH_SECTOR_SIZE - address;   // the store never writes across sectors\n"
     "    }\n"
     "    memcpy(buffer, (uint8_t *)sector, FLASH_SECTOR_SIZE);\n"
     "    #pragma GCC diagnostic pop\n"
     "    memcpy(buffer + address, bytes, len);\n"),
    ("ports/raspberrypi/common-hal/nvm/ByteArray.c",
     "    flash_range_erase(RMV_OFFSET(CIRCUITPY_INTERNAL_NVM_START_ADDR), FLASH_SECTOR_SIZE);\n"
     "    flash_range_program(RMV_OFFSET(CIRCUITPY_INTERNAL_NVM_START_ADDR), buffer, FLASH_SECTOR_SIZE);\n",
     "    flash_range_erase(RMV_OFFSET(sector), FLASH_SECTOR_SIZE);\n"
     "    flash_range_program(RMV_OFFSET(sector), buffer, FLASH_SECTOR_SIZE);\n"),
    # A change of the CPU's clock waits for the core voltage only when it
    # changes: the idle clock (hardware/power.py) and the full one both run
    # at 1.10 V, and the 10 ms wait held the pass of the press that wakes a
    # dark board, and the two around each sweep of its heap
    ("ports/raspberrypi/common-hal/microcontroller/Processor.c",
     "    vreg_set_voltage(voltage);\n"
     "    // Wait for a stable voltage\n"
     "    common_hal_time_delay_ms(10);\n",
     "    if (vreg_get_voltage() != voltage) {\n"
     "        vreg_set_voltage(voltage);\n"
     "        // Wait for a stable voltage\n"
     "        common_hal_time_delay_ms(10);\n"
     "    }\n"),
    # No 200 ms wait at every start (a power-up, a reset, the wake from a deep
    # sleep) for a second reset press that would enter the UF2 bootloader:
    # the pico-sdk's double-tap check busy-waits for it before CircuitPython
    # starts. New firmware still goes on with BOOTSEL held at power-up.
    ("ports/raspberrypi/sdk/src/rp2_common/pico_bootsel_via_double_reset/"
     "pico_bootsel_via_double_reset.c",
     "        // Arm, wait, then disarm and continue booting\n"
     "        set_double_tap_flag();\n"
     "        busy_wait_us(PICO_BOOTSEL_VIA_DOUBLE_RESET_TIMEOUT_MS * 1000);\n"
     "        clear_double_tap_flag();\n",
     "        // Jarmo: no wait for a second reset press (never armed)\n"),
    # A sleep's last part of a tick is slept too, to the next interrupt (the
    # 1 kHz tick keypad keeps on: at most a tick late), not spun out: the
    # main loop's naps (hardware/mainloop.py) each spun about half a tick
    ("supervisor/shared/tick.c",
     "        // If remaining delay is less than 1 tick, idle loop until end of delay\n"
     "        int64_t remaining_ticks = remaining / 32;\n",
     "        // Jarmo: less than a tick left is idled too, until the next interrupt\n"
     "        int64_t remaining_ticks = (remaining + 31) / 32;\n"),
    # Frozen native code 4-byte aligned on Thumb too: a native function's
    # first word (its prelude index) is read as a word, and the RP2040's
    # Cortex-M0+ faults on an unaligned one (with 2, the first native call
    # read 0x...3a and the board stopped).
    ("tools/mpy-tool.py",
     "            # ARMVxxM or RV{32,64}IMC -- two byte align.\n"
     "            self.fun_data_attributes += \" __attribute__ ((aligned (2)))\"\n",
     "            # ARMVxxM or RV{32,64}IMC -- the first word is read as a word: four byte align.\n"
     "            self.fun_data_attributes += \" __attribute__ ((aligned (4)))\"\n"),
)


# make variables of Jarmo's firmware, given to the kit's make as command-line
# variables (through MAKEFLAGS: they override the boards' own settings too).
# Native code: @micropython.native and @micropython.viper in frozen modules
# (jarmo/native.py), compiled by the build's mpy-cross for the RP2040's
# Cortex-M0+ (armv6m; without -march it refuses native code).
NATIVE_OPTIONS = (("CIRCUITPY_ENABLE_MPY_NATIVE", "1"), ("MPY_CROSS_FLAGS", "-march=armv6m"))
# CircuitPython modules the game never imports (code.py, boot.py, hardware/,
# the frozen libraries): off, they leave room for native code in the
# firmware area.  Kept: board, digitalio, busio, keypad, neopixel_write and
# rp2pio, nvm, microcontroller, supervisor, storage, alarm, displayio and the
# display buses, terminalio, fontio, vectorio, usb_cdc and the standard modules.
UNUSED_MODULES = (
    "AUDIOBUSIO", "AUDIOCORE", "AUDIOMIXER", "AUDIOPWMIO", "AUDIOEFFECTS", "AUDIOFILTERS",
    "AUDIODELAYS", "AUDIOFREEVERB", "AUDIOFILEWRITER", "AUDIOSPEED", "AUDIOI2SIN", "SYNTHIO",
    "USB_MIDI", "USB_HOST", "USB_VIDEO", "USB_AUDIO", "USB_KEYBOARD_WORKFLOW",
    "JPEGIO", "GIFIO", "QRIO", "IMAGECAPTURE", "BITMAPFILTER", "BITMAPTOOLS", "MSGPACK", "AESIO",
    "ULAB", "PICODVI", "FLOPPYIO", "RGBMATRIX", "FRAMEBUFFERIO", "SHARPDISPLAY", "_EVE",
    "EPAPERDISPLAY", "SDCARDIO", "I2CTARGET", "ANALOGBUFIO", "ROTARYIO", "COUNTIO",
)
# The search's modules (the nodes' hot paths: move generation, make and
# undo, evaluation, the search loop): in Jarmo's firmware every function of
# them is native Thumb code.  The checkout keeps one plain source, which
# stock firmware, MicroPython and CPython run as it is; the staged copy that
# is frozen gets @micropython.native above each def (native_source), which
# keeps Python's semantics exactly: the same nodes, the same turns
# (tests/device/test_native_search.py), and whatever the plain code holds
# (weights, tables, ordering) is what runs natively.
NATIVE_MODULES = ("jarmo/ai.py", "jarmo/evaluation.py", "jarmo/game.py")
# C modules built in (make's USER_C_MODULES): firmware/_jarmo/, the search's
# hottest functions in C.  The frozen copies of the modules below put them
# in the place of their Python at import (c_kernel_source): per module, the
# class (None: the module's own functions), the names, and a line to run
# first.  The checkout's modules stay plain Python, which every other
# interpreter runs and which the C follows exactly: the frozen module's
# PLAIN dict keeps the Python ones, tests/device/test_c_kernels.py compares
# both, and tests/device/test_native_search.py the search's nodes and turns
# with CPython's.
C_MODULES = "firmware"
C_KERNELS = {
    "jarmo/game.py": ("Game", ("gen_into", "repeat_move", "can_move", "move_piece",
                               "unmove_piece", "do_code", "undo_code", "_end_check",
                               "all_in_camp"), ""),
    "jarmo/evaluation.py": (None, ("eval_scored", "eval_race"),
                            "_jarmo.bind(TARGETS)   # where eval_scored leaves the mover's targets"),
    "jarmo/ai.py": ("Player", ("_order",), ""),
}
_DEF = re.compile(r"^([ \t]*)def [A-Za-z_]\w*\(", re.M)
MAKE_OPTIONS = NATIVE_OPTIONS + tuple(("CIRCUITPY_" + name, "0") for name in UNUSED_MODULES)


def make_flags(options=MAKE_OPTIONS):
    """MAKEFLAGS for the kit's make: each option a command-line variable."""
    return " ".join("%s=%s" % option for option in options)


class FirmwareError(Exception):
    """A firmware that could not be built; the message says why and what to do."""


class Firmware:
    """A built UF2: path, profile, board, version, flash bytes used of
    FLASH_LIMIT, seconds the build took (0 when it came from the cache)."""

    def __init__(self, path, profile, board, version, used, seconds, cached):
        self.path = path
        self.profile = profile
        self.board = board
        self.version = version
        self.used = used
        self.seconds = seconds
        self.cached = cached

    def summary(self):
        return "%s: %s, %s B of the %d B firmware area (%.1f %%), %s" % (
            self.path, self.board, "{:,}".format(self.used) if self.used else "?", FLASH_LIMIT,
            100.0 * self.used / FLASH_LIMIT if self.used else 0.0,
            "unchanged, from the cache" if self.cached else "built in %.0f s" % self.seconds)


def cache_dir():
    given = os.environ.get("JARMO_FIRMWARE_CACHE")
    if given:
        return os.path.abspath(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "jarmo-firmware")


def find_kit(kit=None):
    """The kit's folder: `kit`, $JARMO_KIT, ../shared/circuitpython-kit, /work/shared/...; or None."""
    for folder in (kit, os.environ.get("JARMO_KIT")) + KIT_DIRS:
        if folder and os.path.isfile(os.path.join(folder, "build.sh")):
            return os.path.abspath(folder)
    return None


def unavailable_reason(kit=None):
    """None when a firmware can be built here without installing anything, else why not."""
    if find_kit(kit) is None:
        return ("the CircuitPython kit is not here (../shared/circuitpython-kit/, or JARMO_KIT=DIR): "
                "python3 run.py firmware needs it")
    if shutil.which("arm-none-eabi-gcc") is None:
        return ("the ARM compiler is not installed: `python3 run.py firmware --profile P` installs it "
                "(the kit's build.sh runs apt-get) and builds the firmware")
    return None


def project_version(root=ROOT):
    """This checkout's version: `git describe --tags --always --dirty`, or "dev"."""
    try:
        proc = subprocess.run(["git", "describe", "--tags", "--always", "--dirty"], cwd=root,
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "dev"
    version = proc.stdout.strip()
    return version if proc.returncode == 0 and re.match(r"^[A-Za-z0-9._+-]+$", version) else "dev"


def device_profiles():
    """The profiles that run on a board (not the PC's)."""
    from hardware import profiles
    return [name for name, prof in profiles.PROFILES.items() if prof["board_id"] is not None]


def board_of(profile):
    """The board id of a device profile; FirmwareError for the PC's."""
    from hardware import profiles
    board = profiles.get(profile)["board_id"]
    if board is None:
        raise FirmwareError("profile %s runs on a PC, not on a board" % profile)
    return board


def frozen_files(root=ROOT):
    """{folder: [(source, path inside the folder)]} frozen into the firmware
    (the same for every board): "app" the packages as deploy copies them,
    "lib" the libraries (deploy.LIBRARIES)."""
    app = []
    for package in deploy.PACKAGES:
        app += deploy.folder_files(root, package)
    return {"app": app + book_module(root), "lib": deploy.library_files()}


def book_module(root):
    """[(source, "jarmo/book_data.py")]: the opening book (deploy.DATA_FILES' jarmo/book.bin)
    as the bytes constant BOOK of a module jarmo.book_data, which jarmo/book.py reads
    from flash; written into build/frozen/. [] when there is no book."""
    path = os.path.join(root, "jarmo", "book.bin")
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        data = f.read()
    out = os.path.join(root, "build", "frozen", "book_data.py")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    text = "# The AI's opening book (jarmo/book.bin), frozen: it stays in flash.\nBOOK = %r\n" % data
    if not os.path.exists(out) or open(out).read() != text:
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    return [(out, "jarmo/book_data.py")]


def native_source(text):
    """text with @micropython.native above every def, and a last line
    NATIVE_CODE = the number of functions so compiled (what the device
    tests read to know the module they run is the native one)."""
    count = len(_DEF.findall(text))
    return _DEF.sub(lambda m: "%s@micropython.native\n%s" % (m.group(1), m.group(0)), text) + (
        "\nNATIVE_CODE = %d   # functions compiled to native code (tools/firmware.py)\n" % count)


def c_kernel_source(text, rel):
    """text with the lines that put the _jarmo C module's functions in the
    place of the Python ones of C_KERNELS[rel] (the Python kept in PLAIN)."""
    owner, names, first = C_KERNELS[rel]
    if owner is None:
        get, put = "globals()[_name]", "globals()[_name] = getattr(_jarmo, _name)"
    else:
        get, put = "getattr(%s, _name)" % owner, "setattr(%s, _name, getattr(_jarmo, _name))" % owner
    lines = ["", "", "# Jarmo's firmware: C in the place of the Python (tools/firmware.py C_KERNELS)",
             "import _jarmo", "PLAIN = {}"]
    if first:
        lines.append(first)
    lines += ["for _name in %r:" % (names,), "    PLAIN[_name] = %s" % get, "    " + put, ""]
    return text + "\n".join(lines)


def frozen_bytes(folder, rel, src):
    """The bytes frozen for the file src, at rel in folder ("app" or "lib")."""
    with open(src, "rb") as f:
        data = f.read()
    if folder == "app" and rel in NATIVE_MODULES:
        text = native_source(data.decode("utf-8"))
        if rel in C_KERNELS:
            text = c_kernel_source(text, rel)
        data = text.encode("utf-8")
    return data


def inputs_key(board, files, kit, root=ROOT):
    """A hash of everything a build reads: the kit, the board, the version and
    date strings, every frozen file's path and bytes."""
    h = hashlib.sha256()
    for name in ("build.sh", "requirements.txt", "circuitpython-src.tar.xz"):
        with open(os.path.join(kit, name), "rb") as f:
            h.update(name.encode() + b"\0" + hashlib.sha256(f.read()).digest())
    h.update(("%s\0%s\0%s\0" % (board, CP_VERSION, SOURCE_DATE_EPOCH)).encode())
    h.update(repr(SOURCE_PATCHES).encode())
    h.update(repr(MAKE_OPTIONS).encode())
    for path, rel in c_module_files(root):
        with open(path, "rb") as f:
            h.update(("c/%s\0" % rel).encode() + hashlib.sha256(f.read()).digest())
    for folder in sorted(files):
        for src, rel in sorted(files[folder], key=lambda item: item[1]):
            data = frozen_bytes(folder, rel, src)
            h.update(("%s/%s\0" % (folder, rel)).encode() + hashlib.sha256(data).digest())
    return h.hexdigest()


# In the extracted sources: the patches applied to them, so that a build
# whose SOURCE_PATCHES lack one (an older commit's) gets the kit's text back
PATCHES_APPLIED = ".jarmo-source-patches.json"


def patch_sources(kit, work):
    """The kit's sources extracted into work/circuitpython (as build.sh
    would, if not there yet) with SOURCE_PATCHES applied; a patch already
    applied is left as it is, and one applied for another build that
    SOURCE_PATCHES does not name is taken out (last applied, first out).
    FirmwareError when a file holds neither text."""
    src = os.path.join(work, "circuitpython")
    if not os.path.isfile(os.path.join(src, "ports", "raspberrypi", "Makefile")):
        os.makedirs(src, exist_ok=True)
        subprocess.run(["tar", "-xJf", os.path.join(kit, "circuitpython-src.tar.xz"), "-C", src,
                        "--strip-components=1"], check=True)
        subprocess.run(["git", "init", "-q", src], check=True)
    stamp = os.path.join(src, PATCHES_APPLIED)
    try:
        with open(stamp) as f:
            applied = [tuple(p) for p in json.load(f)]
    except (OSError, ValueError):
        applied = []
    for rel, stock, ours in reversed(applied):
        if (rel, stock, ours) not in SOURCE_PATCHES:
            _replace_once(os.path.join(src, rel), ours, stock)
    for rel, stock, ours in SOURCE_PATCHES:
        _replace_once(os.path.join(src, rel), stock, ours)
    with open(stamp, "w") as f:
        json.dump(SOURCE_PATCHES, f)


def _replace_once(path, old, new):
    # the file's one `old` becomes `new`; nothing to do if it holds `new`
    with open(path) as f:
        text = f.read()
    if new in text:
        return
    if text.count(old) != 1:
        raise FirmwareError("cannot patch %s: the kit's sources differ from what it expects" % path)
    with open(path, "w") as f:
        f.write(text.replace(old, new))


def c_module_files(root=ROOT):
    """[(path, path inside C_MODULES)] of the C modules' sources, sorted."""
    top = os.path.join(root, C_MODULES)
    found = []
    for folder, _dirs, names in os.walk(top):
        for name in names:
            if name.endswith((".c", ".h", ".mk")):
                path = os.path.join(folder, name)
                found.append((path, os.path.relpath(path, top)))
    return sorted(found, key=lambda item: item[1])


def _stage_c_modules(stage, root=ROOT):
    """Copy the C modules into stage/cmodules (emptied first); that folder."""
    out = os.path.join(stage, "cmodules")
    if os.path.isdir(out):
        shutil.rmtree(out)
    for path, rel in c_module_files(root):
        dst = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(path, dst)
    return out


def _stage(files, stage):
    """Write the frozen files into stage/app and stage/lib (emptied first)."""
    if os.path.isdir(stage):
        shutil.rmtree(stage)
    for folder, pairs in files.items():
        for src, rel in pairs:
            dst = os.path.join(stage, folder, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "wb") as f:
                f.write(frozen_bytes(folder, rel, src))
    return [os.path.join(stage, folder) for folder in sorted(files)]


def flash_used(log_text):
    """Bytes of the firmware area used, from the link's memory report."""
    m = re.search(r"FLASH_FIRMWARE:\s+(\d+) B", log_text)
    return int(m.group(1)) if m else None


def uf2_payload(path):
    """Bytes the UF2 writes to flash (its blocks' payloads)."""
    with open(path, "rb") as f:
        data = f.read()
    return sum(int.from_bytes(data[off + 16:off + 20], "little") for off in range(0, len(data) - 511, 512)
               if data[off:off + 8] == b"UF2\n\x57\x51\x5d\x9e")


def _from_cache(cached, out, profile, board, version):
    """The cached build copied to out, as a Firmware; None when there is none
    (its .json is written last)."""
    if not os.path.isfile(cached + ".json"):
        return None
    with open(cached + ".json") as f:
        meta = json.load(f)
    shutil.copyfile(cached, out)
    return Firmware(out, profile, board, version, meta["used"], meta["seconds"], True)


def firmware_name(profile, version):
    return "jarmo-%s-%s.uf2" % (profile, version)


def build_firmware(profile, out_dir=None, version=None, root=ROOT, kit=None, log=print, verbose=False):
    """Build (or take from the cache) Jarmo's firmware for `profile`; copy it to
    out_dir/jarmo-PROFILE-VERSION.uf2 (out_dir: ROOT/build by default) and
    return a Firmware.  FirmwareError if it cannot be built."""
    kit_dir = find_kit(kit)
    if kit_dir is None:
        raise FirmwareError(unavailable_reason(kit))
    board = board_of(profile)
    version = version or project_version(root)
    deploy.fill_lib(os.path.join(root, "lib"), log=lambda s: None)
    files = frozen_files(root)
    key = inputs_key(board, files, kit_dir, root)
    cache = cache_dir()
    store = os.path.join(cache, "uf2")
    cached = os.path.join(store, "%s-%s.uf2" % (board, key[:20]))
    os.makedirs(store, exist_ok=True)
    out = os.path.join(out_dir or os.path.join(root, "build"), firmware_name(profile, version))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    found = _from_cache(cached, out, profile, board, version)
    if found:
        return found
    with open(os.path.join(cache, "build.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)        # another build may have made it meanwhile
        found = _from_cache(cached, out, profile, board, version)
        if found:
            return found
        patch_sources(kit_dir, os.path.join(cache, "kit"))
        stage = os.path.join(cache, "stage", board)
        folders = _stage(files, stage)
        c_modules = _stage_c_modules(os.path.join(cache, "stage", board + "-c"), root)
        logs = os.path.join(cache, "logs")
        os.makedirs(logs, exist_ok=True)
        log_path = os.path.join(logs, "%s.log" % board)
        env = dict(os.environ, CP_WORK=os.path.join(cache, "kit"), CP_VERSION=CP_VERSION,
                   SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH,
                   MAKEFLAGS=make_flags(MAKE_OPTIONS + (("USER_C_MODULES", c_modules),)))
        log("firmware %s: building CircuitPython for %s with %d frozen files (log: %s)" % (
            profile, board, sum(len(v) for v in files.values()), log_path))
        t0 = time.time()
        built = os.path.join(stage, "firmware.uf2")
        with open(log_path, "w") as f:
            proc = subprocess.Popen(["bash", os.path.join(kit_dir, "build.sh"), board] + folders + [built],
                                    cwd=cache, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for line in proc.stdout:
                f.write(line)
                if verbose:
                    log(line.rstrip("\n"))
            rc = proc.wait()
        seconds = time.time() - t0
        with open(log_path) as f:
            text = f.read()
        if rc != 0 or not os.path.isfile(built):
            tail = "\n".join(text.splitlines()[-25:])
            overflow = re.search(r"region .FLASH_FIRMWARE. overflowed by (\d+) bytes", text)
            why = ("the frozen code does not fit: the firmware area (%d B) overflowed by %s B"
                   % (FLASH_LIMIT, overflow.group(1))) if overflow else "the kit's build.sh failed (exit %d)" % rc
            raise FirmwareError("firmware %s (%s): %s; the end of %s:\n%s" % (profile, board, why, log_path, tail))
        used = flash_used(text) or uf2_payload(built)
        for old in os.listdir(store):           # one cached UF2 per board
            if old.startswith(board + "-"):
                os.remove(os.path.join(store, old))
        shutil.copyfile(built, cached)
        with open(cached + ".json", "w") as f:
            json.dump({"used": used, "seconds": round(seconds, 1), "board": board, "version": version}, f)
        shutil.copyfile(built, out)
    return Firmware(out, profile, board, version, used, seconds, False)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 run.py firmware",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--profile", action="append", default=[],
                    help="a device profile (%s); repeatable" % ", ".join(device_profiles()))
    ap.add_argument("--all", action="store_true", help="every device profile")
    ap.add_argument("--out", default=None, help="folder for the UF2 files (default: build/ in the checkout)")
    ap.add_argument("--version", default=None, help="the version in the names (default: git describe)")
    ap.add_argument("--kit", default=None, help="the CircuitPython kit's folder (default: ../shared/circuitpython-kit)")
    ap.add_argument("--verbose", action="store_true", help="show the kit's build output")
    args = ap.parse_args(argv)
    names = device_profiles() if args.all else args.profile
    if not names:
        ap.error("give --profile P (%s) or --all" % ", ".join(device_profiles()))
    failed = 0
    for name in names:
        try:
            fw = build_firmware(name, args.out, args.version, kit=args.kit, verbose=args.verbose)
        except (FirmwareError, ValueError) as err:
            print("firmware: %s" % err, file=sys.stderr)
            failed += 1
            continue
        print(fw.summary(), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
