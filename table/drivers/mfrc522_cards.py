"""Which cards lie on one reader: ISO/IEC 14443-3 A over a `Pcd`.

`identify` runs the full anticollision and select loop at every cascade
level, so a 7-byte UID (NTAG21x stickers) is read whole, and two cards in
the field are told apart bit by bit.

`CardTracker.poll` keeps a card that lies still from flickering or being
read twice, with HALT and WUPA:

1. REQA: only cards in IDLE answer, i.e. cards that just came into the
   field. Each is identified, then sent to HALT.
2. WUPA: wakes the halted cards. With one known card, its answer is enough
   (any other card would have answered REQA); it wakes in READY*, and the
   next poll's REQA sends it back to HALT without a word. With several,
   each known card is selected by its UID and halted again.

A known card that misses `misses_to_leave` polls in a row has left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from table.drivers.mfrc522_iso14443 import (
    CASCADE_TAG,
    HLTA,
    NVB_SELECT,
    REQA,
    SAK_CASCADE,
    SELECT_CODES,
    WUPA,
    bcc,
    bits_of,
    crc_a,
    pack,
)
from table.drivers.mfrc522_pcd import Pcd
from table.drivers.mfrc522_regs import COLL_ERR

#: New cards identified in one poll at most (the rest wait for the next poll).
MAX_NEW_PER_POLL = 4
#: Identifications that may fail (damaged answers) before the poll gives up.
RETRIES_PER_POLL = 2


def request(pcd: Pcd, code: int = REQA) -> bool:
    """REQA or WUPA: True if any card answered (collisions included)."""
    return pcd.transceive(bytes((code,)), last_bits=7, reply_bits=16, want_data=False) is not None


def halt(pcd: Pcd) -> None:
    frame = bytes(HLTA)
    pcd.transceive(frame + crc_a(frame))


def _select(pcd: Pcd, code: int, part: bytes) -> int | None:
    """SELECT with the 5 bytes of one cascade level; the SAK, or None."""
    frame = bytes((code, NVB_SELECT)) + part
    reply = pcd.transceive(frame + crc_a(frame), reply_bits=24)
    if reply is None or reply.errors or reply.bits != 24:
        return None
    if crc_a(reply.data[:1]) != reply.data[1:3]:
        return None
    return reply.data[0]


def _anticollision(pcd: Pcd, code: int) -> bytes | None:
    """The 5 bytes (4 UID bytes or CT + 3, and BCC) of one cascade level,
    choosing the 1 branch at every collision."""
    known: list[int] = []
    while len(known) < 40:
        count = len(known)
        nvb = ((2 + count // 8) << 4) | (count % 8)
        frame = bytes((code, nvb)) + pack(known)
        align = count % 8
        reply = pcd.transceive(frame, last_bits=align, align=align, reply_bits=40 - count)
        if reply is None or reply.errors & ~COLL_ERR & 0xFF:
            return None
        received = bits_of(reply.data, align + reply.bits)[align:]
        if reply.collision is None:
            known += received
            if len(known) != 40:
                return None
            break
        if reply.collision == 0:
            return None  # a collision in the BCC: the cards disagree with themselves
        position = (count // 8) * 8 + reply.collision - 1  # index in the 40 bits
        if position < count or position >= 40:
            return None
        known += received[:position - count] + [1]
    part = pack(known)
    return part if bcc(part[:4]) == part[4] else None


def identify(pcd: Pcd) -> tuple[bytes, int] | None:
    """After REQA/WUPA woke cards: the UID (4, 7 or 10 bytes) of one of them,
    now selected, and its final SAK; None if the exchange failed."""
    uid = b""
    for code in SELECT_CODES:
        part = _anticollision(pcd, code)
        if part is None:
            return None
        sak = _select(pcd, code, part)
        if sak is None:
            return None
        if sak & SAK_CASCADE:
            if part[0] != CASCADE_TAG:
                return None
            uid += part[1:4]
            continue
        return uid + part[:4], sak
    return None


def cascade_parts(uid: bytes) -> list[bytes]:
    """The 5-byte SELECT parameters of each cascade level of `uid`."""
    levels = {4: 1, 7: 2, 10: 3}[len(uid)]
    parts = []
    for level in range(levels):
        if level < levels - 1:
            part = bytes((CASCADE_TAG,)) + uid[3 * level:3 * level + 3]
        else:
            part = uid[3 * level:3 * level + 4]
        parts.append(part + bytes((bcc(part),)))
    return parts


def select_uid(pcd: Pcd, uid: bytes) -> bool:
    """Select the card `uid` (awake in READY) without anticollision."""
    parts = cascade_parts(uid)
    for level, part in enumerate(parts):
        sak = _select(pcd, SELECT_CODES[level], part)
        if sak is None or bool(sak & SAK_CASCADE) != (level < len(parts) - 1):
            return False
    return True


@dataclass
class PollResult:
    arrived: list[bytes]
    left: list[bytes]


class CardTracker:
    """The cards on one reader, kept up to date by `poll`."""

    def __init__(self, pcd: Pcd, misses_to_leave: int = 3) -> None:
        self.pcd = pcd
        self.misses_to_leave = misses_to_leave
        self.misses: dict[bytes, int] = {}

    @property
    def present(self) -> list[bytes]:
        return list(self.misses)

    def poll(self) -> PollResult:
        arrived: list[bytes] = []
        identified: list[bytes] = []
        retries = RETRIES_PER_POLL
        for _ in range(MAX_NEW_PER_POLL + RETRIES_PER_POLL):
            if not request(self.pcd, REQA):
                break
            found = identify(self.pcd)
            if found is None:
                if not retries:
                    break  # the card answers REQA again next poll
                retries -= 1
                # a damaged answer left the card READY; a REQA it cannot
                # answer sends it back to IDLE, so that the next one wakes it
                request(self.pcd, REQA)
                continue
            uid = found[0]
            halt(self.pcd)
            identified.append(uid)
            if uid not in self.misses:
                arrived.append(uid)
            self.misses[uid] = 0
        seen = self._known_cards_seen(exclude=identified)
        left: list[bytes] = []
        for uid, here in seen.items():
            if here:
                self.misses[uid] = 0
                continue
            self.misses[uid] += 1
            if self.misses[uid] >= self.misses_to_leave:
                del self.misses[uid]
                left.append(uid)
        return PollResult(arrived, left)

    def _known_cards_seen(self, exclude: Sequence[bytes]) -> dict[bytes, bool]:
        others = [uid for uid in self.misses if uid not in exclude]
        if not others:
            return {}
        if len(self.misses) == 1:
            return {others[0]: request(self.pcd, WUPA)}
        seen = {}
        for uid in others:
            here = request(self.pcd, WUPA) and select_uid(self.pcd, uid)
            if here:
                halt(self.pcd)
            seen[uid] = here
        return seen
