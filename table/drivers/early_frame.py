"""The first frame on an I2C OLED before luma and Pillow are loaded.

`cardtable run --hardware pi` shows "Starting…" (drawn ahead of time, see
`table.first_frame`) the moment it starts: through smbus2 on the display's
own I2C bus and address, with the chip's own set-up sent first, exactly the
commands luma's `ssd1306` / `sh1106` classes send when they open the panel
(a test holds the two to the same bytes). Then the bus is closed again and
the table loads; luma opens the panel as always (it sets the chip up again
and clears it), and the display adapter shows "Starting…" once more, so
the panel goes blank for the time luma's clear takes on the bus (≈ 25 ms).

Commands are SMBus block writes after the control byte 0x00; the frame is
sent as luma sends it in its managed mode (one `i2c_rdwr` message, control
byte 0x40, per 4,096 bytes: SSD1306) or one per page (SH1106).
"""

from __future__ import annotations

from typing import Any

#: (chip, width, height) -> the set-up luma's device class sends (before
#: its contrast, clear and display-on).
_SSD1306 = {  # multiplex, clock divider, COM pins
    (128, 64): (0x3F, 0x80, 0x12),
    (128, 32): (0x1F, 0x80, 0x02),
}
_SH1106 = {  # multiplex, display offset
    (128, 128): (0xFF, 0x02),
    (128, 64): (0x3F, 0x00),
    (128, 32): (0x20, 0x0F),
}
#: The SH1106's RAM is 132 columns wide; a 128-column panel starts at 2 (luma's default).
SH1106_COLUMN_OFFSET = 0x02
DISPLAY_ON = 0xAF
DISPLAY_OFF = 0xAE
SET_CONTRAST = 0x81
COMMAND, DATA = 0x00, 0x40


def setup_commands(chip: str, width: int, height: int) -> tuple[int, ...]:
    """The chip's set-up as luma's class for it sends it; ValueError for a
    chip or size luma does not drive."""
    if chip == "ssd1306" and (width, height) in _SSD1306:
        multiplex, clockdiv, compins = _SSD1306[(width, height)]
        return (0xAE, 0xD5, clockdiv, 0xA8, multiplex, 0xD3, 0x00, 0x40, 0x8D, 0x14,
                0x20, 0x00, 0xA1, 0xC8, 0xDA, compins, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6)
    if chip == "sh1106" and (width, height) in _SH1106:
        multiplex, offset = _SH1106[(width, height)]
        return (0xAE, 0x20, 0x10, 0xB0, 0xC8, 0x00, 0x10, 0x40, 0xA1, 0xA6, 0xA8, multiplex,
                0xA4, 0xD3, offset, 0xD5, 0xF0, 0xD9, 0x22, 0xDA, 0x12, 0xDB, 0x20, 0x8D, 0x14)
    raise ValueError(f"no set-up known for a {width}x{height} {chip}")


def frame_messages(chip: str, width: int, height: int, pages: bytes
                   ) -> list[tuple[int, tuple[int, ...] | bytes]]:
    """(control byte, payload) of each transaction that puts `pages` (the
    display RAM, page by page) on the panel, as luma's `display()` does."""
    n = height // 8
    if len(pages) != width * n:
        raise ValueError(f"{len(pages)} bytes are not a {width}x{height} frame")
    if chip == "ssd1306":
        out: list[tuple[int, tuple[int, ...] | bytes]] = [
            (COMMAND, (0x21, 0, width - 1, 0x22, 0, n - 1))]
        out += [(DATA, pages[i:i + 4096]) for i in range(0, len(pages), 4096)]
        return out
    out = []
    col = SH1106_COLUMN_OFFSET
    for p in range(n):
        out.append((COMMAND, (0xB0 | p, col & 0x0F, 0x10 | (col >> 4))))
        out.append((DATA, pages[p * width:(p + 1) * width]))
    return out


def _send(port: int, address: int,
          messages: list[tuple[int, tuple[int, ...] | bytes]]) -> None:
    import smbus2

    bus: Any = smbus2.SMBus(port)
    try:
        for control, payload in messages:
            if control == COMMAND:
                bus.write_i2c_block_data(address, COMMAND, list(payload))
            else:
                bus.i2c_rdwr(smbus2.i2c_msg.write(address, [DATA, *payload]))
    finally:
        bus.close()


def show_early_frame(chip: str, port: int, address: int, width: int, height: int,
                     contrast: int, pages: bytes) -> None:
    """Set the panel up, put `pages` on it and switch it on; OSError (no such
    bus, no answer at the address) and ValueError (a chip or size not known)
    are the caller's to take."""
    messages: list[tuple[int, tuple[int, ...] | bytes]] = [
        (COMMAND, setup_commands(chip, width, height)), (COMMAND, (SET_CONTRAST, contrast))]
    messages += frame_messages(chip, width, height, pages)
    messages.append((COMMAND, (DISPLAY_ON,)))
    _send(port, address, messages)


def panel_off(port: int, address: int) -> None:
    """Switch the panel off (the table will not start: no stale "Starting…")."""
    _send(port, address, [(COMMAND, (DISPLAY_OFF,))])
