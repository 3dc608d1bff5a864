"""Both readers' drivers on emulated MFRC522s behind one small interface, so
that a test runs the same table against each:

* `SpiRig`: the direct SPI driver (table.drivers.spi_readers) on a `Board`
  through the fake RPi.GPIO/spidev, with the real mfrc522 package;
* `HubRig`: the hub firmware (firmware/, run under CPython on a `PicoBoard`
  as tests/firmware does), its ON/OFF lines read back from its port.

`poll()` runs one poll cycle and lets `cycle_s` of virtual time pass; it
returns what the driver said as ("on" | "off", reader index, UID) and
("offline" | "back", reader index, "") tuples, and keeps `reported`, the
UIDs each reader's driver says lie on it.
"""

from __future__ import annotations

from typing import Any

from hw_mocks import fake_rpi
from hw_mocks.mfrc522 import Board, Harsh
from hw_mocks.mfrc522.pico import PicoBoard, build_hub, load_firmware
from table.drivers.spi_readers import SpiReaders, Wiring
from table.ports import CardArrived, CardLeft, ReaderBack, ReaderOffline

#: Seven readers: SPI0 CE0/CE1, SPI1 CE0-CE2, two GPIO chip selects.
SPI_LAYOUT = [(0, 0, None), (0, 1, None), (1, 0, None), (1, 1, None), (1, 2, None),
              (0, None, 5), (0, None, 6)]
CYCLE_S = 0.01

_FIRMWARE: dict[str, Any] = {}


def firmware() -> dict[str, Any]:
    if not _FIRMWARE:
        _FIRMWARE.update(load_firmware())
    return _FIRMWARE


Said = tuple[str, int, str]


class Rig:
    board: Board

    def __init__(self) -> None:
        self.reported: dict[int, set[str]] = {}

    def _note(self, said: list[Said]) -> list[Said]:
        for kind, reader, uid in said:
            cards = self.reported.setdefault(reader, set())
            if kind == "on":
                cards.add(uid)
            elif kind == "off":
                cards.discard(uid)
        return said

    def poll(self) -> list[Said]:
        raise NotImplementedError

    def polls(self, count: int) -> list[Said]:
        said: list[Said] = []
        for _ in range(count):
            said += self.poll()
        return said

    def close(self) -> None:
        pass


class SpiRig(Rig):
    def __init__(self, readers: int = 2, profile: Harsh | None = None) -> None:
        super().__init__()
        self.board = Board(profile=profile)
        wiring = {}
        for place, (bus, ce, cs) in enumerate(SPI_LAYOUT[:readers]):
            self.board.add_reader(bus, ce, cs_pin=cs, rst_pin=25)
            wiring[place] = Wiring(bus, ce, cs, 25)
        fake_rpi.install(self.board)
        self.driver = SpiReaders(wiring, clock=self.board.clock, sleep=self.board.clock.sleep)

    def poll(self) -> list[Said]:
        said: list[Said] = []
        for event in self.driver.poll_once():
            if isinstance(event, CardArrived):
                said.append(("on", event.seat, event.uid))
            elif isinstance(event, CardLeft):
                said.append(("off", event.seat, event.uid))
            elif isinstance(event, ReaderOffline):
                said.append(("offline", event.seat, ""))
            elif isinstance(event, ReaderBack):
                said.append(("back", event.seat, ""))
        self.board.clock.sleep(CYCLE_S)
        return self._note(said)

    def close(self) -> None:
        self.driver.close()
        fake_rpi.uninstall()


class _Port:
    def __init__(self) -> None:
        self.out = b""

    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.out += data


class HubRig(Rig):
    def __init__(self, readers: int = 2, profile: Harsh | None = None) -> None:
        super().__init__()
        self.board = PicoBoard(channels=readers, profile=profile)
        self.port = _Port()
        self.hub = build_hub(self.board, self.port, firmware())
        self.hub.boot()

    def poll(self) -> list[Said]:
        self.hub.step()
        self.board.clock.sleep(CYCLE_S)
        lines, self.port.out = self.port.out.decode().splitlines(), b""
        said: list[Said] = []
        for line in lines:
            _seq, kind, *fields = line[1:-5].split(",")
            if kind in ("ON", "OFF"):
                said.append((kind.lower(), int(fields[0]), fields[1]))
            elif kind == "ERR" and fields[0] != "-" and fields[1] == "OFFLINE":
                said.append(("offline", int(fields[0]), ""))
            elif kind == "BACK":
                said.append(("back", int(fields[0]), ""))
        return self._note(said)


RIGS = {"spi": SpiRig, "hub": HubRig}
