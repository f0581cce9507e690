"""tools/bundle.py: Project Bundle zips as a Learn guide offers them, and the
circup requirements files."""

import os
import re
import subprocess
import sys
import zipfile

import pytest

from tests import needs
from tests.device import stage

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


bundle = stage._load("jarmo_bundle", os.path.join(ROOT, "tools", "bundle.py"))
deploy = bundle.deploy


def compiler():
    path = stage.mpy_cross_path()
    if path is None:
        needs.missing("no CircuitPython mpy-cross (JARMO_MPY_CROSS, ../shared/rp2040/mpy-cross)")
    return deploy.find_mpy_cross(path)


def _tree(path):
    return {os.path.relpath(os.path.join(d, f), path).replace(os.sep, "/")
            for d, _dirs, files in os.walk(path) for f in files}


@pytest.mark.parametrize("profile", ["qtpy_bff", "feather_oled", "pico"])
def test_a_bundle_holds_what_a_deploy_writes_as_mpy(tmp_path, profile):
    """One folder "CircuitPython N.x" with code.py, boot.py, settings.toml (the
    profile in it), jarmo/ hardware/ and lib/ compiled: the files a deploy
    with CircuitPython's mpy-cross writes, without the save slots the game
    makes itself."""
    mpy = compiler()
    path = bundle.bundle(profile, mpy, str(tmp_path / "out"), log=lambda s: None)
    major = bundle.major_version(mpy.banner)
    assert os.path.basename(path) == "jarmo-%s-CircuitPython-%d.x.zip" % (profile, major)
    top = "jarmo-%s/CircuitPython %d.x/" % (profile, major)
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        inside = {n[len(top):] for n in names if n.startswith(top)}
        assert set(names) - {top + n for n in inside} == {
            "jarmo-%s/README.txt" % profile, "jarmo-%s/requirements.txt" % profile}
        assert 'JARMO_PROFILE = "%s"' % profile in z.read(top + "settings.toml").decode()
        for name in inside:
            if name.endswith(".mpy"):
                assert z.read(top + name)[:1] == b"C", name     # CircuitPython's own .mpy
        assert z.read(top + "code.py") == open(os.path.join(ROOT, "code.py"), "rb").read()
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    deploy.deploy(str(drive), profile, mpy_cross=mpy, force=True, log=lambda s: None)
    slots = {f for f in _tree(drive) if re.match(r"^\w+\.[01]$", f)}
    assert inside == _tree(drive) - slots
    assert "code.py" in inside and "lib/neopixel.mpy" in inside and "jarmo/game.mpy" in inside
    assert not any(n.endswith(".py") for n in inside - {"code.py", "boot.py"})


def test_the_command_writes_a_zip_per_profile_and_refuses_host(tmp_path):
    compiler()
    out = tmp_path / "build"
    run = lambda *args: subprocess.run(  # noqa: E731
        [sys.executable, os.path.join(ROOT, "tools", "bundle.py"), "--out", str(out),
         "--mpy-cross", stage.mpy_cross_path()] + list(args),
        capture_output=True, text=True, timeout=300)
    proc = run("--profile", "qtpy_bff", "--profile", "tabletop")
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(out)) == ["jarmo-qtpy_bff-CircuitPython-10.x.zip",
                                       "jarmo-tabletop-CircuitPython-10.x.zip"]
    proc = run("--profile", "host")
    assert proc.returncode == 2 and "PC's profile" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


def _circup_names(text):
    """What `circup install -r` reads from a requirements file: a library name
    a line (lower case, versions cut off), comments and blank lines skipped."""
    out = []
    for line in text.split("\n"):
        line = line.lower().strip()
        if line and not line.startswith("#"):
            out.append(re.split("[<>=~[;]", line)[0].strip())
    return out


@pytest.mark.parametrize("has_display, profile", [(True, "feather_oled"), (False, "qtpy_bff")])
def test_the_circup_requirements_are_the_libraries_a_deploy_copies(tmp_path, has_display, profile):
    with open(bundle.REQUIREMENTS[has_display]) as f:
        text = f.read()
    assert text == bundle.requirements_text(has_display), \
        "out of date: python3 run.py bundle --requirements"
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    deploy.deploy(str(drive), profile, force=True, log=lambda s: None)
    libs = {f[4:].split("/")[0].replace(".py", "") for f in _tree(drive) if f.startswith("lib/")}
    assert set(_circup_names(text)) == libs
    assert all(re.fullmatch(r"[a-z0-9_]+==\d+\.\d+\.\d+", line)
               for line in text.splitlines() if not line.startswith("#"))
