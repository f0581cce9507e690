#!/usr/bin/env python3
"""The handheld on a web page: `python3 run.py web` serves it on localhost,
`python3 run.py web --build DIR` writes it as a static site.

    python3 run.py web [--port 8020] [--host 127.0.0.1] [--firmware PATH] [--no-firmware]
    python3 run.py web --build DIR [--firmware PATH] [--no-firmware] [--mpy-cross PATH]

The site is made from the project's own files, nothing copied by hand:

  index.html        web/index.html with the board (tools/overlay.py's drawing of
                    the 38 lines, from jarmo/board.py), the LED legend (the
                    App's, jarmo/app_legend.py) and the rules (docs/RULES.md)
  *.js, *.css       web/: the page, fast mode (fast.js), device mode
                    (device.js and its Web Worker, device-worker.js)
  py/files.json     the Python that fast mode runs in MicroPython WebAssembly:
                    every .py under jarmo/ (the tree walked), hardware/leds.py
                    and profiles.py, host/colour.py, view.py and legend.py,
                    adafruit_ticks, web/jarmo_page.py
  micropython/      the pinned @micropython/micropython-webassembly-pyscript
  emulator/         tests/device/'s emulator models, the very modules the Node
                    harness runs (not its Node entry points), and the bootrom
  rp2040js/         the pinned rp2040js, as its ES modules
  drives.json       each board profile's CIRCUITPY drive as `run.py deploy
                    --profile P` writes it (compiled with CircuitPython's
                    mpy-cross when there is one), files shared between profiles once
  firmware/         the CircuitPython UF2 of each profile's board (--firmware,
                    JARMO_FIRMWARE, else the pinned stock firmware: fetched or
                    built on first use, firmware/artifacts.json); without one,
                    device mode says where to get it

The page works from any static host (relative URLs only; no server code).
Served, the site lives in a temporary folder that goes when the server
stops (Ctrl-C, SIGTERM, SIGHUP); the port is taken before the site is built,
so a port in use is said at once, in one line.
"""

import argparse
import base64
import errno
import functools
import hashlib
import html
import http.server
import json
import os
import re
import shutil
import signal
import socket
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

WEB = os.path.join(ROOT, "web")
DEVICE = os.path.join(ROOT, "tests", "device")
NODE_MODULES = os.path.join(ROOT, "node_modules")
MICROPYTHON = os.path.join(NODE_MODULES, "@micropython", "micropython-webassembly-pyscript")
RP2040JS = os.path.join(NODE_MODULES, "rp2040js", "dist", "esm")
# tests/device/'s Node entry points and Node-only helpers; every other .mjs is a model the page uses
NODE_ONLY = ("emulator.mjs", "selftest.mjs", "fastcore_check.mjs", "files.mjs", "v8tuning.mjs")
# what fast mode runs besides jarmo/ (walked whole): the device's LED drawing
# and profiles, the simulator's colours and words for the LEDs, the page's own module
EXTRA_PYTHON = (("hardware/__init__.py", "hardware/__init__.py"),
                ("hardware/leds.py", "hardware/leds.py"),
                ("hardware/profiles.py", "hardware/profiles.py"),
                ("host/__init__.py", "host/__init__.py"),
                ("host/colour.py", "host/colour.py"),
                ("host/view.py", "host/view.py"),
                ("host/legend.py", "host/legend.py"),
                ("web/jarmo_page.py", "jarmo_page.py"))
STATIC = (".html", ".js", ".css")
CASE_PICTURE = os.path.join(ROOT, "docs", "kit", "handheld", "render.png")
PAGE_BUDGET = 3 * 1024 * 1024       # bytes of the site without the firmware


def _read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


# ---------------------------------------------------------------- the Python of fast mode

def python_files():
    """{path in MicroPython's file system: source text} of everything fast mode imports."""
    out = {}
    for here, dirs, files in os.walk(os.path.join(ROOT, "jarmo")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(here, name)
                out[os.path.relpath(path, ROOT).replace(os.sep, "/")] = _read(path)
    for src, dst in EXTRA_PYTHON:
        out[dst] = _read(os.path.join(ROOT, src))
    import adafruit_ticks
    out["adafruit_ticks.py"] = _read(adafruit_ticks.__file__)
    return out


# ---------------------------------------------------------------- device mode

def _stage():
    """tests/device/stage.py: tools/deploy.py and where CircuitPython's mpy-cross is."""
    from tests.device import stage
    return stage


def drives(mpy_cross=None, log=print):
    """Each board profile's drive as `run.py deploy --profile P` writes it:
    {"blobs": {sha1: base64}, "profiles": {profile: {path: sha1}}}."""
    stage = _stage()
    from hardware import profiles
    path = mpy_cross or stage.mpy_cross_path()
    compiler = stage.deploy.find_mpy_cross(path) if path else None
    blobs = {}
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(profiles.PROFILES):
            if name == "host":
                continue
            folder = os.path.join(tmp, name)
            os.makedirs(folder)
            stage.deploy.deploy(folder, name, mpy_cross=compiler, force=True, log=lambda s: None)
            files = {}
            for here, dirs, names in os.walk(folder):
                dirs.sort()
                for n in sorted(names):
                    p = os.path.join(here, n)
                    data = _read(p, "rb")
                    h = hashlib.sha1(data).hexdigest()
                    blobs[h] = base64.b64encode(data).decode()
                    files[os.path.relpath(p, folder).replace(os.sep, "/")] = h
            out[name] = files
    log("drives: %d profiles, %s" % (len(out), compiler.banner if compiler else ".py sources (no mpy-cross)"))
    return {"blobs": blobs, "profiles": out}


def firmware_files(firmware=None):
    """{board id: UF2 path} of every profile's board whose firmware is found."""
    from hardware import profiles
    from tests.device.device import firmware_path
    out = {}
    for prof in profiles.PROFILES.values():
        board = prof["board_id"]
        if board and board not in out:
            path = firmware_path(board, firmware)
            if path:
                out[board] = path
    return out


def page_config(boards):
    """What the page's scripts need to know: the profiles and which boards have firmware."""
    from hardware import profiles
    from jarmo.app_buttons import NAMES
    out = {"profiles": {}, "firmware": sorted(boards), "buttons": list(NAMES)}
    for name, p in profiles.PROFILES.items():
        out["profiles"][name] = {
            "board": p["board"], "board_id": p["board_id"], "pixel_pin": p["pixel_pin"],
            "display": p["display"], "tabletop": p["tabletop"], "long_ms": p["long_ms"],
            "keys": [list(k) for k in p["keys"]],
        }
    # each row of the LED legend (App.legend()): the letter of the piece its colour is, as the
    # page's board and the terminal simulator draw it (host/legend.py: A archer, G guard...;
    # South upper case), else ""
    from host.legend import PIECE_LETTERS
    from jarmo.app import App
    from jarmo.app_view import PIECE
    out["legend_letters"] = []
    for _meaning, colour in App.legend():
        k = PIECE.index(colour) if colour in PIECE else -1     # kind + 5 * side
        letter = PIECE_LETTERS["amgAG"[k % 5]] if k >= 0 else ""
        out["legend_letters"].append(letter if k < 5 else letter.lower())
    return out


# ---------------------------------------------------------------- index.html parts

PAGE_PITCH = 3.5    # the page's drawing units between LEDs (the page scales the picture)


def board_svg():
    """The printed overlay (tools/overlay.py) for the page to light, with the
    points named as a chess board is: the files a-e under rank 1, the ranks
    1-5 left of file a, where no line runs (a name beside each point would
    sit on the lines that meet there)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import overlay
    finally:
        sys.path.pop(0)
    from jarmo.board import NAMES
    pitch = PAGE_PITCH
    margin = pitch * 1.2                            # as overlay_svg draws it
    hole = pitch * 0.3
    size = pitch * 0.26
    svg = overlay.overlay_svg(pitch, names=False)
    svg = svg.split("?>", 1)[1].strip()            # no XML declaration inside HTML
    # the board only, not the scale bar under it, and sized by the page
    svg = re.sub(r' width="[^"]*mm" height="[^"]*mm" viewBox="0 0 ([\d.]+) [\d.]+"',
                 r' viewBox="0 0 \1 \1"', svg, count=1)
    coords = ['<g class="coords" font-family="sans-serif" font-size="%.3f" text-anchor="middle">' % size]
    for p in range(5):                              # a1..e1: the files
        x, y = overlay._xy(p, pitch, margin)
        coords.append('<text class="file" x="%.3f" y="%.3f">%s</text>'
                      % (x, y + hole + 0.25 + 0.75 * size, NAMES[p][0]))
    for p in range(0, 25, 5):                       # a1..a5: the ranks
        x, y = overlay._xy(p, pitch, margin)
        coords.append('<text class="rank" x="%.3f" y="%.3f">%s</text>'
                      % (x - hole - 0.35 - 0.3 * size, y + 0.36 * size, NAMES[p][1]))
    coords.append("</g>")
    for p in range(25):                             # each LED named for a screen reader and a tap
        svg = svg.replace('<circle class="led" data-point="%s"' % NAMES[p],
                          '<circle class="led" data-point="%s" role="button" aria-label="%s"'
                          % (NAMES[p], NAMES[p]), 1)
    svg = svg.replace("</svg>", "\n".join(coords) + "\n</svg>", 1)
    return svg.replace("<svg ", '<svg id="board" role="group" aria-label="the board and its 25 LEDs" ', 1)


def legend_html():
    """The App's LED legend (jarmo/app_legend.py), each colour as the eye sees it."""
    from host.colour import perceived
    from jarmo.app import App
    rows = []
    for meaning, colour in App.legend():
        rows.append('<li><span class="swatch" style="background:#%06x"></span>%s</li>'
                    % (perceived(colour), html.escape(meaning)))
    return '<ul class="legend">\n%s\n</ul>' % "\n".join(rows)


def _inline(text):
    """Markdown's inline marks: code, bold, emphasis, links (docs links go to nothing local)."""
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append("<code>%s</code>" % html.escape(part[1:-1]))
            continue
        s = html.escape(part, quote=False)
        s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
        s = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", s)
        s = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", _link, s)
        out.append(s)
    return "".join(out)


def _link(m):
    target = m.group(2)
    if re.match(r"https?://", target):
        return '<a href="%s">%s</a>' % (target, m.group(1))
    return m.group(1)               # a file of the repository: not on the site


def markdown_html(text):
    """The Markdown that docs/RULES.md uses (headings, paragraphs, lists,
    tables, code blocks, inline marks) as HTML."""
    out = []
    lines = text.splitlines()
    i = 0
    para = []

    def flush():
        if para:
            out.append("<p>%s</p>" % _inline(" ".join(para)))
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            flush()
            i += 1
        elif stripped.startswith("```"):
            flush()
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(lines[i])
                i += 1
            out.append("<pre><code>%s</code></pre>" % html.escape("\n".join(block)))
            i += 1
        elif re.match(r"#{1,6} ", stripped):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            title = stripped[level:].strip()
            anchor = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            out.append('<h%d id="rules-%s">%s</h%d>' % (level + 1, anchor, _inline(title), level + 1))
            i += 1
        elif stripped.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.match(r"^:?-+:?$", c) for c in cells):
                    rows.append(cells)
                i += 1
            head, body = rows[0], rows[1:]
            out.append("<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>" % (
                "".join("<th>%s</th>" % _inline(c) for c in head),
                "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % _inline(c) for c in r) for r in body)))
        elif re.match(r"(- |\d+\. )", stripped):
            flush()
            tag = "ul" if stripped.startswith("- ") else "ol"
            items = []
            while i < len(lines) and lines[i].strip():
                s = lines[i].strip()
                m = re.match(r"(- |\d+\. )(.*)", s)
                if m and not lines[i].startswith("   "):
                    items.append(m.group(2))
                else:
                    items[-1] += " " + s
                i += 1
            out.append("<%s>%s</%s>" % (tag, "".join("<li>%s</li>" % _inline(t) for t in items), tag))
        else:
            para.append(stripped)
            i += 1
    flush()
    return "\n".join(out)


def index_html(config):
    template = _read(os.path.join(WEB, "index.html"))
    parts = {
        "<!--BOARD-->": board_svg(),
        "<!--LEGEND-->": legend_html(),
        "<!--RULES-->": markdown_html(_read(os.path.join(ROOT, "docs", "RULES.md"))),
        "<!--CONFIG-->": json.dumps(config, sort_keys=True).replace("</", "<\\/"),
    }
    for mark, text in parts.items():
        if mark not in template:
            raise SystemExit("web/index.html has no %s" % mark)
        template = template.replace(mark, text)
    return template


# ---------------------------------------------------------------- the site

def _copy_tree(src, dst, keep):
    n = 0
    for here, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if keep(name):
                path = os.path.join(here, name)
                target = os.path.join(dst, os.path.relpath(path, src))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(path, target)
                n += 1
    return n


def site_size(out, without=("firmware",)):
    """Bytes of the site, without the top-level folders named (the firmware)."""
    total = 0
    for here, dirs, files in os.walk(out):
        if here == out:
            dirs[:] = [d for d in dirs if d not in without]
        total += sum(os.path.getsize(os.path.join(here, f)) for f in files)
    return total


def build(out, firmware=None, with_firmware=True, mpy_cross=None, log=print):
    """Write the site into out (made or emptied); its size without the firmware."""
    for path in (MICROPYTHON, RP2040JS):
        if not os.path.isdir(path):
            raise SystemExit("%s is missing: run `npm ci` (python3 run.py web does)" % path)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    boards = firmware_files(firmware) if with_firmware else {}
    for board, path in boards.items():
        os.makedirs(os.path.join(out, "firmware"), exist_ok=True)
        shutil.copyfile(path, os.path.join(out, "firmware", board + ".uf2"))
    for name in sorted(os.listdir(WEB)):
        if name.endswith(STATIC) and name != "index.html":
            shutil.copyfile(os.path.join(WEB, name), os.path.join(out, name))
    _write(os.path.join(out, "index.html"), index_html(page_config(boards)))
    # the handheld's printed case (python3 run.py kit), shown under "Build one"
    shutil.copyfile(CASE_PICTURE, os.path.join(out, "handheld.png"))
    _write(os.path.join(out, "py", "files.json"), json.dumps(python_files(), sort_keys=True))
    _copy_tree(MICROPYTHON, os.path.join(out, "micropython"), lambda n: n.endswith((".mjs", ".wasm")))
    _copy_tree(DEVICE, os.path.join(out, "emulator"),
               lambda n: (n.endswith(".mjs") and n not in NODE_ONLY) or n == "bootrom-b1.b64")
    _copy_tree(RP2040JS, os.path.join(out, "rp2040js"),
               lambda n: n.endswith(".js") and n != "gdb-tcp-server.js")
    _write(os.path.join(out, "drives.json"), json.dumps(drives(mpy_cross, log), sort_keys=True))
    size = site_size(out)
    log("web: %s, %.2f MiB without the firmware (budget %d MiB); firmware for %s" % (
        out, size / 2**20, PAGE_BUDGET // 2**20, ", ".join(sorted(boards)) or "no board"))
    return size


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript",
                             ".wasm": "application/wasm", ".json": "application/json"})

    def log_message(self, fmt, *args):
        pass


COMMAND = "python3 run.py web"      # how a user starts it: the name in its messages


class ServeError(Exception):
    """The server cannot listen where it was asked: one line that says why."""


def listen(folder, host="127.0.0.1", port=8020):
    """A server for folder, listening on host:port (not yet serving); a
    ServeError naming the real problem (a port in use, an address that is
    not this machine's) instead of the socket's traceback."""
    handler = functools.partial(Handler, directory=folder)
    where = "%s port %d" % (host, port)
    try:
        return http.server.ThreadingHTTPServer((host, port), handler)
    except socket.gaierror as err:
        raise ServeError("cannot serve on %s: no such address (%s); --host takes an address "
                         "of this machine (default 127.0.0.1)" % (host, err.strerror)) from err
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            raise ServeError("%s is in use (another `%s`?): stop that, or choose another port "
                             "with --port N (0: any free one)" % (where, COMMAND)) from err
        if err.errno == errno.EADDRNOTAVAIL:
            raise ServeError("cannot serve on %s: not an address of this machine; --host takes "
                             "one (default 127.0.0.1)" % host) from err
        if err.errno == errno.EACCES:
            raise ServeError("cannot serve on %s: ports below 1024 need more rights; choose "
                             "another with --port N (0: any free one)" % where) from err
        raise ServeError("cannot serve on %s: %s" % (where, err.strerror or err)) from err


def serve(folder, host="127.0.0.1", port=8020, ready=None, server=None):
    """Serve folder until interrupted; ready(url) once it listens. server: a
    listen() of the caller's (who closes it), else one is made here."""
    if server is None:
        with listen(folder, host, port) as server:
            return serve(folder, host, port, ready, server)
    url = "http://%s:%d/" % (host if ":" not in host else "[%s]" % host, server.server_address[1])
    (ready or (lambda u: print("Jarmo in the browser: %s  (Ctrl-C stops)" % u, flush=True)))(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def port_number(text):
    """--port's value: a whole number from 0 to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("must be a port number from 0 to 65535 (0: any free "
                                         "one), not %r" % text)
    return port


def _stop(signum, frame):
    # SIGTERM or SIGHUP (`kill`, a closed terminal): leave as Ctrl-C does,
    # through the `with` blocks, so that the temporary site is removed
    raise SystemExit(128 + signum)


def main(argv=None):
    ap = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", metavar="DIR", help="write the static site into DIR instead of serving it")
    ap.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    ap.add_argument("--port", type=port_number, default=8020,
                    help="port to serve on (default 8020; 0: any free one)")
    ap.add_argument("--firmware", default=None, help="CircuitPython UF2, or a folder of them, for device mode")
    ap.add_argument("--no-firmware", action="store_true", help="no device mode firmware on the site")
    ap.add_argument("--mpy-cross", default=None, help="CircuitPython's mpy-cross for the drives")
    args = ap.parse_args(argv)
    if args.build:
        build(args.build, args.firmware, not args.no_firmware, args.mpy_cross)
        return 0
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None:
            signal.signal(signum, _stop)
    with tempfile.TemporaryDirectory(prefix="jarmo-web-") as tmp:
        # listening before the site is built: a port in use is said at once,
        # not after the build
        try:
            server = listen(tmp, args.host, args.port)
        except ServeError as err:
            print("%s: %s" % (COMMAND, err), file=sys.stderr, flush=True)
            return 2
        with server:
            build(tmp, args.firmware, not args.no_firmware, args.mpy_cross)
            return serve(tmp, args.host, args.port, server=server)


if __name__ == "__main__":
    sys.exit(main())
