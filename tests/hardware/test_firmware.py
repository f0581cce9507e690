"""tools/firmware.py: what goes into Jarmo's firmware, how make is run on
the pinned source, the cache, the names; against a stand-in for make (the
real build takes minutes: the device tests boot what it makes)."""

import os
import sys

import pytest

from tests.device import stage

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
firmware = stage._firmware_tool()

FAKE_MAKE = r"""#!/bin/bash
# stands in for make in ports/raspberrypi: records what it got
set -e
board=""; frozen=""
for a in "$@"; do
  case $a in BOARD=*) board=${a#BOARD=};; FROZEN_MPY_DIRS=*) frozen=${a#FROZEN_MPY_DIRS=};; esac
done
{
  echo "board $board"
  echo "version $CP_VERSION"
  echo "date $SOURCE_DATE_EPOCH"
  echo "cwd $PWD"
  for d in $frozen; do (cd "$d" && find . -type f | sort | sed "s|^\.|$(basename "$d")|"); done
} > "$RECORD/last-build.txt"
printf '%s\n' "$@" > "$RECORD/last-makeflags.txt"
[ -n "$FAIL" ] && { echo "region \`FLASH_FIRMWARE' overflowed by 9996 bytes"; exit 2; }
echo "  FLASH_FIRMWARE:      993416 B      1020 KB     95.12%"
mkdir -p "build-$board"
printf 'UF2\n\x57\x51\x5d\x9e' > "build-$board/firmware.uf2"
"""


def _fake_sources(path):
    """A tarball as the pinned source archive: one top folder holding the files
    the build patches (with CircuitPython's own text), the boards' folders and
    a Makefile."""
    import io
    import tarfile
    files = {"ports/raspberrypi/Makefile": ""}
    for board in ("raspberry_pi_pico", "adafruit_qtpy_rp2040", "adafruit_feather_rp2040"):
        files["ports/raspberrypi/boards/%s/board.c" % board] = ""
    for rel, stock, _ours in firmware.SOURCE_PATCHES + firmware.UPSTREAM_FIXES:
        files[rel] = files.get(rel, "// CircuitPython\n") + stock + "\n"
    with tarfile.open(str(path), "w:xz") as tar:
        for rel, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo("circuitpython-cd3da4a5d8/" + rel)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def _flags(kit):
    """The make variables of the last build: {name: value}."""
    return dict(line.split("=", 1) for line in (kit / "last-makeflags.txt").read_text().splitlines()
                if "=" in line)


def test_the_build_gives_nvm_two_sectors_and_keeps_the_drive_where_it_was(kit, tmp_path):
    """The sources are patched before the build (once), so that nvm is 8 KB
    from the end of a 4 KB smaller firmware area (the drive's start stays
    at 1 MB) and an erase clears only the sector written."""
    firmware.build_firmware("pico", str(tmp_path), version="1.2", log=lambda s: None)
    src = tmp_path / "cache" / "kit" / "circuitpython" / "ports" / "raspberrypi"
    header = (src / "mpconfigport.h").read_text()
    assert "(1016 * 1024)" in header and "(8 * 1024)" in header and "(1020 * 1024)" not in header
    assert "1016K" in (src / "link-rp2040.ld").read_text()
    nvm_c = (src / "common-hal" / "nvm" / "ByteArray.c").read_text()
    assert "flash_range_erase(RMV_OFFSET(sector)" in nvm_c
    assert firmware.FLASH_LIMIT + firmware.NVM_SIZE == 1024 * 1024       # CIRCUITPY at 1 MB
    firmware.patch_sources(str(tmp_path / "cache" / "kit"))    # again: unchanged
    assert (src / "mpconfigport.h").read_text() == header


def test_a_patch_dropped_from_the_list_is_taken_out_of_the_cached_sources(kit, tmp_path, monkeypatch):
    """An older commit's build on the same cache (its SOURCE_PATCHES without
    the latest patch) gets that file as upstream has it, and the patch comes
    back with the list that names it."""
    work = str(tmp_path / "cache" / "kit")
    firmware.patch_sources(work)
    rel, stock, ours = firmware.SOURCE_PATCHES[-1]
    path = tmp_path / "cache" / "kit" / "circuitpython" / rel
    assert ours in path.read_text()
    full = firmware.SOURCE_PATCHES
    monkeypatch.setattr(firmware, "SOURCE_PATCHES", full[:-1])
    firmware.patch_sources(work)
    assert stock in path.read_text() and ours not in path.read_text()
    for other_rel, _stock, other_ours in full[:-1]:          # the others stay applied
        assert other_ours in (tmp_path / "cache" / "kit" / "circuitpython" / other_rel).read_text()
    monkeypatch.setattr(firmware, "SOURCE_PATCHES", full)
    firmware.patch_sources(work)
    assert ours in path.read_text()


def test_a_changed_source_patch_gives_another_firmware(kit, tmp_path, monkeypatch):
    files = firmware.frozen_files(ROOT)
    key = firmware.inputs_key("raspberry_pi_pico", files)
    monkeypatch.setattr(firmware, "SOURCE_PATCHES", firmware.SOURCE_PATCHES[:-1])
    assert firmware.inputs_key("raspberry_pi_pico", files) != key


@pytest.fixture
def kit(tmp_path, monkeypatch):
    """A folder where the stand-in make records what it got; the pinned source
    is a small archive of the files the build touches; the toolchain and the
    build's venv are taken as there (the stand-in make on PATH)."""
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "make").write_text(FAKE_MAKE)
    (folder / "make").chmod(0o755)
    _fake_sources(folder / "circuitpython-src.tar.xz")
    monkeypatch.setenv("JARMO_FIRMWARE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RECORD", str(folder))
    monkeypatch.setattr(firmware.artifacts, "path", lambda name, log=None: str(folder / "circuitpython-src.tar.xz"))
    monkeypatch.setattr(firmware, "ensure_toolchain", lambda log=None: None)
    monkeypatch.setattr(firmware, "build_venv", lambda log=None: str(folder))
    return folder


def _last_build(kit):
    return (kit / "last-build.txt").read_text().splitlines()


def test_a_profile_gets_its_boards_firmware_with_the_deploys_files_frozen_in(kit, tmp_path):
    fw = firmware.build_firmware("qtpy_bff", str(tmp_path / "out"), version="1.2",
                                 log=lambda s: None)
    assert fw.path == str(tmp_path / "out" / "jarmo-qtpy_bff-1.2.uf2") and os.path.isfile(fw.path)
    assert (fw.board, fw.used, fw.cached) == ("adafruit_qtpy_rp2040", 993416, False)
    got = _last_build(kit)
    assert got[0] == "board adafruit_qtpy_rp2040"
    assert got[1] == "version 10.3.0-alpha.4-53-gcd3da4a5d8-jarmo"      # the mark deploy looks for
    assert got[3] == "cwd " + os.path.join(str(tmp_path / "cache"), "kit", "circuitpython", "ports", "raspberrypi")
    frozen = set(got[4:])
    # the packages exactly as deploy copies them, and the libraries
    from tools import deploy
    expected = {"app/" + rel for package in deploy.PACKAGES for _src, rel in deploy.folder_files(ROOT, package)}
    expected |= {"lib/neopixel.py", "lib/adafruit_ticks.py"}
    expected |= {"app/jarmo/book_data.py"}          # the opening book, a bytes constant in flash
    assert frozen == expected
    assert "app/jarmo/ai.py" in frozen and "app/hardware/mainloop.py" in frozen


@pytest.mark.parametrize("profile", ["qtpy_bff", "pico", "tabletop"])
def test_every_boards_firmware_freezes_exactly_the_libraries(kit, tmp_path, profile):
    """The libraries of deploy.LIBRARIES, nothing else (no library that no
    device module imports): the same for each board."""
    from tools import deploy
    firmware.build_firmware(profile, str(tmp_path), version="1.2", log=lambda s: None)
    libs = {f for f in _last_build(kit)[4:] if f.startswith("lib/")}
    assert libs == {"lib/neopixel.py", "lib/adafruit_ticks.py"}
    assert libs == {"lib/" + rel for _src, rel in deploy.library_files()}


def test_the_feather_firmware_is_one_for_every_profile_of_the_board(kit, tmp_path):
    firmware.build_firmware("tabletop", str(tmp_path), version="1.2", log=lambda s: None)
    # feather_oled and joystick: the same board, the same inputs, so the same UF2, from the cache
    again = firmware.build_firmware("joystick", str(tmp_path), version="1.2", log=lambda s: None)
    assert again.cached and again.path.endswith("jarmo-joystick-1.2.uf2")


def test_an_unchanged_firmware_comes_from_the_cache_and_a_changed_one_is_rebuilt(kit, tmp_path, monkeypatch):
    first = firmware.build_firmware("pico", str(tmp_path), version="1", log=lambda s: None)
    (kit / "last-build.txt").unlink()
    again = firmware.build_firmware("pico", str(tmp_path), version="1", log=lambda s: None)
    assert again.cached and not (kit / "last-build.txt").exists() and again.used == first.used
    # another frozen file: another key (here, another make option stands for it)
    monkeypatch.setattr(firmware, "COMMON_MAKE_OPTIONS", firmware.COMMON_MAKE_OPTIONS + (("X", "1"),))
    third = firmware.build_firmware("pico", str(tmp_path), version="1", log=lambda s: None)
    assert not third.cached and (kit / "last-build.txt").exists()
    assert len(os.listdir(tmp_path / "cache" / "uf2")) == 2              # one UF2 and its .json per board


def test_a_failed_build_says_why_and_where_the_log_is(kit, tmp_path, monkeypatch):
    monkeypatch.setenv("FAIL", "1")
    with pytest.raises(firmware.FirmwareError) as err:
        firmware.build_firmware("pico", str(tmp_path), version="1", log=lambda s: None)
    text = str(err.value)
    assert "overflowed by 9996 B" in text and "raspberry_pi_pico.log" in text


def test_the_pc_profile_has_no_firmware(kit, tmp_path):
    with pytest.raises(firmware.FirmwareError, match="runs on a PC"):
        firmware.build_firmware("host", str(tmp_path), log=lambda s: None)
    assert "host" not in firmware.device_profiles()


def test_the_command_line(kit, tmp_path, capsys):
    assert firmware.main(["--out", str(tmp_path), "--profile", "pico", "--version", "9"]) == 0
    out = capsys.readouterr().out
    assert "jarmo-pico-9.uf2: raspberry_pi_pico, 993,416 B of the 1040384 B firmware area (95.5 %)" in out
    with pytest.raises(SystemExit) as stop:
        firmware.main(["--out", str(tmp_path)])
    assert stop.value.code == 2 and "--profile" in capsys.readouterr().err


def test_stock_firmware_is_built_without_the_game_or_its_patches(kit, tmp_path, monkeypatch):
    """--stock: the pinned source in a tree of its own (Jarmo's patches never
    in it), the common options only, the stock version string; nothing frozen."""
    built = firmware.build_stock("adafruit_qtpy_rp2040", log=lambda s: None)
    assert built.endswith(os.path.join("circuitpython-stock", "ports", "raspberrypi", "build-adafruit_qtpy_rp2040",
                                       "firmware.uf2"))
    got = _last_build(kit)
    assert got[:3] == ["board adafruit_qtpy_rp2040", "version " + firmware.STOCK_VERSION,
                       "date " + firmware.STOCK_DATE_EPOCH] and got[4:] == []
    flags = _flags(kit)
    assert flags == dict(firmware.COMMON_MAKE_OPTIONS, BOARD="adafruit_qtpy_rp2040")
    stock = tmp_path / "cache" / "kit" / "circuitpython-stock"
    for rel, _old, new in firmware.SOURCE_PATCHES:
        assert new not in (stock / rel).read_text(), rel
    for rel, _old, new in firmware.UPSTREAM_FIXES:           # upstream's own fixes are in
        assert new in (stock / rel).read_text(), rel


def test_the_version_is_gits_or_dev(tmp_path):
    assert firmware.project_version(str(tmp_path)) == "dev"               # not a git checkout
    assert firmware.project_version(ROOT) not in ("", "dev")


def test_the_firmware_runs_native_code_and_leaves_out_the_modules_the_game_never_imports(kit, tmp_path):
    """Native code on, compiled for the RP2040's Cortex-M0+, and word-aligned
    (tools/mpy-tool.py patched); every CircuitPython module that code.py,
    boot.py, hardware/ or a frozen library imports stays in the firmware."""
    firmware.build_firmware("pico", str(tmp_path), version="1", log=lambda s: None)
    flags = _flags(kit)
    assert flags["CIRCUITPY_ENABLE_MPY_NATIVE"] == "1" and flags["MPY_CROSS_FLAGS"] == "-march=armv6m"
    off = {name[len("CIRCUITPY_"):].lower() for name, value in flags.items()
           if name.startswith("CIRCUITPY_") and value == "0"}
    assert {"ulab", "synthio", "usb_midi", "audiocore", "msgpack"} <= off
    src = tmp_path / "cache" / "kit" / "circuitpython" / "tools" / "mpy-tool.py"
    assert "aligned (4)" in src.read_text() and "aligned (2)" not in src.read_text()
    from tools import deploy
    used = set()
    paths = [os.path.join(ROOT, "code.py"), os.path.join(ROOT, "boot.py")]
    paths += [src for src, _rel in deploy.folder_files(ROOT, "hardware") + deploy.library_files()]
    for path in paths:
        with open(path) as f:
            for line in f:
                words = line.split()
                if len(words) > 1 and words[0] in ("import", "from"):
                    used.add(words[1].split(".")[0].rstrip(","))
    assert {"keypad", "displayio", "busio", "board", "neopixel_write", "microcontroller"} <= used
    assert not used & off, used & off


def test_the_search_modules_are_frozen_as_native_code_from_the_one_plain_source(kit, tmp_path):
    """Every function of jarmo/ai.py, evaluation.py and game.py gets
    @micropython.native in the staged copy (and the module its count);
    the checkout's files and every other frozen file are as they are."""
    files = firmware.frozen_files(ROOT)
    for src, rel in files["app"]:
        data = firmware.frozen_bytes("app", rel, src)
        with open(src, "rb") as f:
            plain = f.read()
        if rel not in firmware.NATIVE_MODULES:
            assert data == plain, rel
            continue
        text = data.decode()
        if rel in firmware.C_KERNELS:            # the C's lines come last (the test below)
            wiring = firmware.c_kernel_source("", rel)
            assert text.endswith(wiring), rel
            text = text[:-len(wiring)]
        defs = [line for line in plain.decode().splitlines() if line.lstrip().startswith("def ")]
        assert text.count("@micropython.native\n") == len(defs) >= 4, rel
        assert text.rstrip().splitlines()[-1].startswith("NATIVE_CODE = %d " % len(defs))
        lines = text.splitlines()
        for k, line in enumerate(lines):        # the decorator right above each def, same indent
            if line.lstrip().startswith("def "):
                indent = line[:len(line) - len(line.lstrip())]
                assert lines[k - 1] == indent + "@micropython.native", (rel, line)
        body = "\n".join(line for line in lines if line.strip() != "@micropython.native")
        assert body.rstrip().rsplit("\n", 1)[0].rstrip() == plain.decode().rstrip()   # nothing else changed
    assert set(firmware.NATIVE_MODULES) <= {rel for _src, rel in files["app"]}


def test_the_frozen_modules_put_the_c_kernels_in_place_and_keep_the_python(kit, tmp_path, monkeypatch):
    """The lines c_kernel_source adds, run here with a stand-in _jarmo: each
    name of C_KERNELS is then the C module's (a class's method or the
    module's function), PLAIN holds the Python one, and evaluation binds
    its TARGETS list; the build gets the C module (USER_C_MODULES) and a
    changed C source gives another firmware."""
    import types
    fake = types.ModuleType("_jarmo")
    bound = []
    fake.bind = bound.append
    monkeypatch.setitem(sys.modules, "_jarmo", fake)
    for rel, (owner, names, _first) in firmware.C_KERNELS.items():
        for name in names:
            setattr(fake, name, ("C", rel, name))
        with open(os.path.join(ROOT, rel)) as f:
            text = firmware.c_kernel_source(f.read(), rel)
        space = {"__name__": rel[:-3].replace("/", ".")}
        exec(compile(text, rel, "exec"), space)
        for name in names:
            where = space if owner is None else vars(space[owner])
            assert where[name] == ("C", rel, name), (rel, name)
            assert callable(space["PLAIN"][name]), (rel, name)
        assert sorted(space["PLAIN"]) == sorted(names)
    assert len(bound) == 1 and type(bound[0]) is list          # evaluation's TARGETS
    firmware.build_firmware("pico", str(tmp_path), version="1", log=lambda s: None)
    flags = _flags(kit)
    staged = os.path.join(flags["USER_C_MODULES"], "_jarmo")
    assert sorted(os.listdir(staged)) == ["kernels.c", "micropython.mk"]
    with open(os.path.join(staged, "kernels.c")) as f, \
            open(os.path.join(ROOT, "firmware", "_jarmo", "kernels.c")) as g:
        assert f.read() == g.read()
    files = firmware.frozen_files(ROOT)
    key = firmware.inputs_key("raspberry_pi_pico", files)
    other = tmp_path / "other"
    (other / "firmware" / "_jarmo").mkdir(parents=True)
    (other / "firmware" / "_jarmo" / "kernels.c").write_text("// another kernel\n")
    assert firmware.inputs_key("raspberry_pi_pico", files, str(other)) != key
