"""The web page in a real browser: the site built by tools/web.py (with the
CircuitPython firmware found for --firmware / JARMO_FIRMWARE / the pinned stock firmware),
served on localhost, and Debian's Chromium driven by Playwright.

Chromium is /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it),
or JARMO_CHROMIUM. Without it (or without Playwright) the browser tests skip,
except in CI (CI=true), where they fail. Each test gets a new browser context:
a fresh profile, nothing kept from another test. Screenshots go to
build/screenshots/ (SHOTS), with figures.json: the figures the tests measured.
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


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: print("page console:", m.type, m.text[:500]) if m.type in ("error", "warning") else None)
    p.errors = errors
    yield p
    context.close()
    assert not errors, errors


def shot(page, name):
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
