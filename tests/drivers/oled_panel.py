"""A model of the SSD1306's and SH1106's display RAM, fed the command and
data bytes luma's device classes hand to their serial interface.

It is the capture interface the real luma classes write into: it parses the
controller commands (with their argument counts from the datasheets) and
stores data bytes where the chip would, so a test can compare what the
panel shows with the picture it was meant to show. The panel shows its RAM
inverted after 0xA7 (SSD1306 "Set Normal/Inverse Display", SH1106 "Set
Normal/Reverse Display"), as it is after 0xA6 or a reset; `power_cut` loses
everything the chip held.
"""

from __future__ import annotations

#: Commands followed by argument bytes, per chip (SSD1306 / SH1106 datasheets).
ARGS = {
    "ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1,
                0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
    "sh1106": {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
               0xDB: 1, 0xDC: 1},
}


class CapturePanel:
    """A luma serial interface (`command`, `data`, `cleanup`) that records
    every call and keeps the panel's RAM (`chip` "ssd1306" or "sh1106")."""

    def __init__(self, chip: str, width: int = 128, height: int = 64,
                 ram_width: int | None = None) -> None:
        self.chip = chip
        self.width = width
        self.pages = height // 8
        self.ram_width = ram_width or (132 if chip == "sh1106" else width)
        self.ram = [bytearray(self.ram_width) for _ in range(self.pages if chip == "ssd1306"
                                                           else 16)]
        self.calls: list[tuple[str, bytes]] = []
        self.contrast: int | None = None
        self.on = False
        self.inverse = False
        self.fail_next = 0
        # SSD1306 horizontal addressing window and pointer
        self.window = (0, self.ram_width - 1, 0, self.pages - 1)
        self.col = 0
        self.page = 0
        self.mode = 2   # page addressing until set (SSD1306 reset value)

    # ----- the serial interface -------------------------------------------------------

    def command(self, *cmd: int) -> None:
        self._maybe_fail()
        self.calls.append(("command", bytes(cmd)))
        i = 0
        while i < len(cmd):
            c = cmd[i]
            n = ARGS[self.chip].get(c, 0)
            args = cmd[i + 1:i + 1 + n]
            self._apply(c, args)
            i += 1 + n

    def data(self, data) -> None:
        self._maybe_fail()
        data = bytes(data)
        self.calls.append(("data", data))
        for b in data:
            self.ram[self.page][self.col] = b
            self._advance()

    def cleanup(self) -> None:
        self.calls.append(("cleanup", b""))

    # ----- the chip ------------------------------------------------------------------

    def _maybe_fail(self) -> None:
        if self.fail_next:
            self.fail_next -= 1
            raise OSError(121, "Remote I/O error")

    def _apply(self, c: int, args: tuple[int, ...]) -> None:
        if c == 0x81:
            self.contrast = args[0]
        elif c == 0xA6:
            self.inverse = False
        elif c == 0xA7:
            self.inverse = True
        elif c == 0xAF:
            self.on = True
        elif c == 0xAE:
            self.on = False
        elif self.chip == "ssd1306" and c == 0x20:
            self.mode = args[0]
        elif self.chip == "ssd1306" and c == 0x21:
            self.window = (args[0], args[1], self.window[2], self.window[3])
            self.col = args[0]
        elif self.chip == "ssd1306" and c == 0x22:
            self.window = (self.window[0], self.window[1], args[0], args[1])
            self.page = args[0]
        elif 0xB0 <= c <= 0xBF and (self.chip == "sh1106" or c <= 0xB7):
            self.page = c & 0x0F if self.chip == "sh1106" else c & 0x07
        elif c <= 0x0F:
            self.col = (self.col & 0xF0) | c
        elif 0x10 <= c <= 0x1F:
            self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)

    def _advance(self) -> None:
        if self.chip == "ssd1306" and self.mode == 0:
            c0, c1, p0, p1 = self.window
            if self.col >= c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
            else:
                self.col += 1
        else:
            self.col = min(self.col + 1, self.ram_width - 1)

    def power_cut(self, seed: int = 0) -> None:
        """The panel lost its power and came back: its RAM holds noise, and
        every setting is at its reset value (display off, normal video,
        contrast 0x7F / 0x80, page addressing)."""
        import random

        rng = random.Random(seed)
        for row in self.ram:
            row[:] = bytes(rng.randrange(256) for _ in row)
        self.on = False
        self.inverse = False
        self.contrast = 0x7F if self.chip == "ssd1306" else 0x80
        self.window = (0, self.ram_width - 1, 0, self.pages - 1)
        self.col = self.page = 0
        self.mode = 2

    # ----- reading back ----------------------------------------------------------------

    def pixels(self, col_offset: int = 0) -> list[list[int]]:
        """The visible picture as rows of 0/1 (the RAM, inverted after 0xA7),
        `col_offset` = first visible RAM column."""
        out = []
        flip = 1 if self.inverse else 0
        for y in range(self.pages * 8):
            row = self.ram[y // 8]
            out.append([((row[col_offset + x] >> (y % 8)) & 1) ^ flip
                        for x in range(self.width)])
        return out

    def sent(self) -> int:
        """Command and data bytes sent since the last `reset_count`."""
        return sum(len(b) for kind, b in self.calls if kind != "cleanup")

    def reset_count(self) -> None:
        self.calls.clear()
