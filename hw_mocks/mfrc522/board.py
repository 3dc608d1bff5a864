"""A Raspberry Pi's SPI buses and GPIO header with emulated MFRC522 readers on them.

`Board` is what the fake `RPi.GPIO` and `spidev` modules (hw_mocks.fake_rpi)
talk to. Readers are wired like real modules: SDA/NSS to a hardware chip
enable (`ce`) of a bus or to a GPIO pin used as chip select (`cs_pin`, BCM),
RST to a GPIO pin (`rst_pin`, BCM) or left to the module's pull-up.
A transfer reaches every chip whose select line is low; two at once fight
over MISO (the bytes come back ANDed), none at all reads as 0x00.

`Board(profile=Harsh(seed))` makes every reader and card on it harsh (see
harsh.py), with one seeded random generator for the whole board; a card can
then also lie between two seats (`place_between`).

Every transfer advances the virtual clock by its length at the bus speed and
is counted, so a benchmark can report transfers and bus time per poll.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .chip import Mfrc522
from .clock import VirtualClock
from .harsh import Harsh
from .picc import Picc

BCM, BOARD = 11, 10
#: Header pin (BOARD numbering) -> BCM GPIO, 40-pin header.
BOARD_TO_BCM = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
    19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12,
    33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}
#: /dev/spidevB.D present with `dtparam=spi=on` and `dtoverlay=spi1-3cs`.
DEFAULT_SPI_DEVICES = ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2))


@dataclass(frozen=True)
class Wiring:
    bus: int
    ce: int | None = None
    cs_pin: int | None = None
    rst_pin: int | None = None


@dataclass
class Pin:
    output: bool = False
    level: int = 1


@dataclass(frozen=True)
class BusCounters:
    """What went over the SPI buses: transfers, bytes and seconds of clocking."""

    transfers: int = 0
    bytes: int = 0
    bus_time: float = 0.0

    def __sub__(self, other: BusCounters) -> BusCounters:
        return BusCounters(self.transfers - other.transfers, self.bytes - other.bytes,
                           self.bus_time - other.bus_time)


@dataclass
class GpioBank:
    """The header's GPIO lines (BCM numbers) and who did what to them."""

    mode: int | None = None
    pins: dict[int, Pin] = field(default_factory=dict)
    calls: list[tuple[str, tuple[object, ...]]] = field(default_factory=list)
    cleaned: list[int] = field(default_factory=list)
    listeners: dict[int, list[Callable[[int], None]]] = field(default_factory=dict)

    def level(self, bcm: int) -> int:
        """An input floats high (the reader modules pull their lines up)."""
        pin = self.pins.get(bcm)
        return pin.level if pin is not None and pin.output else 1

    def drive(self, bcm: int, output: bool, level: int) -> None:
        before = self.level(bcm)
        self.pins[bcm] = Pin(output, 1 if level else 0)
        after = self.level(bcm)
        if after != before:
            for listener in self.listeners.get(bcm, []):
                listener(after)

    def release(self, bcm: int) -> None:
        self.cleaned.append(bcm)
        self.drive(bcm, False, 1)


class Board:
    """The Pi and its readers. Thread-safe: one lock guards the buses and the cards."""

    def __init__(self, clock: VirtualClock | None = None,
                 spi_devices: Iterable[tuple[int, int]] = DEFAULT_SPI_DEVICES,
                 profile: Harsh | None = None) -> None:
        self.clock = clock or VirtualClock()
        self.profile = profile
        self.rng = profile.rng() if profile is not None else None
        self.spi_devices = set(spi_devices)
        self.spi_no_cs: set[tuple[int, int]] = set()
        self.gpio = GpioBank()
        self.readers: list[Mfrc522] = []
        self.wiring: dict[int, Wiring] = {}
        self.lock = threading.RLock()
        self._transfers = 0
        self._bytes = 0
        self._bus_time = 0.0

    # ----- building -------------------------------------------------------------

    def add_reader(self, bus: int = 0, ce: int | None = 0, cs_pin: int | None = None,
                   rst_pin: int | None = None, version: int = 0x92,
                   name: str | None = None) -> Mfrc522:
        """Wire one reader; `cs_pin` (BCM) replaces the hardware chip enable."""
        if cs_pin is not None:
            ce = None
        elif ce is None or (bus, ce) not in self.spi_devices:
            raise ValueError(f"no /dev/spidev{bus}.{ce} on this board")
        chip = Mfrc522(self.clock, name or f"reader{len(self.readers)}", version,
                       harsh=self.profile, rng=self.rng)
        self.readers.append(chip)
        self.wiring[id(chip)] = Wiring(bus, ce, cs_pin, rst_pin)
        if rst_pin is not None:
            self.gpio.listeners.setdefault(rst_pin, []).append(
                functools.partial(self._rst, chip))
        return chip

    def _rst(self, chip: Mfrc522, level: int) -> None:
        with self.lock:
            chip.set_rst(bool(level))

    # ----- cards ----------------------------------------------------------------

    def place(self, card: Picc, reader: Mfrc522) -> None:
        """Put `card` in `reader`'s field, taking it from wherever it was. A
        card that already lay in that field (between it and another seat)
        slides onto it without losing power, so it keeps its state."""
        with self.lock:
            for chip in self.readers:
                if chip is not reader and card in chip.cards:
                    chip.remove_card(card)
            if card in reader.cards:
                reader.weak.discard(id(card))
            else:
                reader.add_card(card)

    def place_between(self, card: Picc, one: Mfrc522, other: Mfrc522) -> None:
        """Put `card` at the edge of both readers' fields (between two seats):
        both power it and hear it, weakly. Slid from one of them, it keeps
        its power and state."""
        with self.lock:
            for chip in self.readers:
                if chip is not one and chip is not other and card in chip.cards:
                    chip.remove_card(card)
            for chip in (one, other):
                if card in chip.cards:
                    chip.weak.add(id(card))
                else:
                    chip.add_card(card, weak=True)

    def remove(self, card: Picc) -> None:
        with self.lock:
            self._take(card)

    def _take(self, card: Picc) -> None:
        for chip in self.readers:
            if card in chip.cards:
                chip.remove_card(card)

    def where(self, card: Picc) -> Mfrc522 | None:
        with self.lock:
            return next((chip for chip in self.readers if card in chip.cards), None)

    # ----- the buses ------------------------------------------------------------

    def transfer(self, bus: int, ce: int | None, mosi: list[int], speed_hz: int) -> list[int]:
        """Clock `mosi` out on `bus` with hardware chip enable `ce` asserted
        (None = no_cs) and every GPIO chip select as it stands."""
        if speed_hz <= 0:
            raise ValueError("the SPI speed must be positive")
        with self.lock:
            duration = 8 * len(mosi) / speed_hz
            self.clock.advance(duration)
            self._transfers += 1
            self._bytes += len(mosi)
            self._bus_time += duration
            selected = [chip for chip in self.readers if self._selected(chip, bus, ce)]
            if not selected:
                return [0x00] * len(mosi)
            answers = [chip.spi(list(mosi)) for chip in selected]
            return [_and(column) for column in zip(*answers, strict=True)]

    def _selected(self, chip: Mfrc522, bus: int, ce: int | None) -> bool:
        wiring = self.wiring[id(chip)]
        if wiring.bus != bus:
            return False
        if wiring.cs_pin is not None:
            return self.gpio.level(wiring.cs_pin) == 0
        return wiring.ce is not None and wiring.ce == ce

    def counters(self) -> BusCounters:
        with self.lock:
            return BusCounters(self._transfers, self._bytes, self._bus_time)


def _and(values: tuple[int, ...]) -> int:
    out = 0xFF
    for value in values:
        out &= value
    return out
