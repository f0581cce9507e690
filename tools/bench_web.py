#!/usr/bin/env python3
"""How much of a CPU core the web page takes while it waits for the player.

    python3 tools/bench_web.py [--seconds 10] [--settle 8] [--profile feather_oled]

Builds the site (tools/web.py), opens it in Debian's Chromium (Playwright,
as tests/web/ does) at 1280x900 and measures, once the page has settled at
the menu (the player to act, nothing else to do), and in device mode once
more with the board left alone until it sleeps (the page's ?idle=1,2,2:
dim after 1 s, dark after 2, asleep 2 s later):

  - the CPU time every process of this browser used (from /proc: the page
    and its Web Worker, the GPU and browser processes, Playwright's driver),
    as a share of one core over --seconds of wall time;
  - in device mode, the same CPU time per second of emulated time (what it
    costs at real time, should a busy machine slow the emulator down);
  - in device mode, the page's own accounting (web/device-worker.js): the
    share of the wall time the worker spent running the emulator, the share
    of the emulated time the RP2040's core slept (WFI, skipped by the
    emulator), and the emulated speed.

The machine's other load shows in the wall-time shares, not in the CPU time.
Linux only (/proc).
"""

import argparse
import functools
import http.server
import os
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tools import web  # noqa: E402

CHROMIUM = os.environ.get("JARMO_CHROMIUM", "/usr/bin/chromium")
SLEEPS_AFTER_S = 6      # with ?idle=1,2,2: dim, dark, asleep, and a margin (emulated time runs slower at start-up)
TICKS = os.sysconf("SC_CLK_TCK")
# fast mode: the menu's text is up; device mode: code.py runs and lights an LED or the OLED
SETTLED = """() => window.jarmo && (jarmo.modeName === 'fast' ? jarmo.mode.last.text.length
  : jarmo.mode.ready && (jarmo.leds.some((c) => c) || (jarmo.picture || []).some((b) => b)))"""


def _children():
    kids = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(name))
    return kids


def process_tree(root):
    kids = _children()
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out


def cpu_seconds(pids):
    total = 0
    for p in pids:
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])      # utime + stime
        except (OSError, ValueError, IndexError):
            pass
    return total / TICKS


def browser_pids():
    """This run's browser: every process under this one (Playwright's driver, Chromium and its
    renderer, GPU and utility processes), not this Python itself."""
    return set(process_tree(os.getpid())) - {os.getpid()}


def measure(url, mode, profile, seconds, settle, log=print, query="", label="at the menu"):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url + "?mode=%s&profile=%s&seed=1%s" % (mode, profile, query))
        page.wait_for_function(SETTLED, timeout=300000)
        time.sleep(settle)
        pids = browser_pids()
        c0, w0 = cpu_seconds(pids), time.time()
        loads0 = len(page.evaluate("jarmo.mode.loads || []"))
        e0 = page.evaluate("jarmo.mode.emulatedS || 0")
        time.sleep(seconds)
        c1, w1 = cpu_seconds(pids), time.time()
        row = {"mode": mode, "profile": profile, "state": label, "cpu": (c1 - c0) / (w1 - w0)}
        if mode == "device":
            e1 = page.evaluate("jarmo.mode.emulatedS")
            row["cpu_at_real_time"] = (c1 - c0) / (e1 - e0) if e1 > e0 else None
            loads = page.evaluate("jarmo.mode.loads")[loads0:]
            row["worker_busy"] = sum(x[1] for x in loads) / max(len(loads), 1)
            row["core_asleep"] = sum(x[2] for x in loads) / max(len(loads), 1)
            row["speed"] = page.evaluate("jarmo.speed")
        browser.close()
    log("%-6s %-13s %-12s browser CPU %5.1f %% of a core%s" % (
        mode, profile, label, 100 * row["cpu"],
        "" if mode == "fast" else " (%.1f %% a second of emulated time); worker busy %.1f %% of the wall time, "
        "core asleep %.1f %%, speed %.2fx" % (100 * row["cpu_at_real_time"], 100 * row["worker_busy"],
                                             100 * row["core_asleep"], row["speed"])))
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 tools/bench_web.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="wall seconds measured (default 10)")
    ap.add_argument("--settle", type=float, default=8.0, help="seconds waited at the menu first (default 8)")
    ap.add_argument("--profile", default="feather_oled", help="device mode's board profile")
    ap.add_argument("--firmware", default=None, help="CircuitPython UF2, or a folder of them")
    args = ap.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        raise SystemExit("no Chromium at %s (apt-get install chromium, or JARMO_CHROMIUM)" % CHROMIUM)
    with tempfile.TemporaryDirectory(prefix="jarmo-site-") as folder:
        web.build(folder, args.firmware, log=lambda s: None)
        handler = functools.partial(web.Handler, directory=folder)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/" % server.server_address[1]
        try:
            print("The page waiting for the player, %g s measured after %g s:" % (
                args.seconds, args.settle))
            rows = [measure(url, "fast", "host", args.seconds, args.settle),
                    measure(url, "device", args.profile, args.seconds, args.settle)]
            # the board left alone until it sleeps: dim after 1 s, dark after 2,
            # asleep 2 s later (a USB host is attached in the page: a light sleep)
            rows.append(measure(url, "device", args.profile, args.seconds, args.settle + SLEEPS_AFTER_S,
                                query="&idle=1,2,2", label="asleep"))
        finally:
            server.shutdown()
            server.server_close()
    return rows


if __name__ == "__main__":
    main()
