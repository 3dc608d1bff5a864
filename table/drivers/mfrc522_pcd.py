"""One MFRC522 as the host talks to it: the `mfrc522` package's register
access, with what the package gets wrong done right.

* Waits are driven by the chip's timer: it is set to raise TimerIRq 0.5 ms
  after a frame nobody answers, and the host sleeps until then and reads
  ComIrqReg once, instead of the package's 2,000 back-to-back reads.
* Register bursts (datasheet 8.1.2.1/8.1.2.2): the FIFO is written and read in
  one transfer, the status registers after a reply in another.
* Every command starts from Idle (as NXP's library does): a Transceive that
  heard nothing is still listening, and a new command or StartSend written
  over it is not reliably taken.
* After a soft reset the host waits, up to `STARTUP_TIMEOUT_S`, until the
  chip answers again (the oscillator starts in the time its crystal needs,
  plus 37.74 us: 0.4 ms is not enough for every module).
* Every interrupt check also reads VersionReg: a reader that stops answering
  (its SPI reads 0x00 or 0xFF) is noticed at once as a `ReaderFault`.
* The package's constructor is not used: it would choose BOARD pin numbering
  when none is set, drive pin 22/15 as reset by default, add a log handler per
  instance and spin in its init. `open_package_chip` builds the package's
  object on a spidev handle opened here.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from table.drivers.mfrc522_iso14443 import FDT, air_time
from table.drivers.mfrc522_regs import (
    ALL_IRQS,
    ANTENNA_BITS,
    BIT_FRAMING_REG,
    CMD_IDLE,
    CMD_TRANSCEIVE,
    COLL_ERR,
    COLL_POS_NOT_VALID,
    COLL_REG,
    COM_IRQ_REG,
    COMMAND_REG,
    CONTROL_REG,
    ERROR_REG,
    FIFO_DATA_REG,
    FIFO_LEVEL_REG,
    FIFO_SIZE,
    FLUSH_BUFFER,
    MODE_REG,
    POWER_DOWN,
    RX_IRQ,
    START_SEND,
    T_MODE_REG,
    T_PRESCALER_REG,
    T_RELOAD_H_REG,
    T_RELOAD_L_REG,
    TIMER_IRQ,
    TX_ASK_REG,
    TX_CONTROL_REG,
    VERSION_REG,
    read_address,
    write_address,
)

log = logging.getLogger(__name__)

#: Timer: 13.56 MHz / (2 * 67 + 1) = 100.4 kHz, 50 ticks = 0.498 ms. A card
#: answers REQA, WUPA, anticollision and SELECT 91 us after the command, and
#: the timer stops as soon as an answer starts, so long answers are not cut.
TIMER_PRESCALER = 67
TIMER_RELOAD = 49
TIMEOUT_S = (2 * TIMER_PRESCALER + 1) * (TIMER_RELOAD + 1) / 13_560_000
#: Slack added to each wait, for the chip's own latencies.
MARGIN_S = 30e-6
#: How many times the interrupts are checked before the chip is declared silent.
CHECKS = 4
#: After a soft reset: how long the chip may take to answer again, checked
#: every `STARTUP_STEP_S` (common drivers wait 50 ms blindly).
STARTUP_TIMEOUT_S = 0.025
STARTUP_STEP_S = 0.0005


class ReaderFault(OSError):
    """The reader does not behave like a working MFRC522 (unplugged, no
    power, reset behind our back). The driver re-initialises it."""


@dataclass(frozen=True)
class Reply:
    """What came back: FIFO bytes, how many bits are valid from the RxAlign
    position, ErrorReg, and the first collision's bit position counted from
    bit 0 of the first FIFO byte (1-based; 0 = beyond the 32nd bit)."""

    data: bytes
    bits: int
    errors: int
    collision: int | None


class Pcd:
    """An MFRC522 behind the package's `MFRC522` object (`chip`)."""

    def __init__(self, chip: Any, sleep: Callable[[float], None]) -> None:
        self.chip = chip
        self.sleep = sleep
        self.version: int | None = None

    # ----- register access --------------------------------------------------------

    def write(self, reg: int, value: int) -> None:
        self.chip.Write_MFRC522(reg, value)

    def read(self, reg: int) -> int:
        return int(self.chip.Read_MFRC522(reg))

    def read_many(self, regs: Sequence[int]) -> list[int]:
        """Several registers in one transfer."""
        miso = self.chip.spi.xfer2([read_address(r) for r in regs] + [0])
        return [int(v) for v in miso[1:]]

    def write_fifo(self, data: bytes) -> None:
        self.chip.spi.xfer2([write_address(FIFO_DATA_REG), *data])

    # ----- set-up -----------------------------------------------------------------

    def init(self) -> int:
        """Soft reset, check that an MFRC522 answers, set the timer, antenna on.
        Returns VersionReg; raises ReaderFault if no chip answers."""
        self.version = None
        self.chip.MFRC522_Reset()
        version = 0x00
        waited = 0.0
        while waited < STARTUP_TIMEOUT_S:
            self.sleep(STARTUP_STEP_S)
            waited += STARTUP_STEP_S
            command, version = self.read_many([COMMAND_REG, VERSION_REG])
            if version not in (0x00, 0xFF) and not command & POWER_DOWN:
                break
        if version in (0x00, 0xFF):
            raise ReaderFault(f"no MFRC522 answers (VersionReg reads 0x{version:02X})")
        self.write(T_MODE_REG, 0x80 | (TIMER_PRESCALER >> 8))  # TAuto
        self.write(T_PRESCALER_REG, TIMER_PRESCALER & 0xFF)
        self.write(T_RELOAD_H_REG, TIMER_RELOAD >> 8)
        self.write(T_RELOAD_L_REG, TIMER_RELOAD & 0xFF)
        self.write(TX_ASK_REG, 0x40)  # 100 % ASK, as ISO 14443 A wants
        self.write(MODE_REG, 0x3D)  # CRC preset 0x6363
        if self.read(T_PRESCALER_REG) != TIMER_PRESCALER & 0xFF:
            raise ReaderFault("the MFRC522 does not keep what is written to it")
        self.version = version
        self.antenna(True)
        return version

    def antenna(self, on: bool) -> None:
        """Switch the field on or off (TxControlReg Tx1RFEn/Tx2RFEn)."""
        value = self.read(TX_CONTROL_REG)
        wanted = value | ANTENNA_BITS if on else value & ~ANTENNA_BITS & 0xFF
        if wanted != value:
            self.write(TX_CONTROL_REG, wanted)

    def antenna_on(self) -> bool:
        return self.read(TX_CONTROL_REG) & ANTENNA_BITS == ANTENNA_BITS

    def idle(self) -> None:
        self.write(COMMAND_REG, CMD_IDLE)

    # ----- frames -----------------------------------------------------------------

    def transceive(self, data: bytes, *, last_bits: int = 0, align: int = 0,
                   reply_bits: int = 0) -> Reply | None:
        """Send `data` (only `last_bits` bits of its last byte if not 0) and wait
        for an answer of about `reply_bits` bits, placed from bit `align` of
        the first FIFO byte. None: nobody answered before the timer ran out.
        `reply_bits=0` sends without waiting for an answer (HLTA)."""
        self.idle()  # whatever still runs (a Transceive still listening) stops
        self.write(COM_IRQ_REG, ALL_IRQS)  # Set1 = 0: clear every request bit
        self.write(FIFO_LEVEL_REG, FLUSH_BUFFER)
        self.write_fifo(data)
        self.write(COMMAND_REG, CMD_TRANSCEIVE)
        self.write(BIT_FRAMING_REG, START_SEND | (align << 4) | last_bits)
        sent = len(data) * 8 - ((8 - last_bits) if last_bits else 0)
        if not reply_bits:
            self.sleep(air_time(sent) + MARGIN_S)
            return None
        self.sleep(air_time(sent) + max(TIMEOUT_S, FDT + air_time(reply_bits)) + MARGIN_S)
        for _ in range(CHECKS):
            irq, version = self.read_many([COM_IRQ_REG, VERSION_REG])
            if version != self.version:
                raise ReaderFault(
                    f"VersionReg reads 0x{version:02X}, not 0x{self.version or 0:02X}")
            if irq & RX_IRQ:
                break
            if irq & TIMER_IRQ:
                return None
            self.sleep(TIMEOUT_S)  # an answer is still coming in
        else:
            raise ReaderFault("the MFRC522 raises no interrupt (its timer is not running)")
        errors, level, control, coll = self.read_many(
            [ERROR_REG, FIFO_LEVEL_REG, CONTROL_REG, COLL_REG])
        level = min(level & 0x7F, FIFO_SIZE)
        received = b""
        if level:
            received = bytes(self.read_many([FIFO_DATA_REG] * level))
        last = control & 0x07
        bits = max(0, level * 8 - ((8 - last) if last else 0) - align)
        collision = None
        if errors & COLL_ERR:
            collision = 0 if coll & COLL_POS_NOT_VALID else (coll & 0x1F) or 32
        return Reply(received, bits, errors, collision)


# ----- opening a reader ---------------------------------------------------------

@functools.cache
def _package_chip_class() -> type:
    from mfrc522 import MFRC522  # the package imports RPi.GPIO: only here, lazily

    class PackageChip(MFRC522):  # type: ignore[misc]  # mfrc522 has no type information
        """The package's register access on a spidev handle opened by us."""

        def __init__(self, spi: Any) -> None:  # noqa: D107 - no super().__init__ on purpose
            self.spi = spi
            self.logger = logging.getLogger("mfrc522Logger")

    return PackageChip


class GpioSelectedSpi:
    """A spidev handle whose transfers are framed by a GPIO chip select
    (active low). `shared`: the handle's chip enable is wired to another
    reader, so the kernel is told not to assert it (SPI_NO_CS) for the
    duration of each transfer; the mode belongs to the spi device, which
    the other reader's handle shares."""

    def __init__(self, spi: Any, gpio: Any, pin: int, shared: bool = False) -> None:
        self.spi = spi
        self.gpio = gpio
        self.pin = pin
        self.shared = shared

    def xfer2(self, data: list[int]) -> list[int]:
        if self.shared:
            self.spi.no_cs = True
        self.gpio.output(self.pin, 0)
        try:
            return list(self.spi.xfer2(data))
        finally:
            self.gpio.output(self.pin, 1)
            if self.shared:
                self.spi.no_cs = False

    def close(self) -> None:
        self.spi.close()


def open_package_chip(bus: int, device: int, speed_hz: int, gpio: Any,
                      cs_pin: int | None = None, shared_ce: bool = False) -> Any:
    """The package's MFRC522 object on /dev/spidev{bus}.{device}. With
    `cs_pin`, that GPIO (BCM, already an output, high) selects the chip; the
    chip enable of `device` is either free (`shared_ce` False) or wired to
    another reader, and then it is held off during this chip's transfers."""
    import spidev

    spi = spidev.SpiDev()
    spi.open(bus, device)
    try:
        spi.max_speed_hz = speed_hz
        spi.mode = 0
        if cs_pin is not None:
            try:
                spi.no_cs = True
                spi.no_cs = not shared_ce
            except OSError:
                if shared_ce:
                    raise
                log.info("spidev%d.%d: no SPI_NO_CS; its free CE%d toggles harmlessly",
                         bus, device, device)
    except Exception:
        spi.close()
        raise
    handle: Any = spi if cs_pin is None else GpioSelectedSpi(spi, gpio, cs_pin, shared_ce)
    return _package_chip_class()(handle)
