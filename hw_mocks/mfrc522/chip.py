"""A register-level NXP MFRC522, as seen through its SPI interface.

What is emulated (datasheet MFRC522 rev. 3.9, sections 8 to 10):

* the 64 registers with their reset values, the SPI framing (address byte
  `(addr << 1) & 0x7E`, bit 7 = read; a read burst returns the register named
  by the previous byte, a write burst writes every data byte to one address);
* the 64-byte FIFO with FlushBuffer, overflow (BufferOvfl) and the
  WaterLevel alerts;
* ComIrqReg/DivIrqReg with their Set1/Set2 write semantics and the enable
  registers;
* the timer (TAuto start at the end of a transmission, stop when a reply
  starts, TAutoRestart, TStartNow/TStopNow, TCounterValReg);
* the CRC coprocessor (CalcCRC with the ModeReg preset), TxCRCEn/RxCRCEn;
* the commands Idle, Mem (takes the FIFO's bytes; the 25-byte internal
  buffer is not kept), CalcCRC, Transmit, NoCmdChange, Receive, Transceive
  (stays active; each transmission needs StartSend), MFAuthent (MIFARE
  Classic keys; Crypto1 is transparent) and SoftReset; soft power-down;
  RcvOff. Generate RandomID and unknown codes end at once and do nothing;
* the antenna (TxControlReg Tx1RFEn/Tx2RFEn) powering the cards in its field;
  bit-oriented frames (TxLastBits, RxAlign, RxLastBits) and collisions
  (CollErr, CollReg with CollPos/CollPosNotValid, ValuesAfterColl);
* the NRSTPD (reset) pin: held low = hard power-down, rising edge = reset.

With a `Harsh` profile (harsh.py) the chip and its cards also misbehave as
real ones do, at seeded random rates: collisions with parity and protocol
errors and a capture effect, noise, lost and garbled answers, weak cards
between two seats, stacked cards detuning each other, slow power-up and
oscillator start-up, a Transceive not restarted over itself.

Time: every SPI access first lets the chip catch up with the virtual clock,
so frames, replies and the timer happen when they would on the air.

Faults on demand: `inject("crc" | "half_frame" | "no_reply", count)` spoils
the next replies, `inject("noise", count)` answers the next frames nobody
answers with noise; `unplug()` makes the reader stop answering (MISO reads
`dead_value`), `plug()` brings it back as after a power-on.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections import deque
from collections.abc import Callable

from .clock import VirtualClock
from .crc import CRC_PRESETS, crc16
from .frames import FC, FDT, Bits, air_time, to_bits, to_bytes
from .harsh import Harsh
from .picc import Picc, Reply, State

# registers
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(1, 9)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(9, 15)
MODE, TX_MODE, RX_MODE, TX_CONTROL = 0x11, 0x12, 0x13, 0x14
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, T_COUNTER_H, T_COUNTER_L = range(0x2A, 0x30)
VERSION = 0x37

# commands
IDLE, MEM, RANDOM_ID, CALC_CRC, TRANSMIT = 0x0, 0x1, 0x2, 0x3, 0x4
NO_CMD_CHANGE, RECEIVE, TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0x7, 0x8, 0xC, 0xE, 0xF

# ComIrqReg bits
TX_IRQ, RX_IRQ, IDLE_IRQ, HI_ALERT_IRQ, LO_ALERT_IRQ, ERR_IRQ, TIMER_IRQ = (
    0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01)
CRC_IRQ = 0x04
# ErrorReg bits
BUFFER_OVFL, COLL_ERR, CRC_ERR, PARITY_ERR, PROTOCOL_ERR = 0x10, 0x08, 0x04, 0x02, 0x01

# Status2Reg ModemState
MODEM_IDLE, MODEM_WAIT_SEND, MODEM_TX, MODEM_WAIT_DATA, MODEM_RX = 0, 1, 3, 5, 6

FIFO_SIZE = 64
RESET_VALUES = {
    COMMAND: 0x20, COM_IEN: 0x80, DIV_IEN: 0x00, COM_IRQ: 0x14, DIV_IRQ: 0x00,
    WATER_LEVEL: 0x08, CONTROL: 0x10, BIT_FRAMING: 0x00, COLL: 0xA0,
    MODE: 0x3F, TX_MODE: 0x00, RX_MODE: 0x00, TX_CONTROL: 0x80, 0x15: 0x00,
    0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D, 0x1C: 0x62, 0x1F: 0xEB,
    CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88,
    0x28: 0x20, 0x29: 0x20, 0x33: 0x80, 0x36: 0x40,
}
#: How long MFAuthent takes with a card that agrees (three passes on the air).
AUTH_S = 0.0012
#: Oscillator start-up after a reset or power-on (datasheet 8.8.2: crystal + 37.74 us).
STARTUP_S = 50e-6

FAULTS = ("crc", "half_frame", "no_reply", "noise")


class Mfrc522:
    """One MFRC522 and the cards lying in its antenna's field."""

    def __init__(self, clock: VirtualClock, name: str = "reader", version: int = 0x92,
                 dead_value: int = 0x00, harsh: Harsh | None = None,
                 rng: random.Random | None = None) -> None:
        self.clock = clock
        self.harsh = harsh
        self.rng = rng or (harsh.rng() if harsh else None)
        self.startup_s = harsh.startup_s if harsh else STARTUP_S
        #: Cards lying between this reader and another: heard weakly.
        self.weak: set[int] = set()
        self.name = name
        self.version = version
        self.dead_value = dead_value
        self.cards: list[Picc] = []
        self.transfers = 0
        self.plugged = True
        self.rst_high = True
        self.frames_sent: list[Bits] = []
        self._faults: deque[str] = deque()
        self._events: list[tuple[float, int, int, Callable[[float], None]]] = []
        self._seq = itertools.count()
        self._gen = 0
        self._timer_gen = 0
        self._field = False
        self._power_on(clock.now() - self.startup_s)  # powered long before anyone looks

    # ----- lifecycle ------------------------------------------------------------

    def _power_on(self, now: float) -> None:
        self.regs = bytearray(64)
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo: deque[int] = deque()
        self.error = 0
        self.crypto = False
        self.modem = MODEM_IDLE
        self.crc_ready = True
        self.crc_ok = False
        self._crc_value = 0
        self.timer_running = False
        self._timer_started = 0.0
        self._timer_value = 0
        self._gen += 1
        self._timer_gen += 1
        self._ready_at = now + self.startup_s
        self._update_field(now)

    def _soft_reset(self, now: float) -> None:
        self._power_on(now)

    def unplug(self) -> None:
        """The reader stops answering: power or a wire is gone."""
        self.catch_up()
        self.plugged = False
        self._update_field(self.clock.now())

    def plug(self) -> None:
        """The reader answers again, fresh from a power-on reset."""
        now = self.clock.now()
        self.catch_up()
        self.plugged = True
        self._power_on(now)

    def set_rst(self, high: bool) -> None:
        """The NRSTPD pin: low = hard power-down; a rising edge resets the chip."""
        now = self.clock.now()
        self.catch_up()
        was = self.rst_high
        self.rst_high = high
        if high and not was:
            self._power_on(now)
        else:
            self._update_field(now)

    def inject(self, fault: str, count: int = 1) -> None:
        """Spoil the next `count` replies from cards: "crc" (a reply that carries
        a CRC_A arrives with a wrong one), "half_frame" (only half the bits
        arrive), "no_reply" (the reply is lost); or "noise": the next `count`
        frames nobody answers are followed by noise (bits with errors)."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}; known: {', '.join(FAULTS)}")
        self._faults.extend([fault] * count)

    @property
    def alive(self) -> bool:
        return self.plugged and self.rst_high

    # ----- the field ------------------------------------------------------------

    @property
    def antenna_on(self) -> bool:
        return bool(self.regs[TX_CONTROL] & 0x03)

    @property
    def field_on(self) -> bool:
        return self.alive and self.antenna_on and not self.regs[COMMAND] & 0x10

    def _update_field(self, now: float) -> None:
        on = self.field_on
        if on != self._field:
            self._field = on
            for card in self.cards:
                card.field(on, now, id(self))

    def add_card(self, card: Picc, weak: bool = False) -> None:
        """`weak`: the card lies at the edge of the field (between two seats)."""
        self.catch_up()
        self.cards.append(card)
        if weak:
            self.weak.add(id(card))
        if self.harsh is not None and self.rng is not None:
            card.power_up_s = self.rng.uniform(0.0005, self.harsh.power_up_max_s)
        card.field(self._field, self.clock.now(), id(self))

    def remove_card(self, card: Picc) -> None:
        self.catch_up()
        self.cards.remove(card)
        self.weak.discard(id(card))
        card.field(False, self.clock.now(), id(self))

    # ----- virtual time ---------------------------------------------------------

    def _schedule(self, at: float, action: Callable[[float], None], gen: int | None = None) -> None:
        heapq.heappush(self._events, (at, next(self._seq), self._gen if gen is None else gen,
                                      action))

    def catch_up(self, now: float | None = None) -> None:
        """Run everything that happened on the air up to `now`."""
        now = self.clock.now() if now is None else now
        while self._events and self._events[0][0] <= now:
            at, _, gen, action = heapq.heappop(self._events)
            if gen in (self._gen, -self._timer_gen):
                action(at)

    # ----- SPI ------------------------------------------------------------------

    def spi(self, mosi: list[int]) -> list[int]:
        """One SPI transfer with this chip selected; returns the MISO bytes."""
        self.transfers += 1
        if not self.alive:
            return [self.dead_value] * len(mosi)
        now = self.clock.now()
        self.catch_up(now)
        if now < self._ready_at or not mosi:
            return [0x00] * len(mosi)
        miso = [0x00]
        first = mosi[0]
        if first & 0x80:
            for byte in mosi[1:]:
                miso.append(self.read(first >> 1 & 0x3F))
                first = byte  # the next address; the closing 00 is never read
        else:
            address = first >> 1 & 0x3F
            for byte in mosi[1:]:
                self.write(address, byte)
                miso.append(0x00)
        return miso

    # ----- registers ------------------------------------------------------------

    def read(self, reg: int) -> int:
        now = self.clock.now()
        if reg == COMMAND:
            return self.regs[COMMAND]
        if reg == COM_IRQ:
            return self.regs[COM_IRQ] & 0x7F
        if reg == DIV_IRQ:
            return self.regs[DIV_IRQ] & 0x7F
        if reg == ERROR:
            return self.error
        if reg == STATUS1:
            return self._status1()
        if reg == STATUS2:
            return (self.regs[STATUS2] & 0xC0) | (0x08 if self.crypto else 0) | self.modem
        if reg == FIFO_DATA:
            value = self.fifo.popleft() if self.fifo else 0x00
            self._fifo_changed()
            return value
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == CONTROL:
            return self.regs[CONTROL] & 0x07 | 0x10
        if reg in (T_COUNTER_H, T_COUNTER_L):
            value = self._timer_counter(now)
            return value >> 8 if reg == T_COUNTER_H else value & 0xFF
        if reg == VERSION:
            return self.version
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        now = self.clock.now()
        value &= 0xFF
        if reg == COMMAND:
            self._command(value, now)
        elif reg == COM_IRQ:
            if value & 0x80:
                self.regs[COM_IRQ] |= value & 0x7F
            else:
                self.regs[COM_IRQ] &= ~value & 0x7F
        elif reg == DIV_IRQ:
            if value & 0x80:
                self.regs[DIV_IRQ] |= value & 0x14
            else:
                self.regs[DIV_IRQ] &= ~value & 0x7F
        elif reg in (ERROR, STATUS1, VERSION, T_COUNTER_H, T_COUNTER_L):
            pass  # read-only
        elif reg == STATUS2:
            self.regs[STATUS2] = value & 0xC0
            if not value & 0x08:
                self.crypto = False
        elif reg == FIFO_DATA:
            self._fifo_push(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.error &= ~BUFFER_OVFL
                self._fifo_changed()
        elif reg == WATER_LEVEL:
            self.regs[WATER_LEVEL] = value & 0x3F
        elif reg == CONTROL:
            if value & 0x80:
                self._timer_stop(now)
            if value & 0x40:
                self._timer_start(now)
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.command == TRANSCEIVE and self.modem == MODEM_WAIT_SEND:
                self._transmit(now)
        elif reg == COLL:
            self.regs[COLL] = (self.regs[COLL] & 0x7F) | (value & 0x80)
        elif reg == TX_CONTROL:
            self.regs[TX_CONTROL] = value
            self._update_field(now)
        else:
            self.regs[reg] = value

    def _status1(self) -> int:
        level = len(self.fifo)
        water = self.regs[WATER_LEVEL]
        irq = (self.regs[COM_IRQ] & self.regs[COM_IEN] & 0x7F) or (
            self.regs[DIV_IRQ] & self.regs[DIV_IEN] & 0x14)
        return ((0x40 if self.crc_ok else 0) | (0x20 if self.crc_ready else 0)
                | (0x10 if irq else 0) | (0x08 if self.timer_running else 0)
                | (0x02 if FIFO_SIZE - level <= water else 0) | (0x01 if level <= water else 0))

    # ----- FIFO -----------------------------------------------------------------

    def _fifo_push(self, value: int) -> None:
        if self.command == CALC_CRC:
            self._crc_feed([value])
            return
        if len(self.fifo) >= FIFO_SIZE:
            self.error |= BUFFER_OVFL
            self.regs[COM_IRQ] |= ERR_IRQ
            return
        self.fifo.append(value)
        self._fifo_changed()

    def _fifo_changed(self) -> None:
        level = len(self.fifo)
        water = self.regs[WATER_LEVEL]
        if level <= water:
            self.regs[COM_IRQ] |= LO_ALERT_IRQ
        if FIFO_SIZE - level <= water:
            self.regs[COM_IRQ] |= HI_ALERT_IRQ

    def _take_fifo(self) -> bytes:
        data = bytes(self.fifo)
        self.fifo.clear()
        self._fifo_changed()
        return data

    # ----- commands -------------------------------------------------------------

    @property
    def command(self) -> int:
        return self.regs[COMMAND] & 0x0F

    def _finish(self, now: float) -> None:
        """The running command ends by itself."""
        self.regs[COMMAND] &= 0xF0
        self.modem = MODEM_IDLE
        self.regs[COM_IRQ] |= IDLE_IRQ

    def _command(self, value: int, now: float) -> None:
        code = value & 0x0F
        if code == NO_CMD_CHANGE:
            self.regs[COMMAND] = (self.regs[COMMAND] & 0x0F) | (value & 0x30)
            self._update_field(now)
            return
        if (self.harsh is not None and self.harsh.strict_commands and code == TRANSCEIVE
                and self.command == TRANSCEIVE and self.modem in (MODEM_WAIT_DATA, MODEM_RX)):
            return  # written over itself while it listens: not restarted
        self._gen += 1  # whatever was running stops
        self.modem = MODEM_IDLE
        self.regs[COMMAND] = value & 0x3F
        self._update_field(now)
        if code == SOFT_RESET:
            self._soft_reset(now)
            return
        if code != IDLE:
            self.error &= ~(COLL_ERR | CRC_ERR | PARITY_ERR | PROTOCOL_ERR)
        if code == IDLE:
            return
        if code == CALC_CRC:
            self._crc_value = CRC_PRESETS[self.regs[MODE] & 0x03]
            self._crc_feed(self._take_fifo())
        elif code == TRANSMIT:
            self._transmit(now)
        elif code == RECEIVE:
            self.modem = MODEM_WAIT_DATA
        elif code == TRANSCEIVE:
            self.modem = MODEM_WAIT_SEND
        elif code == MF_AUTHENT:
            self._authenticate(now)
        elif code == MEM:
            self._take_fifo()
            self._finish(now)
        else:  # an unknown command ends at once
            self._finish(now)

    def _crc_feed(self, data: bytes | list[int]) -> None:
        self._crc_value = crc16(data, self._crc_value)
        self.regs[CRC_RESULT_H] = self._crc_value >> 8
        self.regs[CRC_RESULT_L] = self._crc_value & 0xFF
        self.crc_ready = True
        self.regs[DIV_IRQ] |= CRC_IRQ

    def _authenticate(self, now: float) -> None:
        data = self._take_fifo()
        if len(data) != 12:
            self.error |= PROTOCOL_ERR
            self.regs[COM_IRQ] |= ERR_IRQ
            self._finish(now)
            return
        key_type, block, key, uid4 = data[0], data[1], data[2:8], data[8:12]
        active = [c for c in self.cards if c.state is State.ACTIVE] if self.field_on else []
        agreed = len(active) == 1 and active[0].authenticate(key_type, block, key, uid4)
        first_pass = now + air_time(16 + 16)
        if agreed:
            self._schedule(now + AUTH_S, self._auth_done)
        self._schedule(first_pass, self._auth_timer)

    def _auth_timer(self, now: float) -> None:
        if self.regs[T_MODE] & 0x80:
            self._timer_start(now)

    def _auth_done(self, now: float) -> None:
        self.crypto = True
        self._timer_stop(now)
        self._finish(now)

    # ----- the air --------------------------------------------------------------

    def _transmit(self, now: float) -> None:
        data = self._take_fifo()
        last = self.regs[BIT_FRAMING] & 0x07
        if self.regs[TX_MODE] & 0x80 and data and not last:
            crc = crc16(data, CRC_PRESETS[self.regs[MODE] & 0x03])
            data += bytes((crc & 0xFF, crc >> 8))
        bits = to_bits(data, last)
        self.error &= ~(COLL_ERR | CRC_ERR | PARITY_ERR | PROTOCOL_ERR)
        self.modem = MODEM_TX
        self._schedule(now + air_time(len(bits)), lambda at: self._transmitted(at, bits))

    def _transmitted(self, now: float, bits: Bits) -> None:
        self.regs[COM_IRQ] |= TX_IRQ
        self.frames_sent.append(bits)
        if self.command == TRANSMIT:
            self._finish(now)
            return
        self.modem = MODEM_WAIT_DATA
        if self.regs[T_MODE] & 0x80:
            self._timer_start(now)
        harsh, rng = self.harsh, self.rng
        if harsh is not None and rng is not None and self.field_on:
            self._detune(now, harsh, rng)
        replies: list[Reply] = []
        weak_errors = 0
        if self.field_on and bits:
            for card in list(self.cards):
                reply = card.receive(bits, now)
                if reply is None or not reply.bits:
                    continue
                if harsh is not None and rng is not None and id(card) in self.weak:
                    if rng.random() < harsh.weak_rate:
                        if rng.random() < 0.5:
                            continue  # too weak to be heard
                        weak_errors = PARITY_ERR
                replies.append(reply)
        if self.regs[COMMAND] & 0x20:
            return
        if not replies:
            self._maybe_noise(now)
            return
        fault = self._faults.popleft() if self._faults and self._faults[0] != "noise" else None
        extra_errors = weak_errors
        if harsh is not None and rng is not None:
            if len(replies) > 1 and rng.random() < harsh.capture_rate:
                replies = [rng.choice(replies)]  # the strongest card drowns the others
            if rng.random() < harsh.loss_rate:
                fault = "no_reply"
        combined, collision = _combine([r.bits for r in replies])
        if fault == "no_reply":
            return
        if fault == "half_frame":
            combined = combined[:max(1, len(combined) // 2)]
        elif fault == "crc":
            if any(r.crc for r in replies) and len(combined) >= 8:
                combined = list(combined)
                combined[-1] ^= 1
            else:
                self._faults.appendleft("crc")  # waits for a reply that carries a CRC
        if harsh is not None and rng is not None and (
                extra_errors or rng.random() < harsh.garble_rate):
            combined = list(combined)
            combined[rng.randrange(len(combined))] ^= 1
            extra_errors |= PARITY_ERR
        start = now + FDT
        self._schedule(start, self._reply_starts)
        self._schedule(start + air_time(len(combined)),
                       lambda at: self._received(at, combined, collision, extra_errors))

    def _detune(self, now: float, harsh: Harsh, rng: random.Random) -> None:
        """Stacked cards: one of them may brown out as this frame goes out."""
        stacked = [c for c in self.cards if id(c) not in self.weak]
        if len(stacked) > 1 and rng.random() < harsh.detune_rate * (len(stacked) - 1):
            rng.choice(stacked).brown_out(now, rng.uniform(0.001, harsh.detune_s))

    def _maybe_noise(self, now: float) -> None:
        """Nobody answered: noise may come in instead (injected, or harsh)."""
        if self._faults and self._faults[0] == "noise":
            self._faults.popleft()
        elif self.harsh is None or self.rng is None or self.rng.random() >= self.harsh.noise_rate:
            return
        rng = self.rng or random.Random(len(self.frames_sent))
        bits = [rng.randrange(2) for _ in range(rng.randint(1, 24))]
        errors = (PARITY_ERR, PROTOCOL_ERR, PARITY_ERR | PROTOCOL_ERR)[rng.randrange(3)]
        start = now + FDT + rng.uniform(0, 200e-6)
        self._schedule(start, self._reply_starts)
        self._schedule(start + air_time(len(bits)),
                       lambda at: self._received(at, bits, None, errors))

    def _reply_starts(self, now: float) -> None:
        self._timer_stop(now)
        self.modem = MODEM_RX

    def _received(self, now: float, bits: Bits, collision: int | None,
                  extra_errors: int = 0) -> None:
        align = (self.regs[BIT_FRAMING] >> 4) & 0x07
        errors = extra_errors
        if collision is not None and self.harsh is not None and self.rng is not None:
            # the clash also breaks the parity of its byte, now and then the framing
            errors |= PARITY_ERR | (PROTOCOL_ERR if self.rng.random() < 0.3 else 0)
        coll_reg = self.regs[COLL] & 0x80
        if collision is not None:
            errors |= COLL_ERR
            position = align + collision + 1
            coll_reg |= 0x20 if position > 32 else position % 32
            if not self.regs[COLL] & 0x80:
                bits = bits[:collision + 1] + [0] * (len(bits) - collision - 1)
        self.regs[COLL] = coll_reg
        data, last = to_bytes(bits, align)
        self.crc_ok = False
        if self.regs[RX_MODE] & 0x80:
            if last or len(data) < 3:
                errors |= CRC_ERR
            else:
                crc = crc16(data[:-2], CRC_PRESETS[self.regs[MODE] & 0x03])
                if bytes((crc & 0xFF, crc >> 8)) != data[-2:]:
                    errors |= CRC_ERR
                else:
                    self.crc_ok = True
                data = data[:-2]
        for byte in data:
            if len(self.fifo) >= FIFO_SIZE:
                errors |= BUFFER_OVFL
                break
            self.fifo.append(byte)
        self._fifo_changed()
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | last
        self.error |= errors
        self.regs[COM_IRQ] |= RX_IRQ | (ERR_IRQ if errors else 0)
        if self.command == TRANSCEIVE:
            self.modem = MODEM_WAIT_SEND
        else:
            self._finish(now)

    # ----- the timer ------------------------------------------------------------

    @property
    def timer_period(self) -> float:
        """Seconds from the timer's start to TimerIRq."""
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / FC

    def _tick(self) -> float:
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        return (2 * prescaler + 1) / FC

    def _timer_start(self, now: float) -> None:
        self._timer_gen += 1
        self.timer_running = True
        self._timer_started = now
        self._schedule(now + self.timer_period, self._timer_fired, gen=-self._timer_gen)

    def _timer_stop(self, now: float) -> None:
        if self.timer_running:
            self._timer_value = self._timer_counter(now)
        self._timer_gen += 1
        self.timer_running = False

    def _timer_counter(self, now: float) -> int:
        if not self.timer_running:
            return self._timer_value
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        ticks = int((now - self._timer_started) / self._tick())
        return max(0, reload - ticks)

    def _timer_fired(self, now: float) -> None:
        self.regs[COM_IRQ] |= TIMER_IRQ
        if self.regs[T_MODE] & 0x10:
            self._timer_start(now)
        else:
            self.timer_running = False
            self._timer_value = 0


def _combine(frames: list[Bits]) -> tuple[Bits, int | None]:
    """Several cards answering at once: bits on which they disagree collide
    (read as 1); returns the bits and the index of the first collision."""
    if len(frames) == 1:
        return list(frames[0]), None
    length = max(len(f) for f in frames)
    out: Bits = []
    first: int | None = None
    for i in range(length):
        values = {f[i] for f in frames if i < len(f)}
        present = sum(1 for f in frames if i < len(f))
        if len(values) > 1 or present < len(frames):
            first = i if first is None else first
            out.append(1)
        else:
            out.append(values.pop())
    return out, first
