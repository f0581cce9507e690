#!/usr/bin/env python3
"""CircuitPython firmware with Jarmo frozen in: one UF2 per profile.

    python3 run.py firmware --profile pico          # build/jarmo-pico-VERSION.uf2
    python3 run.py firmware --all --out DIR         # every device profile
    python3 run.py firmware --profile qtpy_bff --verbose

The UF2 is CircuitPython 10.3 for the profile's board, built from the
pinned CircuitPython source (firmware/artifacts.json: the archive from the
mirror, else the git repositories at the pinned commits; tools/artifacts.py)
with what `run.py deploy`
ships frozen in, unmodified: the packages jarmo/ and hardware/ and the
libraries every profile imports (neopixel, adafruit_ticks).  A board's
profiles share one firmware.  Frozen code runs from flash, so the heap
holds only the game's data.  CircuitPython's version string ends in
"-jarmo" (boot_out.txt shows it): `run.py deploy` then writes only
code.py, boot.py and settings.toml.

    python3 run.py firmware --stock --all           # stock CircuitPython, as the tests boot it

--stock builds the stock firmware the tests and benchmarks boot (no game
frozen in, none of the patches below: COMMON_MAKE_OPTIONS) into the
artifacts' cache, where a mirror's copy would go; tools/artifacts.py does
the same when no mirror has it, and builds mpy-cross from the same tree.

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
imports (UNUSED_MODULES), given to make on its command line.
VERSION, in the file name, is `git describe --tags --always --dirty`.
The version string and the build date are the same for every build
(the date: 2025-12-01), because nearly every object file depends on
them: a rebuild after an edit then takes seconds, not minutes.

Everything is made in a cache folder outside the checkout:
$JARMO_FIRMWARE_CACHE, else $XDG_CACHE_HOME/jarmo-firmware, else
~/.cache/jarmo-firmware.  It holds the sources (kit/circuitpython for
Jarmo's firmware, kit/circuitpython-stock for stock and mpy-cross), the
build's venv (firmware/requirements.txt), a build folder per board, the
staged frozen files, a log per build and each UF2 under a hash of all its
inputs, so an unchanged firmware is a copy.  On first use it installs the
ARM compiler with apt (APT_PACKAGES; sudo when not root) and the build's
Python packages with pip.  A board's first build takes about 2 to 4
minutes on 2 cores, a rebuild after an edit a few seconds.  A lock file
serialises builds (one build folder per board is shared by every checkout
of this user).

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

from tools import artifacts, deploy  # noqa: E402

# `git describe --first-parent` of the pinned CircuitPython commit
# (firmware/artifacts.json), and Jarmo's version string: with the mark
# tools/deploy.py looks for in boot_out.txt.
CP_BASE_VERSION = "10.3.0-alpha.4-53-gcd3da4a5d8"
CP_VERSION = CP_BASE_VERSION + deploy.FIRMWARE_MARK
SOURCE_DATE_EPOCH = "1764547200"  # 2025-12-01, the banner's build date
SOURCE = "circuitpython-source"   # the artifact of the pinned source
BUILD_REQUIREMENTS = os.path.join(ROOT, "firmware", "requirements.txt")
# Debian's packages the build needs (the ARM compiler: gcc 12.2 in Debian 12;
# git: CircuitPython's version script runs it even when CP_VERSION is given)
APT_PACKAGES = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "git", "make", "gcc", "python3-venv")
# make variables of every build, stock's and Jarmo's: hashlib needs mbedtls
# and audiomp3 Adafruit_MP3, which the pinned source leaves out (the game
# imports neither; in Jarmo's firmware audiomp3's 51 KB of flash hold the
# frozen game); Debian 12's ARM gcc is 12.
COMMON_MAKE_OPTIONS = (("TRANSLATION", "en_US"), ("CIRCUITPY_HASHLIB", "0"),
                       ("CIRCUITPY_HASHLIB_MBEDTLS", "0"), ("CIRCUITPY_HASHLIB_MBEDTLS_ONLY", "0"),
                       ("CIRCUITPY_MIN_GCC_VERSION", "12"), ("CIRCUITPY_AUDIOMP3", "0"))
# Stock firmware as the tests boot it (firmware/artifacts.json's stock-BOARD):
# its version string and build date are those of the copies in the mirror,
# which were built from the whole tree with audiomp3 in: one built here is
# held to its version and board strings, not to their sha256.
STOCK_VERSION = CP_BASE_VERSION + "-dirty"
STOCK_DATE_EPOCH = "1795996800"   # 2026-11-30
# Fixes to the upstream sources themselves, needed to build them at all (the
# source archive holds them already; a git checkout gets them here):
# freezing a library whose __version__ is a real version must not run `git
# describe` in the frozen folder; Pico-PIO-USB's HEAD (its pinned commit is
# gone) warns under gcc 12 and must keep its CRC in RAM for the port's
# post-link check.
UPSTREAM_FIXES = (
    ("tools/preprocess_frozen_modules.py",
     '                        if line.startswith("__version__"):\n',
     '                        if line.startswith("__version__") and "auto.0" in line:\n'),
    ("ports/raspberrypi/lib/Pico-PIO-USB/src/pio_usb.c",
     "/**\n * Copyright (c) 2021 sekigon-gonnoc\n */\n",
     '#pragma GCC diagnostic ignored "-Wsign-compare"\n/**\n * Copyright (c) 2021 sekigon-gonnoc\n */\n'),
    ("ports/raspberrypi/lib/Pico-PIO-USB/src/usb_crc.c",
     "uint16_t calc_usb_crc16(const uint8_t *data, uint16_t len) {",
     "uint16_t __not_in_flash_func(calc_usb_crc16)(const uint8_t *data, uint16_t len) {"),
)
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


# make variables of Jarmo's firmware, given to make as command-line variables
# (_make: they override the boards' own settings too, and reach its sub-makes).
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
    return artifacts.user_cache("jarmo-firmware", "JARMO_FIRMWARE_CACHE")


def unavailable_reason():
    """None when a firmware can be built here without installing anything, else why not."""
    if shutil.which("arm-none-eabi-gcc") is None:
        return ("the ARM compiler is not installed: `python3 run.py firmware --profile P` installs it "
                "(apt-get) and builds the firmware")
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


def inputs_key(board, files, root=ROOT):
    """A hash of everything a build reads: the pinned source, the build's
    packages, the board, the version and date strings, the patches and make
    options, every frozen file's path and bytes."""
    h = hashlib.sha256()
    h.update(artifacts.entry(SOURCE)["sha256"].encode() + b"\0")
    with open(BUILD_REQUIREMENTS, "rb") as f:
        h.update(hashlib.sha256(f.read()).digest())
    h.update(("%s\0%s\0%s\0" % (board, CP_VERSION, SOURCE_DATE_EPOCH)).encode())
    h.update(repr((UPSTREAM_FIXES, SOURCE_PATCHES, COMMON_MAKE_OPTIONS, MAKE_OPTIONS)).encode())
    for path, rel in c_module_files(root):
        with open(path, "rb") as f:
            h.update(("c/%s\0" % rel).encode() + hashlib.sha256(f.read()).digest())
    for folder in sorted(files):
        for src, rel in sorted(files[folder], key=lambda item: item[1]):
            data = frozen_bytes(folder, rel, src)
            h.update(("%s/%s\0" % (folder, rel)).encode() + hashlib.sha256(data).digest())
    return h.hexdigest()


# In the extracted sources: the patches applied to them, so that a build
# whose SOURCE_PATCHES lack one (an older commit's) gets the upstream text back
PATCHES_APPLIED = ".jarmo-source-patches.json"


def source_tree(src, log=print):
    """The pinned CircuitPython source at src (made once): the archive from
    the cache or the mirror (tools/artifacts.py) extracted, else a checkout
    of its git repositories at the pinned commits; with UPSTREAM_FIXES.
    FirmwareError (one line) when neither can be had."""
    if not os.path.isfile(os.path.join(src, "ports", "raspberrypi", "Makefile")):
        try:
            archive = artifacts.path(SOURCE, log=log)
        except artifacts.ArtifactError as err:
            log("%s; checking out its git repositories instead" % err)
            try:
                clone_source(src, artifacts.entry(SOURCE)["git"], log)
            except (OSError, subprocess.CalledProcessError) as err2:
                raise FirmwareError("the CircuitPython source could not be had: %s; and git: %s"
                                    % (err, err2)) from None
        else:
            if os.path.isdir(src):
                shutil.rmtree(src)
            os.makedirs(src)
            log("extracting %s into %s" % (os.path.basename(archive), src))
            subprocess.run(["tar", "-xJf", archive, "-C", src, "--strip-components=1"], check=True)
            # an empty repository: the build's git calls ask this tree, not an outer checkout
            subprocess.run(["git", "init", "-q", src], check=True)
    for rel, stock, ours in UPSTREAM_FIXES:
        _replace_once(os.path.join(src, rel), stock, ours)
    return src


def clone_source(src, pin, log=print):
    """A checkout of pin["url"] at pin["commit"] in src, and of each submodule
    [path, url, commit] at its commit (shallow: only those commits' trees)."""
    if os.path.isdir(src):
        shutil.rmtree(src)
    for rel, url, commit in [("", pin["url"], pin["commit"])] + [tuple(m) for m in pin["submodules"]]:
        here = os.path.join(src, rel) if rel else src
        log("git: %s at %s" % (url, commit[:10]))
        os.makedirs(here, exist_ok=True)
        for cmd in (["init", "-q"], ["fetch", "-q", "--depth", "1", url, commit],
                    ["checkout", "-q", "--force", "FETCH_HEAD"]):
            subprocess.run(["git", "-c", "advice.detachedHead=false", "-C", here] + cmd, check=True,
                           stdin=subprocess.DEVNULL)


def patch_sources(work):
    """The pinned sources in work/circuitpython (source_tree) with
    SOURCE_PATCHES applied; a patch already applied is left as it is, and
    one applied for another build that SOURCE_PATCHES does not name is taken
    out (last applied, first out). FirmwareError when a file holds neither text."""
    src = source_tree(os.path.join(work, "circuitpython"))
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
    return src


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


def build_firmware(profile, out_dir=None, version=None, root=ROOT, log=print, verbose=False):
    """Build (or take from the cache) Jarmo's firmware for `profile`; copy it to
    out_dir/jarmo-PROFILE-VERSION.uf2 (out_dir: ROOT/build by default) and
    return a Firmware.  FirmwareError if it cannot be built."""
    board = board_of(profile)
    version = version or project_version(root)
    deploy.fill_lib(os.path.join(root, "lib"), log=lambda s: None)
    files = frozen_files(root)
    key = inputs_key(board, files, root)
    cache = cache_dir()
    store = os.path.join(cache, "uf2")
    cached = os.path.join(store, "%s-%s.uf2" % (board, key[:20]))
    os.makedirs(store, exist_ok=True)
    out = os.path.join(out_dir or os.path.join(root, "build"), firmware_name(profile, version))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    found = _from_cache(cached, out, profile, board, version)
    if found:
        return found
    with _build_lock(cache):                # another build may have made it meanwhile
        found = _from_cache(cached, out, profile, board, version)
        if found:
            return found
        src = patch_sources(os.path.join(cache, "kit"))
        stage = os.path.join(cache, "stage", board)
        folders = _stage(files, stage)
        c_modules = _stage_c_modules(os.path.join(cache, "stage", board + "-c"), root)
        log("firmware %s: building CircuitPython for %s with %d frozen files" % (
            profile, board, sum(len(v) for v in files.values())))
        options = COMMON_MAKE_OPTIONS + MAKE_OPTIONS + (("USER_C_MODULES", c_modules),)
        built, seconds, text = _make(src, board, options, folders, CP_VERSION, SOURCE_DATE_EPOCH,
                                     log, verbose)
        used = flash_used(text) or uf2_payload(built)
        for old in os.listdir(store):           # one cached UF2 per board
            if old.startswith(board + "-"):
                os.remove(os.path.join(store, old))
        shutil.copyfile(built, cached)
        with open(cached + ".json", "w") as f:
            json.dump({"used": used, "seconds": round(seconds, 1), "board": board, "version": version}, f)
        shutil.copyfile(built, out)
    return Firmware(out, profile, board, version, used, seconds, False)


def _build_lock(cache):
    """A context that holds the cache's build lock (one build at a time)."""
    os.makedirs(cache, exist_ok=True)
    lock = open(os.path.join(cache, "build.lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock                                 # closing it (the with's end) lets the lock go


def ensure_toolchain(log=print):
    """The ARM compiler, newlib, git, make and a host C compiler, from apt when
    one is missing (sudo when not root). FirmwareError when apt fails."""
    have = (shutil.which("arm-none-eabi-gcc") and os.path.isdir("/usr/lib/arm-none-eabi/newlib")
            and shutil.which("git") and shutil.which("make") and shutil.which("gcc"))
    if have:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    log("installing the ARM compiler with apt-get: %s" % " ".join(APT_PACKAGES))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq"] + list(APT_PACKAGES)):
        proc = subprocess.run(sudo + cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["exit %d" % proc.returncode]
            raise FirmwareError("%s failed: %s" % (" ".join(sudo + cmd[:2]), tail[0]))


def build_venv(log=print):
    """The build's own venv (firmware/requirements.txt, installed again when
    it changes); its bin folder."""
    venv = os.path.join(cache_dir(), "kit", ".venv")
    py = os.path.join(venv, "bin", "python")
    with open(BUILD_REQUIREMENTS, "rb") as f:
        want = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(venv, ".jarmo-requirements.sha256")
    if os.path.isfile(py) and os.path.isfile(stamp) and open(stamp).read().strip() == want:
        return os.path.dirname(py)
    log("installing the firmware build's Python packages (firmware/requirements.txt)")
    for cmd in ([sys.executable, "-m", "venv", venv],
                [py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", BUILD_REQUIREMENTS]):
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["exit %d" % proc.returncode]
            raise FirmwareError("%s failed: %s" % (" ".join(cmd[:3]), tail[0]))
    with open(stamp, "w") as f:
        f.write(want + "\n")
    return os.path.dirname(py)


def _make(src, board, options, folders, cp_version, date_epoch, log, verbose):
    """make in src/ports/raspberrypi for board: (the UF2's path, seconds, the log's
    text). FirmwareError with the log's end when it fails."""
    ensure_toolchain(log)
    bin_dir = build_venv(log)
    port = os.path.join(src, "ports", "raspberrypi")
    if not os.path.isdir(os.path.join(port, "boards", board)):
        raise FirmwareError("the CircuitPython source has no board %s" % board)
    # The default build folder (a BUILD= would move mpy-cross's build too); the
    # copy of the frozen files in it goes first: make only copies the frozen
    # folders again when the folders themselves change, not the files in them.
    build = os.path.join(port, "build-" + board)
    shutil.rmtree(os.path.join(build, "frozen_mpy"), ignore_errors=True)
    if os.path.exists(os.path.join(build, "manifest.py")):
        os.remove(os.path.join(build, "manifest.py"))
    logs = os.path.join(cache_dir(), "logs")
    os.makedirs(logs, exist_ok=True)
    log_path = os.path.join(logs, "%s%s.log" % (board, "" if folders else "-stock"))
    cmd = (["make", "BOARD=" + board] + ["%s=%s" % option for option in options]
           + (["FROZEN_MPY_DIRS=" + " ".join(folders)] if folders else [])
           + ["-j%d" % (os.cpu_count() or 1)])
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), CP_VERSION=cp_version,
               SOURCE_DATE_EPOCH=date_epoch)
    env.pop("MAKEFLAGS", None)
    log("  make in %s (log: %s)" % (port, log_path))
    t0 = time.time()
    with open(log_path, "w") as f:
        proc = subprocess.Popen(cmd, cwd=port, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout:
            f.write(line)
            if verbose:
                log(line.rstrip("\n"))
        rc = proc.wait()
    seconds = time.time() - t0
    with open(log_path) as f:
        text = f.read()
    built = os.path.join(build, "firmware.uf2")
    if rc != 0 or not os.path.isfile(built):
        tail = "\n".join(text.splitlines()[-25:])
        overflow = re.search(r"region .FLASH_FIRMWARE. overflowed by (\d+) bytes", text)
        why = ("the frozen code does not fit: the firmware area (%d B) overflowed by %s B"
               % (FLASH_LIMIT, overflow.group(1))) if overflow else "make failed (exit %d)" % rc
        raise FirmwareError("%s: %s; the end of %s:\n%s" % (board, why, log_path, tail))
    return built, seconds, text


def stock_source(log=print):
    """The pinned source without Jarmo's patches (its own tree, so that the
    two kinds of build never rebuild each other's objects)."""
    return source_tree(os.path.join(cache_dir(), "kit", "circuitpython-stock"), log)


def build_stock(board, log=print, verbose=False):
    """Stock CircuitPython for board, built as the mirror's copies were
    (COMMON_MAKE_OPTIONS, STOCK_VERSION); the UF2's path in the build folder."""
    with _build_lock(cache_dir()):
        src = stock_source(log)
        log("stock CircuitPython %s for %s: building from the pinned source" % (STOCK_VERSION, board))
        built, _seconds, _text = _make(src, board, COMMON_MAKE_OPTIONS, [], STOCK_VERSION,
                                       STOCK_DATE_EPOCH, log, verbose)
    return built


def build_mpy_cross(log=print):
    """CircuitPython's mpy-cross from the pinned source, with the host's C
    compiler; its path."""
    ensure_toolchain(log)
    with _build_lock(cache_dir()):
        src = stock_source(log)
        env = dict(os.environ, PATH=build_venv(log) + os.pathsep + os.environ.get("PATH", ""),
                   CP_VERSION=STOCK_VERSION, SOURCE_DATE_EPOCH=STOCK_DATE_EPOCH)
        env.pop("MAKEFLAGS", None)
        log("mpy-cross: building from the pinned source with the host's C compiler")
        proc = subprocess.run(["make", "-C", "mpy-cross", "-j%d" % (os.cpu_count() or 1)], cwd=src, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True)
        built = os.path.join(src, "mpy-cross", "build", "mpy-cross")
        if proc.returncode != 0 or not os.path.isfile(built):
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["exit %d" % proc.returncode]
            raise FirmwareError("building mpy-cross failed: %s" % tail[0])
    return built


def stock_firmware(profile, verbose=False):
    """Build stock CircuitPython for the profile's board into the artifacts'
    cache, checked as a fetched one is; a line saying where it is."""
    name = artifacts.stock_name(board_of(profile))
    target = artifacts.cached_path(name)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    artifacts.make(name, "stock-firmware", target, print)
    return "%s: %s (%s)" % (profile, target, name)


def make_artifact(how, item, log=print):
    """tools/artifacts.py's way to make an artifact from source: its path."""
    if how == "stock-firmware":
        return build_stock(item["uf2"]["board_id"], log)
    if how == "mpy-cross":
        return build_mpy_cross(log)
    raise FirmwareError("no way to build %r" % how)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 run.py firmware",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--profile", action="append", default=[],
                    help="a device profile (%s); repeatable" % ", ".join(device_profiles()))
    ap.add_argument("--all", action="store_true", help="every device profile")
    ap.add_argument("--out", default=None, help="folder for the UF2 files (default: build/ in the checkout)")
    ap.add_argument("--version", default=None, help="the version in the names (default: git describe)")
    ap.add_argument("--stock", action="store_true",
                    help="stock CircuitPython instead (no game frozen in), as the tests boot it, into "
                         "the artifacts' cache (firmware/artifacts.json: stock-BOARD)")
    ap.add_argument("--verbose", action="store_true", help="show the build's output")
    args = ap.parse_args(argv)
    names = device_profiles() if args.all else args.profile
    if not names:
        ap.error("give --profile P (%s) or --all" % ", ".join(device_profiles()))
    failed = 0
    for name in names:
        try:
            if args.stock:
                print(stock_firmware(name, verbose=args.verbose), flush=True)
                continue
            fw = build_firmware(name, args.out, args.version, verbose=args.verbose)
        except (FirmwareError, artifacts.ArtifactError, ValueError) as err:
            print("firmware: %s" % err, file=sys.stderr)
            failed += 1
            continue
        print(fw.summary(), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
