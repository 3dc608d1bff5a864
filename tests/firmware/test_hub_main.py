"""The hub firmware's own start-up, `cardhub.main()`, and its USB port
(`UsbPort`), under CPython: `machine` is the fake Pico of
hw_mocks.mfrc522.pico (its SPI reaching emulated MFRC522s, its watchdog on
the virtual clock); `sys`, `select`, `micropython` and `time` are fakes of
MicroPython's, put where `main()` imports them from."""

from __future__ import annotations

import sys

import pytest

from hw_mocks.mfrc522 import Ntag213
from hw_mocks.mfrc522.pico import WDT, PicoBoard, load_firmware, machine_module, time_module

FW = load_firmware()
cardhub, wire, hubconfig = FW["cardhub"], FW["wire"], FW["hubconfig"]
STICKER = "04A1B2C3D4E5F6"
POLLIN = 0x0001


class Stdin:
    """MicroPython's sys.stdin: bytes from the host, read through `.buffer`."""

    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.buffer = self
        self.reads = []

    def read(self, n):
        self.reads.append(n)
        out, self.data[:n] = bytes(self.data[:n]), b""
        return out


class Stdout:
    def __init__(self):
        self.written = bytearray()
        self.buffer = self

    def write(self, data):
        self.written += data
        return len(data)


class Select:
    """MicroPython's select: poll() objects answering whether stdin has a byte."""

    POLLIN = POLLIN

    def __init__(self):
        self.registered = []
        self.timeouts = []

    def poll(self):
        outer = self

        class Poll:
            def register(self, obj, mask=POLLIN):
                outer.registered.append((obj, mask))

            def poll(self, timeout=-1):
                outer.timeouts.append(timeout)
                return [(obj, POLLIN) for obj, mask in outer.registered
                        if mask & POLLIN and obj.data]

        return Poll()


class Micropython:
    def __init__(self):
        self.kbd = []

    def kbd_intr(self, char):
        self.kbd.append(char)


class FakeSys:
    def __init__(self, stdin):
        self.stdin = stdin
        self.stdout = Stdout()


def lines(out):
    parsed = []
    for text in bytes(out).decode("ascii").splitlines():
        assert text.startswith("$") and text[-5] == "*", text
        assert int(text[-4:], 16) == wire.crc16(text[1:-5].encode()), text
        seq, kind, *fields = text[1:-5].split(",")
        parsed.append((int(seq), kind, fields))
    return parsed


class Enough(Exception):
    """Ends main()'s endless loop after a number of watchdog feeds."""


def test_main_boots_reads_commands_polls_and_feeds_the_watchdog(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # where main() looks for the update flag
    board = PicoBoard(channels=len(hubconfig.CS_PINS))
    board.place(Ntag213(STICKER), board.readers[3])
    machine = machine_module(board)
    dogs = []

    def watchdog(timeout=5000):
        dog = WDT(board.clock, timeout)
        feed = dog.feed

        def fed():
            assert not dog.starved()  # fed in time, every cycle
            feed()
            if dog.feeds == 60:
                raise Enough
        dog.feed = fed
        dogs.append(dog)
        return dog

    machine.WDT = watchdog
    stdin = Stdin(b"\x03VER\r\n$CARDS*6DAE\n")  # Ctrl-C: no interrupt, and ignored
    fake_sys, select, micropython = FakeSys(stdin), Select(), Micropython()
    for name, module in (("machine", machine), ("time", time_module(board.clock)),
                         ("sys", fake_sys), ("select", select), ("micropython", micropython),
                         ("hubconfig", hubconfig)):
        monkeypatch.setitem(sys.modules, name, module)
    try:
        with pytest.raises(Enough):
            cardhub.main()
    finally:
        monkeypatch.undo()  # the real sys and time back before anything else runs
    assert micropython.kbd == [-1]
    assert [obj for obj, mask in select.registered] == [stdin]
    assert set(select.timeouts) == {0}  # polled, never waited on
    got = lines(fake_sys.stdout.written)
    assert [seq for seq, _, _ in got] == list(range(len(got)))
    assert got[0] == (0, "BOOT", ["cardtable-hub", cardhub.VERSION, "8", "power"])
    kinds = [(kind, fields) for _, kind, fields in got[1:]]
    assert kinds[0] == ("VER", ["cardtable-hub", cardhub.VERSION, "1"])  # the 0x03 ignored
    assert ("ON", ["3", STICKER]) in kinds
    cards = [fields for kind, fields in kinds if kind == "CARDS"]
    assert cards and all(f[3] == STICKER and f.count("") == 7 for f in cards)
    beats = [fields for kind, fields in kinds if kind == "HB"]
    assert beats and beats[0][1:] == ["FF", str(hubconfig.POLL_RATE)]
    (dog,) = dogs
    assert dog.timeout == hubconfig.WATCHDOG_MS and dog.feeds == 60
    board.clock.sleep(hubconfig.WATCHDOG_MS / 1000 + 0.1)
    assert dog.starved()  # a loop that stalled this long would be reset


def test_the_usb_port_never_blocks_and_reads_at_most_256_bytes_at_a_time():
    stdin = Stdin()
    fake_sys, select = FakeSys(stdin), Select()
    port = cardhub.UsbPort(fake_sys, select)
    assert port.read() == b"" and stdin.reads == []  # nothing waiting: nothing read
    stdin.data += bytes(range(256)) * 2 + b"end"
    assert port.read() == bytes(range(256))
    assert port.read() == bytes(range(256))
    assert port.read() == b"end"
    assert set(stdin.reads) == {1}  # one byte per ready poll: never more than is there
    assert set(select.timeouts) == {0}
    port.write(b"$0,HB,1,FF,50*3F6E\n")
    assert bytes(fake_sys.stdout.written) == b"$0,HB,1,FF,50*3F6E\n"
