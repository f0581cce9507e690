"""The web page in a real browser: the site built by tools/web.py (with the
CircuitPython firmware found for --firmware / JARMO_FIRMWARE / the pinned stock firmware),
served on localhost, and Debian's Chromium driven by Playwright.

Chromium is /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it),
or JARMO_CHROMIUM. Without it (or without Playwright) the browser tests skip,
except in CI (CI=true), where they fail. Each test gets a new browser context:
a fresh profile, nothing kept from another test. Screenshots go to
build/screenshots/ (SHOTS), with figures.json: the figures the tests measured.

Every browser test runs at a desktop's 1280x900 and at a phone's 390x844 (a
touch screen, two device pixels to a CSS pixel): what works at one size has
broken at the other (a list cut off beside the board, points too small for a
finger). JARMO_WEB_VIEWPORT=desktop or =phone runs one of them only.
"""

import functools
import http.server
import json
import os
import shutil
import tempfile
import threading

import pytest

from tests import needs
from tools import web

CHROMIUM = os.environ.get("JARMO_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = os.path.join(web.ROOT, "build", "screenshots")
SIZES = {"desktop": dict(viewport={"width": 1280, "height": 900}),
         "phone": dict(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                       is_mobile=True, has_touch=True)}


def viewports():
    """The sizes to test at: JARMO_WEB_VIEWPORT's (desktop, phone), else both."""
    chosen = os.environ.get("JARMO_WEB_VIEWPORT", "").strip()
    if not chosen:
        return sorted(SIZES)
    if chosen not in SIZES:
        raise pytest.UsageError("JARMO_WEB_VIEWPORT=%s: expected one of %s" % (chosen, ", ".join(sorted(SIZES))))
    return [chosen]


def _unavailable(why):
    needs.missing(why)


@pytest.fixture(scope="session")
def site(request):
    """(folder, url, config) of the built site, served until the session ends.
    (A folder of its own: pytest's basetemp keeps only its last three runs, and
    other runs on the machine can remove it from under a long session.)"""
    folder = tempfile.mkdtemp(prefix="jarmo-site-")
    request.addfinalizer(lambda: shutil.rmtree(folder, ignore_errors=True))
    web.build(folder, request.config.getoption("--firmware"), log=lambda s: None)
    handler = functools.partial(web.Handler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with open(os.path.join(folder, "index.html")) as f:
        page = f.read()
    start = page.index('id="config">') + len('id="config">')
    config = json.loads(page[start:page.index("</script>", start)])
    yield folder, "http://127.0.0.1:%d/" % server.server_address[1], config
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        _unavailable("no Chromium at %s (apt-get install chromium, or JARMO_CHROMIUM)" % CHROMIUM)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (requirements.txt)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(params=viewports())
def page(request, browser):
    """A page in a new context at one of the sizes (its name: page.size)."""
    context = browser.new_context(**SIZES[request.param])
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: print("page console:", m.type, m.text[:500]) if m.type in ("error", "warning") else None)
    p.errors = errors
    p.size = request.param
    yield p
    context.close()
    assert not errors, errors


def shot(page, name):
    size = getattr(page, "size", None)
    if size and not name.endswith(size):
        name += "-" + size                  # (each size's picture kept)
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, name + ".png")
    page.screenshot(path=path, full_page=True)
    return path


def record(**figures):
    """Add figures to build/screenshots/figures.json (for the report)."""
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, "figures.json")
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        data = {}
    data.update(figures)
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    print("figures", figures)
