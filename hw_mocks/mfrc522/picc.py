"""ISO/IEC 14443-3 Type A cards (PICCs) as the MFRC522 emulator's field sees them.

A card hears frames as lists of bits and answers with bits, following the
state machine of ISO/IEC 14443-3 (POWER-OFF, IDLE, READY, ACTIVE, HALT and the
"*" states of a card woken from HALT): REQA/WUPA, bit-oriented anticollision
and SELECT at every cascade level, HLTA. Two kinds are provided:

* `MifareClassic1K`: 4-byte UID, SAK 0x08, sectors guarded by keys (the
  MFRC522's MFAuthent command calls `authenticate`; Crypto1 itself is left
  out, because the chip encrypts and decrypts on the host's behalf).
* `Ntag213`: 7-byte UID (cascade level 2), SAK 0x00, 45 pages of 4 bytes,
  the usual sticker in a playing card.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .crc import crc_a
from .frames import Bits, to_bits, to_bytes

REQA = 0x26
WUPA = 0x52
HLTA = 0x50
SEL_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
#: What a card needs after the field appears before it answers (ISO allows 5 ms).
POWER_UP_S = 0.001

ACK = 0x0A
NAK = 0x04


class State(enum.Enum):
    POWER_OFF = "power-off"
    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass(frozen=True)
class Reply:
    """A card's answer. `crc` tells whether its last two bytes are a CRC_A
    (faults that corrupt a CRC only touch such answers)."""

    bits: Bits
    crc: bool = False


def _with_crc(data: bytes) -> Reply:
    return Reply(to_bits(data + crc_a(data)), crc=True)


def _nibble(value: int) -> Reply:
    return Reply(to_bits(bytes((value & 0x0F,)), 4))


def parse_uid(uid: bytes | str) -> bytes:
    if isinstance(uid, str):
        uid = bytes.fromhex(uid)
    if len(uid) not in (4, 7, 10):
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")
    return bytes(uid)


class Picc:
    """One card. Subclasses set `atqa`, `sak` and answer commands in ACTIVE."""

    atqa = b"\x04\x00"
    sak = 0x08

    def __init__(self, uid: bytes | str) -> None:
        self.uid = parse_uid(uid)
        if len(self.uid) > 4 and self.uid[0] == CASCADE_TAG:
            raise ValueError("a 7- or 10-byte UID cannot start with the cascade tag 0x88")
        self.state = State.POWER_OFF
        self.from_halt = False
        self.level = 0
        self.powered_since: float | None = None
        #: How long it needs after the field appears before it answers.
        self.power_up_s = POWER_UP_S
        #: The fields it lies in that are on (a card between two seats has two).
        self._fields: set[int] = set()

    # ----- identity -------------------------------------------------------------

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    @property
    def levels(self) -> int:
        return {4: 1, 7: 2, 10: 3}[len(self.uid)]

    def cascade(self, level: int) -> bytes:
        """The 5 bytes of cascade level `level` (0-based): 4 UID bytes (or the
        cascade tag and 3 bytes) and their BCC."""
        if level < self.levels - 1:
            part = bytes((CASCADE_TAG,)) + self.uid[3 * level:3 * level + 3]
        else:
            part = self.uid[3 * level:]
        bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
        return part + bytes((bcc,))

    # ----- power ----------------------------------------------------------------

    def field(self, on: bool, now: float, source: int = 0) -> None:
        """The field of reader `source` came on or went off; the card is
        powered while any field it lies in is on."""
        if on:
            self._fields.add(source)
        else:
            self._fields.discard(source)
        if self._fields and self.powered_since is None:
            self.powered_since = now
            self.state = State.IDLE
            self.from_halt = False
        elif not self._fields and self.powered_since is not None:
            self._power_off()

    def _power_off(self) -> None:
        self.powered_since = None
        self.state = State.POWER_OFF
        self.level = 0
        self.on_reset()

    def brown_out(self, now: float, duration: float) -> None:
        """Too little energy for `duration` (a detuned card): it forgets its
        state and powers up again afterwards, in IDLE."""
        if self.powered_since is None:
            return
        self._power_off()
        self.powered_since = now + duration
        self.state = State.IDLE
        self.from_halt = False

    def on_reset(self) -> None:
        """Forget volatile state (authentication and the like)."""

    def _ready(self, now: float) -> bool:
        return self.powered_since is not None and now - self.powered_since >= self.power_up_s

    def _fall_back(self) -> None:
        self.state = State.HALT if self.from_halt else State.IDLE
        self.level = 0
        self.on_reset()

    # ----- frames ---------------------------------------------------------------

    def receive(self, bits: Bits, now: float) -> Reply | None:
        """Hear one frame at time `now`; return the answer or None (silence)."""
        if not self._ready(now):
            return None
        if len(bits) == 7:
            return self._short_frame(bits)
        if self.state in (State.IDLE, State.HALT, State.POWER_OFF):
            return None
        data, last = to_bytes(bits)
        if self.state is State.READY:
            return self._ready_frame(bits, data, last)
        return self._active_frame(data, last)

    def _short_frame(self, bits: Bits) -> Reply | None:
        command, _ = to_bytes(bits)
        code = command[0]
        if code == WUPA and self.state in (State.IDLE, State.HALT):
            self.from_halt = self.state is State.HALT
            self.state = State.READY
            self.level = 0
            return Reply(to_bits(self.atqa))
        if code == REQA and self.state is State.IDLE:
            self.from_halt = False
            self.state = State.READY
            self.level = 0
            return Reply(to_bits(self.atqa))
        if self.state in (State.READY, State.ACTIVE):
            self._fall_back()
        return None

    def _ready_frame(self, bits: Bits, data: bytes, last: int) -> Reply | None:
        if len(data) < 2 or data[0] != SEL_CODES[self.level]:
            self._fall_back()
            return None
        nvb = data[1]
        mine = self.cascade(self.level)
        if nvb == 0x70:
            if len(bits) != 72 or crc_a(data[:7]) != data[7:9] or data[2:7] != mine:
                self._fall_back()
                return None
            if self.level < self.levels - 1:
                self.level += 1
                return _with_crc(bytes((0x04,)))
            self.state = State.ACTIVE
            return _with_crc(bytes((self.sak,)))
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if (nvb & 0x0F) > 7 or not 0 <= known < 40 or len(bits) != 16 + known:
            self._fall_back()
            return None
        my_bits = to_bits(mine)
        if bits[16:] != my_bits[:known]:
            return None  # not this card: it keeps quiet and stays READY
        return Reply(my_bits[known:])

    def _active_frame(self, data: bytes, last: int) -> Reply | None:
        if last or len(data) < 3 or crc_a(data[:-2]) != data[-2:]:
            self._fall_back()
            return None
        body = data[:-2]
        if body == bytes((HLTA, 0x00)):
            self.state = State.HALT
            self.level = 0
            self.on_reset()
            return None
        reply = self.command(body)
        if reply is None:
            self._fall_back()
        return reply

    def command(self, body: bytes) -> Reply | None:
        """A command in ACTIVE state (CRC already checked and removed)."""
        return None

    def authenticate(self, key_type: int, block: int, key: bytes, uid4: bytes) -> bool:
        """The MFRC522's MFAuthent with this card; only MIFARE Classic agrees."""
        return False


DEFAULT_KEY = b"\xff" * 6
ACCESS_BITS = bytes.fromhex("FF078069")


class MifareClassic1K(Picc):
    """MIFARE Classic 1K: 4-byte UID, 16 sectors of 4 blocks, keys A/B."""

    atqa = b"\x04\x00"
    sak = 0x08

    def __init__(self, uid: bytes | str, key_a: bytes = DEFAULT_KEY,
                 key_b: bytes = DEFAULT_KEY) -> None:
        super().__init__(uid)
        if len(self.uid) != 4:
            raise ValueError("a MIFARE Classic 1K has a 4-byte UID")
        self.blocks = [bytearray(16) for _ in range(64)]
        uid4 = self.uid
        bcc = uid4[0] ^ uid4[1] ^ uid4[2] ^ uid4[3]
        self.blocks[0][:] = uid4 + bytes((bcc, self.sak)) + self.atqa + bytes(8)
        for sector in range(16):
            self.blocks[sector * 4 + 3][:] = key_a + ACCESS_BITS + key_b
        self.authenticated: int | None = None
        self._write_block: int | None = None

    def on_reset(self) -> None:
        self.authenticated = None
        self._write_block = None

    def authenticate(self, key_type: int, block: int, key: bytes, uid4: bytes) -> bool:
        if self.state is not State.ACTIVE or not 0 <= block < 64 or uid4 != self.uid:
            return False
        trailer = self.blocks[block // 4 * 4 + 3]
        expected = bytes(trailer[:6]) if key_type == 0x60 else bytes(trailer[10:16])
        if key_type not in (0x60, 0x61) or key != expected:
            self.on_reset()
            return False
        self.authenticated = block // 4
        return True

    def command(self, body: bytes) -> Reply | None:
        if self._write_block is not None:
            block, self._write_block = self._write_block, None
            if len(body) != 16:
                return _nibble(NAK)
            self.blocks[block][:] = body
            return _nibble(ACK)
        if len(body) == 2 and body[0] in (0x30, 0xA0):
            block = body[1]
            if block >= 64 or self.authenticated != block // 4:
                return _nibble(NAK)
            if body[0] == 0x30:
                return _with_crc(bytes(self.blocks[block]))
            self._write_block = block
            return _nibble(ACK)
        return _nibble(NAK)


class Ntag213(Picc):
    """NTAG213: 7-byte UID, 45 pages of 4 bytes, no authentication needed to read."""

    atqa = b"\x44\x00"
    sak = 0x00
    PAGES = 45
    VERSION = bytes.fromhex("0004040201000F03")

    def __init__(self, uid: bytes | str) -> None:
        super().__init__(uid)
        if len(self.uid) != 7:
            raise ValueError("an NTAG213 has a 7-byte UID")
        self.pages = [bytearray(4) for _ in range(self.PAGES)]
        u = self.uid
        self.pages[0][:] = bytes((u[0], u[1], u[2], CASCADE_TAG ^ u[0] ^ u[1] ^ u[2]))
        self.pages[1][:] = u[3:7]
        self.pages[2][:] = bytes((u[3] ^ u[4] ^ u[5] ^ u[6], 0x48, 0x00, 0x00))
        self.pages[3][:] = bytes.fromhex("E1101200")

    def command(self, body: bytes) -> Reply | None:
        if len(body) == 2 and body[0] == 0x30:
            first = body[1]
            if first >= self.PAGES:
                return _nibble(0x00)
            data = b"".join(bytes(self.pages[(first + i) % self.PAGES]) for i in range(4))
            return _with_crc(data)
        if len(body) == 1 and body[0] == 0x60:
            return _with_crc(self.VERSION)
        if len(body) == 6 and body[0] == 0xA2:
            page = body[1]
            if not 4 <= page < 40:
                return _nibble(0x00)
            self.pages[page][:] = body[2:6]
            return _nibble(ACK)
        return _nibble(0x00)
