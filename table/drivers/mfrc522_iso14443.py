"""ISO/IEC 14443-3 Type A on the host side: CRC_A, frame timings, bit packing.

Pure functions, no I/O; the reader link (`mfrc522_pcd`) and the card logic
(`mfrc522_cards`) use them."""

from __future__ import annotations

from collections.abc import Sequence

REQA = 0x26
WUPA = 0x52
HLTA = (0x50, 0x00)
SELECT_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04
NVB_SELECT = 0x70

#: One bit at 106 kbit/s is 128 periods of the 13.56 MHz carrier.
ETU = 128 / 13_560_000
#: The card's answer starts this long after the end of the command (1236/fc).
FDT = 1236 / 13_560_000


def crc_a(data: Sequence[int]) -> bytes:
    """CRC_A (ISO/IEC 14443-3 annex B): preset 0x6363, low byte first."""
    crc = 0x6363
    for value in data:
        value ^= crc & 0xFF
        value = (value ^ (value << 4)) & 0xFF
        crc = (crc >> 8) ^ (value << 8) ^ (value << 3) ^ (value >> 4)
    return bytes((crc & 0xFF, (crc >> 8) & 0xFF))


def air_time(bits: int) -> float:
    """Seconds a frame of `bits` data bits takes on the air (start, parity, end)."""
    return (bits + bits // 8 + 2) * ETU


def bits_of(data: Sequence[int], count: int) -> list[int]:
    """The first `count` bits of `data`, LSB of each byte first."""
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(count)]


def pack(bits: Sequence[int]) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def bcc(part: Sequence[int]) -> int:
    return part[0] ^ part[1] ^ part[2] ^ part[3]
