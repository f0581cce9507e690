"""Drive a program through a pseudo-terminal: send keys, read the screen as text.

Used by tests/hardware/test_sim.py, and on its own (standard library only) by
.ci/run to play the README's command the way a person would:

    python3 tests/hardware/ptyrun.py [--timeout S] [--size ROWSxCOLS] [--output REGEX]
                                     [--expect REGEX | --send KEYS] ... -- COMMAND ARGS...

runs COMMAND on a new pseudo-terminal and goes through the steps in order:
--expect waits (at most S seconds, default 10) until the last screen drawn
after the previous --send matches REGEX (re.S: . spans lines); --send types
KEYS (Python escapes: '\\r', '\\x1b[D'). Then it waits for COMMAND to end
and exits with its status; with --output, everything COMMAND wrote (plain
text, stripped) must match REGEX as a whole (for a command that stops at
once, e.g. with one line of error).
It fails (status 1, the screen printed) when an expectation times out, the
command does not end in time, or it leaves the terminal in the alternate
screen or without echo / line editing.
"""

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]")

ENTER_ALT = b"\x1b[?1049h"
LEAVE_ALT = b"\x1b[?1049l"
SHOW_CURSOR = b"\x1b[?25h"

TIMEOUT = 15.0    # s: only a failing wait waits it out; a loaded machine starts a simulator slowly


def strip_ansi(text):
    return ANSI.sub("", text)


def set_size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def last_screen(raw):
    """The text of the last screen drawn in raw output (cursor home ... erase below)."""
    start = raw.rfind(b"\x1b[H")
    if start < 0:
        return strip_ansi(raw[-3000:].decode("utf-8", "replace"))
    end = raw.find(b"\x1b[J", start)
    if end < 0:   # still being drawn: the one before, if there is one
        prev = raw.rfind(b"\x1b[H", 0, start)
        if prev >= 0 and raw.find(b"\x1b[J", prev) >= 0:
            start, end = prev, raw.find(b"\x1b[J", prev)
        else:
            end = len(raw)
    text = strip_ansi(raw[start:end].decode("utf-8", "replace"))
    return "\n".join(line.rstrip() for line in text.splitlines())


def first_screen(raw):
    """The text of the first complete screen drawn in raw output, or None."""
    start = raw.find(b"\x1b[H")
    end = raw.find(b"\x1b[J", start) if start >= 0 else -1
    if end < 0:
        return None
    return strip_ansi(raw[start:end].decode("utf-8", "replace"))


def terminal_modes(fd):
    """(canonical, echo, signals) of the terminal; on Linux the master of a
    pty reports its slave's modes, so this works from the driving side."""
    lflag = termios.tcgetattr(fd)[3]
    return (bool(lflag & termios.ICANON), bool(lflag & termios.ECHO),
            bool(lflag & termios.ISIG))


class PtyProcess:
    """A child process on a new pseudo-terminal (its controlling terminal)."""

    def __init__(self, argv, cwd, env, rows=40, cols=120):
        pid, fd = pty.fork()
        if pid == 0:  # child
            try:
                os.chdir(cwd)
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid = pid
        self.fd = fd
        self.raw = b""
        self.status = None
        set_size(fd, rows, cols)

    def read(self, timeout=0.1):
        """Read what is available within timeout; False once the child closed the terminal."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.raw += data
        return True

    @property
    def text(self):
        return strip_ansi(self.raw.decode("utf-8", "replace"))

    def screen(self):
        """The last screen drawn, as plain text (for assertions and failure messages)."""
        return last_screen(self.raw)

    def screen_since(self, mark):
        return strip_ansi(self.raw[mark:].decode("utf-8", "replace"))

    def _failure(self, what, timeout):
        return AssertionError("%s within %ss; last screen:\n%s" % (what, timeout, self.screen()))

    def expect(self, pattern, timeout=TIMEOUT, since=0):
        """Wait until pattern (a regex) appears in the text output after byte `since`."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        while time.monotonic() < deadline:
            if rx.search(self.screen_since(since)):
                return True
            if not self.read(0.05):
                break
        if rx.search(self.screen_since(since)):
            return True
        raise self._failure("did not see %r" % pattern, timeout)

    def expect_screen(self, pattern, timeout=TIMEOUT, since=0):
        """Wait until the last complete screen drawn after byte `since` matches
        pattern (a regex, searched with re.S); the match."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern, re.S)
        while True:
            if self.raw.find(b"\x1b[J", since) >= 0:
                m = rx.search(last_screen(self.raw))
                if m:
                    return m
            if time.monotonic() >= deadline or not self.read(0.05):
                break
        m = rx.search(last_screen(self.raw))
        if m and self.raw.find(b"\x1b[J", since) >= 0:
            return m
        raise self._failure("the screen did not show %r" % pattern, timeout)

    def expect_raw(self, data, timeout=TIMEOUT, since=0):
        """Wait until the bytes `data` appear in the output after byte `since`; their index."""
        deadline = time.monotonic() + timeout
        while True:
            i = self.raw.find(data, since)
            if i >= 0:
                return i
            if time.monotonic() >= deadline or not self.read(0.05):
                break
        i = self.raw.find(data, since)
        if i >= 0:
            return i
        raise self._failure("did not see %r" % data, timeout)

    def send(self, data):
        os.write(self.fd, data)

    def resize(self, rows, cols):
        set_size(self.fd, rows, cols)

    def modes(self):
        return terminal_modes(self.fd)

    def wait(self, timeout=TIMEOUT):
        """Exit status (os.waitstatus_to_exitcode) of the child; kills it on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                end = time.monotonic() + 1.0
                while time.monotonic() < end and self.read(0.05):
                    pass
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        self.kill()
        raise self._failure("process did not exit", timeout)

    def restored(self):
        """None if the child left the terminal as a shell needs it, else what is wrong."""
        problems = []
        if self.raw.rfind(ENTER_ALT) > self.raw.rfind(LEAVE_ALT):
            problems.append("still in the alternate screen")
        if self.raw.rfind(b"\x1b[?25l") > self.raw.rfind(SHOW_CURSOR):
            problems.append("cursor still hidden")
        try:
            canonical, echo, signals = self.modes()
        except termios.error:
            canonical = echo = signals = True   # the pty is gone: nothing to restore
        if not (canonical and echo and signals):
            problems.append("terminal modes not restored (canonical %s, echo %s, signals %s)"
                            % (canonical, echo, signals))
        return "; ".join(problems) or None

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        self.status = -signal.SIGKILL if self.status is None else self.status

    def close(self):
        if self.status is None:
            self.kill()
        try:
            os.close(self.fd)
        except OSError:
            pass


def python():
    return sys.executable


# ---------------------------------------------------------------- command line


def _usage(msg):
    sys.stderr.write("ptyrun: %s\n" % msg)
    sys.stderr.write(__doc__.split("\n\n")[2] + "\n")
    return 2


def main(argv):
    if "--" not in argv:
        return _usage("give the command after --")
    cut = argv.index("--")
    opts, command = argv[:cut], argv[cut + 1:]
    if not command:
        return _usage("no command after --")
    timeout = 10.0
    rows, cols = 40, 120
    output = None
    steps = []
    i = 0
    while i < len(opts):
        if i + 1 >= len(opts):
            return _usage("%s needs a value" % opts[i])
        name, value = opts[i], opts[i + 1]
        if name == "--timeout":
            timeout = float(value)
        elif name == "--size":
            rows, cols = (int(n) for n in value.lower().split("x"))
        elif name == "--output":
            output = value
        elif name == "--expect":
            steps.append(("expect", value))
        elif name == "--send":
            steps.append(("send", value.encode("latin-1").decode("unicode_escape")
                          .encode("latin-1")))
        else:
            return _usage("unknown option %s" % name)
        i += 2

    def terminate(signum, frame):   # `timeout` ends us: take the child along
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, terminate)

    env = dict(os.environ)
    env.setdefault("TERM", "xterm-256color")
    p = PtyProcess(command, os.getcwd(), env, rows, cols)
    try:
        mark = 0
        for kind, value in steps:
            if kind == "expect":
                p.expect_screen(value, timeout, since=mark)
                print("ptyrun: saw %r" % value)
            else:
                mark = len(p.raw)
                p.send(value)
        status = p.wait(timeout)
        if output is not None:
            text = p.text.replace("\r\n", "\n").strip()
            if not re.fullmatch(output, text, re.S):
                raise AssertionError("the output was not %r:\n%s" % (output, text))
            print("ptyrun: the output matched %r" % output)
        problem = p.restored()
        if problem:
            raise AssertionError("%s; last screen:\n%s" % (problem, p.screen()))
        print("ptyrun: %s exited with status %d, terminal restored" % (" ".join(command), status))
        return status
    except AssertionError as err:
        sys.stderr.write("ptyrun: %s\n" % err)
        return 1
    finally:
        p.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
