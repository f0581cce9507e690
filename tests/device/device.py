"""Real CircuitPython firmware on an emulated RP2040, driven from Python (stdlib only).

`Device` runs ``node tests/device/emulator.mjs --control`` (rp2040js, pinned in package.json)
and talks to it in JSON lines. Emulated time only advances inside `run`, `press`, `wait_for`
and `reset`, so a test is deterministic: the same drive and the same calls give the same
console output at the same emulated times.

    from tests.device.device import Device, firmware_path, unavailable_reason

    fw = firmware_path("raspberry_pi_pico")          # None when there is no UF2 here
    with Device(fw, "path/to/drive", neopixel_pin="GP16") as dev:
        dev.wait_for(r"^READY")                       # a console line, pexpect-style
        dev.press("GP13")                             # pin low for 120 ms, then released
        dev.wait_for(r"KEY 0 True")
        dev.frames[-1]                                # (t_ms, b"GRBGRB...") as sent on GP16
        dev.reset()                                   # power cycle; flash (saves) is kept
        dev.read_file("save.txt")                     # bytes from CIRCUITPY, or None

Times are emulated milliseconds since the current console run of code.py started (each boot
restarts them at 0). See tests/device/README.md for what the emulator models.
"""

import atexit
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EMULATOR = os.path.join(HERE, "emulator.mjs")
DOWNLOADS = "https://circuitpython.org/downloads"
BOARDS = ("raspberry_pi_pico", "adafruit_qtpy_rp2040", "adafruit_feather_rp2040")
_BOARD_NAMES = {
    "raspberry_pi_pico": b"Raspberry Pi Pico with rp2040\0",
    "adafruit_qtpy_rp2040": b"Adafruit QT Py RP2040 with rp2040\0",
    "adafruit_feather_rp2040": b"Adafruit Feather RP2040 with rp2040\0",
}
# Why the last lookup of a board's stock firmware failed (tools/artifacts.py's one line)
_FETCH_ERRORS = {}


# ---------------------------------------------------------------------------- finding things

def uf2_nvm_size(path):
    """microcontroller.nvm's size in a UF2: 8 KiB in Jarmo's firmware (its
    version string ends in -jarmo: tools/firmware.py), else CircuitPython's 4 KiB."""
    return 2 * NVM_SIZE if b"-jarmo\0" in _uf2_payload(path) else NVM_SIZE


def _uf2_payload(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return b""
    payload = bytearray()
    for off in range(0, len(data) - 511, 512):
        block = data[off:off + 512]
        if block[:8] == b"UF2\n\x57\x51\x5d\x9e":
            size = int.from_bytes(block[16:20], "little")
            payload += block[32:32 + size]
    return payload


def uf2_board(path):
    """The board id a CircuitPython UF2 was built for (from its "<board> with rp2040" string), or None."""
    payload = _uf2_payload(path)
    for board, name in _BOARD_NAMES.items():
        if name in payload:
            return board
    return None


def _uf2_in_folder(folder, board):
    exact = os.path.join(folder, "circuitpython-%s.uf2" % board)
    if os.path.isfile(exact):
        return exact
    # official downloads are named like adafruit-circuitpython-<board>-en_US-10.0.0.uf2
    for path in sorted(glob.glob(os.path.join(folder, "*%s*.uf2" % board))):
        return path
    return None


NVM_OFFSET = 0xFF000      # microcontroller.nvm: the 4 KiB below CIRCUITPY (tests/device/firmware.mjs)
NVM_SIZE = 4096
NVM_END = NVM_OFFSET + NVM_SIZE     # where nvm ends: CIRCUITPY's start, whatever nvm's size


def firmware_path(board="raspberry_pi_pico", firmware=None):
    """Path of a CircuitPython UF2 for `board`, or None.

    Looked for in order: `firmware` (e.g. a pytest --firmware option), the JARMO_FIRMWARE
    environment variable (a .uf2 file, or a folder of them), else the stock firmware
    pinned in firmware/artifacts.json: from the cache, the mirror (JARMO_MIRROR) or
    built from the pinned source (tools/artifacts.py). A single file is only used for
    the board it was built for.
    """
    for given in (firmware, os.environ.get("JARMO_FIRMWARE")):
        if not given:
            continue
        if os.path.isdir(given):
            found = _uf2_in_folder(given, board)
            if found:
                return found
        elif os.path.isfile(given) and (board is None or uf2_board(given) in (board, None)):
            return os.path.abspath(given)
    return stock_firmware(board or "raspberry_pi_pico")


def stock_firmware(board):
    """The pinned stock firmware's path for board (tools/artifacts.py: fetched
    or built on first use), or None, with the reason kept for firmware_skip_message."""
    from tools import artifacts
    try:
        return artifacts.path(artifacts.stock_name(board))
    except artifacts.ArtifactError as err:
        _FETCH_ERRORS[board] = str(err)
        return None


def firmware_skip_message(board="raspberry_pi_pico"):
    why = _FETCH_ERRORS.get(board, "it has not been fetched")
    return ("no CircuitPython firmware for %s: %s. Set %s=DIR (a folder or URL holding the files of "
            "firmware/artifacts.json), or JARMO_FIRMWARE=/path/to/the.uf2 (or a folder of UF2 files); "
            "stock releases: %s" % (board, why, "JARMO_MIRROR", DOWNLOADS))


def node_path():
    return shutil.which("node")


def rp2040js_available():
    """True when Node.js and the rp2040js package (npm ci, or $RP2040JS) are there."""
    if not node_path():
        return False
    pkg = os.environ.get("RP2040JS") or os.path.join(ROOT, "node_modules", "rp2040js")
    return os.path.isfile(os.path.join(pkg, "dist", "esm", "index.js"))


def unavailable_reason(board="raspberry_pi_pico", firmware=None):
    """None when `Device` can run `board`, else a message saying what is missing (for tests/needs.py)."""
    if not node_path():
        return "Node.js (node) is not installed: the device emulator needs it"
    if not rp2040js_available():
        return "the rp2040js npm package is missing: run `npm ci` in the repository root (python3 run.py test does)"
    if firmware_path(board, firmware) is None:
        return firmware_skip_message(board)
    return None


# ---------------------------------------------------------------------------- the device


def _quit(proc, send, wait):
    """Ask a running emulator session to quit and wait for its "exit" event (its
    stats); if it cannot, the caller's clean-up (a kill) follows."""
    if proc.poll() is None:
        try:
            send({"cmd": "quit"})
            wait(lambda e: e.get("ev") == "exit", 10, "quit")
        except (DeviceError, OSError):
            pass


def _stop(proc, send, wait):
    """Stop an emulator process: ask it to quit, kill it if it does not
    exit, close its pipes."""
    try:
        _quit(proc, send, wait)
    finally:
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


def _lines(stream):
    """A pipe's lines up to its end; a reader thread's loop. close() may close
    the pipe under it (_stop, once the process has exited): that ends it too."""
    try:
        yield from iter(stream.readline, b"")
    except (OSError, ValueError):
        return


class _Server:
    """A pooled emulator process (emulator.mjs --serve): one Device's session after another,
    so that each Device does not pay for a new Node process and for V8 compiling the emulator
    again (about 1.6 CPU seconds of the 2.1 a fresh process takes to boot Jarmo's firmware to
    its menu). Its reader threads hand each event to the Device that owns it now."""

    def __init__(self):
        self.env = _env_key()       # (what it reads from its environment, fixed at its start)
        self.proc = subprocess.Popen([node_path() or "node", EMULATOR, "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, bufsize=0)
        self.owner = None
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def alive(self):
        return self.proc.poll() is None

    def _read_stdout(self):
        for raw in _lines(self.proc.stdout):
            owner = self.owner
            if owner is not None:
                owner._take_line(raw)
        owner = self.owner
        if owner is not None:
            owner._ended()

    def _read_stderr(self):
        for raw in _lines(self.proc.stderr):
            owner = self.owner
            if owner is not None:
                owner._take_stderr(raw)

    def kill(self):
        if self.alive():
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


_IDLE = []          # pooled emulator processes no Device holds now (at most _IDLE_MOST)
_IDLE_MOST = 2
_POOL_LOCK = threading.Lock()


def _pooling():
    return os.environ.get("JARMO_EMULATOR_POOL", "1") != "0"


def _env_key():
    """The environment an emulator process reads (JARMO_PLAIN_CORE, JARMO_COLD_BOOTS, ...): a
    pooled process serves only Devices made under the same."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("JARMO_") or k == "RP2040JS"))


def _take_server():
    env = _env_key()
    with _POOL_LOCK:
        for server in reversed(list(_IDLE)):    # (the one given back last first)
            if server.env == env:
                _IDLE.remove(server)
                if server.alive():
                    return server
    return _Server()


def _give_back(server):
    with _POOL_LOCK:
        if server.alive() and len(_IDLE) < _IDLE_MOST:
            _IDLE.append(server)
            return
    server.proc.stdin.close()       # (the process ends with its stdin)
    server.kill()


@atexit.register
def _close_idle():
    with _POOL_LOCK:
        servers, _IDLE[:] = list(_IDLE), []
    for server in servers:
        try:
            server.proc.stdin.close()
        except OSError:
            pass
        server.kill()


class DeviceError(RuntimeError):
    """The emulator failed, or the firmware did not do what was waited for."""


class DeviceTimeout(DeviceError):
    """wait_for() saw no matching console line in time."""


class _StderrTail:
    """The last 50 lines an emulator process wrote to stderr (for the errors' messages): its
    owner has _proc, _lock and _stderr."""

    def _read_stderr(self):
        for raw in _lines(self._proc.stderr):
            self._take_stderr(raw)

    def _take_stderr(self, raw):
        with self._lock:
            self._stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))
            del self._stderr[:-50]


class Device(_StderrTail):
    """One emulated board running real CircuitPython; use it as a context manager.

    firmware: a CircuitPython UF2 (see firmware_path); drive_dir: the folder that becomes
    CIRCUITPY (code.py, boot.py, lib/ ...; settings.toml gets CIRCUITPY_SAFE_MODE_DELAY = 0.0).
    neopixel_pin: pin name/number whose WS2812 frames are decoded (see `frames`); a list for several.
    i2c_ack: address (or list) the emulated I2C target ACKs, e.g. 0x3C for the OLED FeatherWing
        (then its panel is modelled too: each `i2c` burst says whether the panel is on and how
        many pixels are lit after it: oled_on, oled_lit).
    timeout_s: wall-clock seconds any one step may take beyond its emulated duration.
    The board is booted (until code.py runs with the console attached) on entering.
    """

    def __init__(self, firmware, drive_dir, neopixel_pin=None, i2c_ack=None, timeout_s=120,
                 board=None, args=(), nvm=None, seed=None):
        if not firmware or not os.path.isfile(firmware):
            raise DeviceError("firmware not found: %r (%s)" % (firmware, firmware_skip_message()))
        self.firmware = firmware
        self.nvm_size = uf2_nvm_size(firmware)
        self.drive_dir = drive_dir
        self.timeout_s = timeout_s
        self.board = board
        cmd = [node_path() or "node", EMULATOR, "--control", "--firmware", firmware, "--drive", drive_dir]
        pins = neopixel_pin if isinstance(neopixel_pin, (list, tuple)) else [neopixel_pin]
        for pin in pins:
            if pin is not None:
                cmd += ["--neopixel-pin", str(pin)]
        if i2c_ack is not None:
            addrs = i2c_ack if isinstance(i2c_ack, (list, tuple)) else [i2c_ack]
            cmd += ["--i2c-ack", ",".join(hex(a) if isinstance(a, int) else str(a) for a in addrs)]
            if 0x3C in addrs:
                cmd += ["--oled"]       # its panel: the lit pixels after each burst (i2c)
        if board:
            cmd += ["--board", board]
        self._nvm_file = None
        if nvm is not None:
            # what microcontroller.nvm holds at the first power-on (an earlier program's data)
            fd, self._nvm_file = tempfile.mkstemp(suffix=".nvm")
            with os.fdopen(fd, "wb") as f:
                f.write(bytes(nvm))
            cmd += ["--nvm", self._nvm_file]
        if seed is not None:
            cmd += ["--seed", str(seed)]
        self._cmd = cmd + list(args)
        self._proc = None
        self._server = None
        self._lock = threading.Condition()
        self._console = []
        self._console_t = []  # the emulated ms of each console line
        self._frames = []
        self._i2c = []
        self._events = []  # replies and other non-stream events, in arrival order
        self._stderr = []
        self._cursor = 0  # console lines before this index were consumed by wait_for
        self._next_id = 0
        self._eof = False
        self.t = 0.0  # emulated ms of the latest event
        self.ready = None  # the latest "ready" event (boot count, boot_ms, ...)
        self.exit = None  # the "exit" event (stats) once closed

    # -- life cycle

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self):
        """Spawns the emulator (or takes a pooled one: _Server) and boots the board; returns the
        "ready" event."""
        if self._proc is not None:
            return self.ready
        if self._poolable():
            self._server = _take_server()
            self._server.owner = self
            self._proc = self._server.proc
            self._send({"cmd": "open", "argv": self._cmd[3:]})
        else:
            self._proc = subprocess.Popen(
                self._cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=ROOT, bufsize=0,
            )
            threading.Thread(target=self._read_stdout, daemon=True).start()
            threading.Thread(target=self._read_stderr, daemon=True).start()
        event = self._wait(lambda e: e.get("ev") in ("ready", "error") and "id" not in e, self.timeout_s, "boot")
        if event["ev"] == "error":
            self.close()
            raise DeviceError(self._explain("boot failed: " + event.get("message", "")))
        self.ready = event
        if not self.board:
            self.board = event.get("board")
        return event

    def _poolable(self):
        # (a session bridged to a TCP port keeps its sockets: a process of its own)
        return type(self) is Device and _pooling() and "--uart-tcp" not in self._cmd

    def close(self):
        """Stops the emulator (quit, then kill if it does not exit; a pooled one goes back to the
        pool once its session has quit); idempotent."""
        proc = self._proc
        if proc is None:
            return
        server, self._server = self._server, None
        try:
            if server is None:
                _stop(proc, self._send, self._wait)
            else:
                self._end_session(server)
        finally:
            self._proc = None
            if self._nvm_file:
                os.unlink(self._nvm_file)
                self._nvm_file = None

    def _end_session(self, server):
        """Quit the session (its "exit" event, the stats, as a process of its own gives) and
        give the process back; kill it if the session does not end."""
        _quit(server.proc, self._send, self._wait)
        server.owner = None
        if self.exit is not None and self.exit.get("code") == 0 and server.alive():
            _give_back(server)
        else:
            server.kill()

    def __del__(self):
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()             # (a pooled process in a session left open: not reused)

    # -- what the device did

    @property
    def console(self):
        """Every console line of code.py so far (all boots), as a list of str."""
        with self._lock:
            return list(self._console)

    def timed_console(self, start=0):
        """The console lines from the start-th on, each with its emulated ms: [(line, t)]."""
        with self._lock:
            return list(zip(self._console[start:], self._console_t[start:]))

    @property
    def frames(self):
        """Decoded NeoPixel frames: list of (t_ms, bytes) with the bytes as sent (G, R, B per pixel)."""
        with self._lock:
            return [(f["t"], bytes.fromhex(f["grb"])) for f in self._frames]

    @property
    def frame_events(self):
        """The raw frame events ({"t", "pin", "grb"}), for several pins."""
        with self._lock:
            return [dict(f) for f in self._frames]

    @property
    def i2c(self):
        """I2C bursts (one per display refresh): dicts with t, ms, transactions, bytes, addresses."""
        with self._lock:
            return [dict(e) for e in self._i2c]

    # -- driving it

    def set_pin(self, pin, level):
        """Drives `pin` (board name like "A1", "GP13", or a GPIO number) from outside, now:
        0 (e.g. a button to GND pressed), 1, or "z"/None (released: the pin's pulls decide).
        External drives are kept across reset() (a button held while powering up)."""
        if level is None:
            level = "z"
        return self._command({"cmd": "pin", "pin": str(pin), "level": level})

    def press(self, pin, ms=120):
        """A button to GND: `pin` low for `ms` emulated ms, then released (time runs meanwhile)."""
        self.set_pin(pin, 0)
        self.run(ms)
        self.set_pin(pin, "z")

    def run(self, ms):
        """Advances `ms` emulated milliseconds; returns the emulated time."""
        return self._command({"cmd": "run", "ms": ms}, emulated_ms=ms)["t"]

    def wait_for(self, regex, timeout_ms=10000):
        """Returns the first console line (not yet consumed by an earlier wait_for) that matches
        `regex` (re.search; keep to syntax that JavaScript's RegExp reads the same), running the
        device up to `timeout_ms` emulated ms for it. Raises DeviceTimeout with the last 40
        console lines when none comes."""
        pattern = re.compile(regex)
        line = self._consume(pattern)
        if line is not None:
            return line
        reply = self._command({"cmd": "until", "match": pattern.pattern, "timeout_ms": timeout_ms},
                              emulated_ms=timeout_ms)
        if reply["ev"] == "matched":
            line = self._consume(pattern)
            return line if line is not None else reply["line"]
        raise DeviceTimeout(self._explain("no console line matched %r within %s emulated ms" % (regex, timeout_ms)))

    def until_flash(self, kind="program", start=None, end=NVM_END, timeout_ms=60000):
        """Runs until the flash chip starts a `kind` operation ("program" or "erase") at an
        address in [start, end) (default: nvm's sectors); returns its address, or None after
        `timeout_ms` emulated ms. The chip is busy with it now: reset() soon cuts it in half."""
        if start is None:
            start = NVM_END - self.nvm_size
        reply = self._command({"cmd": "until-flash", "kind": kind, "from": start, "to": end,
                               "timeout_ms": timeout_ms}, emulated_ms=timeout_ms)
        return reply.get("address") if reply["ev"] == "flash-op" else None

    def send(self, text):
        """Types `text` on the console (e.g. "\\x03" is Ctrl-C); nothing runs until the next step."""
        return self._command({"cmd": "input", "text": text})

    def reset(self, usb=None, flash=None, until=None, timeout_ms=15000, cold=False):
        """Power cycle: flash (CIRCUITPY with everything the firmware wrote) is kept, the board
        boots again (boot.py runs) and code.py restarts with the console attached. Returns the
        "ready" event; console times restart at 0.

        usb="none" (no USB host: a battery-powered board, no console) or "host" (a host that
        enumerates the board but opens no console): times restart at 0 at power-on, and the
        board has not run yet (run() it).

        until: a regex; the board then runs on until a console line matches it (wait_for
        finds that line), within timeout_ms emulated ms (DeviceTimeout if none does). One step
        for the emulator: where boots are alike up to that line, all but the first start from
        the state the first reached there ("warm": "warm" is True in the event), with the
        same events and times as a boot from power-on (tests/device/README.md, "Warm boots"); cold=True
        boots from power-on all the same."""
        cmd = {"cmd": "reset"}
        if usb is not None:
            cmd["usb"] = usb
        if flash is not None:
            # (offset, bytes) in the flash at power-on: what an earlier cut_nvm() found
            cmd["flash"] = {"offset": flash[0], "hex": bytes(flash[1]).hex()}
        if until is not None:
            cmd["until"] = re.compile(until).pattern
            cmd["timeout_ms"] = timeout_ms
            cmd["cold"] = bool(cold)
        event = self._command(cmd, emulated_ms=10000 + (timeout_ms if until is not None else 0))
        self.ready = event
        if until is not None and event.get("line") is None:
            raise DeviceTimeout(self._explain("no console line matched %r within %s emulated ms of the boot"
                                              % (until, timeout_ms)))
        return event

    def stats(self):
        """Emulated/wall seconds, speed, cycles, boots, NeoPixel frames, flash writes, I2C totals."""
        return self._command({"cmd": "stats"})

    def fs_image(self):
        """The CIRCUITPY FAT image (1 MiB) as the firmware left it, as bytes."""
        fd, path = tempfile.mkstemp(suffix=".img")
        os.close(fd)
        try:
            self._command({"cmd": "fs-image", "path": path})
            with open(path, "rb") as f:
                return f.read()
        finally:
            os.unlink(path)

    def read_flash(self, offset=NVM_OFFSET, length=NVM_SIZE):
        """Bytes of the flash now; by default microcontroller.nvm's sector."""
        reply = self._command({"cmd": "flash-read", "offset": offset, "length": length})
        return bytes.fromhex(reply["hex"])

    def cut_nvm(self):
        """(microcontroller.nvm as a power cut now would leave it, the flash
        operation it tore or None): the board runs on. reset(flash=(NVM_END -
        len(nvm), nvm)) later powers it on with it, as if cut here."""
        offset = NVM_END - self.nvm_size
        reply = self._command({"cmd": "cut-read", "offset": offset, "length": self.nvm_size})
        return bytes.fromhex(reply["hex"]), reply["torn"]

    def nvm(self):
        """microcontroller.nvm now (the game's log, jarmo/store_log.py): 4 KiB on
        stock CircuitPython, 8 KiB on Jarmo's firmware (nvm_size)."""
        return self.read_flash(NVM_END - self.nvm_size, self.nvm_size)

    def write_flash(self, data, offset=None):
        """Puts bytes into the flash now, as if they had been written long ago
        (by default an nvm image, ending where nvm ends)."""
        if offset is None:
            offset = NVM_END - len(data)
        self._command({"cmd": "flash-write", "offset": offset, "hex": bytes(data).hex()})

    def read_file(self, path):
        """A file's contents from CIRCUITPY now (bytes), or None if it does not exist."""
        return fat_read(self.fs_image(), path)

    def listdir(self, path="/"):
        return fat_listdir(self.fs_image(), path)

    # -- plumbing

    def last_match_t(self):
        """The emulated ms of the console line wait_for returned last."""
        with self._lock:
            return self._console_t[self._cursor - 1] if self._cursor else None

    def _consume(self, pattern):
        with self._lock:
            for i in range(self._cursor, len(self._console)):
                if pattern.search(self._console[i]):
                    self._cursor = i + 1
                    return self._console[i]
        return None

    def _send(self, obj):
        if self._proc is None or self._proc.poll() is not None:
            raise DeviceError(self._explain("the emulator is not running"))
        self._proc.stdin.write((json.dumps(obj) + "\n").encode())
        self._proc.stdin.flush()

    def _command(self, obj, emulated_ms=0):
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        self._send(dict(obj, id=ident))
        # wall budget: the step's own emulated time at >= 0.1x real time, plus timeout_s
        budget = self.timeout_s + emulated_ms / 100.0
        reply = self._wait(lambda e: e.get("id") == ident, budget, obj["cmd"])
        if reply.get("ev") == "error":
            raise DeviceError(self._explain("%s failed: %s" % (obj["cmd"], reply.get("message"))))
        return reply

    def _wait(self, predicate, timeout_s, what):
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while True:
                for i, event in enumerate(self._events):
                    if predicate(event):
                        del self._events[: i + 1]
                        return event
                if self._eof:
                    raise DeviceError(self._explain("the emulator exited during %s" % what))
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(min(left, 1.0))
        self._kill()
        raise DeviceError(self._explain("%s took longer than %.0f s wall clock; emulator killed" % (what, timeout_s)))

    def _kill(self):
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()

    def _read_stdout(self):
        for raw in _lines(self._proc.stdout):
            self._take_line(raw)
        self._ended()

    def _take_line(self, raw):
        try:
            event = json.loads(raw)
        except ValueError:
            event = {"ev": "log", "text": raw.decode("utf-8", "replace")}
        self._take(event)

    def _take(self, event):
        """One event from the emulator: into the console, frames, bursts or replies."""
        with self._lock:
            if "t" in event:
                self.t = event["t"]
            kind = event.get("ev")
            if kind == "console":
                self._console.append(event["line"])
                self._console_t.append(event.get("t", 0.0))
            elif kind == "frame":
                self._frames.append(event)
            elif kind == "i2c":
                self._i2c.append(event)
            elif kind == "log":
                pass
            else:
                if kind == "exit":
                    self.exit = event
                if kind == "ready" and "id" not in event:
                    self.ready = event  # a reboot the firmware did itself
                self._events.append(event)
            self._lock.notify_all()

    def _ended(self):
        with self._lock:
            self._eof = True
            self._lock.notify_all()

    def _explain(self, message):
        with self._lock:
            lines = self._console[-40:]
            err = self._stderr[-20:]
        text = "%s\n--- last %d console lines (t=%.3f ms) ---\n%s" % (message, len(lines), self.t, "\n".join(lines))
        if err:
            text += "\n--- emulator stderr ---\n" + "\n".join(err)
        return text


# ---------------------------------------------------------------------------- two boards, one cable

PAIR = os.path.join(HERE, "pair.mjs")


class Board(Device):
    """One of the two boards of a DevicePair: the Device interface (press, run, wait_for,
    frames, reset, nvm ...), its commands sent over the pair's emulator process. Time runs
    on both boards together (run, press, wait_for advance both)."""

    def __init__(self, pair, index, timeout_s):
        self.pair = pair
        self.index = index
        self.timeout_s = timeout_s
        self.board = None
        self._proc = None
        self._lock = pair._lock
        self._console = []
        self._console_t = []
        self._frames = []
        self._i2c = []
        self._events = []
        self._stderr = pair._stderr
        self._cursor = 0
        self._next_id = 0
        self._eof = False
        self._nvm_file = None
        self.nvm_size = NVM_SIZE
        self.t = 0.0
        self.ready = None
        self.exit = None

    def start(self):
        return self.ready

    def close(self):
        self.pair.close()

    def __del__(self):
        pass

    def _send(self, obj):
        self.pair._send(dict(obj, board=self.index))

    def _command(self, obj, emulated_ms=0):
        with self._lock:
            self.pair._ids += 1
            ident = self.pair._ids
        self._send(dict(obj, id=ident))
        budget = self.timeout_s + emulated_ms / 50.0     # two boards: half the speed
        reply = self._wait(lambda e: e.get("id") == ident, budget, obj["cmd"])
        if reply.get("ev") == "error":
            raise DeviceError(self._explain("%s failed: %s" % (obj["cmd"], reply.get("message"))))
        return reply

    def _kill(self):
        self.pair._kill()

    # the cable, as seen from this board
    def inject(self, data):
        """Bytes arrive at this board's RX as noise on the line."""
        return self._command({"cmd": "inject", "hex": bytes(data).hex()})


class DevicePair(_StderrTail):
    """Two emulated boards whose link UARTs are cross-wired (tests/device/pair.mjs), in one
    emulator process: `pair.a` and `pair.b` are Boards (the Device interface).

        with DevicePair(dict(firmware=fw, drive_dir=d1, neopixel_pin="A3", uart=1),
                        dict(firmware=fw2, drive_dir=d2, neopixel_pin="D10", uart=0)) as pair:
            pair.a.press("A1"); pair.b.wait_for("^@@STATE play")
            pair.connect(False)            # the cable pulled; pair.connect(True) puts it back
            pair.wire_stats()              # bytes carried, lost, injected, dropped by a full FIFO

    Each board dict takes firmware, drive_dir, neopixel_pin, i2c_ack, nvm (bytes), seed and uart
    (0 or 1: the UART its link pins use). Both boards start before any byte is carried.
    """

    def __init__(self, a, b, timeout_s=240, baud=115200, slice_ms=1):
        self.timeout_s = timeout_s
        self._lock = threading.Condition()
        self._stderr = []
        self._ids = 0
        self._files = []
        boards = []
        for spec in (a, b):
            fw = spec["firmware"]
            if not fw or not os.path.isfile(fw):
                raise DeviceError("firmware not found: %r (%s)" % (fw, firmware_skip_message()))
            pins = spec.get("neopixel_pin")
            pins = pins if isinstance(pins, (list, tuple)) else [pins]
            ack = spec.get("i2c_ack")
            ack = [] if ack is None else ack if isinstance(ack, (list, tuple)) else [ack]
            nvm = None
            if spec.get("nvm") is not None:
                fd, nvm = tempfile.mkstemp(suffix=".nvm")
                with os.fdopen(fd, "wb") as f:
                    f.write(bytes(spec["nvm"]))
                self._files.append(nvm)
            boards.append({"firmware": fw, "drive": spec["drive_dir"],
                           "neopixelPins": [str(p) for p in pins if p is not None],
                           "i2cAck": list(ack), "nvm": nvm, "seed": spec.get("seed"),
                           "uart": spec.get("uart", 0), "board": spec.get("board")})
        self._cmd = [node_path() or "node", PAIR, "--config",
                     json.dumps({"boards": boards, "baud": baud, "slice_ms": slice_ms})]
        self._proc = None
        self.a = Board(self, 0, timeout_s)
        self.b = Board(self, 1, timeout_s)
        self.boards = (self.a, self.b)
        self.exit = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self):
        self._proc = subprocess.Popen(self._cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, cwd=ROOT, bufsize=0)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        for board in self.boards:
            event = board._wait(lambda e: e.get("ev") in ("ready", "error") and "id" not in e,
                                self.timeout_s * 2, "boot")
            if event["ev"] == "error":
                self.close()
                raise DeviceError(board._explain("boot failed: " + event.get("message", "")))
            board.ready = event
            board.board = event.get("board")
            board._proc = self._proc

    def connect(self, connected=True):
        """Put the cable in (True) or pull it (False): bytes sent meanwhile are lost."""
        return self.a._command({"cmd": "wire", "connected": bool(connected)})

    def wire_stats(self):
        return self.a._command({"cmd": "wire-stats"})

    def run(self, ms):
        return self.a.run(ms)

    def _send(self, obj):
        if self._proc is None or self._proc.poll() is not None:
            raise DeviceError("the pair's emulator is not running")
        self._proc.stdin.write((json.dumps(obj) + "\n").encode())
        self._proc.stdin.flush()

    def _kill(self):
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()

    def _read_stdout(self):
        for raw in _lines(self._proc.stdout):
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            if event.get("ev") == "exit" and "board" not in event:
                self.exit = event
                for board in self.boards:
                    board._take(dict(event))
                continue
            i = event.get("board")
            if i in (0, 1):
                self.boards[i]._take(event)
        for board in self.boards:
            board._ended()

    def close(self):
        proc = self._proc
        if proc is None:
            return
        try:
            _stop(proc, self._send, self.a._wait)
        finally:
            self._proc = None
            for board in self.boards:
                board._proc = None
            for f in self._files:
                os.unlink(f)
            self._files = []


# ---------------------------------------------------------------------------- FAT12/16 reader

def _fat_geometry(img):
    bps = int.from_bytes(img[11:13], "little")
    spc = img[13]
    reserved = int.from_bytes(img[14:16], "little")
    nfats = img[16]
    root_entries = int.from_bytes(img[17:19], "little")
    total = int.from_bytes(img[19:21], "little") or int.from_bytes(img[32:36], "little")
    fat_sectors = int.from_bytes(img[22:24], "little")
    root_start = (reserved + nfats * fat_sectors) * bps
    data_start = root_start + root_entries * 32
    clusters = (total * bps - data_start) // (spc * bps)
    return {
        "bps": bps, "cluster": spc * bps, "fat": reserved * bps, "root": root_start,
        "root_len": root_entries * 32, "data": data_start, "fat12": clusters < 4085,
    }


def _fat_next(img, g, n):
    if g["fat12"]:
        off = g["fat"] + n * 3 // 2
        v = img[off] | (img[off + 1] << 8)
        v = v >> 4 if n & 1 else v & 0xFFF
        return None if v >= 0xFF8 else v
    v = int.from_bytes(img[g["fat"] + 2 * n:g["fat"] + 2 * n + 2], "little")
    return None if v >= 0xFFF8 else v


def _fat_chain(img, g, cluster, size=None):
    out = bytearray()
    seen = set()
    while cluster is not None and 2 <= cluster and cluster not in seen:
        seen.add(cluster)
        start = g["data"] + (cluster - 2) * g["cluster"]
        out += img[start:start + g["cluster"]]
        cluster = _fat_next(img, g, cluster)
    return bytes(out if size is None else out[:size])


def _fat_entries(block):
    """(name, is_dir, cluster, size) of each entry in a directory block (long names resolved)."""
    lfn = {}
    for off in range(0, len(block) - 31, 32):
        e = block[off:off + 32]
        if e[0] == 0:
            break
        if e[0] == 0xE5:
            lfn = {}
            continue
        attr = e[11]
        if attr == 0x0F:
            part = e[1:11] + e[14:26] + e[28:32]
            lfn[e[0] & 0x1F] = part.decode("utf-16-le", "replace")
            continue
        if attr & 0x08:
            lfn = {}
            continue
        base = e[0:8].decode("latin-1").rstrip()
        ext = e[8:11].decode("latin-1").rstrip()
        if e[12] & 0x08:
            base = base.lower()
        if e[12] & 0x10:
            ext = ext.lower()
        name = base + ("." + ext if ext else "")
        if lfn:
            name = "".join(lfn[k] for k in sorted(lfn)).split("\0")[0]
        lfn = {}
        if name in (".", ".."):
            continue
        yield name, bool(attr & 0x10), int.from_bytes(e[26:28], "little"), int.from_bytes(e[28:32], "little")


def _fat_find_dir(img, g, path):
    block = img[g["root"]:g["root"] + g["root_len"]]
    for part in [p for p in path.split("/") if p]:
        for name, is_dir, cluster, _size in _fat_entries(block):
            if is_dir and name.lower() == part.lower():
                block = _fat_chain(img, g, cluster)
                break
        else:
            return None
    return block


def fat_listdir(image, path="/"):
    """Names in a folder of a FAT12/16 image (None if there is no such folder)."""
    g = _fat_geometry(image)
    block = _fat_find_dir(image, g, path)
    return None if block is None else [name for name, _d, _c, _s in _fat_entries(block)]


def fat_read(image, path):
    """A file's bytes from a FAT12/16 image (like --fs-image writes), or None."""
    g = _fat_geometry(image)
    folder, _, name = path.strip("/").rpartition("/")
    block = _fat_find_dir(image, g, folder)
    if block is None:
        return None
    for entry, is_dir, cluster, size in _fat_entries(block):
        if not is_dir and entry.lower() == name.lower():
            return _fat_chain(image, g, cluster, size) if size else b""
    return None
