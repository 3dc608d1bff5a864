"""`cardtable hub-update`: a running hub (the real firmware on a pty, hw_mocks
fake_hub) is stopped for an update; hubs that are missing, busy, old or
silent get a clear message and exit status 1."""

from __future__ import annotations

import time

import pytest

from hw_mocks.fake_hub import FakeHub
from hw_mocks.mfrc522 import Ntag213
from table.cli import main
from table.drivers.hub_protocol import crc16
from table.drivers.hub_update import request_update

STICKER = "04A1B2C3D4E5F6"


def line(seq, kind, *fields):
    body = ",".join([str(seq), kind, *map(str, fields)]).encode()
    return b"$" + body + b"*%04X\n" % crc16(body)


class Scripted:
    """A serial port that answers with `replies` once the command came."""

    def __init__(self, replies):
        self.replies = replies
        self.written = b""
        self.closed = False

    def write(self, data):
        self.written += data

    def read(self, n):
        if not self.written:
            return b""
        data, self.replies = self.replies[:n], self.replies[n:]
        if not data:
            time.sleep(0.01)
        return data

    def close(self):
        self.closed = True


@pytest.fixture
def hub():
    h = FakeHub(channels=2)
    h.plug()
    yield h
    h.unplug()


def test_a_running_hub_stops_for_the_update_and_the_steps_are_printed(hub, capsys):
    hub.place(Ntag213(STICKER), 0)
    antenna = hub.board.readers[0]
    deadline = time.monotonic() + 5
    while not hub.hub.trackers[0].misses and time.monotonic() < deadline:
        time.sleep(0.02)
    assert main(["hub-update", "--port", hub.path]) == 0
    out = capsys.readouterr().out
    assert f"mpremote connect {hub.path} cp firmware/*.py :" in out
    assert f"mpremote connect {hub.path} reset" in out
    assert "sudo systemctl start cardtable" in out
    deadline = time.monotonic() + 5
    while hub._thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not hub._thread.is_alive()  # Hub.run returned: on a Pico, main() resets now
    assert hub.hub.running is False and not antenna.antenna_on


def test_the_answer_is_found_among_stale_and_spoiled_lines():
    port = Scripted(b"\xff\xfe garbage\n" + line(7, "ON", 0, STICKER)
                    + line(8, "VER", "cardtable-hub", "1.2.0", 1) + b"$9,OK,UPD*0000\n"
                    + line(10, "OK", "UPDATE"))
    answer = request_update("/dev/ttyACM0", timeout_s=2, open_port=lambda path: port)
    assert answer.outcome == "ok" and answer.version == ("cardtable-hub", "1.2.0", "1")
    assert port.written == b"$VER*A87C\n$UPDATE*%04X\n" % crc16(b"UPDATE")
    assert port.closed


def test_an_old_hub_is_told_apart_from_a_silent_one():
    old = Scripted(line(3, "VER", "cardtable-hub", "1.1.0", 1)
                   + line(4, "ERR", "-", "BADCMD", "UPDATE"))
    answer = request_update("/dev/ttyACM0", timeout_s=2, open_port=lambda path: old)
    assert answer.outcome == "old" and answer.version[1] == "1.1.0"
    silent = Scripted(b"")
    answer = request_update("/dev/ttyACM0", timeout_s=0.2, open_port=lambda path: silent)
    assert answer.outcome == "silent" and silent.closed


def busy(path):
    raise OSError("[Errno 16] could not open port: Device or resource busy")


@pytest.mark.parametrize("opener, words", [
    (lambda path: Scripted(line(3, "VER", "cardtable-hub", "1.1.0", 1)
                           + line(4, "ERR", "-", "BADCMD", "UPDATE")),
     ["firmware cardtable-hub 1.1.0", "predates hub-update", "A hub without UPDATE"]),
    (lambda path: Scripted(b""), ["did not answer UPDATE within 0.2 s"]),
    (busy, ["Cannot open /dev/null", "busy", "sudo systemctl stop cardtable"]),
])
def test_every_failure_is_a_message_and_status_1(opener, words, capsys, monkeypatch):
    monkeypatch.setattr("table.drivers.hub_update.open_serial", opener)
    assert main(["hub-update", "--port", "/dev/null", "--timeout", "0.2"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    for word in words:
        assert word in captured.err
    assert "Traceback" not in captured.err


def test_a_port_that_is_not_there(capsys, tmp_path):
    assert main(["hub-update", "--port", str(tmp_path / "ttyACM9")]) == 1
    err = capsys.readouterr().err
    assert f"There is no {tmp_path / 'ttyACM9'}: is the hub plugged in?" in err


def test_no_hub_plugged_in(capsys, monkeypatch):
    monkeypatch.setattr("table.drivers.hub_update.find_hub_port", lambda: None)
    assert main(["hub-update"]) == 1
    err = capsys.readouterr().err
    assert "No reader hub found" in err and "2e8a:0005" in err and "--port" in err


def test_the_real_micropython_hub_stops_restarts_in_update_mode_and_hands_over(capsys):
    """End to end with the firmware in the real MicroPython behind the pty:
    the host reads a card, `cardtable hub-update` stops the hub, the Pico
    restarts (a new USB port) without the watchdog and says so."""
    import queue

    from table.drivers.hub_readers import HubReaders
    from table.ports import CardArrived

    hub = FakeHub(channels=2, interpreter="micropython")
    first_port = hub.plug()
    events = queue.Queue()
    driver = HubReaders({0: 0, 1: 1}, find_port=hub.find_port, retry_s=0.1)
    try:
        driver.start(events.put)
        hub.place(Ntag213(STICKER), 1)
        assert events.get(timeout=10) == CardArrived(1, STICKER)
        driver.stop()  # the service is stopped first
        status = main(["hub-update", "--port", first_port, "--timeout", "10"])
        out, err = capsys.readouterr()
        assert status == 0 and "mpremote connect" in out, err
        deadline = time.monotonic() + 10
        while hub.boots < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.boots == 2  # machine.reset(): MicroPython started again
        import serial

        with serial.Serial(hub.path, timeout=0.2) as port:
            text = b""
            while b"\n" not in text and time.monotonic() < deadline:
                text += port.read(200)
        assert b"update mode" in text and b"mpremote reset" in text
        assert hub.ended == "returned"  # main() returned: the REPL is free
        assert hub.pico.wdt_timeout is None  # no watchdog in update mode
        assert not (hub.flash / "hub_update").exists()  # one boot only
    finally:
        driver.stop()
        hub.unplug()
