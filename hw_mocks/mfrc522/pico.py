"""A fake MicroPython `machine` and `time` for the reader hub's firmware
under CPython, with the Pico's SPI and pins wired to emulated MFRC522s.

`PicoBoard(channels)` is a `Board` whose readers hang on SPI0 with a GPIO
chip select each (the pins of firmware/hubconfig.py) and one shared RST pin.
`machine_module(board)` and `time_module(clock)` build the modules the
firmware imports; `load_firmware()` imports the firmware's own files.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .board import Board
from .clock import VirtualClock
from .harsh import Harsh

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
FIRMWARE_MODULES = ("wire", "rc522", "cardhub", "hubconfig")
CS_PINS = (17, 20, 21, 26, 27, 28, 14, 15)
RST_PIN = 22


class PicoBoard(Board):
    """A Pico with `channels` readers wired as firmware/hubconfig.py says."""

    def __init__(self, channels: int = 8, clock: VirtualClock | None = None,
                 cs_pins: Sequence[int] = CS_PINS, rst_pin: int = RST_PIN,
                 profile: Harsh | None = None) -> None:
        super().__init__(clock=clock, spi_devices=(), profile=profile)
        if not 1 <= channels <= len(cs_pins):
            raise ValueError(f"a hub has 1 to {len(cs_pins)} readers")
        for channel in range(channels):
            self.add_reader(0, cs_pin=cs_pins[channel], rst_pin=rst_pin,
                            name=f"channel{channel}")


class Pin:
    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, board: Board, pin: int, mode: int = -1, pull: int = -1,
                 value: int | None = None) -> None:
        if not 0 <= pin <= 29:
            raise ValueError("invalid pin")
        self.board = board
        self.pin = pin
        self.mode = mode
        if mode == Pin.OUT:
            with board.lock:
                board.gpio.drive(pin, True, 1 if value else 0)

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            return self.board.gpio.level(self.pin)
        if self.mode != Pin.OUT:
            raise OSError("pin is not an output")
        with self.board.lock:
            self.board.gpio.drive(self.pin, True, 1 if level else 0)
        return None

    __call__ = value

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)


class SPI:
    def __init__(self, board: Board, spi_id: int, baudrate: int = 1_000_000, polarity: int = 0,
                 phase: int = 0, **pins: Any) -> None:
        if spi_id not in (0, 1):
            raise ValueError(f"SPI({spi_id}) doesn't exist")
        if polarity or phase:
            raise ValueError("the MFRC522 needs SPI mode 0")
        self.board = board
        self.spi_id = spi_id
        self.baudrate = baudrate

    def write_readinto(self, out: bytes | bytearray, into: bytearray) -> None:
        if len(out) != len(into):
            raise ValueError("buffers must be the same length")
        into[:] = bytes(self.board.transfer(self.spi_id, None, list(out), self.baudrate))

    def write(self, out: bytes) -> None:
        self.board.transfer(self.spi_id, None, list(out), self.baudrate)


class WDT:
    """The watchdog: counts feeds; `starved(now)` tells whether it would bite."""

    def __init__(self, clock: VirtualClock, timeout: int = 5000) -> None:
        self.clock = clock
        self.timeout = timeout
        self.feeds = 0
        self.last = clock.now()

    def feed(self) -> None:
        self.feeds += 1
        self.last = self.clock.now()

    def starved(self, now: float | None = None) -> bool:
        """Would it have reset the Pico by `now` (default: the clock's now):
        more than `timeout` ms since the last feed (or since it was made)?"""
        at = self.clock.now() if now is None else now
        return (at - self.last) * 1000 > self.timeout


def machine_module(board: Board) -> types.ModuleType:
    module = types.ModuleType("machine")
    vars(module).update(  # (a module's attributes set by name: mypy knows no "machine")
        PWRON_RESET=1, WDT_RESET=3,
        Pin=type("Pin", (Pin,), {"__init__": lambda self, pin, mode=-1, pull=-1, value=None:
                                 Pin.__init__(self, board, pin, mode, pull, value)}),
        SPI=lambda spi_id, **kw: SPI(board, spi_id, **kw),
        WDT=lambda timeout=5000: WDT(board.clock, timeout),
        reset_cause=lambda: 1,
        unique_id=lambda: b"\xe6\x61\x38\x05\x4b\x1c\x2a\x2f")
    return module


def time_module(clock: VirtualClock) -> types.SimpleNamespace:
    """MicroPython's `time`: ticks in ms on the virtual clock, sleeps advance it."""
    return types.SimpleNamespace(
        ticks_ms=lambda: int(clock.now() * 1000) & 0x3FFFFFFF,
        ticks_diff=_ticks_diff,
        sleep_ms=lambda ms: clock.sleep(ms / 1000),
        sleep_us=lambda us: clock.sleep(us / 1_000_000),
    )


def _ticks_diff(a: int, b: int) -> int:
    """MicroPython's ticks_diff on its 30-bit ticks."""
    half = 1 << 29
    return ((a - b + half) & 0x3FFFFFFF) - half


def load_firmware(firmware_dir: Path = FIRMWARE_DIR) -> dict[str, types.ModuleType]:
    """Import the firmware's modules (as MicroPython would, top-level names)
    and take them out of `sys.modules` again so nothing else sees them."""
    if not (firmware_dir / "cardhub.py").is_file():
        raise FileNotFoundError(f"no hub firmware in {firmware_dir}")
    saved = {name: sys.modules.pop(name) for name in FIRMWARE_MODULES if name in sys.modules}
    sys.path.insert(0, str(firmware_dir))
    try:
        return {name: importlib.import_module(name) for name in FIRMWARE_MODULES}
    finally:
        sys.path.remove(str(firmware_dir))
        for name in FIRMWARE_MODULES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def build_hub(board: Board, port: Any, firmware: dict[str, types.ModuleType] | None = None,
              **hub_options: Any) -> Any:
    """The firmware's `Hub` on `board`, wired by the firmware's own `build`."""
    fw = firmware or load_firmware()
    config = types.SimpleNamespace(**{k: getattr(fw["hubconfig"], k)
                                      for k in dir(fw["hubconfig"]) if k.isupper()})
    config.CS_PINS = tuple(config.CS_PINS)[:len(board.readers)]
    for key, value in hub_options.items():
        setattr(config, key.upper(), value)
    return fw["cardhub"].build(machine_module(board), time_module(board.clock), config, port)

