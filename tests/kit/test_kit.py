"""python3 run.py kit: every profile's kit, made from the project's data.

The quick tier makes each kit without its case (no CAD) and reads what it
wrote against hardware/profiles.py, jarmo/board.py and kit/bom.json; the
full tier makes the handheld's whole kit, case included, by the command a
maker types.
"""

import csv
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from hardware import leds, profiles
from jarmo import board
from tools.kit import assembly, bom, case, make

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("kit")
    return {name: (out / name, make.make_kit(name, str(out / name), with_case=False))
            for name in make.kit_profiles()}


def test_every_board_profile_has_a_kit_and_the_pc_none():
    assert set(make.kit_profiles()) == {n for n, p in profiles.PROFILES.items() if p["board_id"]}
    assert "host" not in make.kit_profiles()


@pytest.mark.parametrize("name", make.kit_profiles())
def test_a_kit_holds_its_files(kits, name):
    folder, written = kits[name]
    assert {os.path.basename(p) for p in written} == {"bom.csv", "wiring.svg", "overlay.svg",
                                                       "ASSEMBLY.md"}
    for path in written:
        assert os.path.getsize(path) > 0, path


@pytest.mark.parametrize("name", make.kit_profiles())
def test_the_overlay_is_drawn_at_the_profiles_pitch(kits, name):
    folder, _ = kits[name]
    root = ET.parse(str(folder / "overlay.svg")).getroot()
    centre = {c.get("data-point"): (float(c.get("cx")), float(c.get("cy")))
              for c in root.iter(NS + "circle") if c.get("class") == "led"}
    pitch = profiles.get(name)["pitch_mm"]
    assert centre["e1"][0] - centre["a1"][0] == pytest.approx(4 * pitch)
    assert centre["a1"][1] - centre["a5"][1] == pytest.approx(4 * pitch)
    assert root.get("width").endswith("mm")


@pytest.mark.parametrize("name", make.kit_profiles())
def test_the_parts_list_is_the_boms(kits, name):
    folder, _ = kits[name]
    with open(folder / "bom.csv", newline="") as f:
        rows = list(csv.reader(f))
    text = "\n".join(",".join(r) for r in rows)
    for line in bom.bom_rows(name):
        assert str(line["product"]) in text
    assert "%.2f" % bom.total(name) in text


@pytest.mark.parametrize("name", make.kit_profiles())
def test_the_guide_names_every_pin_and_the_grids_chain(kits, name):
    folder, _ = kits[name]
    guide = (folder / "ASSEMBLY.md").read_text()
    prof = profiles.get(name)
    pins = [prof["pixel_pin"]] + [k[1] for k in prof["keys"]]
    pins += list(prof["link"] or ()) + [p for p in (prof["led_power"],) if p]
    for pin in pins:
        assert "| %s |" % pin in guide, pin
    for row in assembly.chain_rows(prof):
        assert row in guide
    assert "![Wiring of %s](wiring.svg)" % name in guide
    assert "python3 run.py deploy DRIVE --profile %s" % name in guide


def test_the_chain_is_the_table_the_leds_are_drawn_by():
    for name in make.kit_profiles():
        prof = profiles.get(name)
        order = assembly.chain(prof)
        table = leds.profile_map(prof)
        assert [order[table[p]] for p in range(25)] == list(board.NAMES)
    strip = assembly.chain_rows(profiles.get("handheld"))
    assert strip == ["a5 -> e5", "e4 -> a4", "a3 -> e3", "e2 -> a2", "a1 -> e1"]


def test_a_readable_build_and_a_tabletop_one():
    assert profiles.get("handheld")["pitch_mm"] >= 15
    assert profiles.get("tabletop")["pitch_mm"] >= 25
    for name in make.kit_profiles():
        if profiles.get(name)["grid"] == "bff":
            assert profiles.get(name)["pitch_mm"] == 2.54


@pytest.mark.full
def test_the_kit_command_makes_the_handhelds_whole_kit(tmp_path):
    try:
        import build123d  # noqa: F401
    except ImportError:
        from tests import needs
        needs.missing("build123d is not installed (python3 run.py kit installs kit/requirements.txt)")
    proc = subprocess.run([sys.executable, "-P", "-m", "tools.kit.make", "--profile", "handheld",
                           "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=1200)
    assert proc.returncode == 0, proc.stderr[-2000:]
    files = os.listdir(tmp_path / "handheld")
    assert any(f.endswith(".stl") for f in files) and any(f.endswith(".step") for f in files)
    assert any(f.endswith(".png") for f in files)
    guide = (tmp_path / "handheld" / "ASSEMBLY.md").read_text()
    for stl in (f for f in files if f.endswith(".stl")):
        assert "`%s`" % stl in guide
    assert "handheld: " in proc.stdout and "parts $" in proc.stdout


def _docs_file(name):
    with open(os.path.join(make.DOCS_KIT, make.DOCS_PROFILE, name), encoding="utf-8") as f:
        return f.read()


def test_the_docs_kit_is_the_one_the_command_makes(tmp_path):
    # docs/kit/handheld/: the guide, diagrams and parts the README links
    # (python3 run.py kit --docs writes them again)
    name = make.DOCS_PROFILE
    assert _docs_file("ASSEMBLY.md") == assembly.markdown(name, case.file_names(name), True)
    written = make.make_kit(name, str(tmp_path), with_case=False)
    for path in written:
        base = os.path.basename(path)
        if base != "ASSEMBLY.md":
            with open(path, encoding="utf-8") as f:
                assert _docs_file(base) == f.read(), "python3 run.py kit --docs writes %s again" % base
    for picture in case.PICTURES:
        assert os.path.getsize(os.path.join(make.DOCS_KIT, name, picture)) > 10000


def test_the_bff_chain_is_the_board_files():
    # Adafruit's board file (kit/outlines.json): the first LED top right,
    # every row right to left, the rows from the jumpers' end down
    for name in make.kit_profiles():
        prof = profiles.get(name)
        if prof["grid"] == "bff":
            assert assembly.chain(prof)[:6] == ["e5", "d5", "c5", "b5", "a5", "e4"], name
