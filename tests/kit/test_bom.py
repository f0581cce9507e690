"""kit/bom.json and tools/kit/bom.py: every board profile has a build whose
parts cover each pin it uses, every part has a price with its source and
date, totals are sums, bom.csv reads back, and hardware/PROFILES.md's parts
tables are the ones the data makes."""

import os

import pytest

from hardware import profiles
from tools.kit import bom

BOARD_PARTS = {"adafruit_feather_rp2040": "feather_rp2040", "adafruit_qtpy_rp2040": "qtpy_rp2040",
               "raspberry_pi_pico": "pico"}
GRID_PARTS = {"bff": "grid_bff", "strip60": "strip60", "strip30": "strip30"}
BOARDS = sorted(name for name in profiles.PROFILES if name != "host")


def used_pins(p):
    """Every pin the profile drives or reads."""
    pins = {p["pixel_pin"]} | {key[1] for key in p["keys"]}
    if p["link"]:
        pins |= set(p["link"])
    if p["led_power"]:
        pins.add(p["led_power"])
    if p["display"]:
        pins |= {"SDA", "SCL"}
    return pins


def test_every_board_profile_has_a_build_and_the_pc_none():
    data = bom.load()
    assert sorted(data["builds"]) == BOARDS


@pytest.mark.parametrize("name", BOARDS)
def test_the_build_connects_every_pin_the_profile_uses(name):
    lines = bom.load()["builds"][name]["lines"]
    connected = {pin for line in lines for pin in line["pins"]}
    assert used_pins(profiles.get(name)) - connected == set()


@pytest.mark.parametrize("name", BOARDS)
def test_every_part_is_in_the_catalogue_with_price_source_date_and_product(name):
    data = bom.load()
    for line in data["builds"][name]["lines"]:
        part = data["parts"][line["part"]]
        assert part["unit_price"] > 0 and part["product"] and part["price_source"], line["part"]
        assert len(part["price_date"]) == 10 and part["price_date"][4] == "-", line["part"]
        assert line["qty"] >= 1 and line["role"], line["part"]


@pytest.mark.parametrize("name", BOARDS)
def test_the_grid_and_the_board_are_the_profiles(name):
    p = profiles.get(name)
    parts = {line["part"] for line in bom.load()["builds"][name]["lines"]}
    assert GRID_PARTS[p["grid"]] in parts
    assert set(GRID_PARTS.values()) & parts == {GRID_PARTS[p["grid"]]}
    assert BOARD_PARTS[p["board_id"]] in parts
    assert set(BOARD_PARTS.values()) & parts == {BOARD_PARTS[p["board_id"]]}


@pytest.mark.parametrize("name", BOARDS)
def test_the_power_design_names_catalogue_parts_and_says_why(name):
    data = bom.load()
    power = data["builds"][name]["power"]
    parts = {line["part"] for line in data["builds"][name]["lines"]}
    assert power["battery"] in parts and power["switch"]["part"] in parts
    assert "V" in power["why"] and power["grid_feed"]
    led_power = profiles.get(name)["led_power"]
    expected = "LED power switch on %s" % led_power if led_power else "no LED power switch"
    assert expected in power["grid_feed"]


@pytest.mark.parametrize("name", BOARDS)
def test_the_total_is_the_sum_of_the_lines(name):
    rows = bom.bom_rows(name)
    assert bom.total(name) == round(sum(r["unit_price"] * r["qty"] for r in rows), 2)
    assert all(r["line_total"] == round(r["unit_price"] * r["qty"], 2) for r in rows)


@pytest.mark.parametrize("name", BOARDS)
def test_bom_csv_reads_back(tmp_path, name):
    path = bom.write_csv(name, str(tmp_path / "bom.csv"))
    back = bom.read_csv(path)
    assert list(back[0]) == bom.CSV_HEADER
    rows = bom.bom_rows(name)
    assert [(b["product"], int(b["qty"]), float(b["unit price"])) for b in back[:-1]] == [
        (r["product"], r["qty"], r["unit_price"]) for r in rows]
    assert back[-1]["part"] == "total" and float(back[-1]["line total"]) == bom.total(name)


def test_markdown_and_text_carry_every_part_and_the_total():
    for name in BOARDS:
        md, txt = bom.markdown(name), bom.text(name)
        for r in bom.bom_rows(name):
            assert r["product"] in md and r["product"] in txt
        assert "%.2f" % bom.total(name) in md and "%.2f" % bom.total(name) in txt


def test_an_unknown_profile_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="handheld"):
        bom.total("host")


def test_profiles_md_tables_are_up_to_date():
    """python3 tools/kit/bom.py --docs writes them."""
    with open(bom.PROFILES_MD) as f:
        doc = f.read()
    assert sorted(m.group(2) for m in bom.MARKER.finditer(doc)) == BOARDS
    assert bom.docs_text(doc) == doc, "run: python3 tools/kit/bom.py --docs"
    assert os.path.exists(bom.BOM_JSON)
