"""Frames on the air as lists of bits (LSB of each byte first, as ISO/IEC
14443-3 Type A sends them), and how long they take at 106 kbit/s."""

from __future__ import annotations

from collections.abc import Sequence

#: The carrier, 13.56 MHz.
FC = 13_560_000
#: One elementary time unit at 106 kbit/s: 128 carrier periods.
ETU = 128 / FC
#: Frame delay time PCD -> PICC for the answers of ISO 14443-3 (n = 9): 1236/fc.
FDT = 1236 / FC

Bits = list[int]


def to_bits(data: Sequence[int], last_bits: int = 0) -> Bits:
    """`data` as bits; only `last_bits` bits of the last byte count (0 = all 8)."""
    bits: Bits = []
    for index, byte in enumerate(data):
        count = 8
        if index == len(data) - 1 and last_bits:
            count = last_bits
        bits.extend((byte >> i) & 1 for i in range(count))
    return bits


def to_bytes(bits: Sequence[int], align: int = 0) -> tuple[bytes, int]:
    """Pack bits into bytes, the first bit at bit position `align` of the first
    byte. Returns the bytes and how many bits of the last byte are valid
    (0 = all 8), which is what the MFRC522 reports in RxLastBits."""
    out: list[int] = []
    position = align
    current = 0
    for bit in bits:
        current |= (bit & 1) << position
        position += 1
        if position == 8:
            out.append(current)
            current = 0
            position = 0
    if position:
        out.append(current)
    return bytes(out), position


def air_time(bit_count: int) -> float:
    """Seconds a frame of `bit_count` data bits takes: start bit, a parity bit
    after each full byte, end of communication."""
    parity = bit_count // 8 if bit_count >= 8 else 0
    return (1 + bit_count + parity + 1) * ETU
