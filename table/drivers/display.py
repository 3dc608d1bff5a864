"""The OLED: luma.oled's SSD1306 and SH1106 on I2C or SPI, sending only the
part of each frame that changed.

luma's own `display()` always sends the whole frame (1 KiB for 128x64): at
I2C's 400 kHz that is ~25 ms per update. This adapter keeps a copy of what
the panel holds (page bytes: each byte is 8 pixels of one column, bit 0 at
the top) and, for a new frame, sends only the columns of the pages that
differ, through the luma device's `command`/`data` (so luma's serial
interfaces, rotation and set-up are used unchanged):

* SSD1306 (horizontal addressing, as luma sets it up): one column/page
  window per changed rectangle (`0x21 c0 c1 0x22 p0 p1`, then the bytes);
  changed runs on neighbouring pages are merged into one window when that is
  cheaper.
* SH1106 (page addressing only): per changed run, `0xB0|page`, the column
  (plus the panel's column offset), then the bytes.

Runs closer together than the cost of a new address command are merged.

**Inverse video by the panel's own command.** Both chips show their RAM
either as it is or inverted (SSD1306 "Set Normal/Inverse Display", SH1106
"Set Normal/Reverse Display": 0xA6 normal, 0xA7 inverse; the RAM is not
touched). The adapter knows the panel's RAM and that flag, and for each new
frame F sends either F with the flag as it is, or the inverse of F and the
flag flipped (one command), whichever changes fewer bytes: an error screen
drawn in inverse video then costs the bytes where its text differs from the
screen before, not a whole frame, and so does the play that clears it. The
flag is sent after the frame's bytes, so that while they travel only the
changed places show anything new. What the panel shows is the frame, pixel
for pixel, either way.

A failed write (a loose I2C wire, a panel that lost its power) is logged;
the next frame starts again from luma's own set-up commands (recorded when
the display was opened: a panel that lost its power needs them, and they set
the flag to normal), the contrast and the flag set explicitly, and the
whole frame. Hardware libraries are imported inside functions only.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL.Image import Image

    from table.config import DisplayConfig

log = logging.getLogger(__name__)

#: Byte with its bits in reverse order: PIL packs the top pixel in the high
#: bit, the panels want it in the low bit.
_REVERSE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
#: What a window costs on I2C besides its address commands, in bytes' time.
I2C_WINDOW_EXTRA = 4
#: A run of bytes that differ (not 0 in the XOR of old and new).
_CHANGED = re.compile(rb"[^\x00]+")
#: Every bit of a byte flipped.
_INVERT = bytes(255 - i for i in range(256))
#: The panel shows its RAM as it is / inverted (the same on both chips).
NORMAL_DISPLAY, INVERSE_DISPLAY = 0xA6, 0xA7
#: What flipping the flag costs, in the byte counts the plans compare: its
#: command byte and the transaction around it (address, control, START/STOP).
FLIP_COST = 4


def differing(a: bytes, b: bytes) -> int:
    """How many bytes of `a` and `b` (the same length) differ."""
    x = int.from_bytes(a, "little") ^ int.from_bytes(b, "little")
    return len(a) - x.to_bytes(len(a), "little").count(0)


def page_bytes(image: Image) -> bytes:
    """A mode "1" image (height a multiple of 8) as the panel's page bytes:
    page 0 columns 0..w-1, then page 1, ... (what luma's full frame sends)."""
    from PIL import Image as PILImage

    w, h = image.size
    pages = h // 8
    raw = image.transpose(PILImage.Transpose.TRANSPOSE).tobytes().translate(_REVERSE)
    return b"".join(raw[p::pages] for p in range(pages))


@dataclass(frozen=True)
class Window:
    """Pages p0..p1 and columns c0..c1 (inclusive) of the panel."""

    p0: int
    p1: int
    c0: int
    c1: int

    @property
    def area(self) -> int:
        return (self.p1 - self.p0 + 1) * (self.c1 - self.c0 + 1)


def changed_runs(old: bytes, new: bytes, width: int, gap: int) -> list[list[tuple[int, int]]]:
    """Per page, the runs of changed columns (c0, c1), runs less than `gap`
    apart merged."""
    n = len(new)
    xor = (int.from_bytes(old, "little") ^ int.from_bytes(new, "little")).to_bytes(n, "little")
    out: list[list[tuple[int, int]]] = []
    for base in range(0, n, width):
        runs: list[tuple[int, int]] = []
        for m in _CHANGED.finditer(xor, base, base + width):
            start, end = m.start() - base, m.end() - base - 1
            if runs and start - runs[-1][1] - 1 < gap:
                runs[-1] = (runs[-1][0], end)
            else:
                runs.append((start, end))
        out.append(runs)
    return out


def plan_windows(runs: Sequence[Sequence[tuple[int, int]]], overhead: int,
                 merge_pages: bool) -> list[Window]:
    """Windows covering every changed run. With `merge_pages` (SSD1306), a
    page's single run joins the window above when the merged window costs no
    more than sending them apart (`overhead` bytes of commands per window)."""
    windows: list[Window] = []
    open_: Window | None = None
    for p, page_runs in enumerate(runs):
        if merge_pages and len(page_runs) == 1 and open_ is not None and open_.p1 == p - 1:
            c0, c1 = page_runs[0]
            merged = Window(open_.p0, p, min(open_.c0, c0), max(open_.c1, c1))
            apart = open_.area + (c1 - c0 + 1) + 2 * overhead
            if merged.area + overhead <= apart:
                open_ = merged
                continue
        if open_ is not None:
            windows.append(open_)
            open_ = None
        if merge_pages and len(page_runs) == 1:
            open_ = Window(p, p, *page_runs[0])
        else:
            windows.extend(Window(p, p, c0, c1) for c0, c1 in page_runs)
    if open_ is not None:
        windows.append(open_)
    return windows


class OledDisplay:
    """The Display port on a luma SSD1306 or SH1106 device (see module doc).

    `device` is the luma device, already set up (luma clears the panel when
    it is created, so the panel starts black); `init_commands` the commands
    luma sent to set it up (sent again after a failed write). The flag
    "inverse" is set to normal explicitly here. `bytes_sent` counts every
    command and data byte `show` has sent.
    """

    def __init__(self, device: Any, chip: str, on_close: Any = None,
                 init_commands: Sequence[tuple[int, ...]] = ()) -> None:
        if chip not in ("ssd1306", "sh1106"):
            raise ValueError(f"unknown display chip {chip!r}")
        self.device = device
        self.chip = chip
        self._width = int(device._w)
        self._pages = int(device._h) // 8
        #: What the panel's RAM holds (the visible columns), None: not known.
        self._panel: bytes | None = bytes(self._width * self._pages)
        #: Whether the panel shows its RAM inverted (0xA7).
        self.inverse = False
        self._init_commands = [tuple(c) for c in init_commands]
        #: What one more window costs besides its bytes, in bytes (its address
        #: commands; `open_display` adds a transaction's overhead on I2C).
        self.window_cost = 6 if chip == "ssd1306" else 3
        self._contrast: int | None = None
        self._on_close = on_close
        self.bytes_sent = 0
        self.frames = 0
        self.failures = 0
        self.last_error: str = ""
        self.device.command(NORMAL_DISPLAY)

    @property
    def size(self) -> tuple[int, int]:
        return tuple(self.device.size)

    @property
    def healthy(self) -> bool:
        """False after a write failed, until a frame went through again."""
        return self._panel is not None

    def show(self, image: Image) -> None:
        if image.mode != "1":
            raise ValueError(f'the display takes mode "1" images, not mode "{image.mode}"')
        if tuple(image.size) != self.size:
            raise ValueError(f"the display takes {self.size[0]}x{self.size[1]} images, "
                             f"not {image.size[0]}x{image.size[1]}")
        frame = page_bytes(self.device.preprocess(image))
        old = self._panel
        try:
            if old is None:
                ram, inverse = frame, False
                self._set_up_again()
                self._send([Window(0, self._pages - 1, 0, self._width - 1)], ram)
                self._set_inverse(False)
            else:
                ram, inverse = self._choose(old, frame)
                if ram != old:
                    self._send(self._plan(old, ram), ram)
                if inverse != self.inverse:
                    self._set_inverse(inverse)
        except Exception as exc:  # noqa: BLE001 - any bus error: resend whole next time
            self._panel = None
            self.failures += 1
            self.last_error = f"{type(exc).__name__}: {exc}"
            log.warning("display write failed (%s); the next frame is sent whole",
                        self.last_error)
            return
        self._panel = ram
        self.inverse = inverse
        self.frames += 1

    def _choose(self, old: bytes, frame: bytes) -> tuple[bytes, bool]:
        """The RAM and the flag that show `frame` for the fewest bytes: the
        frame with the flag as it is, or its inverse with the flag flipped."""
        flipped = frame.translate(_INVERT)
        keep = flipped if self.inverse else frame
        turn = frame if self.inverse else flipped
        if differing(old, turn) + FLIP_COST < differing(old, keep):
            return turn, not self.inverse
        return keep, self.inverse

    def _set_inverse(self, inverse: bool) -> None:
        self.device.command(INVERSE_DISPLAY if inverse else NORMAL_DISPLAY)
        self.bytes_sent += 1

    def _set_up_again(self) -> None:
        """After a failed write: luma's set-up commands again (a panel that
        lost its power needs them), and the contrast."""
        for cmd in self._init_commands:
            self.device.command(*cmd)
            self.bytes_sent += len(cmd)
        if self._contrast is not None:
            self.device.contrast(self._contrast)
            self.bytes_sent += 2

    def _plan(self, old: bytes, new: bytes) -> list[Window]:
        """The windows to send; never more bytes than the whole frame."""
        overhead = self.window_cost
        runs = changed_runs(old, new, self._width, gap=overhead)
        windows = plan_windows(runs, overhead=overhead, merge_pages=self.chip == "ssd1306")
        whole = Window(0, self._pages - 1, 0, self._width - 1)
        if self.chip == "ssd1306":
            cost = sum(w.area + overhead for w in windows)
            if cost >= whole.area + overhead:
                return [whole]
        else:
            cost = sum(w.area + overhead * (w.p1 - w.p0 + 1) for w in windows)
            if cost >= whole.area + overhead * self._pages:
                return [whole]
        return windows

    def _send(self, windows: Sequence[Window], new: bytes) -> None:
        w = self._width
        for win in windows:
            data = b"".join(new[p * w + win.c0:p * w + win.c1 + 1]
                            for p in range(win.p0, win.p1 + 1))
            if self.chip == "ssd1306":
                col = getattr(self.device, "_colstart", 0)
                cmd: tuple[int, ...] = (0x21, col + win.c0, col + win.c1, 0x22, win.p0, win.p1)
                self.device.command(*cmd)
                self.device.data(list(data))
                self.bytes_sent += len(cmd) + len(data)
            else:
                col = getattr(self.device, "_page_address_offset", 0) + win.c0
                for p in range(win.p0, win.p1 + 1):
                    cmd = (0xB0 | p, col & 0x0F, 0x10 | (col >> 4))
                    row = new[p * w + win.c0:p * w + win.c1 + 1]
                    self.device.command(*cmd)
                    self.device.data(list(row))
                    self.bytes_sent += len(cmd) + len(row)

    def contrast(self, level: int) -> None:
        self.device.contrast(level)
        self._contrast = level

    def close(self) -> None:
        """Blank the panel and release the bus (and the D/C and RES pins)."""
        try:
            if self.inverse or self._panel is None:
                try:    # luma's cleanup clears the RAM: black only with the flag normal
                    self._set_inverse(False)
                except Exception as exc:  # noqa: BLE001 - closing anyway
                    log.info("display: could not set normal video before closing: %s", exc)
            self.device.cleanup()
        finally:
            if self._on_close is not None:
                self._on_close()


class NoDisplay:
    """A table without a screen (`driver = "none"`): keeps the last frame."""

    def __init__(self, size: tuple[int, int]) -> None:
        self._size = size
        self.image: Image | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def show(self, image: Image) -> None:
        if image.mode != "1" or tuple(image.size) != self._size:
            raise ValueError(f'the display takes mode "1" {self._size[0]}x{self._size[1]} '
                             f"images, not mode \"{image.mode}\" {image.size}")
        self.image = image.copy()

    def close(self) -> None:
        pass


class GpiozeroAsRPiGPIO:
    """The few RPi.GPIO calls luma's SPI interface makes (D/C and RES
    lines), done with gpiozero so they work where RPi.GPIO does not (Pi 5:
    lgpio) and under gpiozero's MockFactory."""

    BCM = 11
    BOARD = 10
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1

    def __init__(self, pin_factory: Any) -> None:
        self._factory = pin_factory
        self._pins: dict[int, Any] = {}

    def setmode(self, mode: int) -> None:
        pass

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, initial: int | None = None) -> None:
        from gpiozero import DigitalOutputDevice

        if direction != self.OUT:
            raise ValueError("only outputs are needed by the display")
        self.cleanup(pin)
        self._pins[pin] = DigitalOutputDevice(pin, initial_value=bool(initial),
                                              pin_factory=self._factory)

    def output(self, pin: int, value: int) -> None:
        self._pins[pin].value = bool(value)

    def cleanup(self, pins: int | Sequence[int] | None = None) -> None:
        if pins is None:
            chosen = list(self._pins)
        elif isinstance(pins, int):
            chosen = [pins]
        else:
            chosen = list(pins)
        for pin in chosen:
            dev = self._pins.pop(pin, None)
            if dev is not None:
                dev.close()


def open_display(config: DisplayConfig, pin_factory: Any = None, *,
                 serial: Any = None, i2c_bus: Any = None, spi_device: Any = None
                 ) -> OledDisplay | NoDisplay:
    """The display the configuration describes.

    `serial` replaces the whole luma serial interface (tests capture the
    bytes with it); `i2c_bus` (an smbus2-like object) or `spi_device` (a
    spidev-like object) keep luma's interface but replace the kernel device.
    """
    if config.driver == "none":
        return NoDisplay(config.size)
    from luma.oled.device import sh1106, ssd1306

    on_close = None
    if serial is None:
        if config.interface == "i2c":
            from luma.core.interface.serial import i2c

            serial = i2c(bus=i2c_bus, port=config.i2c_port, address=config.i2c_address)
        else:
            from luma.core.interface.serial import spi

            gpio = GpiozeroAsRPiGPIO(pin_factory)
            serial = spi(spi=spi_device, gpio=gpio, port=config.spi_port,
                         device=config.spi_device, bus_speed_hz=config.spi_speed_hz,
                         gpio_DC=config.dc_pin, gpio_RST=config.reset_pin)
            on_close = gpio.cleanup
    cls = ssd1306 if config.driver == "ssd1306" else sh1106
    recorder = _CommandRecorder(serial)
    device = cls(recorder, width=config.width, height=config.height, rotate=config.rotate)
    device._serial_interface = serial    # luma's own attribute: the recorder steps out
    display = OledDisplay(device, config.driver, on_close=on_close,
                          init_commands=recorder.commands)
    if config.interface == "i2c":
        # a window is two I2C transactions more: each its START, address,
        # control byte and STOP (about 2 bytes' time)
        display.window_cost += I2C_WINDOW_EXTRA
    display.contrast(config.contrast)
    return display


class _CommandRecorder:
    """A luma serial interface that passes everything on and keeps the
    commands (luma's set-up, sent again after a failed write)."""

    def __init__(self, serial: Any) -> None:
        self._serial = serial
        self.commands: list[tuple[int, ...]] = []

    def command(self, *cmd: int) -> None:
        self.commands.append(tuple(cmd))
        self._serial.command(*cmd)

    def data(self, data: Any) -> None:
        self._serial.data(data)

    def cleanup(self) -> None:
        self._serial.cleanup()
