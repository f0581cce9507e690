"""The link cable on a PC: a TCP socket on localhost (`python3 run.py play --link PORT`).

Host only. `TcpLine` is the byte transport jarmo/link.py takes (readinto,
write), never blocking: the same protocol code as on the boards, over a
socket instead of a UART. Either end may start first or restart: an end
tries to connect to the port, and when nobody listens there it listens
itself; a lost connection is tried again every RETRY_S seconds (the link
says "Link lost" meanwhile, and resyncs when the other end is back).

    line = TcpLine(5555)                 # or TcpLine(5555, "192.168.1.7")
    app = App(..., line=line)
"""

import errno
import os
import socket
import time

RETRY_S = 0.3


def parse_address(text):
    """(host, port) from "PORT" or "HOST:PORT"; ValueError saying what is wrong."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("--link takes PORT or HOST:PORT (a port 1..65535), not %r" % text)
    return host or "127.0.0.1", int(port)


class TcpLine:
    """One end of a link over TCP: connects, or listens when nobody does."""

    def __init__(self, port, host="127.0.0.1", clock=time.monotonic):
        self.address = (host, port)
        self.clock = clock
        self.sock = None        # the connection
        self.server = None      # the listening socket, when this end listens
        self.next_try = 0.0
        self.connects = 0       # connections made (tests, the status line)
        self.cut = False        # tests: pretend the cable is pulled
        # the stand-in for a board's unique id (jarmo/link.py breaks ties with it)
        self.ident = os.urandom(8)

    @property
    def connected(self):
        return self.sock is not None

    def _ensure(self):
        if self.sock is not None or self.cut:
            return
        if self.server is not None:
            try:
                conn, _ = self.server.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            self._take(conn)
            return
        now = self.clock()
        if now < self.next_try:
            return
        self.next_try = now + RETRY_S
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(0.2)
        try:
            s.connect(self.address)
        except OSError as e:
            s.close()
            if getattr(e, "errno", None) == errno.ECONNREFUSED or isinstance(e, ConnectionRefusedError):
                self._listen()
            return
        self._take(s)

    def _listen(self):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(self.address)
            s.listen(1)
        except OSError:
            s.close()           # the other end took the port first: connect next time
            return
        s.setblocking(False)
        self.server = s

    def _take(self, conn):
        conn.setblocking(False)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = conn
        self.connects += 1

    def _lost(self):
        try:
            self.sock.close()
        except OSError:
            pass
        self.sock = None

    def readinto(self, buf):
        """Bytes that came, into buf: their count (0: none now)."""
        self._ensure()
        if self.sock is None:
            return 0
        try:
            n = self.sock.recv_into(buf)
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            self._lost()
            return 0
        if n == 0:
            self._lost()        # the other end closed
        return n

    def write(self, data):
        """Send bytes; dropped while there is no connection (the protocol sends again)."""
        if self.sock is None or self.cut:
            return
        try:
            self.sock.send(bytes(data))
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self._lost()

    def pull(self):
        """Tests: the cable is pulled (the connection closed, no new one)."""
        self.cut = True
        if self.sock is not None:
            self._lost()

    def plug(self):
        self.cut = False
        self.next_try = 0.0

    def close(self):
        for s in (self.sock, self.server):
            if s is not None:
                s.close()
        self.sock = self.server = None
