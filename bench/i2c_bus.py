"""The OLED's I2C bus as luma really drives it, recorded transaction by
transaction, and the time those transactions take at 400 kHz.

`cardtable run` opens the display with luma's `i2c(port=...)`, which uses
smbus2 in luma's "managed" mode: each `command(...)` is one SMBus block write
(the address, the control byte 0x00, up to 32 command bytes) and each
`data(...)` is one `i2c_rdwr` message of up to 4096 bytes (the address, the
control byte 0x40, the data). `recording_smbus()` replaces `smbus2.SMBus` by
`RecordingSMBus` while displays are opened, so luma runs its own code and
only the kernel device is missing.

On the wire a transaction is a START, the address byte, the control byte and
the payload (every byte 8 clocks and an ACK), and a STOP:
`2 + 9 * (2 + n)` clocks for n payload bytes. The kernel's time per message
(an interrupt or two on the Pi) is not counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

I2C_HZ = 400_000
#: START and STOP conditions, about one clock each.
START_STOP_CLOCKS = 2


class RecordingSMBus:
    """An smbus2.SMBus stand-in: keeps the payload size (after the control
    byte) of every transaction."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.transactions: list[int] = []

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        if len(data) > 32:
            raise ValueError("an SMBus block write carries at most 32 bytes")
        self.transactions.append(len(data))

    def i2c_rdwr(self, *messages: Any) -> None:
        for message in messages:
            self.transactions.append(int(message.len) - 1)   # its first byte: the control byte

    def close(self) -> None:
        pass

    def take(self) -> list[int]:
        """The transactions since the last `take`."""
        out, self.transactions = self.transactions, []
        return out


def clocks(transactions: list[int]) -> int:
    return sum(START_STOP_CLOCKS + 9 * (2 + n) for n in transactions)


def bus_ms(transactions: list[int], hz: int = I2C_HZ) -> float:
    """Milliseconds on the bus for these transactions (payload sizes)."""
    return clocks(transactions) / hz * 1000


@contextmanager
def recording_smbus() -> Iterator[list[RecordingSMBus]]:
    """While inside, luma's `i2c(port=...)` opens a `RecordingSMBus`; the
    list yielded gets every bus opened."""
    import smbus2

    opened: list[RecordingSMBus] = []

    class _Bus(RecordingSMBus):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__()
            opened.append(self)

    saved = smbus2.SMBus
    smbus2.SMBus = _Bus  # type: ignore[misc,assignment]  # the kernel device, replaced
    try:
        yield opened
    finally:
        smbus2.SMBus = saved  # type: ignore[misc]
