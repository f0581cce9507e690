"""Every measured figure lives in one place: docs/BENCHMARKS.md, under the
section of the benchmark or test that measures it, with its command. The
other documents cite that section (`docs/BENCHMARKS.md, "Power"`;
tests/test_doc_quotes.py checks the section exists) and copy no number, so
a figure is never stale in one place and fresh in another.

The test finds the numbers with a unit of measurement (ms, s, KB, bytes,
mA, h, %, games, ...) in the documents and fails on any that is not on
ALLOWED: the numbers that are not measurements, each with its document,
its text and the reason (a setting's default, a budget a test enforces, a
specification of a part or a protocol, a rule of the game). A figure
allowed in one document is allowed wherever that document says it."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What is scanned: every document but docs/BENCHMARKS.md, where figures live.
def documents():
    out = ["README.md", "tests/device/README.md"]
    for folder in ("docs", "hardware"):
        out += sorted(folder + "/" + n for n in os.listdir(os.path.join(ROOT, folder)) if n.endswith(".md"))
    return [d for d in out if d != "docs/BENCHMARKS.md"]


NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"
UNITS = (r"ms|µs|us|s|sec|seconds?|minutes?|min|h|hours?|days?|KB|KiB|kB|MB|MiB|GB|bytes?|B|"
         r"mA|mAh|µA|uA|mW|W|%|times|games?|nodes(?:/s| a second)|actions/s|frames a second|fps")
# a number, or a range of two (0.2 to 0.4x, 10-90 ms, 888 / 788 ms), then its unit
# (a speed's x sticks to its number: 0.2x real time; 5 x 5 is a product)
FIGURE = re.compile(r"(?<![\w.,/#+-])(%s(?:\s?(?:-|–|to|/)\s?%s)?)(?:\s?(%s)|x)(?![\w/])" % (NUMBER, NUMBER, UNITS))

# The figures that are not measurements: (document, figure as written) ->
# why it is not one. Keep this short: a measured figure goes to
# docs/BENCHMARKS.md and the document cites it.
SETTING = "a setting and its default"
SPEC = "a specification (of a part, a protocol or a format)"
RULE = "a rule of the game"
ALLOWED = {
    # docs/AI.md: the levels' time budgets (jarmo/ai.py TIME_MS) and the limits and budgets tests enforce
    ("docs/AI.md", "130 ms"): SETTING + ": level 2's time budget, jarmo/ai.py TIME_MS",
    ("docs/AI.md", "900 ms"): SETTING + ": level 3's time budget, jarmo/ai.py TIME_MS",
    ("docs/AI.md", "650 ms"): SETTING + ": level 3's time budget in classic, jarmo/ai.py TIME_MS",
    ("docs/AI.md", "2800 ms"): SETTING + ": level 4's time budget, jarmo/ai.py TIME_MS",
    ("docs/AI.md", "50 ms"): "limit enforced by tools/bench_ai_device.py LIMITS (greedy)",
    ("docs/AI.md", "150 ms"): "limit enforced by tools/bench_ai_device.py LIMITS (level 2)",
    ("docs/AI.md", "1 s"): "limit enforced by tools/bench_ai_device.py LIMITS (level 3)",
    ("docs/AI.md", "3 s"): "limit enforced by tools/bench_ai_device.py LIMITS (level 4)",
    ("docs/AI.md", "30 ms"): "limit enforced by tools/bench_ai_device.py SLICE_LIMIT",
    ("docs/AI.md", "9 KB"): "budget enforced by tests/test_ai_strength.py (a player's heap)",
    ("docs/AI.md", "50 KB"): "budget enforced by tests/device/test_modes_on_device.py (stage.py BUDGETS)",
    ("docs/AI.md", "80 %"): "target enforced by tests/test_ai_strength.py (greedy v random)",
    ("docs/AI.md", "40 games"): "a count that defines tests/test_ai_strength.py's run",
    ("docs/AI.md", "16.5 KB"): "budget enforced by tests/test_ai_strength.py (the import heap)",
    ("docs/AI.md", "4 KB"): "budget enforced by tests/test_ai_strength.py (a greedy turn's allocation)",
    ("docs/AI.md", "20 times"): SETTING + ": tools/bench_ai_deep.py's deeper opponent's nodes",
    # docs/ARCHITECTURE.md: the main loop's and the app's constants, the budgets, the parts' sizes
    ("docs/ARCHITECTURE.md", "4 KB"): SPEC + ": the flash sector (microcontroller.nvm, jarmo/store_flash.py)",
    ("docs/ARCHITECTURE.md", "40 ms"): SETTING + ": hardware/mainloop.py _PERIOD",
    ("docs/ARCHITECTURE.md", "25 frames a second"): SETTING + ": hardware/mainloop.py _PERIOD (40 ms)",
    ("docs/ARCHITECTURE.md", "10 ms"): SETTING + ": hardware/mainloop.py _NAP",
    ("docs/ARCHITECTURE.md", "128 ms"): SETTING + ": jarmo/app.py _SLOT (2**7 ms)",
    ("docs/ARCHITECTURE.md", "45 ms"): SETTING + ": hardware/mainloop.py _OFF_PERIOD",
    ("docs/ARCHITECTURE.md", "12 KB"): SETTING + ": hardware/mainloop.py _GARBAGE",
    ("docs/ARCHITECTURE.md", "2 KB"): SPEC + ": the stock firmware's Python stack",
    ("docs/ARCHITECTURE.md", "12 ms"): SETTING + ": web/fast.js BUSY_MS",
    ("docs/ARCHITECTURE.md", "50 KB"): "budget enforced by tests/device/stage.py BUDGETS (stock)",
    ("docs/ARCHITECTURE.md", "100 ms"): "budget enforced by tests/device/stage.py BUDGETS (stock pass)",
    ("docs/ARCHITECTURE.md", "60 ms"): "budget enforced by tests/device/stage.py BUDGETS (frozen pass)",
    ("docs/ARCHITECTURE.md", "5 s"): SETTING + ": hardware/mainloop.py run_guarded's second MemoryError",
    ("hardware/README.md", "40 ms"): SETTING + ": hardware/mainloop.py _PERIOD",
    # docs/APP.md: the app's timings and settings (their constants), the saves' format and sizes
    ("docs/APP.md", "400 ms"): SETTING + ": jarmo/app_play.py _AI_DELAY (the AI's actions apart)",
    ("docs/APP.md", "3 s"): SETTING + ": jarmo/app_screens.py _CELEBRATE, jarmo/app_play.py _PAGE",
    ("docs/APP.md", "4 s"): SETTING + ": jarmo/app_screens.py _PAGE; jarmo/app_view.py's 4096 ms glimpse period",
    ("docs/APP.md", "2 s"): SETTING + ": jarmo/app_view.py piece_colour's breath, tri(now, 2048)",
    ("docs/APP.md", "0.4 s"): SETTING + ": jarmo/app_view.py draw_board's glimpse, 3 slots of 128 ms",
    ("docs/APP.md", "0.5 s"): SETTING + ": jarmo/app_view.py blink(now, 1024); jarmo/app_assist.py _SHOW",
    ("docs/APP.md", "0.3 s"): SETTING + ": jarmo/app_play.py _ARRIVE",
    ("docs/APP.md", "0.6 s"): SETTING + ": jarmo/app_play.py _FLASH",
    ("docs/APP.md", "1.5 s"): SETTING + ": jarmo/app_play.py _AGAIN",
    ("docs/APP.md", "0.8 s"): SETTING + ": jarmo/app_help.py _FRAME",
    ("docs/APP.md", "15 s"): SETTING + ": the move timer's values, jarmo/app_base.py TIMER_S",
    ("docs/APP.md", "30 s"): SETTING + ": the move timer's values, jarmo/app_base.py TIMER_S",
    ("docs/APP.md", "60 s"): SETTING + ": the move timer's values, jarmo/app_base.py TIMER_S",
    ("docs/APP.md", "23 s"): "an example of the display's line with the move timer on",
    ("docs/APP.md", "5 seconds"): SETTING + ": jarmo/app_assist.py _COUNTDOWN",
    ("docs/APP.md", "0.7 s"): SETTING + ": jarmo/app_assist.py's countdown, jarmo/app_lesson.py _REPLY",
    ("docs/APP.md", "30 ms"): "limit enforced by tools/bench_ai_device.py SLICE_LIMIT",
    ("docs/APP.md", "4 KB"): SPEC + ": the flash sector (microcontroller.nvm, jarmo/store_log.py SECTOR)",
    ("docs/APP.md", "8 KB"): SETTING + ": Jarmo's firmware's nvm, tools/firmware.py SOURCE_PATCHES",
    ("docs/APP.md", "256 bytes"): SPEC + ": a SAMD21 board's nvm",
    ("docs/APP.md", "9 to 13 bytes"): SPEC + ": jarmo/store_log.py's record (OVER, 7 bytes) and 1 to 3 codes",
    ("docs/APP.md", "2 bytes"): SPEC + ": an action code (jarmo/codes.py)",
    ("docs/APP.md", "1 KB"): SETTING + ": jarmo/store_log.py RESERVE (a game's room)",
    ("docs/APP.md", "2 KB"): SETTING + ": jarmo/store_log.py Store.tidy's cap, half the sector",
    ("docs/APP.md", "50 games"): SETTING + ": tools/bench_flash.py GAMES_A_DAY (its 20 years' budget)",
    ("docs/APP.md", "4 games"): RULE + ": a match is 2, 4 or 6 games",
    # docs/LINK.md: the protocol's constants (jarmo/link.py), its frame's sizes, the tests' parameters
    ("docs/LINK.md", "300 ms"): SETTING + ": jarmo/link.py _LISTEN",
    ("docs/LINK.md", "250 ms"): SETTING + ": jarmo/link.py _BEAT",
    ("docs/LINK.md", "80 ms"): SETTING + ": jarmo/link.py _RETRY",
    ("docs/LINK.md", "50 ms"): SETTING + ": jarmo/link.py _STALL",
    ("docs/LINK.md", "1000 ms"): SETTING + ": jarmo/link.py _LOST",
    ("docs/LINK.md", "64 s"): SETTING + ": jarmo/link.py _PACE_MAX (64 times _LOST)",
    ("docs/LINK.md", "1.6 s"): SETTING + ": jarmo/link.py _LOST and jarmo/linkplay.py _SETTLE",
    ("docs/LINK.md", "46 bytes"): SPEC + ": the largest frame, jarmo/link.py _MAX and 6 bytes of framing",
    ("docs/LINK.md", "4 ms"): SPEC + ": 46 bytes of 10 bits at 115200 baud",
    ("docs/LINK.md", "4 bytes"): SPEC + ": a result in PAST (jarmo/store_game.py)",
    ("docs/LINK.md", "6 games"): RULE + ": a match is 2, 4 or 6 games",
    ("docs/LINK.md", "4 times"): "a parameter of tests/device/test_link_on_device.py (noise bursts a turn)",
    ("docs/LINK.md", "40 times"): "a parameter of tests/core/test_link.py (the slower board's pace)",
    ("docs/LINK.md", "2 games"): "a parameter of tests/app/test_link_campaign.py (games of each kind)",
    ("docs/LINK.md", "60 s"): SETTING + ": tests/app/linkcampaign.py SETTLE_MS (stuck after it)",
    # docs/SAVES.md: the flash's and the firmware's layout and the chip's times, the store's settings
    ("docs/SAVES.md", "45 ms"): SPEC + ": the W25Q flash's typical sector erase (tests/device/flash.mjs)",
    ("docs/SAVES.md", "0.4 ms"): SPEC + ": the W25Q flash's typical page program (tests/device/flash.mjs)",
    ("docs/SAVES.md", "4 KB"): SPEC + ": the flash sector and stock nvm (CIRCUITPY_INTERNAL_NVM_SIZE)",
    ("docs/SAVES.md", "8 KB"): SETTING + ": Jarmo's firmware's nvm, tools/firmware.py SOURCE_PATCHES",
    ("docs/SAVES.md", "1020 KB"): SPEC + ": stock CIRCUITPY_FIRMWARE_SIZE",
    ("docs/SAVES.md", "1016 KB"): SETTING + ": Jarmo's firmware's CIRCUITPY_FIRMWARE_SIZE, tools/firmware.py",
    ("docs/SAVES.md", "1 MB"): SPEC + ": CIRCUITPY's start in the RP2040's flash (0x100000)",
    ("docs/SAVES.md", "1 KB"): SETTING + ": jarmo/store_log.py RESERVE (a game's room)",
    ("docs/SAVES.md", "2 KB"): SETTING + ": jarmo/store_log.py Store.tidy's cap, half the sector",
    ("docs/SAVES.md", "100 ms"): "budget enforced by tests/device/stage.py BUDGETS (stock pass)",
    ("docs/SAVES.md", "4096 bytes"): SPEC + ": jarmo.nvm's size, jarmo/store_log.py SECTOR (an example message)",
    # hardware/PROFILES.md: the parts' specifications (also in the generated BOM tables) and a setting
    ("hardware/PROFILES.md", "0.6 s"): SETTING + ": hardware/profiles.py long_ms",
    ("hardware/PROFILES.md", "60 mA"): SPEC + ": a WS2812 at full white (Adafruit NeoPixel Uberguide)",
    ("hardware/PROFILES.md", "1 mA"): SPEC + ": a dark WS2812's static current (WS2812B data sheets)",
    ("hardware/PROFILES.md", "4 KB"): SPEC + ": the RP2040 boards' nvm (CIRCUITPY_INTERNAL_NVM_SIZE)",
    ("hardware/PROFILES.md", "1200 mAh"): SPEC + ": a battery's capacity (kit/bom.json)",
    ("hardware/PROFILES.md", "2500 mAh"): SPEC + ": a battery's capacity (kit/bom.json)",
    ("hardware/PROFILES.md", "500 mAh"): SPEC + ": a battery's capacity (kit/bom.json)",
    ("hardware/PROFILES.md", "115 mA"): SPEC + ": the 2N7002's drain current (kit/bom.json)",
    ("hardware/PROFILES.md", "1/4 W"): SPEC + ": the resistors' rating (kit/bom.json)",
    ("hardware/PROFILES.md", "200 mA"): SPEC + ": the Charger BFF's charge current (kit/bom.json)",
    # tests/device/README.md: the harness's settings and the parts it models (their specifications)
    ("tests/device/README.md", "16 KiB"): SPEC + ": the RP2040 B1 bootrom",
    ("tests/device/README.md", "16,384 bytes"): SPEC + ": the RP2040 B1 bootrom",
    ("tests/device/README.md", "1 MiB"): SETTING + ": tests/device/fat.mjs buildFat12's size",
    ("tests/device/README.md", "4 KiB"): SPEC + ": the flash sector and stock nvm",
    ("tests/device/README.md", "1020 KiB"): SPEC + ": stock CIRCUITPY_FIRMWARE_SIZE",
    ("tests/device/README.md", "2 MiB"): SPEC + ": the Pico's flash",
    ("tests/device/README.md", "0.4 ms"): SPEC + ": W25Q typical page program, tests/device/flash.mjs TYPICAL_TIMING",
    ("tests/device/README.md", "45 ms"): SPEC + ": W25Q typical sector erase, tests/device/flash.mjs TYPICAL_TIMING",
    ("tests/device/README.md", "120/150 ms"): SPEC + ": W25Q typical block erases, flash.mjs TYPICAL_TIMING",
    ("tests/device/README.md", "32/64 KiB"): SPEC + ": the W25Q's erase blocks",
    ("tests/device/README.md", "5 ms"): SETTING + ": tests/device/i2c.mjs BURST_GAP_NS",
    ("tests/device/README.md", "120 ms"): "an example of Device.press's ms",
    ("tests/device/README.md", "10x"): SETTING + ": tests/device/device.py's wall budget (0.1x real time)",
    ("tests/device/README.md", "1 s"): SPEC + ": CircuitPython's wait before it writes boot_out.txt",
    ("tests/device/README.md", "250 ms"): SETTING + ": tests/device/usb.mjs's Ctrl-C retry",
    ("tests/device/README.md", "50 µs"): SPEC + ": the WS2812's latch (reset) time",
    ("tests/device/README.md", "200 ms"): SETTING + ": CircuitPython's double-tap wait; emulator.mjs's reconnect",
    ("tests/device/README.md", "86.8 us"): SPEC + ": 10 bit-times at 115200 baud (emulator.mjs BYTE_NS)",
    ("tests/device/README.md", "2.5 %"): SETTING + ": tests/device/pair.mjs's baud mismatch that garbles",
    ("tests/device/README.md", "1000 ms"): SETTING + ": jarmo/link.py _LOST",
    # the documents others edit: only what is not measured
    ("README.md", "60 s"): SETTING + ": the move timer's values (the menu's Timer)",
    ("docs/KIT.md", "100 %"): SPEC + ": the print scale of the drilling template",
    ("docs/PLAYING.md", "500 ms"): SETTING + ": an example of a script's wait event",
    ("docs/RULES.md", "6 games"): RULE + ": a match is 2, 4 or 6 games",
}

def figures(text):
    """(line, figure) for each number with a unit in text."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        for m in FIGURE.finditer(line):
            out.append((n, " ".join(m.group(0).split())))
    return out


def unexplained():
    """file:line lines for each figure that is not allowed."""
    found = []
    for rel in documents():
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            text = f.read()
        for n, figure in figures(text):
            if (rel, figure) in ALLOWED:
                continue
            found.append("%s:%d: %r" % (rel, n, figure))
    return found


def test_documents_copy_no_measured_figure():
    found = unexplained()
    assert not found, (
        "figures with a unit outside docs/BENCHMARKS.md:\n  " + "\n  ".join(found) + "\n"
        "A measured figure (a count from a run: heap bytes, KB, ms of a pass, seconds of a run, mA, hours, "
        "win rates...) goes to docs/BENCHMARKS.md, in the section of the benchmark or test that measures it "
        "with its command; the document then says it in words and cites the section: "
        "(docs/BENCHMARKS.md, \"SECTION\"). A figure that is no measurement (a setting's default, a budget "
        "a test enforces, a specification, a rule) goes into ALLOWED in tests/test_figures.py with the reason.")


def test_every_allowed_figure_is_still_there():
    """ALLOWED stays as small as the documents: an entry no document says any more goes."""
    said = set()
    for rel in documents():
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            said.update((rel, figure) for _, figure in figures(f.read()))
    assert sorted(k for k in ALLOWED if k not in said) == []


def test_every_allowed_figure_says_why():
    assert all(reason.strip() for reason in ALLOWED.values())


def test_the_scan_finds_figures_with_units():
    said = ("A pass takes 39.7 ms (budget 100 ms), 52,864 bytes free, 2.8 KB of code, 0.2 to 0.4x real time, "
            "88.5 % asleep, 5 x 5 pairs, 13.5 h on 1200 mAh, 4,541 actions/s, 200 games; not 5x5, r2 or 0x1F.")
    assert [f for _, f in figures(said)] == [
        "39.7 ms", "100 ms", "52,864 bytes", "2.8 KB", "0.2 to 0.4x", "88.5 %", "13.5 h", "1200 mAh",
        "4,541 actions/s", "200 games"]
