"""Two simulators linked over localhost (host/link.py): the same protocol code as the boards.

In-process: two Apps, each on a TcpLine to the same port (the first to
start listens, the other connects), stepped in 10 ms passes of a shared
clock with the sockets real. Then the command line itself: two
`python3 run.py play --link PORT --script` processes start one game.
"""

import os
import random
import socket
import subprocess
import sys
import time

from host.link import TcpLine, parse_address
from jarmo.app import App
from tests.app.drive import Clock, new_game, play
from tests.app.memstore import MemoryStore, reboot

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Two:
    # two simulators' Apps on TCP lines to one port, one clock
    def __init__(self):
        self.port = free_port()
        self.la = TcpLine(self.port)
        self.lb = TcpLine(self.port)
        self.sa = MemoryStore()
        self.sb = MemoryStore()
        self.a = App(store=self.sa, seed=1, line=self.la)
        self.b = App(store=self.sb, seed=2, line=self.lb)
        self.ca = Clock(self.a, 1000)
        self.cb = Clock(self.b, 1000)

    def run(self, ms):
        for _ in range(ms // 10):
            self.ca.run(10, 10)
            self.cb.now = self.ca.now
            self.b.tick(self.cb.now)
            time.sleep(0.0005)

    def mover(self):
        for c in (self.ca, self.cb):
            if c.app.state == "play":
                return c
        return None

    def play_turn(self):
        c = self.mover()
        n = c.app.game.plies
        while c.app.game.plies == n and c.app.game.result() is None:
            play(c, c.app.game.legal()[0])
        return c

    def wait_same(self, limit=3000):
        t = 0
        while self.a.game.history_codes(0) != self.b.game.history_codes(0) and t < limit:
            self.run(10)
            t += 10
        return t

    def start(self, rules="classic"):
        new_game(self.ca, rules, opponent="Link")
        self.run(500)
        new_game(self.cb, "standard", opponent="Link")
        self.run(500)
        assert self.a.game is not None and self.b.game is not None, (self.a.text, self.b.text)

    def close(self):
        self.la.close()
        self.lb.close()


def test_link_addresses_are_port_or_host_and_port():
    assert parse_address("5555") == ("127.0.0.1", 5555)
    assert parse_address("10.0.0.2:7") == ("10.0.0.2", 7)
    for bad in ("", "x", "0", "70000", "host:"):
        try:
            parse_address(bad)
        except ValueError as e:
            assert "--link" in str(e)
        else:
            raise AssertionError(bad)


def test_two_simulators_play_a_whole_game_over_localhost():
    two = Two()
    try:
        two.start()
        assert two.a.game.rules == two.b.game.rules == "classic"
        worst = 0
        for _ in range(300):
            if two.a.game.result() is not None:
                break
            two.play_turn()
            worst = max(worst, two.wait_same())
            two.run(200)
        assert two.a.game.result() == two.b.game.result() is not None
        assert two.sa.game()[2] == two.sb.game()[2]
        assert two.a.frame == two.b.frame or two.a.game.snapshot() == two.b.game.snapshot()
        assert worst <= 100
    finally:
        two.close()


def test_a_pulled_cable_a_restart_and_noise_between_two_simulators():
    two = Two()
    try:
        two.start()
        two.play_turn()
        two.wait_same()
        # the connection pulled in mid-turn: the turn is played meanwhile
        two.la.pull()
        two.run(100)
        two.play_turn()
        two.run(2500)
        assert "Link lost: cable?" in two.a.text and "Link lost: cable?" in two.b.text
        two.la.plug()
        assert two.wait_same() < 3000
        # board b restarts from its save (a new simulator on the same data)
        two.lb.close()
        two.sb = reboot(two.sb)
        two.lb = TcpLine(two.port)
        two.b = App(store=two.sb, seed=5, line=two.lb)
        two.cb = Clock(two.b, two.ca.now)
        assert two.b.game is not None
        two.run(1500)
        assert two.a.game.history_codes(0) == two.b.game.history_codes(0)
        # random bytes on the line, between and inside frames
        rng = random.Random(3)
        for _ in range(6):
            two.play_turn()
            for _ in range(4):
                for line in (two.la, two.lb):
                    if line.sock is not None:
                        line.sock.send(bytes(rng.getrandbits(8) for _ in range(9)))
                two.run(30)
            assert two.wait_same() < 3000
            two.run(200)
            if two.a.game.result() is not None:
                break
        assert two.a.link.refused == 0 and two.b.link.refused == 0
        assert two.a.link.noise + two.a.link.bad + two.b.link.noise + two.b.link.bad > 0
    finally:
        two.close()


def _sim(port, data, script, *extra):
    env = dict(os.environ, PYTHONPATH=ROOT, BLINKA_OS_AGNOSTIC="1")
    return subprocess.Popen([sys.executable, "-m", "host.sim", "--link", str(port), "--script",
                             script, "--data", str(data), "--drawing", "ascii", "--color", "none"]
                            + list(extra), cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)


def test_two_simulator_processes_agree_on_one_game(tmp_path):
    port = free_port()
    # real time on both sides (linked): room for a loaded machine's slow
    # start-up and the offer's retries; b stays until well after a's move
    (tmp_path / "a.txt").write_text("wait 4000\nselect\nselect\nwait 5000\nquit\n")
    (tmp_path / "b.txt").write_text("wait 11000\nquit\n")
    a = _sim(port, tmp_path / "da", tmp_path / "a.txt", "--rules", "classic")
    time.sleep(1.0)
    b = _sim(port, tmp_path / "db", tmp_path / "b.txt")
    out_a = a.communicate(timeout=60)[0].decode("utf-8", "replace")
    out_b = b.communicate(timeout=60)[0].decode("utf-8", "replace")
    assert a.returncode == 0 and b.returncode == 0, out_a[-2000:] + out_b[-2000:]
    assert "South (you) to move" in out_a            # a proposed: South, classic
    assert "South (Link) moves" in out_b             # b accepted: North
    assert "North (Link) moves" in out_a             # a's move went over: b's turn now
    assert "North (you) to move" in out_b
