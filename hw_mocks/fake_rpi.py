"""Fake `RPi.GPIO` and `spidev` modules in front of the MFRC522 emulator.

`install(board)` puts them into `sys.modules`, so that `import mfrc522` (which
imports `RPi.GPIO` and `spidev` at the top) loads the REAL package unchanged
and its register accesses reach the emulated chips of `board`.

They keep the checks of the real modules that matter here: one numbering
mode per process (`setmode` with another mode raises ValueError, as RPi.GPIO
does), `setup` before `output`, channels valid for a 40-pin header, `cleanup()`
that releases every channel and forgets the mode, `/dev/spidevB.D` that must
exist, no transfer on a closed device. Channel numbers follow the mode
(BOARD pins are translated to BCM). Every call is logged in `board.gpio.calls`
and every released pin in `board.gpio.cleaned`.
"""

from __future__ import annotations

import errno
import sys
import types
from collections.abc import Iterable, Sequence
from typing import Any

from hw_mocks.mfrc522.board import BCM, BOARD, BOARD_TO_BCM, Board, GpioBank

OUT, IN = 0, 1
HIGH, LOW = 1, 0
PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
RISING, FALLING, BOTH = 31, 32, 33

_current: dict[str, Board] = {}


def _board() -> Board:
    try:
        return _current["board"]
    except KeyError:
        raise RuntimeError("hw_mocks.fake_rpi: no board installed (call install(board))") from None


def _bank() -> GpioBank:
    return _board().gpio


def _channels(channel: int | Iterable[int]) -> list[int]:
    if isinstance(channel, int):
        return [channel]
    return list(channel)


def _to_bcm(channel: int) -> int:
    bank = _bank()
    if bank.mode is None:
        raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) "
                           "or GPIO.setmode(GPIO.BCM)")
    if bank.mode == BOARD:
        if channel not in BOARD_TO_BCM:
            raise ValueError("The channel sent is invalid on a Raspberry Pi")
        return BOARD_TO_BCM[channel]
    if not 0 <= channel <= 27:
        raise ValueError("The channel sent is invalid on a Raspberry Pi")
    return channel


# ----- RPi.GPIO -----------------------------------------------------------------

def setmode(mode: int) -> None:
    bank = _bank()
    bank.calls.append(("setmode", (mode,)))
    if mode not in (BOARD, BCM):
        raise ValueError("An invalid mode was passed to setmode()")
    if bank.mode is not None and bank.mode != mode:
        raise ValueError("A different mode has already been set!")
    bank.mode = mode


def getmode() -> int | None:
    return _bank().mode


def setwarnings(flag: bool) -> None:
    _bank().calls.append(("setwarnings", (flag,)))


def setup(channel: int | Sequence[int], direction: int, pull_up_down: int = PUD_OFF,
          initial: int = -1) -> None:
    bank = _bank()
    bank.calls.append(("setup", (channel, direction, pull_up_down, initial)))
    for ch in _channels(channel):
        bcm = _to_bcm(ch)
        if direction == OUT:
            prior = bank.pins.get(bcm)
            level = initial if initial in (0, 1) else prior.level if prior and prior.output else 0
            bank.drive(bcm, True, level)
        elif direction == IN:
            bank.drive(bcm, False, 1)
        else:
            raise ValueError("An invalid direction was passed to setup()")


def output(channel: int | Sequence[int], value: int | bool | Sequence[int]) -> None:
    bank = _bank()
    bank.calls.append(("output", (channel, value)))
    chans = _channels(channel)
    values = [int(bool(v)) for v in value] if isinstance(value, (list, tuple)) else (
        [int(bool(value))] * len(chans))
    if len(values) != len(chans):
        raise RuntimeError("Number of channels != number of values")
    for ch, level in zip(chans, values, strict=True):
        bcm = _to_bcm(ch)
        pin = bank.pins.get(bcm)
        if pin is None or not pin.output:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        bank.drive(bcm, True, level)


def input(channel: int) -> int:  # noqa: A001 - the real module's name
    bank = _bank()
    bcm = _to_bcm(channel)
    if bcm not in bank.pins:
        raise RuntimeError("You must setup() the GPIO channel first")
    return bank.level(bcm)


def cleanup(channel: int | Sequence[int] | None = None) -> None:
    bank = _bank()
    bank.calls.append(("cleanup", (channel,)))
    if channel is None:
        for bcm in sorted(bank.pins):
            bank.release(bcm)
        bank.pins.clear()
        bank.mode = None
        return
    for ch in _channels(channel):
        bcm = _to_bcm(ch)
        if bcm in bank.pins:
            bank.release(bcm)
            del bank.pins[bcm]


# ----- spidev -------------------------------------------------------------------

class SpiDev:
    """`spidev.SpiDev` on the emulated board."""

    def __init__(self, bus: int | None = None, device: int | None = None) -> None:
        self.bus = -1
        self.device = -1
        self.mode = 0
        self.bits_per_word = 8
        self.max_speed_hz = 125_000_000
        self._no_cs_unopened = False
        self.cshigh = False
        self.lsbfirst = False
        self.threewire = False
        self.loop = False
        if bus is not None and device is not None:
            self.open(bus, device)

    @property
    def no_cs(self) -> bool:
        """SPI_NO_CS: like the kernel's mode bits, it belongs to the spi device,
        so every handle open on /dev/spidevB.D shares it."""
        if self.bus < 0:
            return self._no_cs_unopened
        return (self.bus, self.device) in _board().spi_no_cs

    @no_cs.setter
    def no_cs(self, value: bool) -> None:
        if self.bus < 0:
            self._no_cs_unopened = bool(value)
            return
        if value:
            _board().spi_no_cs.add((self.bus, self.device))
        else:
            _board().spi_no_cs.discard((self.bus, self.device))

    def open(self, bus: int, device: int) -> None:
        if (bus, device) not in _board().spi_devices:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        self.bus, self.device = bus, device

    def close(self) -> None:
        self.bus = self.device = -1

    def fileno(self) -> int:
        return -1 if self.bus < 0 else 100 + self.bus * 10 + self.device

    def xfer2(self, values: Sequence[int], speed_hz: int = 0, delay_usecs: int = 0,
              bits_per_word: int = 0) -> list[int]:
        if self.bus < 0:
            raise OSError(errno.EBADF, "Bad file descriptor")
        data = list(values)
        if not all(isinstance(v, int) for v in data):
            raise TypeError("Non-Int/Long value in arguments")
        data = [v & 0xFF for v in data]
        ce = None if self.no_cs else self.device
        return _board().transfer(self.bus, ce, data, speed_hz or self.max_speed_hz)

    xfer = xfer2
    xfer3 = xfer2

    def writebytes(self, values: Sequence[int]) -> None:
        self.xfer2(values)

    writebytes2 = writebytes

    def readbytes(self, length: int) -> list[int]:
        return self.xfer2([0] * length)


# ----- installing ---------------------------------------------------------------

def _module(name: str, members: dict[str, Any]) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(members)
    return module


GPIO = _module("RPi.GPIO", {
    "BCM": BCM, "BOARD": BOARD, "OUT": OUT, "IN": IN, "HIGH": HIGH, "LOW": LOW,
    "PUD_OFF": PUD_OFF, "PUD_DOWN": PUD_DOWN, "PUD_UP": PUD_UP, "RISING": RISING,
    "FALLING": FALLING, "BOTH": BOTH, "VERSION": "0.7.1-fake", "RPI_INFO": {"P1_REVISION": 3},
    "setmode": setmode, "getmode": getmode, "setwarnings": setwarnings, "setup": setup,
    "output": output, "input": input, "cleanup": cleanup,
})
RPI = _module("RPi", {"GPIO": GPIO, "__path__": []})
SPIDEV = _module("spidev", {"SpiDev": SpiDev})


_saved: dict[str, Any] = {}
_MISSING = object()


def install(board: Board) -> Board:
    """Make `import RPi.GPIO`, `import spidev` (and so `import mfrc522`) reach `board`.

    The same module objects stay in `sys.modules` for the whole process (the
    mfrc522 package keeps a reference to the GPIO module it imported); each
    call only switches the board behind them."""
    _current["board"] = board
    if not _saved:
        _saved.update({name: sys.modules.get(name, _MISSING)
                       for name in ("RPi", "RPi.GPIO", "spidev")})
    sys.modules["RPi"] = RPI
    sys.modules["RPi.GPIO"] = GPIO
    sys.modules["spidev"] = SPIDEV
    loaded = sys.modules.get("mfrc522.MFRC522")
    if loaded is not None and getattr(loaded, "GPIO", GPIO) is not GPIO:
        for name in [n for n in sys.modules if n == "mfrc522" or n.startswith("mfrc522.")]:
            del sys.modules[name]  # imported against the real modules: load it again
    return board


def uninstall() -> None:
    """Put back what `sys.modules` held before `install`, and forget the
    mfrc522 package loaded against the fakes (tests call this when done)."""
    _current.pop("board", None)
    for name, module in _saved.items():
        if module is _MISSING:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module
    _saved.clear()
    for name in [n for n in sys.modules if n == "mfrc522" or n.startswith("mfrc522.")]:
        del sys.modules[name]


def installed_board() -> Board | None:
    return _current.get("board")
