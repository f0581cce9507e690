"""The device harness itself: real CircuitPython 10 firmware booted in rp2040js (tests/device/).

Checks what the game's device tests rely on: boot to code.py with the console attached, the
NeoPixel bytes a pin really sent, a button press through keypad, a file saved by code.py
surviving a power cycle (flash writes persist), board pin names, the I2C target, batch mode.
Skips with the reason when Node.js, the rp2040js package (npm ci) or a firmware UF2 is missing
(see tests/device/README.md: JARMO_FIRMWARE, https://circuitpython.org/downloads).
"""

import os
import re
import subprocess
import textwrap

import pytest

from tests import needs
from tests.device import device as dv

PIXELS = bytes([0x10, 0x20, 0x30, 0xFF, 0x00, 0x01, 0x00, 0x80, 0x00])  # G, R, B per pixel

BOOT_PY = 'import storage\nstorage.remount("/", readonly=False)\n'

# Pico: NeoPixels on GP16, buttons GP13 (just reported) and GP14 (saves a count to flash).
PICO_CODE = textwrap.dedent(
    """
    import gc, os, time, board, digitalio, keypad, neopixel_write
    gc.collect()
    print("HELLO", gc.mem_free())
    try:
        with open("/saved.txt") as f:
            print("SAVED", f.read())
    except OSError:
        print("SAVED none")
    pin = digitalio.DigitalInOut(board.GP16)
    pin.direction = digitalio.Direction.OUTPUT
    neopixel_write.neopixel_write(pin, bytearray(%r))
    print("SHOWN")
    keys = keypad.Keys((board.GP13, board.GP14), value_when_pressed=False, pull=True)
    count = 0
    print("READY")
    while True:
        event = keys.events.get()
        if event:
            print("KEY", event.key_number, "pressed" if event.pressed else "released",
                  time.monotonic_ns() // 1000000)
            if event.released and event.key_number == 1:
                count += 1
                with open("/saved.new", "w") as f:
                    f.write("presses=%%d" %% count)
                try:
                    os.remove("/saved.txt")
                except OSError:
                    pass
                os.rename("/saved.new", "/saved.txt")
                print("WROTE", count)
        time.sleep(0.005)
    """
    % PIXELS
)


def _firmware(board):
    needs.require(dv.unavailable_reason(board))
    return dv.firmware_path(board)


def _drive(path, files):
    for name, text in files.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return str(path)


def _reach(dev, regex, timeout_ms=10000):
    """A console line matching regex: one already printed, else the next one (order-independent tests)."""
    for line in dev.console:
        if re.search(regex, line):
            return line
    return dev.wait_for(regex, timeout_ms)


@pytest.fixture(scope="module")
def pico(tmp_path_factory):
    firmware = _firmware("raspberry_pi_pico")
    drive = _drive(tmp_path_factory.mktemp("pico"), {"boot.py": BOOT_PY, "code.py": PICO_CODE})
    with dv.Device(firmware, drive, neopixel_pin="GP16", timeout_s=120) as dev:
        yield dev


@pytest.mark.full
def test_pico_boots_to_code_py_with_the_console(pico):
    assert pico.board == "raspberry_pi_pico"
    # boot_out.txt is pre-seeded, so power-on to code.py is ~0.2 emulated s, not 1.2 s
    assert pico.ready["boot_ms"] < 1000
    line = _reach(pico, r"^HELLO \d+$")
    free = int(line.split()[1])
    assert 100_000 < free < 264 * 1024, line


@pytest.mark.full
def test_neopixel_frame_is_what_code_py_sent(pico):
    _reach(pico, r"^SHOWN$")
    frames = [grb for _t, grb in pico.frames]
    assert frames and frames[-1] == PIXELS


@pytest.mark.full
def test_button_press_reaches_keypad(pico):
    _reach(pico, r"^READY$")
    pico.press("GP13", ms=120)
    pressed = int(pico.wait_for(r"^KEY 0 pressed \d+").split()[-1])
    released = int(pico.wait_for(r"^KEY 0 released \d+").split()[-1])
    # keypad scans every 20 ms: the press lasts 120 ms of emulated time
    assert 100 <= released - pressed <= 140


@pytest.mark.full
def test_file_written_by_code_py_survives_a_power_cycle(pico):
    _reach(pico, r"^READY$")
    pico.press("GP14")
    count = int(pico.wait_for(r"^WROTE \d+$").split()[1])
    assert pico.read_file("saved.txt") == b"presses=%d" % count
    ready = pico.reset()
    assert ready["boot"] == 2
    assert pico.wait_for(r"^SAVED ") == "SAVED presses=%d" % count
    assert "saved.txt" in pico.listdir("/")
    # the shared board left ready again: the tests after this one (another order on several
    # processes) would find the first boot's READY line and press before this boot's keypad
    pico.wait_for(r"^READY$")


# QT Py, batch mode (the CLI as a benchmark would use it): board pin names, a NeoPixel grid on A3,
# a button on A1 from a --gpio-script, I2C scan with --i2c-ack, a long file name in a subfolder,
# a file written to flash, read back from --fs-image.
QTPY_CODE = textwrap.dedent(
    """
    import board, busio, digitalio, keypad, neopixel_write, time
    print("BOARD", board.board_id)
    with open("/lib/sub/A long file name.txt") as f:
        print("LFN", f.read())
    i2c = board.I2C()
    i2c.try_lock()
    print("SCAN", i2c.scan())
    i2c.writeto(0x3C, bytes([0x00, 0xAE]))
    i2c.unlock()
    pin = digitalio.DigitalInOut(board.A3)
    pin.direction = digitalio.Direction.OUTPUT
    neopixel_write.neopixel_write(pin, bytearray(b"\\x01\\x02\\x03" * 25))
    keys = keypad.Keys((board.A1,), value_when_pressed=False, pull=True)
    start = time.monotonic()
    while time.monotonic() - start < 1:
        event = keys.events.get()
        if event:
            print("KEY", "pressed" if event.pressed else "released")
            if event.released:
                break
    with open("/out.txt", "w") as f:
        f.write("written by code.py")
    print("@@END")
    """
)


@pytest.mark.full
def test_qtpy_batch_mode(tmp_path):
    firmware = _firmware("adafruit_qtpy_rp2040")
    drive = _drive(tmp_path / "drive", {
        "boot.py": BOOT_PY,
        "code.py": QTPY_CODE,
        "lib/sub/A long file name.txt": "long names work",
    })
    script = tmp_path / "buttons.gpio"
    script.write_text("# TIME_MS PIN LEVEL\n100 A1 0\n200 A1 z\n")
    frames = tmp_path / "frames.txt"
    image = tmp_path / "circuitpy.img"
    proc = subprocess.run(
        [dv.node_path(), dv.EMULATOR, "--firmware", firmware, "--drive", drive,
         "--end-marker", "@@END", "--timeout-s", "120", "--gpio-script", str(script),
         "--neopixel-pin", "A3", "--neopixel-out", str(frames), "--i2c-ack", "0x3C",
         "--fs-image", str(image)],
        capture_output=True, text=True, timeout=180,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout.splitlines()
    assert "BOARD adafruit_qtpy_rp2040" in out
    assert "LFN long names work" in out
    assert "SCAN [60]" in out
    assert out.count("KEY pressed") == 1 and out.count("KEY released") == 1
    assert "GPIO28 = 0" in proc.stderr  # A1 is GPIO28 on the QT Py
    assert "I2C 0x3c: 2 transactions, 2 bytes" in proc.stderr  # scan's probe, then the write
    frame = frames.read_text().splitlines()[-1]
    assert "pin=GPIO26 pixels=25" in frame and "grb=" + ",".join(["010203"] * 25) in frame
    assert dv.fat_read(image.read_bytes(), "out.txt") == b"written by code.py"


# Feather RP2040 + OLED FeatherWing: the I2C target ACKs 0x3C and reports each burst of writes.
FEATHER_CODE = textwrap.dedent(
    """
    import board
    i2c = board.I2C()
    while not i2c.try_lock():
        pass
    for page in range(3):
        i2c.writeto(0x3C, bytes([0x00, 0xB0 | page]))
        i2c.writeto(0x3C, bytes([0x40]) + bytes(16))
    i2c.unlock()
    print("DRAWN")
    import digitalio
    d5 = digitalio.DigitalInOut(board.D5)
    d5.pull = digitalio.Pull.UP
    print("D5", d5.value)
    while d5.value:
        pass
    print("D5", d5.value)
    """
)


@pytest.mark.full
def test_feather_oled_i2c_and_pin_names(tmp_path):
    firmware = _firmware("adafruit_feather_rp2040")
    drive = _drive(tmp_path, {"code.py": FEATHER_CODE})
    with dv.Device(firmware, drive, i2c_ack=0x3C) as dev:
        assert dev.board == "adafruit_feather_rp2040"
        dev.wait_for(r"^DRAWN$")
        assert dev.wait_for(r"^D5 ") == "D5 True"
        dev.set_pin("D5", 0)  # GPIO7
        assert dev.wait_for(r"^D5 ", timeout_ms=1000) == "D5 False"
        dev.run(10)  # 5 ms of bus silence ends the burst
        # (the first, interrupted run of code.py before the console attach drew too: t < 0)
        bursts = [b for b in dev.i2c if b["t"] >= 0]
        assert len(bursts) == 1 and bursts[0]["addresses"] == ["0x3c"]
        assert bursts[0]["transactions"] == 6 and bursts[0]["bytes"] == 3 * 2 + 3 * 17
        assert dev.stats()["i2c"]["0x3c"]["transactions"] >= 6


def _need_node():
    if not dv.rp2040js_available():
        needs.missing("Node.js or the rp2040js package (npm ci) is missing")


def test_models_selftest():
    """The flash chip, SSI/IO_QSPI and FAT builder on their own (no firmware needed)."""
    _need_node()
    proc = subprocess.run([dv.node_path(), os.path.join(dv.HERE, "selftest.mjs")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "selftest ok" in proc.stdout, proc.stdout + proc.stderr


def test_the_fast_decoder_runs_every_instruction_as_rp2040js_does():
    """fastcore.mjs's table-dispatched decoder against rp2040js's own (no firmware needed)."""
    _need_node()
    proc = subprocess.run([dv.node_path(), os.path.join(dv.HERE, "fastcore_check.mjs")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "fastcore ok" in proc.stdout, proc.stdout + proc.stderr


# Work for the CPU: Python, a NeoPixel frame, a press through keypad, a file written to flash.
WORKLOAD_CODE = textwrap.dedent(
    """
    import board, digitalio, keypad, neopixel_write
    total = 0
    for i in range(3000):
        total += (i * i) % 7
    names = {}
    for i in range(300):
        names[str(i)] = i / 3
    print("SUM", total, len(names), sum(names.values()))
    pin = digitalio.DigitalInOut(board.GP16)
    pin.direction = digitalio.Direction.OUTPUT
    neopixel_write.neopixel_write(pin, bytearray(range(75)))
    keys = keypad.Keys((board.GP13,), value_when_pressed=False, pull=True)
    print("READY")
    while True:
        event = keys.events.get()
        if event and event.released:
            break
    with open("/saved.txt", "w") as f:
        f.write("x" * 500)
    print("DONE")
    """
)


@pytest.mark.full
def test_the_fast_decoder_gives_a_program_the_same_emulated_time(tmp_path, monkeypatch):
    """The same firmware and program on rp2040js's decoder and on fastcore's: every console line
    and NeoPixel frame at the same emulated instant (one cycle more or less anywhere would show)."""
    firmware = _firmware("raspberry_pi_pico")
    runs, decoders = [], []
    for plain in ("1", "0"):
        monkeypatch.setenv("JARMO_PLAIN_CORE", plain)
        drive = _drive(tmp_path / ("drive" + plain), {"boot.py": BOOT_PY, "code.py": WORKLOAD_CODE})
        with dv.Device(firmware, drive, neopixel_pin="GP16", timeout_s=120) as dev:
            dev.wait_for(r"^READY$")
            dev.press("GP13", ms=50)
            dev.wait_for(r"^DONE$")
            stats = dev.stats()
            decoders.append(stats["decoder"])
            runs.append((dev.timed_console(), dev.frames, stats["cycles"]))
    assert decoders == ["rp2040js", "fastcore"]
    assert runs[0][0][-1][0] == "DONE" and runs[0][1]
    assert runs[0] == runs[1]


def test_fat_image_reads_back_in_python(tmp_path):
    _need_node()
    files = {"code.py": "print(1)\n", "lib/sub/Mixed Case Long Name.py": "x = 2\n" * 300, "DATA.TXT": ""}
    drive = _drive(tmp_path / "d", files)
    image = tmp_path / "img"
    subprocess.run([dv.node_path(), os.path.join(dv.HERE, "selftest.mjs"), "--fat", drive, str(image)],
                   check=True, timeout=60)
    data = image.read_bytes()
    assert sorted(dv.fat_listdir(data, "/")) == ["DATA.TXT", "code.py", "lib"]
    assert dv.fat_listdir(data, "lib/sub") == ["Mixed Case Long Name.py"]
    for name, text in files.items():
        assert dv.fat_read(data, name) == text.encode()
    assert dv.fat_read(data, "missing.txt") is None


def test_firmware_lookup_says_what_was_tried(monkeypatch, tmp_path):
    # an empty cache, a mirror without the file, a build that fails: the fetcher's one
    # line, naming each, is what a skipped (or, in CI, failed) device test says
    from tools import artifacts, firmware
    monkeypatch.setenv("JARMO_FIRMWARE", str(tmp_path / "missing.uf2"))
    monkeypatch.setenv("JARMO_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("JARMO_MIRROR", str(tmp_path / "mirror"))
    monkeypatch.setattr(artifacts, "_known", {})

    def no_build(how, item, log):
        raise firmware.FirmwareError("no ARM compiler in this test")
    monkeypatch.setattr(firmware, "make_artifact", no_build)
    assert dv.firmware_path("adafruit_qtpy_rp2040") is None
    message = dv.firmware_skip_message("adafruit_qtpy_rp2040")
    assert "stock-adafruit_qtpy_rp2040" in message and str(tmp_path / "mirror") in message
    assert "no ARM compiler in this test" in message
    assert "JARMO_FIRMWARE" in message and "JARMO_MIRROR" in message
    assert "https://circuitpython.org/downloads" in message
    assert not list((tmp_path / "cache").rglob("*.uf2"))            # nothing half-made kept
    if dv.rp2040js_available():
        assert dv.unavailable_reason("adafruit_qtpy_rp2040") == message
    (tmp_path / "adafruit-circuitpython-adafruit_qtpy_rp2040-en_US-10.0.0.uf2").write_bytes(b"")
    assert dv.firmware_path("adafruit_qtpy_rp2040", firmware=str(tmp_path)).endswith("-10.0.0.uf2")


# nvm: what the game's store relies on, measured on the real firmware. A write into erased
# bytes is page programs only; a write over used bytes erases the sector; a power cut in the
# middle of a program or an erase leaves it half done; erases are counted per sector.
NVM_CODE = textwrap.dedent(
    """
    import microcontroller, time
    nvm = microcontroller.nvm
    print("NVM", len(nvm), bytes(nvm[0:4]).hex())
    if nvm[0] == 1:             # as the test left it, not after the cut: then it stays idle
        at = 100
        while nvm[at] != 255:   # code.py runs twice under the harness: append after the first
            at += 4
        nvm[at:at + 4] = b"abcd"
        print("APPENDED", at)
        time.sleep(0.1)
        while True:
            nvm[0:4096] = bytes([7]) * 4096
            print("REWRITTEN")
    while True:
        time.sleep(1)
    """
)


@pytest.mark.full
def test_nvm_appends_without_an_erase_and_a_cut_tears_the_erase(tmp_path):
    needs.require(dv.unavailable_reason("raspberry_pi_pico"))
    drive = tmp_path / "drive"
    drive.mkdir()
    (drive / "code.py").write_text(NVM_CODE)
    start = bytes([0xFF]) * 4096
    with dv.Device(dv.firmware_path("raspberry_pi_pico"), str(drive), nvm=b"\x01\x02" + start[2:],
                   seed=3) as dev:
        assert dev.wait_for(r"^NVM ") == "NVM 4096 0102ffff"
        at = int(dev.wait_for(r"^APPENDED").split()[1])
        assert dev.nvm()[at:at + 4] == b"abcd" and dev.stats()["wear"] == {}   # no erase
        dev.wait_for(r"^REWRITTEN")
        dev.wait_for(r"^REWRITTEN")                                  # now 7s are rewritten over 7s
        erases = dev.stats()["wear"][str(dv.NVM_OFFSET >> 12)]
        assert erases >= 1 and len(dev.stats()["wear"]) == 1               # only nvm's sector
        # cut the power in the middle of the next erase
        dev.run(5)
        for _ in range(200):
            if dev.stats()["flash"]["busyMs"] and dev.stats()["t"] - dev.stats()["flash"].get(
                    "last_erase_t", -1e9) < 40:
                break
            dev.run(1)
        ready = dev.reset()
        assert ready["torn"] == "erase"
        torn = dev.nvm()
        assert torn != bytes([7]) * 4096 and torn != start          # neither old nor erased
        assert all(b | 7 == b for b in torn)                        # only bits set, none cleared
        assert dev.stats()["torn"]["erase"] == 1


@pytest.mark.full
def test_a_power_on_without_a_usb_host_is_timed_from_power_on_and_prints_to_nobody(tmp_path):
    from tests.device import stage
    firmware = _firmware("raspberry_pi_pico")
    drive = _drive(tmp_path, {"boot.py": BOOT_PY, "code.py": PICO_CODE})
    with dv.Device(firmware, drive, neopixel_pin="GP16", timeout_s=120) as dev:
        _reach(dev, r"^SHOWN$")
        attached = [t for t, grb in dev.frames if grb == PIXELS][0]    # from code.py's console run
        printed = len(dev.console)
        t, shown = stage.power_on_to_first_frame_ms(dev, "none")
        assert dev.ready["usb"] == "none" and dev.ready["boot_ms"] == 0
        # the board's own boot (CircuitPython, boot.py) is in it: far more than code.py's part
        assert shown == "LEDs" and attached < 100 < 150 < t < 1000, (attached, t)
        dev.run(500)
        assert len(dev.console) == printed          # no host: nothing reaches a console
        assert dev.reset()["boot_ms"] > 0           # a host that opens the console again
        _reach(dev, r"^SHOWN$")


@pytest.mark.full
def test_runs_of_fractional_milliseconds_after_a_power_cycle_all_end(tmp_path):
    """A run ends at its time on the board's own clock. Session time is the
    sum of the earlier power cycles' and this one's: after a power cycle,
    about one run in a hundred of a fractional number of ms ended with that
    sum a fraction of a ns under its end, and the run never returned (a
    power-cut test's board hung so)."""
    import random
    code = "import time\nprint('IDLE')\nwhile True:\n    time.sleep(0.01)\n"
    drive = _drive(tmp_path, {"boot.py": BOOT_PY, "code.py": code})
    with dv.Device(_firmware("raspberry_pi_pico"), drive, timeout_s=20) as dev:
        _reach(dev, r"^IDLE$")
        dev.reset()
        _reach(dev, r"^IDLE$")
        rng = random.Random(3)
        start = dev.run(0)
        asked = 0.0
        for _ in range(600):
            ms = rng.uniform(0.001, 0.5)
            dev.run(ms)
            asked += ms
        assert abs(dev.run(0) - start - asked) < 0.05


# Warm boots: a program that reads nvm only after its MARK line (as the game reads its saves after
# "@@STORE"), then shows what it read: on the console, on a NeoPixel and in a file it writes.
WARM_CODE = textwrap.dedent(
    """
    import board, digitalio, microcontroller, neopixel_write, time
    %s
    total = 0
    for i in range(2000):
        total += (i * i) %% 7
    print("MARK", total)
    data = bytes(microcontroller.nvm[0:9])
    print("NVM", data.hex())
    pin = digitalio.DigitalInOut(board.GP16)
    pin.direction = digitalio.Direction.OUTPUT
    neopixel_write.neopixel_write(pin, bytearray(data))
    microcontroller.nvm[9:12] = data[0:3]
    time.sleep(0.02)
    print("DONE", time.monotonic_ns() // 1000)
    while True:
        time.sleep(0.01)
    """
)


def _boots_after_cuts(tmp_path, code, images, cold):
    """Powers the Pico on with each nvm image in turn (reset until MARK, then to DONE); what each
    boot did: its warm flag, console lines with their times, frames, nvm, cycles."""
    drive = _drive(tmp_path / ("cold" if cold else "warm"), {"boot.py": BOOT_PY, "code.py": code})
    args = ("--cold-boots",) if cold else ()
    out = []
    with dv.Device(_firmware("raspberry_pi_pico"), drive, neopixel_pin="GP16", timeout_s=60,
                   args=args) as dev:
        dev.wait_for(r"^DONE")
        for image in images:
            seen, frames = len(dev.console), len(dev.frames)
            ready = dev.reset(flash=(dv.NVM_END - 4096, image), until=r"^MARK")
            dev.wait_for(r"^DONE")
            dev.run(30)
            stats = dev.stats()
            out.append((bool(ready.get("warm")), ready["boot_ms"], ready["line"],
                        dev.timed_console(seen), dev.frames[frames:],
                        dev.nvm()[:12], stats["cycles"], stats["t"], stats["idle_s"]))
    return out


def _nvm_images(count):
    return [bytes([17 * k + i for i in range(9)]) + bytes([0xFF]) * (4096 - 9) for k in range(count)]


@pytest.mark.full
def test_a_warm_boot_does_what_a_boot_from_power_on_does(tmp_path):
    """Boots alike up to a line start from the first one's state there: every console line, frame,
    nvm byte and cycle after it is what a boot from power-on gives, whatever nvm then holds."""
    images = _nvm_images(4)
    cold = _boots_after_cuts(tmp_path, WARM_CODE % "", images, cold=True)
    warm = _boots_after_cuts(tmp_path, WARM_CODE % "", images, cold=False)
    assert [b[0] for b in cold] == [False] * 4
    assert [b[0] for b in warm] == [False, True, True, True]   # the first boot records the state
    for k, image in enumerate(images):
        assert ("NVM " + image[:9].hex()) in [line for line, _t in warm[k][3]]
        assert warm[k][5] == image[:9] + image[:3] and warm[k][4] and warm[k][4][-1][1] == image[:9]
    assert [b[1:] for b in warm] == [b[1:] for b in cold]


@pytest.mark.full
def test_no_warm_boot_when_the_boot_read_nvm_before_the_line_or_starts_otherwise(tmp_path):
    """A boot that read nvm before the line, one from another drive and one with a button held
    boot from power-on, and still read their own nvm."""
    images = _nvm_images(3)
    early = _boots_after_cuts(tmp_path, WARM_CODE % "microcontroller.nvm[0]", images, cold=False)
    assert [b[0] for b in early] == [False] * 3
    assert [line for line, _t in early[2][3] if line.startswith("NVM")] == ["NVM " + images[2][:9].hex()]
    drive = _drive(tmp_path / "drive", {"boot.py": BOOT_PY, "code.py": WARM_CODE % ""})
    with dv.Device(_firmware("raspberry_pi_pico"), drive, neopixel_pin="GP16", timeout_s=60) as dev:
        dev.wait_for(r"^DONE")
        assert not dev.reset(until=r"^MARK").get("warm")
        assert dev.reset(until=r"^MARK").get("warm")
        dev.write_flash(b"changed", offset=dv.NVM_END + 4096 * 200)   # the drive's free space
        assert not dev.reset(until=r"^MARK").get("warm")
        dev.set_pin("GP13", 0)
        assert not dev.reset(until=r"^MARK").get("warm")
        dev.set_pin("GP13", "z")
        assert not dev.reset(until=r"^DONE").get("warm")    # nvm was read before DONE
        assert not dev.reset(until=r"^DONE").get("warm")
        assert not dev.reset(until=r"^MARK").get("warm")    # the pins as they were: recorded again
        seen = len(dev.console)
        assert dev.reset(flash=(dv.NVM_END - 4096, images[1]), until=r"^MARK").get("warm")
        dev.run(100)
        assert "NVM " + images[1][:9].hex() in dev.console[seen:]


@pytest.mark.full
def test_a_pooled_emulator_process_starts_each_device_afresh(tmp_path, monkeypatch):
    """Devices one after another share an emulator process (device.py's pool, emulator.mjs
    --serve): each boots its own firmware and drive from power-on, with its own nvm, clock,
    console and stats, as a process of its own would."""
    monkeypatch.setenv("JARMO_EMULATOR_POOL", "1")
    dv._close_idle()            # (no idle process from earlier tests: the first device starts one)
    firmware = _firmware("raspberry_pi_pico")
    pids, seen, wear = [], [], []
    for k in range(2):
        drive = _drive(tmp_path / ("drive%d" % k), {"boot.py": BOOT_PY, "code.py": PICO_CODE})
        with dv.Device(firmware, drive, neopixel_pin="GP16", timeout_s=60, nvm=bytes([k]) * 4096) as dev:
            pids.append(dev._proc.pid)
            dev.wait_for(r"^READY$")
            assert dev.ready["boot"] == 1 and dev.console[0] == "code.py output:"
            assert dev.nvm()[:4] == bytes([k]) * 4
            seen.append(_reach(dev, r"^SAVED "))
            dev.press("GP14", ms=50)
            dev.wait_for(r"^WROTE 1$")
            stats = dev.stats()
            assert stats["boots"] == 1 and stats["t"] < 2000
            wear.append(stats["wear"])
    assert pids[0] == pids[1]                          # the same process, warm
    assert wear[0] == wear[1] and wear[0]              # the same erases: the second's count afresh
    assert seen == ["SAVED none", "SAVED none"]        # the first device's file is not on the second's drive
    monkeypatch.setenv("JARMO_EMULATOR_POOL", "0")
    drive = _drive(tmp_path / "own", {"boot.py": BOOT_PY, "code.py": PICO_CODE})
    with dv.Device(firmware, drive, neopixel_pin="GP16", timeout_s=60) as dev:
        assert dev._server is None and dev._proc.pid not in pids
        dev.wait_for(r"^READY$")
