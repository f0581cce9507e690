#!/usr/bin/env python3
"""The game on the emulated boards: what a player meets, measured on real firmware.

    python3 run.py bench --device                  # every figure below (both firmware kinds: hours)
    python3 run.py bench --device --quick          # the budgets only: Pico, greedy, 2 rule sets, both kinds
    python3 tools/bench_device.py --kinds frozen --profiles pico --rules standard --levels greedy,3

Two kinds of firmware (--kinds): "stock", CircuitPython 10.3 as published,
with the project deployed as `run.py deploy` does (compiled with
CircuitPython's mpy-cross when there is one; tests/device/stage.py), and
"frozen", Jarmo's firmware (tools/firmware.py, built from this checkout;
from its cache when unchanged) with only code.py, boot.py and
settings.toml on the drive.  Each boots on the emulated board of each
profile (tests/device/device.py: rp2040js, 125 MHz) and plays whole games
through the profile's buttons, always taking the first piece and its first
target, against the AI at each level: on the Pico in each rule set, on the
other boards in standard (where a game against level 4 holds the most).
The console trace (hardware/trace.py) gives:

  - free heap (gc.collect(), gc.mem_free()) at code.py start, in the menu,
    in a game against the AI (the least seen), at the end of a game;
  - power-on to the first LED frame: emulated, a player's drive at its
    second power-on with no USB host, the board's own boot counted
    (tests/device/stage.py power_on_figures; tools/bench_response.py);
  - the longest main-loop pass after the first frame, and in which state;
  - the AI's thinking time per turn, as the player waits for it (median, max).

Budgets, at the worst moment of a game against the AI, a pass after the
first frame, and power-on to the first frame: stock firmware (the
Pico, the QT Py and the Feather with the OLED) at least 50 KB free, no
pass over 100 ms, 3 s; Jarmo's firmware (every profile) at least
96 KB free, no pass over 60 ms, 1.5 s.  The AI's own limits per level are
in docs/AI.md (tools/bench_ai_device.py measures them on set positions).
Exits 1 if a budget is missed.  Times are emulated: rp2040js counts
Cortex-M0+ cycles, but runs code from flash as fast as from RAM
(tests/device/README.md): on a board, frozen code waits for the flash cache.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.device import stage  # noqa: E402
from tests.device.device import Device  # noqa: E402

BUDGETS = stage.BUDGETS     # per firmware kind: (pass ms, free bytes, power-on to first frame ms)
# Who is held to them: stock firmware on the three boards, Jarmo's everywhere.
BUDGETED = {"stock": ("pico", "qtpy_bff", "feather_oled"),
            "frozen": ("pico", "qtpy_bff", "feather_oled", "joystick", "tabletop")}
TAP_MS = 100
GAP_MS = 300


class Run:
    """One board booted with Jarmo, played by taps: next 0-2 times (seeded),
    then select, so that the player's moves vary and games come to an end."""

    def __init__(self, dev, prof, seed=1):
        self.dev = dev
        self.prof = prof
        self.select = stage.key_pin(prof, "select")
        self.next = stage.key_pin(prof, "next")
        self.seed = seed

    def trace(self):
        return stage.Trace(self.dev.console)

    def tap(self, pin=None):
        self.dev.press(pin or self.select, TAP_MS)
        self.dev.run(GAP_MS)

    def _dice(self):
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.seed >> 16) % 3

    def play_game(self, most_taps=400):
        """New game from the menu, then taps until the result shows; False if it never ends."""
        start = len(self.dev.console)
        for _ in range(most_taps):
            names = [s[0] for s in stage.Trace(self.dev.console[start:]).states()]
            if "result" in names:
                return True
            if names and names[-1] == "play":
                for _ in range(self._dice()):
                    self.tap(self.next)
            self.tap()
        return False


def longest_pass(states):
    """(us, state) of the longest pass in a game's @@STATE lines. Each line
    gives the longest pass of the state it ends; the first ends the menu,
    start-up included, so it is left out. (@@MAXPASS lines name only passes
    longer than every one since start-up: a game's own longest pass would be
    missing where start-up had a longer one.)"""
    best = (0, "-")
    for i in range(1, len(states)):
        pass_us = states[i][2]
        if pass_us > best[0]:
            best = (pass_us, states[i - 1][0])
    return best


def game_figures(lines):
    """Figures of one game's console lines (after the menu's New game)."""
    t = stage.Trace(lines)
    states = t.states()
    in_game = [free for name, free, _p, _ms in states if name in ("play", "ai")]
    in_game += [free for _ms, free in t.ai_turns()]
    end = [free for name, free, _p, _ms in states if name == "end"]
    return {
        "min_free_in_game": min(in_game) if in_game else None,
        "free_at_end": end[0] if end else None,
        "ai_ms": [ms for ms, _free in t.ai_turns()],
        "max_pass": max([longest_pass(states)] + t.max_passes()),
        "moves": max((len(g) for g in t.games()), default=0),
    }


def measure_profile(name, rules_list, levels, firmware_option, log, kind="stock"):
    """Boot figures and one game per (rules, level) on the board of profile
    `name`, on firmware of `kind` ("stock" or "frozen")."""
    prof = stage.profile(name)
    board = prof["board_id"]
    why = stage.firmware_unavailable(name, kind, firmware_option)
    if why:
        log("%s (%s): skipped: %s" % (name, kind, why))
        return None
    firmware = stage.firmware(name, kind, firmware_option)
    from jarmo import app_menu
    out = {"profile": name, "board": board, "kind": kind, "games": []}
    i2c = 0x3C if prof["display"] == "sh1107_128x64" else None
    first = True
    out["power_on_ms"] = stage.power_on_figures(firmware, name, kind, ("none",), i2c)["none"][0]
    for rules in rules_list:
        for level in levels:
            opponent = _labels().index(level_name(level))
            with tempfile.TemporaryDirectory() as tmp:
                drive = stage.build_drive(os.path.join(tmp, "CIRCUITPY"), name, trace=1, JARMO_SEED=5,
                                          frozen=kind == "frozen", **stage.HEAP)
                nvm = stage.settings_nvm(rules=app_menu.RULES.index(rules), opp=opponent, bright=5)
                wall = time.time()
                with Device(firmware, drive, neopixel_pin=prof["pixel_pin"],
                            i2c_ack=i2c, timeout_s=600, nvm=nvm) as dev:
                    run = Run(dev, prof)
                    dev.wait_for(r"^@@STATE menu", 10000)
                    dev.run(1000)          # the screens' code loads after start-up
                    if first:
                        t = run.trace()
                        menu_free = [f for n, f, _p, _ms in t.states() if n == "menu"]
                        out["boot_free"] = t.boots()[0]
                        out["menu_free"] = menu_free[0]
                        out["boot_max_pass"] = max(t.max_passes(), default=(0, "-"))
                        first = False
                    mark = len(dev.console)
                    ended = run.play_game()
                    dev.run(500)
                    lines = dev.console[mark:]
                    figures = game_figures(lines)
                    menu_after = [f for n, f, _p, _ms in stage.Trace(lines).states() if n == "menu"]
                    figures.update(rules=rules, level=level, ended=ended,
                                   menu_free_after=menu_after[-1] if menu_after else None,
                                   emulated_s=dev.t / 1000.0, wall_s=time.time() - wall)
                    out["games"].append(figures)
                    log("  %s %s %-9s v %-6s %3d moves, AI median %s ms max %s ms, least free %s, "
                        "longest pass %.1f ms (%s)%s" % (
                            kind, name, rules, level, figures["moves"], _median(figures["ai_ms"]),
                            max(figures["ai_ms"], default="-"), figures["min_free_in_game"],
                            figures["max_pass"][0] / 1000.0, figures["max_pass"][1],
                            "" if ended else "  (game did not end)"))
    return out


def level_name(level):
    """The menu's opponent name for an AI level ("greedy", "2", "3" ...)."""
    for name in _labels():
        if name.split()[-1] == level:
            return name
    raise SystemExit("no opponent %r in the menu: %s" % (level, ", ".join(_labels())))


def _labels():
    """The menu's opponents by label, in its order (the settings keep the place)."""
    from jarmo.app_base import OPP, OPPONENTS
    return OPPONENTS[::OPP]


def _median(values):
    return "%d" % statistics.median(values) if values else "-"


def report(results):
    print("\nDevice figures (emulated RP2040 at 125 MHz, CircuitPython 10.3; stock: .mpy deploy, "
          "frozen: Jarmo's firmware)")
    print("| firmware | profile (board) | games | free at boot | menu | least in a game v AI | at the end | "
          "power-on to first LED frame | longest pass |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        games = r["games"]
        least = min(g["min_free_in_game"] for g in games if g["min_free_in_game"] is not None)
        end = min(g["free_at_end"] for g in games if g["free_at_end"] is not None)
        worst = max([g["max_pass"] for g in games] + [r["boot_max_pass"]])
        print("| %s | %s (%s) | %d | %s | %s | %s | %s | %s ms | %.1f ms (%s) |" % (
            r["kind"], r["profile"], r["board"], len(games), r["boot_free"], r["menu_free"], least, end,
            r["power_on_ms"], worst[0] / 1000.0, worst[1]))
    print("\nAI thinking per turn in the app, as the player waits (ms: median / max; turns)")
    for r in results:
        levels = []
        for g in r["games"]:
            if g["level"] not in levels:
                levels.append(g["level"])
        print("| %s %s: rules | %s |" % (r["kind"], r["profile"], " | ".join(levels)))
        print("|---|" + "---|" * len(levels))
        rules_seen = []
        for g in r["games"]:
            if g["rules"] not in rules_seen:
                rules_seen.append(g["rules"])
        for rules in rules_seen:
            cells = []
            for level in levels:
                ms = [m for g in r["games"] if g["rules"] == rules and g["level"] == level for m in g["ai_ms"]]
                cells.append("%s / %s (%d)" % (_median(ms), max(ms, default="-"), len(ms)))
            print("| %s | %s |" % (rules, " | ".join(cells)))


def check_budgets(results):
    """Budget lines per firmware kind and profile held to them (BUDGETED); the number missed."""
    missed = 0
    for r in results:
        if r["profile"] not in BUDGETED[r["kind"]]:
            continue
        pass_ms, free, first_ms = BUDGETS[r["kind"]]
        worst = max([g["max_pass"] for g in r["games"]] + [r["boot_max_pass"]])
        least = min(g["min_free_in_game"] for g in r["games"] if g["min_free_in_game"] is not None)
        boot = r["power_on_ms"]
        where = "%s %s:" % (r["kind"], r["profile"])
        for ok, text in (
                (worst[0] <= pass_ms * 1000,
                 "longest main-loop pass %.1f ms (%s), budget %d ms" % (worst[0] / 1000.0, worst[1], pass_ms)),
                (least >= free,
                 "least free heap in a game against the AI %d bytes, budget %d" % (least, free)),
                (boot is not None and boot <= first_ms,
                 "power-on to first LED frame %s ms, budget %d ms" % (boot, first_ms)),
                (all(g["ended"] for g in r["games"]), "every game played to its end")):
            print("%s  %s %s" % ("ok    " if ok else "MISSED", where, text))
            missed += not ok
    return missed


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 run.py bench --device", description=__doc__.split("\n")[0])
    ap.add_argument("--kinds", default="stock,frozen",
                    help="firmware kinds: stock (CircuitPython + .mpy deploy), frozen (Jarmo's firmware)")
    ap.add_argument("--profiles", default=None,
                    help="default: stock pico,qtpy_bff,feather_oled; frozen also joystick,tabletop")
    ap.add_argument("--rules", default="classic,standard,legendary,jasyr",
                    help="rule sets played on the Pico (the other boards: --board-rules)")
    ap.add_argument("--board-rules", default="standard", help="rule sets played on the other profiles")
    ap.add_argument("--levels", default=None, help="AI levels played in the app (default: every menu level)")
    ap.add_argument("--quick", action="store_true", help="Pico only, greedy, classic and standard")
    ap.add_argument("--firmware", default=None, help="a CircuitPython UF2 or a folder of them")
    ap.add_argument("--json", default=None, help="also write the raw figures to this file")
    args = ap.parse_args(argv)
    levels = args.levels.split(",") if args.levels else [n.split()[-1] for n in _labels() if n.startswith("AI ")]
    rules = args.rules.split(",")
    board_rules = args.board_rules.split(",")
    if args.quick:
        rules, levels = ["classic", "standard"], ["greedy"]
    results = []
    for kind in args.kinds.split(","):
        profiles = BUDGETED[kind] if args.profiles is None else args.profiles.split(",")
        if args.quick:
            profiles = ["pico"]
        for name in profiles:
            r = measure_profile(name, rules if name == "pico" else board_rules, levels, args.firmware,
                                lambda s: print(s, flush=True), kind)
            if r is not None:
                results.append(r)
    if not results:
        print("no device figures: no firmware (see tests/device/README.md)")
        return 0
    report(results)
    print()
    missed = check_budgets(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
