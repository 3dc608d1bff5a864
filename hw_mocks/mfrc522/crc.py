"""CRC_A of ISO/IEC 14443-3 and the MFRC522 CRC coprocessor's variants."""

from __future__ import annotations

from collections.abc import Iterable

#: ModeReg CRCPreset[1:0] -> the coprocessor's preset value.
CRC_PRESETS = {0: 0x0000, 1: 0x6363, 2: 0xA671, 3: 0xFFFF}


def crc16(data: Iterable[int], preset: int = 0x6363) -> int:
    """CRC with polynomial x^16 + x^12 + x^5 + 1, LSB first (CRC_A for preset 0x6363)."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return crc & 0xFFFF


def crc_a(data: Iterable[int]) -> bytes:
    """CRC_A as sent on the air: low byte first."""
    crc = crc16(data)
    return bytes((crc & 0xFF, crc >> 8))
