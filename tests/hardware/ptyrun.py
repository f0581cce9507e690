"""Drive a program through a pseudo-terminal: send keys, read the screen as text."""

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


def strip_ansi(text):
    return ANSI.sub("", text)


def set_size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


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

    def screen_since(self, mark):
        return strip_ansi(self.raw[mark:].decode("utf-8", "replace"))

    def expect(self, pattern, timeout=10.0, since=0):
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
        raise AssertionError("did not see %r within %ss; screen tail:\n%s"
                             % (pattern, timeout, self.screen_since(since)[-3000:]))

    def expect_raw(self, data, timeout=10.0, since=0):
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
        raise AssertionError("did not see %r within %ss" % (data, timeout))

    def send(self, data):
        os.write(self.fd, data)

    def resize(self, rows, cols):
        set_size(self.fd, rows, cols)

    def wait(self, timeout=10.0):
        """Exit status (os.waitstatus_to_exitcode) of the child; kills it on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self.read(0.05):
                    pass
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        self.kill()
        raise AssertionError("process did not exit within %ss; tail:\n%s"
                             % (timeout, self.text[-2000:]))

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass

    def close(self):
        if self.status is None:
            self.kill()
        try:
            os.close(self.fd)
        except OSError:
            pass


def python():
    return sys.executable
