"""An I2C bus with an OLED on it: an `smbus2.SMBus` stand-in whose panel
(tests/drivers/oled_panel.py: the SSD1306's or SH1106's display RAM) takes
the transactions as the chip would, after the control byte.

Unforgiving as the bus is: a transaction to another address fails as a
missing device does (OSError 121, Remote I/O error), an SMBus block write
carries at most 32 bytes, a control byte other than 0x00 (commands) or 0x40
(data) is refused, and a closed bus cannot be written to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tests.drivers.oled_panel import CapturePanel


class PanelBus:
    def __init__(self, panel: CapturePanel, address: int = 0x3C,
                 on_write: Callable[[], None] | None = None) -> None:
        self.panel = panel
        self.address = address
        self.closed = False
        self.on_write = on_write

    def _check(self, addr: int) -> None:
        if self.closed:
            raise ValueError("I/O operation on a closed bus")
        if addr != self.address:
            raise OSError(121, "Remote I/O error")

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        self._check(addr)
        if len(data) > 32:
            raise ValueError("an SMBus block write carries at most 32 bytes")
        if register != 0x00:
            raise ValueError(f"control byte {register:#04x} with a block write of commands")
        self.panel.command(*data)
        if self.on_write is not None:
            self.on_write()

    def i2c_rdwr(self, *messages: Any) -> None:
        for message in messages:
            self._check(message.addr)
            raw = bytes(message)
            if raw[:1] == b"\x40":
                self.panel.data(raw[1:])
            elif raw[:1] == b"\x00":
                self.panel.command(*raw[1:])
            else:
                raise ValueError(f"control byte {raw[:1].hex()} is neither commands nor data")
        if self.on_write is not None:
            self.on_write()

    def close(self) -> None:
        self.closed = True


@contextmanager
def panel_on_bus(monkeypatch: Any, chip: str = "ssd1306", width: int = 128, height: int = 64,
                 address: int = 0x3C) -> Iterator[tuple[CapturePanel, list[PanelBus]]]:
    """While inside, `smbus2.SMBus(port)` opens the bus of one panel: the
    panel, and every bus opened (each `SMBus(...)` a new handle on it)."""
    import smbus2

    panel = CapturePanel(chip, width, height)
    opened: list[PanelBus] = []

    def open_bus(port: int, *args: Any, **kwargs: Any) -> PanelBus:
        bus = PanelBus(panel, address)
        opened.append(bus)
        return bus

    monkeypatch.setattr(smbus2, "SMBus", open_bus)
    yield panel, opened
