"""`python3 run.py web` as a server: a port in use is one line at once (not
a traceback after the build), and SIGTERM removes the temporary site as
Ctrl-C does."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from tests.needs import missing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")


def _web(*args):
    """tools/web.py ARGS as `python3 run.py web` runs it (under run.py's guard)."""
    return [sys.executable, "-P", "run.py", "--guarded", "web", os.path.join("tools", "web.py")] + list(args)


@pytest.mark.cpython_only
def test_a_port_in_use_is_one_line_at_once(tmp_path):
    """Bug: a 15-line OSError traceback, after the whole site was built."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = dict(os.environ, TMPDIR=str(tmp_path))
        started = time.monotonic()
        proc = subprocess.run(_web("--port", str(port), "--no-firmware"), cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        took = time.monotonic() - started
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.splitlines() == [
        "python3 run.py web: 127.0.0.1 port %d is in use (another `python3 run.py web`?): stop "
        "that, or choose another port with --port N (0: any free one)" % port], proc.stderr
    assert proc.stdout == "" and took < 10          # said before any site was built
    assert os.listdir(tmp_path) == []


@pytest.mark.cpython_only
def test_sigterm_removes_the_temporary_site(tmp_path):
    """Bug: SIGTERM left the served site (7.4 MB) in the temporary folder,
    where Ctrl-C removed it."""
    if not os.path.isdir(MICROPYTHON):
        missing("the npm packages are not installed (python3 run.py web installs them)")
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "run.py", "web", "--port", "0", "--no-firmware"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)
    try:
        for line in proc.stdout:
            if line.startswith("Jarmo in the browser: "):
                break
        else:
            pytest.fail("the server did not start: %s" % proc.stderr.read())
        site = [name for name in os.listdir(tmp_path) if name.startswith("jarmo-web-")]
        assert len(site) == 1 and os.listdir(tmp_path / site[0])     # built, served from there
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert os.listdir(tmp_path) == [], os.listdir(tmp_path)
    assert "Traceback" not in proc.stderr.read()
