"""Reader modules that do not release MISO when deselected.

Many cheap RC522 boards keep driving their MISO line after their chip select
goes high, at the level of the last bit they sent. On a bus shared with other
readers that module then fights whichever chip is selected; with every chip
select high the bus reads that level instead of the idle low (the Pi's
default pull-down on GPIO 9 and 19).

`MisoHoldingBoard` is the emulator's `Board` with that fault available per
module: `hold_miso(chip)`. A module that holds MISO answers normally while
selected; deselected, it drives its last bit on every byte, ANDed with what
the selected chip sends (the board's model of two drivers on one line) or
alone when nothing is selected. `cardtable doctor` finds it by making each
reader end a read on a 1 bit, then reading with every chip select high.
"""

from __future__ import annotations

from collections.abc import Iterable

from hw_mocks.mfrc522.board import DEFAULT_SPI_DEVICES, Board
from hw_mocks.mfrc522.chip import Mfrc522
from hw_mocks.mfrc522.clock import VirtualClock


class MisoHoldingBoard(Board):
    """A `Board` whose modules may keep driving MISO (see module docstring)."""

    def __init__(self, clock: VirtualClock | None = None,
                 spi_devices: Iterable[tuple[int, int]] = DEFAULT_SPI_DEVICES) -> None:
        super().__init__(clock, spi_devices)
        self._holders: set[int] = set()
        #: id(chip) -> the level (0/1) of the last bit it drove, for holders
        self._held: dict[int, int] = {}

    def hold_miso(self, chip: Mfrc522, level: int = 0) -> None:
        """From now on `chip` does not release MISO; it drives `level` until
        its next transfer sets the level to its last bit."""
        with self.lock:
            self._holders.add(id(chip))
            self._held[id(chip)] = 1 if level else 0

    def transfer(self, bus: int, ce: int | None, mosi: list[int], speed_hz: int) -> list[int]:
        with self.lock:
            selected = [chip for chip in self.readers if self._selected(chip, bus, ce)]
            holding = [chip for chip in self.readers
                       if id(chip) in self._holders and chip not in selected
                       and self.wiring[id(chip)].bus == bus]
            answer = super().transfer(bus, ce, mosi, speed_hz)
            held = 0xFF
            for chip in holding:
                held &= 0xFF if self._held[id(chip)] else 0x00
            if holding:
                answer = [byte & held for byte in answer] if selected else [held] * len(answer)
            if answer:
                for chip in selected:
                    if id(chip) in self._holders:
                        self._held[id(chip)] = answer[-1] & 1
            return answer
