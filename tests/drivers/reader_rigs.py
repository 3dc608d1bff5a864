"""Both readers' drivers on emulated MFRC522s behind one small interface, so
that a test runs the same table against each:

* `SpiRig`: the direct SPI driver (table.drivers.spi_readers) on a `Board`
  through the fake RPi.GPIO/spidev, with the real mfrc522 package;
* `HubRig`: the hub firmware (firmware/, run under CPython on a `PicoBoard`
  as tests/firmware does), its ON/OFF lines read back from its port.

`Table` keeps the truth (where each card lies) while it moves cards on a
rig, and tells whether what the driver reports matches it.

`poll()` runs one poll cycle and lets `cycle_s` of virtual time pass; it
returns what the driver said as ("on" | "off", reader index, UID) and
("offline" | "back", reader index, "") tuples, and keeps `reported`, the
UIDs each reader's driver says lie on it.
"""

from __future__ import annotations

from typing import Any

from hw_mocks import fake_rpi
from hw_mocks.mfrc522 import Board, Harsh, MifareClassic1K, Ntag213, Picc
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

SEATS = 3  # in a row: a card slides from 0 to 1 or from 1 to 2 and back
UIDS = ("04A1B2C3D4E5F6", "04A1B2112233FF", "A1B2C3D4", "01020304", "01020305")
#: place (squarely on a seat), lift, slide (to the next seat, polls on the
#: way), between (left lying between its seat and the next).
MOVES = ("place", "lift", "slide", "between")
#: Polls after a move within which the report must match the truth.
BOUND = 10
#: Polls after that during which it must keep matching.
STEADY = 3


def card(uid: str) -> Picc:
    return Ntag213(uid) if len(uid) == 14 else MifareClassic1K(uid)


class Table:
    """The truth: where each card lies (a seat, or a pair of seats)."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.cards = {uid: card(uid) for uid in UIDS}
        self.at: dict[str, tuple[int, ...]] = {}
        self.said: list[Said] = rig.polls(2)

    def move(self, kind: str, uid: str, seat: int, polls: int) -> None:
        board, readers = self.rig.board, self.rig.board.readers
        now = self.at.get(uid)
        if kind == "place":
            board.place(self.cards[uid], readers[seat])
            self.at[uid] = (seat,)
        elif kind == "lift" and now:
            board.remove(self.cards[uid])
            del self.at[uid]
        elif kind in ("slide", "between") and now and len(now) == 1:
            to = now[0] + (1 if seat % 2 else -1)
            if not 0 <= to < SEATS:
                to = now[0] - (1 if seat % 2 else -1)
            board.place_between(self.cards[uid], readers[now[0]], readers[to])
            self.at[uid] = (now[0], to)
            if kind == "slide":
                self.said += self.rig.polls(polls)  # on its way: anything goes meanwhile
                board.place(self.cards[uid], readers[to])
                self.at[uid] = (to,)

    def matches(self) -> bool:
        for seat in range(SEATS):
            reported = self.rig.reported.get(seat, set())
            certain = {uid for uid, at in self.at.items() if at == (seat,)}
            possible = {uid for uid, at in self.at.items() if seat in at}
            if not certain <= reported <= possible:
                return False
        return True

    def describe(self) -> str:
        return f"truth {self.at}, reported {self.rig.reported}"

    def poll(self) -> None:
        self.said += self.rig.poll()

    def play(self, move: tuple[str, str, int, int]) -> int:
        """Make `move`, then poll until the report matches the truth (at most
        BOUND + 1 polls); returns how many polls that took."""
        self.move(*move)
        polls = 0
        while not self.matches() and polls <= BOUND:
            polls += 1
            self.poll()
        return polls
