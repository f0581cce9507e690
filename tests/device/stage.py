"""The device stage: a CIRCUITPY drive as `run.py deploy` writes it, and its trace.

build_drive(folder, profile, **settings) deploys the project into folder
(compiled with CircuitPython's mpy-cross when there is one, as a user's
deploy would be; frozen=True: for Jarmo's firmware, only code.py, boot.py
and settings.toml) with JARMO_TRACE on; firmware(profile, kind, option)
finds the UF2 of a kind ("stock": CircuitPython's, "frozen": Jarmo's, built
by tools/firmware.py from this checkout, from its cache when unchanged);
Trace parses hardware/trace.py's console lines; expected_grb() turns an app
frame into the bytes the pixel pin must carry.
"""

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import re
import shutil
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


deploy = _load("jarmo_deploy_for_device", os.path.join(ROOT, "tools", "deploy.py"))
KINDS = ("stock", "frozen")
# Per firmware kind: (longest main-loop pass ms, least free heap bytes in a
# game against the AI, power-on to the first LED frame ms). Jarmo's firmware
# runs its code from flash: the heap is the game's, so its budget is higher.
BUDGETS = {"stock": (100, 50 * 1024, 3000), "frozen": (60, 96 * 1024, 1500)}
# The heap budget is the same for every profile: a board with an OLED spends
# about 2.8 KB on its display stack, within it since the heap starts at 64 KB
# (device/settings.toml).


def power_on_to_first_frame_ms(dev, usb="none", timeout_ms=5000, step_ms=25):
    """(ms, shown): emulated ms from power-on (a power cycle of dev's board: its drive
    and nvm as the last run left them) to the first frame that shows the board's state,
    and where it is shown: "LEDs" (an LED frame with a pixel lit), "OLED" (the OLED's
    panel lit, at the end of the I2C burst that lit it: the Feather's menu is on its
    display, its grid dark) or "dark" (only a dark LED frame came, and nothing lit
    within timeout_ms: its time is given). (None, None) if no frame came at all.

    usb: "none" (a battery-powered handheld: no USB host, no console) or "host" (a PC
    that enumerates the board and opens no console: charging). boot.py runs; the
    board's own boot is counted; the drive's settings.toml decides CircuitPython's
    safe-mode wait (the deploy's CIRCUITPY_SAFE_MODE_DELAY = 0.0). The board runs on
    without a console: reset() it to go on.
    """
    seen, seen_i2c = len(dev.frames), len(dev.i2c)
    dev.reset(usb=usb)
    for _ in range(0, timeout_ms, step_ms):
        dev.run(step_ms)
        shown = [(t, "LEDs") for t, grb in dev.frames[seen:] if any(grb)]
        shown += [(e["t"] + e["ms"], "OLED") for e in dev.i2c[seen_i2c:] if e.get("oled_lit")]
        if shown:
            return min(shown)
    frames = dev.frames[seen:]
    return (frames[0][0], "dark") if frames else (None, None)


def power_on_figures(firmware, profile_name, kind, usbs=("none",), i2c=None):
    """{usb: (ms, shown)} power-on to the first frame (power_on_to_first_frame_ms) on a
    player's drive: deployed as `run.py deploy` does (no trace lines: a player's
    settings.toml), powered on once with the console attached (CircuitPython writes
    boot_out.txt, the game its store), then again as the player does, per usb kind."""
    from tests.device.device import Device
    prof = profile(profile_name)
    with tempfile.TemporaryDirectory() as tmp:
        drive = build_drive(os.path.join(tmp, "CIRCUITPY"), profile_name, trace=0,
                            frozen=kind == "frozen")
        with Device(firmware, drive, neopixel_pin=prof["pixel_pin"], i2c_ack=i2c, timeout_s=300,
                    args=["--no-fast-boot"]) as dev:
            dev.run(1000)
            return {usb: power_on_to_first_frame_ms(dev, usb) for usb in usbs}


def mpy_cross_path():
    """CircuitPython's mpy-cross: JARMO_MPY_CROSS, else the pinned one
    (tools/artifacts.py: fetched or built on first use), else None."""
    given = os.environ.get("JARMO_MPY_CROSS")
    if given and os.access(given, os.X_OK):
        return given
    from tools import artifacts
    try:
        return artifacts.path("mpy-cross")
    except artifacts.ArtifactError:
        return None


def build_drive(folder, profile, mpy=True, trace=2, files=None, frozen=False, **settings):
    """Deploy Jarmo into folder for `profile`; settings become settings.toml lines.

    files: {name: bytes} written onto the drive afterwards (a damaged save...).
    frozen: the drive of a board that runs Jarmo's firmware.
    """
    os.makedirs(folder, exist_ok=True)
    compiler = deploy.find_mpy_cross(mpy_cross_path()) if mpy and mpy_cross_path() and not frozen else None
    if compiler is not None:
        compiler = CachedMpyCross(compiler.path, compiler.banner)
    pairs = [("JARMO_TRACE", str(trace))]
    for key, value in settings.items():
        pairs.append(deploy.parse_setting("%s=%s" % (key, value)))
    with _one_deploy_at_a_time():
        deploy.deploy(folder, profile, mpy_cross=compiler, force=True, settings=pairs,
                      log=lambda s: None, frozen=frozen)
    files = dict(files or {})
    if "settings.toml" in files and "boot_out.txt" not in files:
        # a settings.toml edited since the last power-up: boot_out.txt still
        # holds the report on the file before (else the emulator predicts a
        # report on this file as a sound one, and boot.py would repeat it)
        files["boot_out.txt"] = b"boot.py output:\r\njarmo settings.toml 0 0\r\n"
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    return folder


class CachedMpyCross(deploy.MpyCross):
    """mpy-cross with its output kept by what went in (the compiler's banner,
    the name, the source): every device test deploys the project, and most
    files are the same every time (the cache is the firmware's folder, kept
    between CI runs with it)."""

    def compile(self, src, dst, name):
        with open(src, "rb") as f:
            key = hashlib.sha256(("%s\0%s\0" % (self.banner, name)).encode() + f.read()).hexdigest()
        kept = os.path.join(_firmware_tool().cache_dir(), "mpy", key[:2], key + ".mpy")
        if not os.path.exists(kept):
            super().compile(src, dst, name)
            os.makedirs(os.path.dirname(kept), exist_ok=True)
            part = "%s.%d" % (kept, os.getpid())
            shutil.copyfile(dst, part)
            os.replace(part, kept)         # whole or not at all: another worker may read it
            return
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(kept, dst)


@contextlib.contextmanager
def _one_deploy_at_a_time():
    """Deploys fill the checkout's lib/ (tools/deploy.fill_lib) before copying
    it: tests run in parallel (pytest-xdist) take turns."""
    path = os.path.join(tempfile.gettempdir(), "jarmo-deploy-%s.lock"
                        % hashlib.sha256(ROOT.encode()).hexdigest()[:12])
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def firmware_unavailable(profile_name, kind, firmware_option=None):
    """None when `kind` firmware for the profile's board can be had here, else why not
    (for tests/needs.py). Jarmo's firmware needs the ARM compiler
    (installed by `python3 run.py firmware`, which CI runs first)."""
    from tests.device.device import node_path, rp2040js_available, unavailable_reason
    if kind == "stock":
        return unavailable_reason(profile(profile_name)["board_id"], firmware_option)
    if not node_path() or not rp2040js_available():
        return "Node.js or the rp2040js npm package is missing (npm ci): the device emulator needs them"
    return _firmware_tool().unavailable_reason()


def bench_board(name, kind, firmware_option, log):
    """For a benchmark: (profile, firmware UF2, the OLED's I2C address or
    None), or None, logged, when that firmware cannot be had here."""
    why = firmware_unavailable(name, kind, firmware_option)
    if why:
        log("%s (%s): skipped: %s" % (name, kind, why))
        return None
    prof = profile(name)
    return prof, firmware(name, kind, firmware_option), 0x3C if prof["display"] == "sh1107_128x64" else None


def firmware(profile_name, kind, firmware_option=None):
    """The UF2 to boot: CircuitPython's (stock) or Jarmo's (frozen, built from
    this checkout by tools/firmware.py; seconds when only the code changed)."""
    if kind == "stock":
        from tests.device.device import firmware_path
        return firmware_path(profile(profile_name)["board_id"], firmware_option)
    tool = _firmware_tool()
    return tool.build_firmware(profile_name, os.path.join(tool.cache_dir(), "tests"), log=lambda s: None).path


_TOOL = []


def _firmware_tool():
    """tools/firmware.py, loaded once."""
    if not _TOOL:
        _TOOL.append(_load("jarmo_firmware_for_device", os.path.join(ROOT, "tools", "firmware.py")))
    return _TOOL[0]


def settings_nvm(**values):
    """An nvm image whose log holds the app's settings (jarmo/app_menu.py):
    the defaults, with values by item name (rules, heroes, challenges, opp,
    side, games, bright, timer, timeout, hints). Boot a board with it to
    start from those settings."""
    from jarmo.app_base import DEFAULT_SETTINGS
    from jarmo.store_flash import Flash
    from jarmo.store_legacy import SETTING_KEYS
    from jarmo.store_log import R_IMPORTED, R_SETTINGS, Store
    settings = bytearray(DEFAULT_SETTINGS)
    for name, value in values.items():
        settings[SETTING_KEYS.index(name)] = value
    flash = Flash()
    store = Store(flash)
    store.write(R_IMPORTED, b"\x01")
    store.write(R_SETTINGS, bytes(settings))
    return bytes(flash.data)


def full_log(gen=1, stats_total=3):
    """A 4 KB log so full that a game's start compacts it: settings written
    again and again, statistics (stats_total games), campaign progress.
    gen: its generation (its R_FORMAT record's sequence number)."""
    from jarmo.store_flash import Flash
    from jarmo.store_log import MAGIC, R_CAMPAIGN, R_FORMAT, R_IMPORTED, R_SETTINGS, Store, record
    from jarmo.store_stats import Stats
    flash = Flash()
    store = Store(flash)
    store.write(R_IMPORTED, b"\x01")
    stats = Stats(store)
    stats.table["standard"][2] = [stats_total, 0, 0]     # against AI greedy (its id)
    stats.save()
    store.write(R_CAMPAIGN, b"\x01\x09")
    base = Store(Flash(data=settings_nvm())).read(R_SETTINGS)
    while store.free >= 17 + 12:
        store.write(R_SETTINGS, base)               # 17 bytes a record
    store.write(R_SETTINGS, base[:store.free - 7 - 5])
    assert not store.busy and store.free == 5       # a game's start record takes 16
    flash.data[0:13] = record(R_FORMAT, gen, MAGIC)
    return bytes(flash.data)


def full_nvm(kind):
    """full_log() as the board's nvm holds it: on Jarmo's firmware (two
    sectors) in the second, with an older generation's log (one game
    counted) in the first, which the compaction erases and writes."""
    if kind == "stock":
        return full_log()
    return full_log(gen=5, stats_total=1) + full_log(gen=6)


def board_store(dev):
    """The board's log (jarmo/store_log.py), read from its nvm sector now into a
    copy: reading it changes nothing on the board."""
    from jarmo.store_flash import Flash
    from jarmo.store_log import Store
    return Store(Flash(data=dev.nvm()))


def board_game(dev):
    """The history (notation) of the game in progress on the board's log, or None."""
    from jarmo.store_game import load
    found = board_store(dev).game()
    return None if found is None else load(found[1], found[2], 255)[0].history()


def profile(name):
    from hardware import profiles
    return profiles.get(name)


def key_pin(prof, button):
    """The board pin of the key whose short press is `button` ("select", "next"...)."""
    for _label, pin, _seat, short, _long in prof["keys"]:
        if short == button:
            return pin
    raise KeyError(button)


def long_key_pin(prof, button):
    """The board pin of the key whose long press is `button` ("menu", "prev")."""
    for _label, pin, _seat, _short, long in prof["keys"]:
        if long == button:
            return pin
    raise KeyError(button)


def expected_grb(prof, frame_hex, level):
    """The 75 bytes the pin carries for an app frame (hex, RGB per point) at level."""
    from hardware.leds import profile_map
    frame = bytes.fromhex(frame_hex)
    table = profile_map(prof)
    k = level + 1
    out = bytearray(75)
    order = prof["pixel_order"]
    for p in range(25):
        rgb = {c: (frame[3 * p + j] * k) >> 8 for j, c in enumerate("RGB")}
        if not any(rgb.values()) and any(frame[3 * p:3 * p + 3]):
            # hardware/leds.py keeps a too-dim piece lit: its strongest channel at 1
            r, g, b = frame[3 * p:3 * p + 3]
            rgb["R" if r >= g and r >= b else ("G" if g >= b else "B")] = 1
        i = table[p] * 3
        for j, channel in enumerate(order):
            out[i + j] = rgb[channel]
    return bytes(out)


# The settings that make the trace print the heap's free bytes at every state
# and AI turn (each after a collection: hardware/trace.py), for the tests that read them
HEAP = {"JARMO_TRACE_HEAP": 1}


def _heap(text):
    # a heap figure from the trace; None where it was not taken (-1)
    free = int(text)
    return None if free < 0 else free


class Trace:
    """hardware/trace.py's lines out of a list of console lines."""

    def __init__(self, lines):
        self.lines = [line for line in lines if line.startswith("@@")]

    def _values(self, tag):
        return [line[len(tag) + 1:] for line in self.lines if line.startswith(tag + " ")]

    def states(self):
        """[(state, free, longest pass us, ms since start)] in order; free is
        None unless the drive has stage.HEAP's setting."""
        out = []
        for v in self._values("@@STATE"):
            m = re.match(r"(\S+) free=(-?\d+) pass_us=(\d+) ms=(\d+)", v)
            out.append((m.group(1), _heap(m.group(2)), int(m.group(3)), int(m.group(4))))
        return out

    def state_names(self):
        return [s[0] for s in self.states()]

    def texts(self):
        return [tuple(v.split("|")) for v in self._values("@@TEXT")]

    def games(self):
        """The game's actions at each @@GAME line: each keeps the first k
        of the line before's (hardware/trace.py), then adds its own. The
        lines from the start of a boot on: a trace that starts later lacks
        what they keep."""
        out = []
        game = []
        for line in self._values("@@GAME"):
            parts = line.split()
            kept = int(parts[0])
            if kept > len(game):
                raise ValueError("@@GAME keeps %d actions of a line before this trace" % kept)
            game = game[:kept] + parts[1:]
            out.append(game)
        return out

    def last_game(self):
        games = self.games()
        return games[-1] if games else None

    def frames(self):
        """[(version, level, frame hex)] drawn by the app."""
        out = []
        for v in self._values("@@FRAME"):
            version, level, data = v.split()
            out.append((int(version), int(level), data))
        return out

    def boots(self):
        return [int(v.split("=")[1]) for v in self._values("@@BOOT")]

    def ai_turns(self):
        """[(ms, free)] per AI turn (free: as in states())."""
        out = []
        for v in self._values("@@AI"):
            m = re.match(r"ms=(\d+) free=(-?\d+)", v)
            out.append((int(m.group(1)), _heap(m.group(2))))
        return out

    def max_passes(self):
        """[(us, state)] each new longest pass after the first frame."""
        out = []
        for v in self._values("@@MAXPASS"):
            us, state = v.split()
            out.append((int(us), state))
        return out

    def first_frame_ms(self):
        values = self._values("@@FIRSTFRAME")
        return int(values[0].split("=")[1]) if values else None

    def flash_passes(self):
        """[(records appended, us in the store, compactions, pass us, state)] of
        the passes that wrote the store's log."""
        out = []
        for v in self._values("@@FLASH"):
            m = re.match(r"writes=(\d+) us=(\d+) compactions=(\d+) pass_us=(\d+) (\S+)", v)
            out.append((int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)),
                        m.group(5)))
        return out
