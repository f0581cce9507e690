"""tools/bundle.py: Project Bundle zips as a Learn guide offers them, and the
circup requirements file."""

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
        needs.missing("no CircuitPython mpy-cross (JARMO_MPY_CROSS, or the pinned one: python3 run.py fetch mpy-cross)")
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
        with open(bundle.REQUIREMENTS) as f:            # every board's, whatever the profile
            assert z.read("jarmo-%s/requirements.txt" % profile).decode() == f.read()
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
    proc = run("--profile", "qtpy_bff", "--profile", "tabletop", "--firmware", "no")
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(out)) == ["jarmo-qtpy_bff-CircuitPython-10.x.zip",
                                       "jarmo-qtpy_bff-CircuitPython-9.x.zip",
                                       "jarmo-tabletop-CircuitPython-10.x.zip",
                                       "jarmo-tabletop-CircuitPython-9.x.zip"]
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


@pytest.mark.parametrize("profile", sorted(bundle.board_profiles()))
def test_the_circup_requirements_are_the_libraries_a_deploy_copies(tmp_path, profile):
    """One requirements file for every board: each profile's deploy copies
    exactly its libraries."""
    with open(bundle.REQUIREMENTS) as f:
        text = f.read()
    assert text == bundle.requirements_text(), "out of date: python3 run.py bundle --requirements"
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    deploy.deploy(str(drive), profile, force=True, log=lambda s: None)
    libs = {f[4:].split("/")[0].replace(".py", "") for f in _tree(drive) if f.startswith("lib/")}
    assert set(_circup_names(text)) == libs
    assert all(re.fullmatch(r"[a-z0-9_]+==\d+\.\d+\.\d+", line)
               for line in text.splitlines() if not line.startswith("#"))


class FakeFirmwareTool:
    """tools/firmware.py's interface, building nothing: a UF2 named as it names them."""

    class FirmwareError(Exception):
        pass

    def __init__(self, why=None):
        self.why = why
        self.built = []

    def unavailable_reason(self):
        return self.why

    def build_firmware(self, profile, out_dir, log=print):
        path = os.path.join(out_dir, "jarmo-%s-v1.uf2" % profile)
        with open(path, "wb") as f:
            f.write(b"UF2\n")
        self.built.append(profile)
        return type("Firmware", (), {"path": path})


def test_the_release_puts_each_profiles_firmware_beside_the_zips(tmp_path):
    tool = FakeFirmwareTool()
    paths = bundle.firmwares(["qtpy_bff", "pico"], str(tmp_path), "auto", log=lambda s: None, tool=tool)
    assert [os.path.basename(p) for p in paths] == ["jarmo-qtpy_bff-v1.uf2", "jarmo-pico-v1.uf2"]
    assert bundle.firmwares(["pico"], str(tmp_path), "no", tool=tool) == []


def test_without_the_kit_auto_leaves_the_firmware_out_and_says_why_yes_refuses(tmp_path):
    said = []
    tool = FakeFirmwareTool(why="the CircuitPython kit is not here")
    assert bundle.firmwares(["pico"], str(tmp_path), "auto", log=said.append, tool=tool) == []
    assert said == ["no firmware in the bundle: the CircuitPython kit is not here"]
    tool.build_firmware = lambda *a, **k: (_ for _ in ()).throw(tool.FirmwareError("no kit"))
    with pytest.raises(deploy.DeployError, match="no kit"):
        bundle.firmwares(["pico"], str(tmp_path), "yes", tool=tool)


def test_the_bundles_readme_names_the_firmware_way_too():
    text = bundle.readme("qtpy_bff", 10, bundle.board_profiles()["qtpy_bff"])
    assert "jarmo-qtpy_bff-VERSION.uf2" in text and "RPI-RP2" in text


@pytest.mark.full
def test_the_release_command_ships_the_uf2_beside_the_zip(tmp_path):
    # CI builds the firmware before the volume tier: here it comes from the cache
    compiler()
    needs.require(bundle._firmware_tool().unavailable_reason())
    out = tmp_path / "build"
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bundle.py"), "--out", str(out),
                           "--mpy-cross", stage.mpy_cross_path(), "--profile", "qtpy_bff",
                           "--firmware", "yes"], capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr
    names = sorted(os.listdir(out), key=lambda n: (n.endswith(".uf2"), n))
    assert names[:2] == ["jarmo-qtpy_bff-CircuitPython-10.x.zip",
                         "jarmo-qtpy_bff-CircuitPython-9.x.zip"]
    assert re.match(r"^jarmo-qtpy_bff-\S+\.uf2$", names[2]) and len(names) == 3, names
    with open(out / names[2], "rb") as f:
        assert f.read(4) == b"UF2\n"                    # the UF2 block's first magic


# ---------------------------------------------------------------- what the README promises

@pytest.mark.parametrize("profile", sorted(bundle.board_profiles()))
def test_the_bundles_readme_describes_only_what_the_board_does(profile):
    """Every board keeps its saves in microcontroller.nvm, outside the drive
    (hardware/flash.py): the drive never turns read-only and no key is held."""
    p = bundle.board_profiles()[profile]
    text = " ".join(bundle.readme(profile, 10, p).split())
    assert "read-only" not in text and "USB-edit" not in text and "hold the" not in text, text
    assert "CIRCUITPY stays writable" in text


def test_every_circuitpython_the_readme_names_has_a_bundle(tmp_path):
    """The README says CircuitPython 9 or newer: without a CircuitPython 9
    mpy-cross the 9.x bundle holds the .py sources, which any version runs."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    oldest = int(re.search(r"CircuitPython (\d+) or newer", readme).group(1))
    mpy = compiler()
    out = tmp_path / "out"
    paths = bundle.bundles("qtpy_bff", [mpy], str(out), log=lambda s: None)
    majors = sorted(bundle.major_version_of(os.path.basename(p)) for p in paths)
    assert majors == list(range(oldest, bundle.major_version(mpy.banner) + 1))
    source = [p for p in paths if "-%d.x" % oldest in p][0]
    top = "jarmo-qtpy_bff/CircuitPython %d.x/" % oldest
    with zipfile.ZipFile(source) as z:
        names = z.namelist()
        assert top + "jarmo/game.py" in names and top + "lib/neopixel.py" in names
        assert not any(n.endswith(".mpy") for n in names)
        text = z.read("jarmo-qtpy_bff/README.txt").decode()
        assert "CircuitPython %d" % oldest in text and ".py sources" in text
