#!/usr/bin/env python3
"""The files from outside the project: fetched on first use, checked, cached.

    python3 run.py fetch                 every file artifact, into the cache
    python3 run.py fetch mpy-cross       one (names: --list)
    python3 run.py fetch --list          what firmware/artifacts.json pins, and what is cached

firmware/artifacts.json names every outside file the project uses (the
stock CircuitPython UF2s, CircuitPython's mpy-cross, CircuitPython's
source) with its official source, version and checksum, and the things
installed by package managers (the ARM compiler, the pip and npm pins).

A file artifact is looked for, in this order:
- in the cache ($JARMO_CACHE, else $XDG_CACHE_HOME/jarmo, else
  ~/.cache/jarmo: artifacts/NAME/FILE), checked again on each first use
  in a process;
- in the mirror, when JARMO_MIRROR names one: a folder or an http(s)://
  URL that holds each file at its "mirror" path (how a machine without
  the internet gets them: CI serves its offline copies as one);
- at its official "url";
- made from the pinned CircuitPython source (its "build": the stock
  firmware and mpy-cross are built by tools/firmware.py; the source comes
  from its git repositories at the pinned commits).

A download goes to a temporary file beside its place in the cache, is
checked (its sha256; a UF2's version and board strings), and only then
takes its name: a broken or corrupt download leaves nothing behind, and
the error is one line (ArtifactError) that says what was tried. A lock
file per artifact lets parallel test processes share one download.
Standard library only: run.py, the tests and the tools all use it.
"""

import fcntl
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "firmware", "artifacts.json")
MIRROR_ENV = "JARMO_MIRROR"
TIMEOUT_S = 60                  # a download that stalls this long fails (it never hangs a test run)
UF2_MAGIC = b"UF2\n\x57\x51\x5d\x9e"


class ArtifactError(Exception):
    """An artifact that could not be had; the message is one line that says
    what was tried and what to do."""


def user_cache(name, override):
    """A cache folder of this user's: $override when set, else
    $XDG_CACHE_HOME/name, else ~/.cache/name."""
    given = os.environ.get(override)
    if given:
        return os.path.abspath(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, name)


def cache_dir():
    return user_cache("jarmo", "JARMO_CACHE")


def load(path=LIST):
    """firmware/artifacts.json as a dict."""
    with open(path) as f:
        return json.load(f)


def artifacts():
    """{name: entry} of the file artifacts."""
    return load()["artifacts"]


def entry(name):
    found = artifacts().get(name)
    if found is None:
        raise ArtifactError("no artifact named %r in firmware/artifacts.json (%s)"
                            % (name, ", ".join(sorted(artifacts()))))
    return found


def cached_path(name):
    """Where the artifact lives in the cache (whether it is there or not)."""
    return os.path.join(cache_dir(), "artifacts", name, entry(name)["file"])


def stock_name(board):
    """The artifact name of stock CircuitPython for a board id."""
    return "stock-" + board


# ---------------------------------------------------------------------------- checks

def uf2_payload(data):
    """The bytes a UF2 (its data) writes to flash, in block order."""
    out = bytearray()
    for off in range(0, len(data) - 511, 512):
        block = data[off:off + 512]
        if block[:8] == UF2_MAGIC:
            out += block[32:32 + int.from_bytes(block[16:20], "little")]
    return bytes(out)


def problem(name, path, built=False):
    """None when the file at path is the artifact, else what is wrong (a phrase).
    built: made here from the pinned source, so it is held to the strings inside
    it (the version, the board) rather than to the published file's sha256."""
    item = entry(name)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        return "it cannot be read (%s)" % (err.strerror or err)
    if not built:
        digest = hashlib.sha256(data).hexdigest()
        if digest != item["sha256"]:
            return "its sha256 is %s..., not the pinned %s... (%d bytes, pinned %d)" % (
                digest[:12], item["sha256"][:12], len(data), item["size"])
    uf2 = item.get("uf2")
    if uf2:
        payload = uf2_payload(data)
        if not payload:
            return "it is not a UF2 file"
        for key in ("version", "board"):
            if uf2[key].encode() not in payload:
                return "it is not CircuitPython %s for %s (no %r inside)" % (
                    uf2["version"], uf2["board"], uf2[key])
    banner = item.get("banner")
    if banner and banner.encode() not in data:
        return "it is not %s (no %r inside)" % (name, banner)
    return None


# ---------------------------------------------------------------------------- fetching

_known = {}                       # name -> path checked in this process


def path(name, log=None, build=True):
    """The local path of the artifact `name`: from the cache, else fetched from
    the mirror or its url, else (build=True) made from the pinned source.
    ArtifactError (one line) when none of those gives it. log(line): progress,
    default stderr."""
    if name in _known and os.path.isfile(_known[name]):
        return _known[name]
    log = log or _say
    target = cached_path(name)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)          # another process may be fetching it now
        if os.path.isfile(target) and problem(name, target, built=_built_mark(target)) is None:
            _known[name] = target
            return target
        _remove_leftovers(os.path.dirname(target))
        tried = []
        for url in sources(name):
            try:
                download(name, url, target, log)
                _known[name] = target
                return target
            except ArtifactError as err:
                tried.append(str(err))
        how = entry(name).get("build")
        if build and how:
            try:
                made = make(name, how, target, log)
            except ArtifactError as err:
                tried.append(str(err))
            else:
                _known[name] = made
                return made
        if not tried:
            tried.append("no mirror is set (%s=DIR or URL) and it has no download url" % MIRROR_ENV)
        raise ArtifactError("%s: %s" % (name, "; ".join(tried)))


def sources(name):
    """The URLs to try for an artifact: the mirror's copy, then its official url."""
    item = entry(name)
    out = []
    mirror = os.environ.get(MIRROR_ENV, "").strip()
    if mirror and item.get("mirror"):
        out.append(mirror_url(mirror, item["mirror"]))
    if item.get("url"):
        out.append(item["url"])
    return out


def mirror_url(mirror, rel):
    """The URL of rel in a mirror given as a folder or an http(s)/file URL."""
    if "://" in mirror:
        return mirror.rstrip("/") + "/" + urllib.parse.quote(rel)
    folder = os.path.abspath(mirror)
    return "file://" + urllib.request.pathname2url(os.path.join(folder, rel))


def download(name, url, target, log):
    """url -> target, through a temporary file checked before it takes target's
    name; ArtifactError (nothing left behind) when it fails or is not the file."""
    item = entry(name)
    shown = _shown_url(url)
    fd, part = tempfile.mkstemp(prefix=".part-", dir=os.path.dirname(target))
    try:
        with os.fdopen(fd, "wb") as out:
            _copy(url, out, item, log, "%s %s (%s)" % (name, item["version"], _size(item["size"])), shown)
        wrong = problem(name, part)
        if wrong:
            raise ArtifactError("the file from %s is not the one pinned: %s" % (shown, wrong))
        if item.get("executable"):
            os.chmod(part, 0o755)
        os.replace(part, target)
        _built_mark(target, False)
    finally:
        if os.path.exists(part):
            os.remove(part)


def _copy(url, out, item, log, what, shown):
    try:
        response = urllib.request.urlopen(url, timeout=TIMEOUT_S)
    except urllib.error.HTTPError as err:
        raise ArtifactError("%s answered HTTP %d (%s)" % (shown, err.code, err.reason)) from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = getattr(err, "reason", None) or err
        why = getattr(reason, "strerror", None) or reason
        raise ArtifactError("%s could not be read (%s)" % (shown, why)) from None
    total = item["size"]
    got, shown_at = 0, 0.0
    log("fetching %s from %s" % (what, shown))
    try:
        with response:
            while True:
                chunk = response.read(65536)
                if not chunk:
                    break
                out.write(chunk)
                got += len(chunk)
                if got > 2 * total + 65536:
                    raise ArtifactError("%s sent more than twice the pinned size" % shown)
                now = time.monotonic()
                if now - shown_at > 2:
                    shown_at = now
                    log("  %s of %s" % (_size(got), _size(total)), progress=True)
    except (OSError, ValueError) as err:   # a connection cut mid-way
        raise ArtifactError("the download from %s broke off after %s (%s)" % (shown, _size(got), err)) from None
    promised = response.headers.get("Content-Length") if hasattr(response, "headers") else None
    if promised and promised.isdigit() and got < int(promised):
        # a connection closed early ends the reads quietly: only the length tells
        raise ArtifactError("the download from %s broke off after %s of %s" % (shown, _size(got),
                                                                              _size(int(promised))))


def _remove_leftovers(folder):
    """Temporary files of a download that was killed (no other can be running:
    the caller holds the artifact's lock)."""
    for name in os.listdir(folder):
        if name.startswith(".part-"):
            os.remove(os.path.join(folder, name))


def _shown_url(url):
    """A file:// URL as the folder path it names (shorter, and what the user gave)."""
    if url.startswith("file://"):
        return urllib.request.url2pathname(url[len("file://"):])
    return url


def _size(n):
    return "%.1f MB" % (n / 1e6) if n >= 1e6 else "%d KB" % max(1, round(n / 1e3))


def _built_mark(target, built=None):
    """Whether the cached file was made here from source (a mark file beside it):
    read when built is None, else written."""
    mark = target + ".built"
    if built is None:
        return os.path.exists(mark)
    if built:
        with open(mark, "w") as f:
            f.write("made here from the pinned CircuitPython source\n")
    elif os.path.exists(mark):
        os.remove(mark)
    return built


def make(name, how, target, log):
    """Make the artifact from the pinned source (tools/firmware.py) into
    target; its path. ArtifactError when it cannot be made."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from tools import firmware
    log("%s: no mirror or download has it; making it from the pinned CircuitPython source" % name)
    try:
        built = firmware.make_artifact(how, entry(name), log)
    except firmware.FirmwareError as err:
        raise ArtifactError("making it from source failed: %s" % str(err).splitlines()[0]) from None
    wrong = problem(name, built, built=True)
    if wrong:
        raise ArtifactError("what the build made is not it: %s" % wrong)
    tmp = target + ".new"
    shutil.copyfile(built, tmp)
    if entry(name).get("executable"):
        os.chmod(tmp, 0o755)
    os.replace(tmp, target)
    _built_mark(target, True)
    return target


def _say(line, progress=False):
    stream = sys.stderr
    if progress and not stream.isatty():
        return                      # a log file gets the start and the end, not every step
    stream.write(("\r%s" if progress else "%s\n") % line)
    stream.flush()


# ---------------------------------------------------------------------------- the command

def listing():
    """Lines: each artifact, its version, source and whether it is cached."""
    data = load()
    lines = ["Files (fetched into %s):" % os.path.join(cache_dir(), "artifacts")]
    for name, item in data["artifacts"].items():
        here = os.path.isfile(cached_path(name))
        lines.append("  %-30s %s  [%s]" % (name, item["version"], "cached" if here else "not yet"))
        lines.append("      from: %s" % (item["url"] or item["source"]))
        lines.append("      sha256 %s, %d bytes; mirror path %s" % (item["sha256"], item["size"], item["mirror"]))
    lines.append("Installed by package managers:")
    for name, item in data["installed"].items():
        lines.append("  %-30s %s (%s)" % (name, item["version"], item["pinned_in"]))
    release = data["release"]
    lines.append("For a maker who flashes stock CircuitPython: %s, %s" % (
        release["version"], release["page"].format(board="BOARD")))
    return lines


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="python3 run.py fetch", description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help="artifacts to fetch (default: every one)")
    ap.add_argument("--list", action="store_true", help="list the pinned artifacts and what is cached")
    ap.add_argument("--no-build", action="store_true",
                    help="only the cache, the mirror and downloads: never build from source")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(listing()))
        return 0
    names = args.names or list(artifacts())
    failed = 0
    for name in names:
        try:
            print("%s: %s" % (name, path(name, build=not args.no_build)), flush=True)
        except ArtifactError as err:
            print("fetch: %s" % err, file=sys.stderr, flush=True)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
