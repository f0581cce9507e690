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
            "lib/adafruit_led_animation/animation/pulse.py",
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
