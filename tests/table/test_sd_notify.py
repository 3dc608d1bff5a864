"""sd_notify against a real unix datagram socket, as systemd listens."""

from __future__ import annotations

import os
import socket

import pytest

from table import sd_notify
from table.sd_notify import Watchdog


@pytest.fixture
def listener(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield sock, {"NOTIFY_SOCKET": path}
    sock.close()


def test_ready_with_status_reaches_the_socket(listener):
    sock, env = listener
    assert sd_notify.ready("4 seats, filicau", env)
    assert sock.recv(4096) == b"READY=1\nSTATUS=4 seats, filicau"


def test_status_and_stopping(listener):
    sock, env = listener
    sd_notify.status("reader 2 offline", env)
    sd_notify.stopping(env)
    assert sock.recv(4096) == b"STATUS=reader 2 offline"
    assert sock.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket():
    name = f"cardtable-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert sd_notify.notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_outside_systemd_nothing_happens(tmp_path):
    assert not sd_notify.ready("x", {})
    assert not sd_notify.notify("READY=1", {"NOTIFY_SOCKET": "relative/path"})
    # a socket that has gone away is not an error
    assert not sd_notify.notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")})


def test_watchdog_interval_from_the_environment():
    pid = str(os.getpid())
    assert sd_notify.watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert sd_notify.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": pid}) == 30
    # meant for another process (a child that inherited the environment)
    assert sd_notify.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert sd_notify.watchdog_interval({}) is None
    assert sd_notify.watchdog_interval({"WATCHDOG_USEC": "0"}) is None


def test_watchdog_sends_at_most_every_half_interval(listener):
    sock, env = listener
    t = [0.0]
    dog = Watchdog.from_environment({**env, "WATCHDOG_USEC": "10000000"}, now=lambda: t[0])
    assert dog.enabled and dog.period == 5.0
    sent = []
    for step in range(25):               # kicked every second for 25 s
        t[0] = float(step)
        sent.append(dog.kick())
    assert [i for i, s in enumerate(sent) if s] == [0, 5, 10, 15, 20]
    assert [sock.recv(100) for _ in range(5)] == [b"WATCHDOG=1"] * 5
    assert dog.sent == 5


def test_watchdog_off_without_systemd():
    dog = Watchdog.from_environment({})
    assert not dog.enabled and not dog.kick()


class ScriptedStop:
    """Stands in for the `stop` event: each `wait(period)` advances a fake
    clock by `period` and runs the next step of the script; it says "stop"
    when the script is done. No real time passes, so load cannot change the
    outcome."""

    def __init__(self, script):
        self.script = list(script)
        self.now = 0.0

    def wait(self, period=None):
        if period is not None:
            self.now += period
        if not self.script:
            return True
        self.script.pop(0)()
        return False

    def is_set(self):
        return not self.script


def test_supervise_feeds_the_watchdog_only_while_the_controller_answers(listener):
    sock, env = listener
    env = {**env, "WATCHDOG_USEC": "200000"}          # 0.2 s: kicked every 0.1 s or less
    answering = {"yes": True}

    def hang():
        answering["yes"] = False

    def recover():
        answering["yes"] = True

    script = [lambda: None] * 4 + [hang] + [lambda: None] * 6 + [recover] + [lambda: None] * 4
    stop = ScriptedStop(script)
    fed = sd_notify.supervise(lambda timeout: answering["yes"], stop, status="ready: filicau",
                              env=env, now=lambda: stop.now)
    sock.settimeout(2)
    got = []
    while True:
        msg = sock.recv(100)
        got.append(msg)
        if msg == b"STOPPING=1":
            break
    assert got[0] == b"READY=1\nSTATUS=ready: filicau"
    hung_at = got.index(b"STATUS=the controller does not answer")
    back_at = got.index(b"STATUS=ready: filicau")
    assert hung_at < back_at
    assert b"WATCHDOG=1" in got[1:hung_at]             # fed while it answers
    assert b"WATCHDOG=1" not in got[hung_at:back_at]   # starved while it hangs
    assert b"WATCHDOG=1" in got[back_at:]              # fed again once it answers
    assert fed == got.count(b"WATCHDOG=1")


def test_supervise_outside_systemd_just_waits():
    import threading

    stop = threading.Event()
    stop.set()
    assert sd_notify.supervise(lambda t: True, stop, env={}) == 0
