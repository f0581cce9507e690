"""tools/deploy.py: everything the device imports lands on the drive, nothing host-only."""

import ast
import importlib.util
import os
import re
import subprocess
import sys

import pytest

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
            "lib/adafruit_ticks.py", "lib/adafruit_display_text/label.py",
            "lib/adafruit_displayio_sh1107.py"} <= files
    assert "hardware/sim.py" not in files and "hardware/host.py" not in files
    assert "lib/adafruit_pixelbuf.py" not in files          # built into CircuitPython
    assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)
    assert n == len(files) - 1                               # all but boot_out.txt
    assert 'JARMO_PROFILE = "qtpy_bff"' in (drive / "settings.toml").read_text()
    # the copies are exact
    assert (drive / "code.py").read_bytes() == open(os.path.join(ROOT, "code.py"), "rb").read()
    # a second run rewrites nothing (each write restarts the board's program)
    assert deploy.deploy(str(drive), log=logs.append) == 0


def test_settings_are_kept_and_profile_replaced(drive):
    (drive / "settings.toml").write_text('JARMO_PROFILE = "tabletop"\nJARMO_BRIGHTNESS = 20\n')
    deploy.deploy(str(drive), log=lambda s: None)
    assert (drive / "settings.toml").read_text() == 'JARMO_PROFILE = "tabletop"\nJARMO_BRIGHTNESS = 20\n'
    deploy.deploy(str(drive), profile="joystick", log=lambda s: None)
    assert (drive / "settings.toml").read_text() == 'JARMO_PROFILE = "joystick"\nJARMO_BRIGHTNESS = 20\n'


def test_stale_modules_are_removed(drive):
    deploy.deploy(str(drive), log=lambda s: None)
    (drive / "jarmo" / "old_module.py").write_text("x = 1\n")
    (drive / "hardware" / "sim.py").write_text("# left over\n")
    deploy.deploy(str(drive), log=lambda s: None)
    assert not (drive / "jarmo" / "old_module.py").exists()
    assert not (drive / "hardware" / "sim.py").exists()


def test_unknown_profile(drive):
    with pytest.raises(ValueError):
        deploy.deploy(str(drive), profile="nope", log=lambda s: None)


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
    """Top-level module names imported outside try blocks (those are fallbacks)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
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

SHARED_MPY_CROSS = os.path.join(os.path.dirname(ROOT), "shared", "rp2040", "mpy-cross")
needs_mpy_cross = pytest.mark.skipif(not os.access(SHARED_MPY_CROSS, os.X_OK),
                                     reason="CircuitPython's mpy-cross is not in ../shared/rp2040/")


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


@needs_mpy_cross
def test_circuitpythons_mpy_cross_compiles_the_packages_and_libraries(drive):
    compiler = deploy.find_mpy_cross(SHARED_MPY_CROSS)
    assert "CircuitPython" in compiler.banner
    deploy.deploy(str(drive), log=lambda s: None)                  # first as .py
    deploy.deploy(str(drive), mpy_cross=compiler, log=lambda s: None)
    files = _tree(drive)
    assert {"code.py", "boot.py", "jarmo/game.mpy", "jarmo/app.mpy", "hardware/leds.mpy",
            "lib/neopixel.mpy", "lib/adafruit_display_text/label.mpy"} <= files
    # no .py left beside its .mpy: the board would import the .py instead
    assert not [f for f in files if f.endswith(".py") and f not in ("code.py", "boot.py")]
    head = (drive / "jarmo" / "game.mpy").read_bytes()[:4]
    assert head[0:1] == b"C" and head[1] == 6                    # CircuitPython mpy v6
    assert deploy.deploy(str(drive), mpy_cross=compiler, log=lambda s: None) == 0   # unchanged
