"""The web page's parts on CPython (tools/web.py, web/jarmo_page.py): what the
site holds, the Python that fast mode runs, the colours device mode shows.
The page itself, in a real browser: tests/web/test_browser.py (full tier)."""

import base64
import hashlib
import json
import os
import re

import pytest

from host.colour import perceived
from jarmo import app_buttons as buttons
from jarmo.app import App
from jarmo.store_flash import Flash
from jarmo.store_log import Store
from tests import needs
from tests.device import stage
from tests.web import expect
from tools import web

ROOT = web.ROOT


def page_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("jarmo_page", os.path.join(ROOT, "web", "jarmo_page.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(h, start, ms, step=16):
    """Tick the page's handheld for ms of its clock; the last update's dict."""
    last = {}
    for now in range(start, start + ms, step):
        h.tick(now)
        text = h.update()
        if text:
            last.update(json.loads(text))
    return last


def test_fast_mode_loads_every_python_file_of_jarmo_found_by_walking_the_tree():
    files = web.python_files()
    walked = set()
    for here, _dirs, names in os.walk(os.path.join(ROOT, "jarmo")):
        walked |= {os.path.relpath(os.path.join(here, n), ROOT).replace(os.sep, "/")
                   for n in names if n.endswith(".py")}
    assert walked and walked <= set(files)
    for needed in ("jarmo_page.py", "hardware/leds.py", "host/colour.py", "adafruit_ticks.py"):
        assert needed in files


def test_the_page_plays_a_turn_shows_the_leds_as_seen_and_keeps_the_save():
    page = page_module()
    h = page.Handheld("host", "", 7)
    first = run(h, 0, 200)
    assert first["text"][1] == ">New game" and len(first["leds"]) == 25
    h.press(buttons.SELECT)                                  # New game
    u = run(h, 200, 300)
    assert u["state"] == "play"
    # the LEDs are the app's frame drawn at the level, as the eye sees it
    frame = bytes.fromhex(u["frame"])
    sent = [h.pixels.px[h.map[p]] for p in range(25)]         # point p on pixel map[p]
    assert u["leds"] == [perceived(sent[p], u["level"]) for p in range(25)]
    assert any(sent[p] and (frame[3 * p] or frame[3 * p + 1] or frame[3 * p + 2]) for p in range(25))
    h.press(buttons.SELECT)
    h.press(buttons.SELECT)                                  # a1 to its first target
    saved = None
    now = 500
    while json.loads(h.game()) is None or len(json.loads(h.game())) < 2:
        u = run(h, now, 100)
        now += 100
        saved = u.get("nvm", saved)
        assert now < 20000, "the AI did not answer"
    # the sector the page keeps: a new page resumes that game
    game = json.loads(h.game())
    assert saved is not None
    again = page.Handheld("host", saved, 8)
    u = run(again, 0, 200)
    assert any("Resume" in line for line in u["text"])
    assert Store(Flash(data=bytes.fromhex(saved))).game() is not None
    again.press(buttons.SELECT)                              # Resume
    run(again, 200, 300)
    assert json.loads(again.game()) == game


def test_device_colours_undo_the_pixel_map_and_order_of_each_profile():
    page = page_module()
    app = App(store=Store(Flash()), seed=3)
    app.new_game()
    for now in range(0, 600, 20):
        app.tick(now)
    frame = bytes(app.frame).hex()
    for name in ("qtpy_bff", "feather_oled", "pico", "tabletop"):
        prof = stage.profile(name)
        level = 24
        grb = stage.expected_grb(prof, frame, level)     # what the pin carries (tests/device)
        shown = json.loads(page.device_colours(name, grb.hex(), level))
        # what the device's own LED code sends for that frame, as seen
        assert shown == expect.seen(bytes.fromhex(frame), level), name


def test_device_level_comes_from_the_boards_own_brightness_setting():
    page = page_module()
    assert page.device_level("qtpy_bff", "") == (48 * 129) >> 8      # cap 48, brightness 128
    nvm = stage.settings_nvm(bright=7)                                 # brightness 255
    assert page.device_level("qtpy_bff", nvm.hex()) == (48 * 256) >> 8


def test_the_rules_become_html_with_every_heading_and_table():
    with open(os.path.join(ROOT, "docs", "RULES.md")) as f:
        text = f.read()
    out = web.markdown_html(text)
    assert out.count("<h2 ") == len(re.findall(r"(?m)^# ", text))
    assert out.count("<h3 ") == len(re.findall(r"(?m)^## ", text))
    tables = len(re.findall(r"(?m)^\|[ :-]+\|[ :|-]*$", text))
    assert out.count("<table>") == tables > 0
    assert "<strong>camp</strong>" in out and "<code>c3-b5</code>" in out
    assert "**" not in out and "](" not in out


def test_the_site_holds_the_board_legend_rules_and_each_boards_drive_within_the_weight(tmp_path):
    if not (os.path.isdir(web.MICROPYTHON) and os.path.isdir(web.RP2040JS)):
        needs.missing("the npm packages are missing (npm ci; python3 run.py test installs them)")
    out = tmp_path / "site"
    size = web.build(str(out), with_firmware=False, log=lambda s: None)
    assert size <= web.PAGE_BUDGET, size
    page = (out / "index.html").read_text()
    assert page.count('class="line"') == 38 and page.count('class="led"') == 25
    assert page.count('class="swatch"') == len(App.legend())
    assert "The board" in page and "<table>" in page
    config = json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>',
                                  page, re.S).group(1))
    assert config["buttons"] == list(buttons.NAMES) and config["firmware"] == []
    # the emulator's models are tests/device's own files, not copies kept apart
    for name in os.listdir(out / "emulator"):
        if name.endswith(".mjs"):
            with open(os.path.join(ROOT, "tests", "device", name), "rb") as f:
                assert (out / "emulator" / name).read_bytes() == f.read()
    assert not (out / "emulator" / "emulator.mjs").exists()
    # each profile's drive: the files `run.py deploy --profile P` writes, byte for byte
    drives = json.loads((out / "drives.json").read_text())
    deployed = tmp_path / "qtpy"
    stage.build_drive(str(deployed), "qtpy_bff", trace=0)
    files = drives["profiles"]["qtpy_bff"]
    for here, _dirs, names in os.walk(deployed):
        for n in names:
            rel = os.path.relpath(os.path.join(here, n), deployed).replace(os.sep, "/")
            if rel == "settings.toml":
                continue                            # the test's drive sets JARMO_TRACE
            data = (deployed / rel).read_bytes()
            assert files[rel] == hashlib.sha1(data).hexdigest(), rel
            assert base64.b64decode(drives["blobs"][files[rel]]) == data
    settings = base64.b64decode(drives["blobs"][files["settings.toml"]]).decode()
    assert 'JARMO_PROFILE = "qtpy_bff"' in settings and "JARMO_TRACE" not in settings


@pytest.mark.parametrize("args", [["--help"]])
def test_run_py_web_answers_help_without_building(args):
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "run.py"), "web"] + args,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "--build" in proc.stdout


def test_the_legend_names_how_the_leds_alone_tell_the_opponents_move():
    # without a display the opponent's move stays on the LEDs until the player
    # plays: its trail, its arrival glowing again, a capture strobing again
    # (jarmo/app_play.py); and a question that would throw a game away
    # flashes every LED red (the menu's New game, the campaign's ladder)
    from jarmo.app_view import RED, TRAIL, WHITE
    lines = App.legend()
    said = " | ".join(m for m, c in lines if c == WHITE)
    assert "arrival" in said and "again every 1.5 s" in said, said
    assert "two white strobes" in said, said
    assert any("opponent's move" in m for m, c in lines if c == TRAIL), lines
    assert any("question" in m and "SELECT again" in m for m, c in lines if c == RED), lines


@pytest.mark.parametrize("has_display", [True, False])
def test_the_legend_names_every_colour_a_game_lights(has_display):
    # a game against the AI with the timer, a hint and a capture or two: every
    # colour lit is the legend's, or a dimmer shade of one (a blink, the
    # spinner's tail, the breathing); the page shows the legend beside the board
    from jarmo.app_buttons import MENU, SELECT
    from jarmo.app_legend import COUNTDOWN
    from jarmo.app_view import HINT_COLOUR
    from tests.app.drive import Clock, Rand, menu_to, new_game, play_out, set_option
    from tests.app.memstore import MemoryStore

    legend = {c for _meaning, c in App.legend()}
    shades = {tuple((ch * k) >> 8 for ch in (c >> 16, (c >> 8) & 255, c & 255))
              for c in legend for k in range(1, 257)}
    seen = {}

    class Watching(Clock):
        def run(self, ms, step=16):
            end = self.now + ms
            while self.now < end:
                Clock.run(self, step, step)
                for p in range(25):
                    seen.setdefault(self.app.pixel(p), (self.app.state, self.app.text))

    app = App(store=MemoryStore(), has_display=has_display, seed=3)
    clock = Watching(app)
    set_option(clock, "Timer", "15 s")
    new_game(clock, "standard", heroes=True, challenges=True, opponent="AI greedy")
    clock.run(200)
    clock.press(MENU)
    menu_to(clock, "Hint")
    clock.press(SELECT)
    clock.run(17000)                                # the hint shown, then the countdown runs out
    play_out(clock, Rand(3))
    assert app.game.result() is not None
    lit = {c: where for c, where in seen.items() if c}
    assert HINT_COLOUR in lit and COUNTDOWN in lit              # the hint was shown, the clock ran down
    unnamed = {"%06x" % c: where for c, where in lit.items()
               if c not in legend and ((c >> 16), (c >> 8) & 255, c & 255) not in shades}
    assert not unnamed, unnamed


def test_a_tap_no_pick_takes_refuses_in_words_and_keeps_the_picked_piece():
    from jarmo.board import NAMES
    page = page_module()
    h = page.Handheld("host", "", 7)
    run(h, 0, 200)
    h.press(buttons.SELECT)                                  # New game
    run(h, 200, 300)
    assert h.tap(NAMES.index("c1")) == ""                    # picked
    said = h.tap(NAMES.index("c3"))                          # no line joins c1 and c3
    assert said.startswith("No: ") and "c1 stays picked" in said, said
    assert any(line.startswith("No: ") for line in h.app.text)
    assert h.tap(NAMES.index("d3")) == ""                    # one of c1's targets: played
    assert json.loads(h.game())[0] == "c1-d3"


def test_a_boards_own_key_gives_its_short_name_or_held_its_long_one():
    # as hardware/buttons.py reads a key with a hold: SELECT when let go
    # early, MENU once held long_ms
    page = page_module()
    h = page.Handheld("qtpy_bff", "", 1)
    run(h, 0, 200)
    h.key(1, True)                                           # b: select / menu
    run(h, 200, 100)
    h.key(1, False)
    u = run(h, 300, 300)
    assert u["state"] == "play"
    h.key(1, True)
    u = run(h, 600, 800)                                     # held past long_ms
    assert u["state"] == "menu"
    h.key(1, False)
    assert run(h, 1400, 200).get("state", "menu") == "menu"    # its release sends nothing more


def test_the_overlay_marks_are_those_of_the_rules_in_play():
    page = page_module()
    assert page.overlay_marks("standard", ()) == {"rules": "standard", "expansions": [],
                                                   "dotted": False, "rings": False}
    assert page.overlay_marks("jasyr", ("challenges",))["dotted"] is True
    assert page.overlay_marks("jasyr", ("challenges",))["rings"] is True
    h = page.Handheld("host", "", 1)
    u = run(h, 0, 200)
    assert u["overlay"]["rules"] == "standard" and not u["overlay"]["dotted"]


def test_device_view_reads_the_led_only_menu_the_pieces_and_the_spinner_back_from_the_pin():
    # what the firmware sends on the pixel pin, read back as fast mode says it
    from host.view import led_meaning
    page = page_module()
    prof = stage.profile("qtpy_bff")
    view = page.DeviceView("qtpy_bff")
    level = json.loads(view.read_flash(""))["level"]

    def read(app):
        return json.loads(view.frame(stage.expected_grb(prof, bytes(app.frame).hex(), level).hex()))

    app = App(store=Store(Flash()), has_display=False, seed=3)
    for now in range(0, 300, 16):
        app.tick(now)
    got = read(app)
    assert got["says"] == led_meaning(app) and "the item New game" in got["says"][0], got["says"]
    assert got["labels"] == [""] * 25
    app.press(buttons.SELECT)                                # New game
    for now in range(300, 1400, 16):                         # (the cursor's blink: both halves)
        app.tick(now)
        got = read(app)
    assert got["says"] == [] and got["labels"] == ["A"] * 5 + [""] * 15 + ["a"] * 5
    # the AI's spinner over the board
    from jarmo import app_view as V
    buf = bytearray(app.frame)
    V.draw_spinner(buf, V.CURSOR[1], 3 << 7)
    app.frame[:] = buf
    assert "the AI thinks" in read(app)["says"][0]
