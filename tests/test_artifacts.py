"""tools/artifacts.py and firmware/artifacts.json: every outside file named,
pinned, fetched into the cache over the real download path, checked; a
missing or corrupt download says so in one line and leaves nothing behind;
no absolute path of one machine in the tracked files."""

import hashlib
import http.server
import json
import os
import re
import subprocess
import sys
import threading

import pytest

from tests import needs
from tools import artifacts, firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pytestmark = pytest.mark.cpython_only


# ---------------------------------------------------------------------------- a mirror on loopback

class Mirror:
    """A folder served over HTTP on 127.0.0.1 (a thread); counts the requests
    per path. cut: {path: bytes to send before closing the connection early}."""

    def __init__(self, folder):
        self.folder = str(folder)
        self.requests = []
        self.cut = {}
        mirror = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=mirror.folder, **kwargs)

            def log_message(self, *args):
                pass

            def do_GET(self):
                mirror.requests.append(self.path)
                if self.path in mirror.cut:
                    data = open(os.path.join(mirror.folder, self.path.lstrip("/")), "rb").read()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data[:mirror.cut[self.path]])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                super().do_GET()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def mirror(tmp_path):
    folder = tmp_path / "mirror"
    folder.mkdir(exist_ok=True)
    served = Mirror(folder)
    yield served
    served.close()


def uf2(payload):
    """A UF2 file whose blocks carry payload (256 bytes a block)."""
    out = bytearray()
    chunks = [payload[i:i + 256] for i in range(0, len(payload), 256)] or [b""]
    for n, chunk in enumerate(chunks):
        block = bytearray(512)
        block[:8] = artifacts.UF2_MAGIC
        block[12:16] = (0x10000000 + 256 * n).to_bytes(4, "little")
        block[16:20] = len(chunk).to_bytes(4, "little")
        block[32:32 + len(chunk)] = chunk
        block[508:512] = b"\x30\x6f\xb1\x0a"
        out += block
    return bytes(out)


@pytest.fixture
def pinned(tmp_path, monkeypatch):
    """A list of two small artifacts (a plain file, a UF2), its cache empty;
    returns {name: the pinned bytes} and writes them into tmp_path/mirror."""
    files = {"tool": b"#!/bin/sh\necho tool 1.0\n" * 3000,
             "stock-test_board": uf2(b"x" * 300 + b"1.2.3-test\0Test Board with rp2040\0" + b"y" * 900)}
    listing = {"artifacts": {}, "installed": {}, "release": {"version": "1", "page": "p"}}
    (tmp_path / "mirror" / "sub").mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        rel = "sub/%s.bin" % name
        (tmp_path / "mirror" / rel).write_bytes(data)
        item = {"what": name, "version": "1.0", "source": "a test", "file": name + "-1.0", "mirror": rel,
                "url": None, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
        if name.startswith("stock-"):
            item["uf2"] = {"board_id": "test_board", "version": "1.2.3-test", "board": "Test Board with rp2040"}
            item["build"] = "stock-firmware"
        else:
            item["executable"] = True
        listing["artifacts"][name] = item
    path = tmp_path / "artifacts.json"
    path.write_text(json.dumps(listing))
    monkeypatch.setattr(artifacts, "LIST", str(path))
    monkeypatch.setattr(artifacts, "load", lambda path=str(path): json.load(open(path)))
    monkeypatch.setattr(artifacts, "_known", {})
    monkeypatch.setenv("JARMO_CACHE", str(tmp_path / "cache"))
    return files


def _cache_files(tmp_path):
    return sorted(p.name for p in (tmp_path / "cache").rglob("*") if p.is_file() and not p.name.endswith(".lock"))


def test_a_file_comes_from_an_http_mirror_checked_into_the_cache(pinned, mirror, monkeypatch, tmp_path):
    monkeypatch.setenv("JARMO_MIRROR", mirror.url)
    said = []
    got = artifacts.path("tool", log=lambda line, progress=False: said.append(line), build=False)
    assert got == artifacts.cached_path("tool") and open(got, "rb").read() == pinned["tool"]
    assert os.access(got, os.X_OK)                              # an executable stays one
    assert mirror.requests == ["/sub/tool.bin"]
    assert said[0].startswith("fetching tool 1.0 (") and mirror.url in said[0]   # the progress line
    monkeypatch.setattr(artifacts, "_known", {})
    assert artifacts.path("tool", build=False) == got and mirror.requests == ["/sub/tool.bin"]   # cached


def test_a_folder_mirror_and_a_uf2_checked_by_its_strings(pinned, monkeypatch, tmp_path):
    monkeypatch.setenv("JARMO_MIRROR", str(tmp_path / "mirror"))
    got = artifacts.path("stock-test_board", log=lambda *a, **k: None, build=False)
    assert open(got, "rb").read() == pinned["stock-test_board"]


@pytest.mark.parametrize("damage", ["flipped", "truncated", "missing", "cut", "empty"])
def test_a_bad_download_is_one_line_and_leaves_nothing(pinned, mirror, monkeypatch, tmp_path, damage):
    path = tmp_path / "mirror" / "sub" / "tool.bin"
    data = pinned["tool"]
    if damage == "flipped":
        path.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    elif damage == "truncated":
        path.write_bytes(data[:1000])
    elif damage == "missing":
        path.unlink()
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        mirror.cut["/sub/tool.bin"] = 5000             # the connection closes after 5,000 bytes
    monkeypatch.setenv("JARMO_MIRROR", mirror.url)
    with pytest.raises(artifacts.ArtifactError) as err:
        artifacts.path("tool", log=lambda *a, **k: None, build=False)
    message = str(err.value)
    assert "\n" not in message and message.startswith("tool: ") and mirror.url in message
    assert {"flipped": "not the one pinned", "truncated": "not the one pinned", "empty": "not the one pinned",
            "missing": "HTTP 404", "cut": "broke off"}[damage] in message, message
    assert _cache_files(tmp_path) == []                  # no half file, no temporary file


def test_the_command_says_one_line_and_fails(pinned, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("JARMO_MIRROR", str(tmp_path / "nowhere"))
    assert artifacts.main(["tool", "--no-build"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("fetch: tool: ") and "nowhere" in err[0]


def test_a_wrong_uf2_is_refused_even_with_the_right_name(pinned, monkeypatch, tmp_path):
    other = uf2(b"1.2.3-test\0Other Board with rp2040\0")
    (tmp_path / "mirror" / "sub" / "stock-test_board.bin").write_bytes(other)
    item = artifacts.entry("stock-test_board")
    cached = tmp_path / "cache" / "artifacts" / "stock-test_board" / item["file"]
    cached.parent.mkdir(parents=True)
    cached.write_bytes(other)                            # a wrong file in the cache is not taken either
    monkeypatch.setenv("JARMO_MIRROR", str(tmp_path / "mirror"))
    with pytest.raises(artifacts.ArtifactError, match="not the one pinned"):
        artifacts.path("stock-test_board", log=lambda *a, **k: None, build=False)
    assert artifacts.problem("stock-test_board", str(cached), built=True).startswith("it is not CircuitPython")


def test_a_killed_downloads_leftover_is_removed_at_the_next_fetch(pinned, mirror, monkeypatch, tmp_path):
    folder = tmp_path / "cache" / "artifacts" / "tool"
    folder.mkdir(parents=True)
    (folder / ".part-x1y2z3").write_bytes(b"half a file")     # a fetch killed mid-way left this
    monkeypatch.setenv("JARMO_MIRROR", mirror.url)
    artifacts.path("tool", log=lambda *a, **k: None, build=False)
    assert _cache_files(tmp_path) == [artifacts.entry("tool")["file"]]


def test_a_damaged_cached_copy_is_fetched_again(pinned, mirror, monkeypatch):
    monkeypatch.setenv("JARMO_MIRROR", mirror.url)
    got = artifacts.path("tool", log=lambda *a, **k: None, build=False)
    with open(got, "r+b") as f:
        f.write(b"XX")
    monkeypatch.setattr(artifacts, "_known", {})
    assert artifacts.path("tool", log=lambda *a, **k: None, build=False) == got
    assert open(got, "rb").read() == pinned["tool"] and len(mirror.requests) == 2


def test_parallel_processes_share_one_download(pinned, mirror, tmp_path):
    code = ("import json, sys; from tools import artifacts; "
            "artifacts.LIST = sys.argv[1]; artifacts.load = lambda p=sys.argv[1]: json.load(open(p)); "
            "print(artifacts.path('tool', build=False))")
    env = dict(os.environ, JARMO_MIRROR=mirror.url, JARMO_CACHE=str(tmp_path / "cache"), PYTHONPATH=ROOT)
    procs = [subprocess.Popen([sys.executable, "-c", code, artifacts.LIST], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs) and len(set(outs)) == 1
    assert mirror.requests == ["/sub/tool.bin"]


def test_without_a_mirror_or_url_it_is_built_from_source(pinned, monkeypatch, tmp_path):
    # the build is tools/firmware.py's; here it makes the file, which is then held
    # to its strings (a local build is not the published bytes)
    made = tmp_path / "made.uf2"
    made.write_bytes(uf2(b"1.2.3-test\0Test Board with rp2040\0 built here"))
    monkeypatch.delenv("JARMO_MIRROR", raising=False)
    monkeypatch.setattr(firmware, "make_artifact", lambda how, item, log: str(made))
    got = artifacts.path("stock-test_board", log=lambda *a, **k: None)
    assert open(got, "rb").read() == made.read_bytes()
    monkeypatch.setattr(artifacts, "_known", {})
    assert artifacts.path("stock-test_board", log=lambda *a, **k: None, build=False) == got   # kept


# ---------------------------------------------------------------------------- the real list

def test_every_pinned_file_names_its_source_version_and_checksum():
    data = artifacts.load()
    for name, item in data["artifacts"].items():
        assert item["what"] and item["version"] and item["source"], name
        assert re.fullmatch(r"[0-9a-f]{64}", item["sha256"]) and item["size"] > 0, name
        assert item["url"] or item.get("build") or item.get("git"), "%s: no way to get it" % name
    for board in ("raspberry_pi_pico", "adafruit_qtpy_rp2040", "adafruit_feather_rp2040"):
        stock = data["artifacts"][artifacts.stock_name(board)]
        assert stock["uf2"]["board_id"] == board
        assert stock["version"].startswith(firmware.CP_BASE_VERSION) and stock["version"] == firmware.STOCK_VERSION
    pin = data["artifacts"][firmware.SOURCE]["git"]
    assert re.fullmatch(r"[0-9a-f]{40}", pin["commit"]) and firmware.CP_BASE_VERSION.endswith(pin["commit"][:10])
    for installed in data["installed"].values():
        assert os.path.exists(os.path.join(ROOT, installed["pinned_in"].split()[0])), installed
    assert set(firmware.APT_PACKAGES) >= {"gcc-arm-none-eabi", "libnewlib-arm-none-eabi"}


def test_the_pinned_files_are_the_mirrors(tmp_path, monkeypatch):
    """Every pinned file, fetched from the mirror this run is given (CI serves its offline
    copies over HTTP) into an empty cache: the sha256s and the UF2s' strings hold."""
    if not os.environ.get(artifacts.MIRROR_ENV):
        needs.missing("no mirror given (JARMO_MIRROR=DIR or URL)")
    monkeypatch.setenv("JARMO_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(artifacts, "_known", {})
    for name in artifacts.artifacts():
        got = artifacts.path(name, log=lambda *a, **k: None, build=False)
        assert artifacts.problem(name, got) is None


def test_the_source_archive_already_holds_the_upstream_fixes(tmp_path, monkeypatch):
    """UPSTREAM_FIXES describe the archive: a git checkout with them applied builds
    the same sources (each fix's text is in the archive's file)."""
    if not os.environ.get(artifacts.MIRROR_ENV) and not os.path.isfile(artifacts.cached_path(firmware.SOURCE)):
        needs.missing("the CircuitPython source archive is not cached and no mirror is given")
    archive = artifacts.path(firmware.SOURCE, log=lambda *a, **k: None, build=False)
    members = [rel for rel, _old, _new in firmware.UPSTREAM_FIXES]
    out = subprocess.run(["tar", "-xJf", archive, "-C", str(tmp_path), "--wildcards"]
                         + ["*/" + m for m in members], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    top = next(tmp_path.iterdir())
    for rel, _old, new in firmware.UPSTREAM_FIXES:
        assert new in (top / rel).read_text(), rel


def test_a_git_checkout_takes_each_repository_at_its_commit(tmp_path):
    """clone_source, the way to the source without a mirror: the top repository
    and a submodule path, each at its pinned commit (local repositories stand in
    for GitHub), later commits left out."""
    def repo(name, files):
        path = tmp_path / name
        subprocess.run(["git", "init", "-q", str(path)], check=True)
        commits = []
        for text in files:
            (path / "f.txt").write_text(text)
            subprocess.run(["git", "-C", str(path), "add", "."], check=True)
            subprocess.run(["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t", "commit",
                            "-q", "-m", text], check=True)
            commits.append(subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], check=True,
                                          capture_output=True, text=True).stdout.strip())
        subprocess.run(["git", "-C", str(path), "config", "uploadpack.allowAnySHA1InWant", "true"], check=True)
        return "file://" + str(path), commits
    top_url, top = repo("top", ["top 1", "top 2"])
    sub_url, sub = repo("sub", ["sub 1", "sub 2"])
    src = tmp_path / "src"
    firmware.clone_source(str(src), {"url": top_url, "commit": top[0],
                                     "submodules": [["lib/sub", sub_url, sub[0]]]}, log=lambda s: None)
    assert (src / "f.txt").read_text() == "top 1" and (src / "lib" / "sub" / "f.txt").read_text() == "sub 1"


# ---------------------------------------------------------------------------- no machine's paths

def test_no_tracked_file_names_an_absolute_path_of_one_machine():
    """A person who clones the repository has none of this machine's folders: no
    tracked file names one (the checkout's parent, the home folder, or the usual
    roots of a user's or a workshop's files)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    names = [n for n in files.decode().split("\0") if n]
    here = [re.escape(p.rstrip("/") + "/") for p in (os.path.dirname(ROOT), os.path.expanduser("~"))
            if p.rstrip("/") not in ("", "/")]
    pattern = re.compile("|".join(here + [r"(?<![\w.~$-])/(?:work|root|home/\w+|Users/\w+)/"]))
    hits = []
    for name in names:
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path) or os.path.getsize(path) > 2_000_000:
            continue
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        hits += ["%s:%d: %s" % (name, text.count("\n", 0, m.start()) + 1, m.group(0))
                 for m in pattern.finditer(text)]
    assert hits == []


def test_the_docs_name_the_firmware_every_figure_rests_on():
    """docs/BENCHMARKS.md names both kinds' version strings as the build makes them;
    the README names the release a maker flashes, with its download page."""
    with open(os.path.join(ROOT, "docs", "BENCHMARKS.md")) as f:
        bench = f.read()
    assert "`%s`" % firmware.STOCK_VERSION in bench and "`%s`" % firmware.CP_VERSION in bench
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    release = artifacts.load()["release"]
    assert "**%s**" % release["version"] in readme
    assert release["page"].format(board="raspberry_pi_pico") in readme
    assert firmware.STOCK_VERSION in readme
