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


def test_supervise_feeds_the_watchdog_only_while_the_controller_answers(listener):
    import threading

    sock, env = listener
    env = {**env, "WATCHDOG_USEC": "200000"}          # 0.2 s: kicked every 0.1 s or less
    stop = threading.Event()
    answering = threading.Event()
    answering.set()

    def alive(timeout):
        return answering.is_set()

    t = threading.Thread(target=sd_notify.supervise, args=(alive, stop),
                         kwargs={"status": "ready: filicau", "env": env})
    t.start()
    assert sock.recv(100) == b"READY=1\nSTATUS=ready: filicau"
    assert sock.recv(100) == b"WATCHDOG=1"
    answering.clear()                                  # the controller hangs
    sock.settimeout(0.5)
    seen = []
    try:
        for _ in range(20):
            seen.append(sock.recv(100))
    except TimeoutError:
        pass
    assert b"STATUS=the controller does not answer" in seen
    assert b"WATCHDOG=1" not in seen[1:]               # at most one already on its way
    answering.set()                                    # it answers again
    sock.settimeout(2)
    assert sock.recv(100) == b"STATUS=ready: filicau"
    assert sock.recv(100) == b"WATCHDOG=1"
    stop.set()
    t.join(2)
    sock.settimeout(2)
    assert sock.recv(100) == b"STOPPING=1"


def test_supervise_outside_systemd_just_waits():
    import threading

    stop = threading.Event()
    stop.set()
    assert sd_notify.supervise(lambda t: True, stop, env={}) == 0
