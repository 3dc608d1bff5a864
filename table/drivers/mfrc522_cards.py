"""Which cards lie on one reader: ISO/IEC 14443-3 A over a `Pcd`.

`identify` runs the full anticollision and select loop at every cascade
level, so a 7-byte UID (NTAG21x stickers) is read whole, and two cards in
the field are told apart bit by bit. During anticollision a collision
(CollErr) takes precedence over the parity and protocol errors the same
clash also raises, and ValuesAfterColl is cleared (CollReg bit 7), as in
NXP's reader library: two cards on one antenna always resolve.

`CardTracker.poll` keeps every card in the field in a known state between
polls: the cards it knows are in HALT, every other card is in IDLE (or
still powering up). Then:

1. REQA: only IDLE cards answer, i.e. cards that came into the field. Each
   is identified, then sent to HALT. An identification that fails is
   followed by a REQA the card cannot answer, which sends it (READY or
   ACTIVE) back to IDLE for the next try.
2. Each known card not identified by 1 is looked for by its UID: WUPA (which
   wakes it from HALT, and wakes any IDLE card too), SELECT with its UID,
   HLTA. It is there only if it answers its own SELECT (a SAK with a good
   CRC_A): an answer to WUPA proves nothing, since any card answers it. The
   HLTA sends it back to HALT, and any other card the WUPA woke back to IDLE
   (a card in READY falls back on any frame it does not expect), so the
   next REQA finds it. A card that does not answer is looked for once more.
3. An answer to REQA counts only as an ATQA of exactly 16 bits without
   errors (a collision of several ATQAs counts: CollErr wins): noise or a
   neighbour's field is not a card.

Removal can wait, arrival cannot: a card that has lain still for
`YOUNG_POLLS` polls is looked for at one poll in `SETTLED_EVERY` only (with
the same check), so the trick's cards lying on the readers cost less of
every poll, and the next card put down is read sooner. Which poll of the
`SETTLED_EVERY` is each card's is dealt out in turn (the tracker's
`stagger`, its reader's number, plus the cards it already holds), so that
the trick's cards on neighbouring readers are not all checked in the same
round, which would make that round, and a card put down during it, slow.

A known card that misses `misses_to_leave` checks in a row has left. The
fields of the reader and of its `group` (the other readers of the table)
are then switched off for `RF_RESET_S` and on again: every card in them
restarts in IDLE, so a card only believed gone (its answers lost while it
lay in HALT, where REQA never reaches it) is found again, and so is a card
slid from one seat to the next: it was halted by the first reader while it
lay between the two, and the second one's REQA would never reach it.
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
from table.drivers.mfrc522_regs import COLL_REG

#: What a REQA or WUPA heard: nobody, an ATQA, something that is not one.
SILENT, ANSWERED, GARBLED = 0, 1, 2

#: New cards identified in one poll at most (the rest wait for the next poll).
MAX_NEW_PER_POLL = 4
#: Identifications that may fail (damaged answers) before the poll gives up.
RETRIES_PER_POLL = 2
#: Times a known card is looked for in one poll before it counts a miss.
PRESENCE_TRIES = 2
#: How long the field stays off when a card has left (ISO/IEC 14443: 5 ms).
RF_RESET_S = 0.005
#: Polls after its arrival during which a card is looked for at every poll:
#: a card swept past a reader must be seen to leave within the table's
#: debounce time (about 200 ms at 100 polls a second).
YOUNG_POLLS = 20
#: After that a card lying still is looked for at one poll in `SETTLED_EVERY`
#: (staggered by its UID, so that the cards lying on a reader are not all
#: looked for at the same poll), and at every poll again once it missed one.
#: Its departure is then reported at most `SETTLED_EVERY - 1` polls later; a
#: new card is found as fast as ever, and the poll is shorter.
SETTLED_EVERY = 3


def request(pcd: Pcd, code: int = REQA) -> int:
    """REQA or WUPA: ANSWERED if an ATQA came back (exactly 16 bits, no error
    but a collision of several cards' ATQAs), SILENT if nothing, GARBLED if
    something that is not an ATQA (noise, a damaged answer)."""
    reply = pcd.transceive(bytes((code,)), last_bits=7, reply_bits=16)
    if reply is None:
        return SILENT
    if reply.bits == 16 and (reply.collision is not None or not reply.errors):
        return ANSWERED
    return GARBLED


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
    pcd.write(COLL_REG, 0)  # ValuesAfterColl = 0: bits after a collision read 0
    known: list[int] = []
    while len(known) < 40:
        count = len(known)
        nvb = ((2 + count // 8) << 4) | (count % 8)
        frame = bytes((code, nvb)) + pack(known)
        align = count % 8
        reply = pcd.transceive(frame, last_bits=align, align=align, reply_bits=40 - count)
        if reply is None:
            return None
        received = bits_of(reply.data, align + reply.bits)[align:]
        if reply.collision is None:  # no CollErr: any other error spoils the answer
            if reply.errors:
                return None
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

    def __init__(self, pcd: Pcd, misses_to_leave: int = 3,
                 group: Sequence[Pcd] | None = None, stagger: int = 0) -> None:
        self.pcd = pcd
        #: Where this reader's settled checks start in the SETTLED_EVERY polls.
        self.stagger = stagger
        #: Each known card's turn among the SETTLED_EVERY polls.
        self.slots: dict[bytes, int] = {}
        self.misses_to_leave = misses_to_leave
        #: The readers whose fields are reset with this one's (it included).
        self.group = group if group is not None else [pcd]
        self.misses: dict[bytes, int] = {}
        #: The poll at which each known card arrived.
        self.arrived_at: dict[bytes, int] = {}
        self.polls = 0

    @property
    def present(self) -> list[bytes]:
        return list(self.misses)

    def poll(self) -> PollResult:
        self.polls += 1
        arrived: list[bytes] = []
        identified: list[bytes] = []
        retries = RETRIES_PER_POLL
        for _ in range(MAX_NEW_PER_POLL + RETRIES_PER_POLL):
            heard = request(self.pcd, REQA)
            if heard == SILENT:
                break
            found = identify(self.pcd) if heard == ANSWERED else None
            if found is None:
                # whoever woke (READY, or ACTIVE if only its SAK was lost) goes
                # back to IDLE on a REQA it cannot answer, for the next try
                request(self.pcd, REQA)
                if not retries:
                    break
                retries -= 1
                continue
            uid = found[0]
            halt(self.pcd)
            identified.append(uid)
            if uid not in self.misses:
                arrived.append(uid)
                self.arrived_at[uid] = self.polls
                taken = set(self.slots.values())
                self.slots[uid] = next(
                    (s for s in ((self.stagger + k) % SETTLED_EVERY
                                 for k in range(SETTLED_EVERY)) if s not in taken),
                    (self.stagger + len(self.slots)) % SETTLED_EVERY)
            self.misses[uid] = 0
        left: list[bytes] = []
        for uid in [u for u in self.misses if u not in identified]:
            if not self._check_due(uid):
                continue
            if self._still_here(uid):
                self.misses[uid] = 0
                continue
            self.misses[uid] += 1
            if self.misses[uid] >= self.misses_to_leave:
                del self.misses[uid]
                self.arrived_at.pop(uid, None)
                self.slots.pop(uid, None)
                left.append(uid)
        if left:
            self._rf_reset()
        return PollResult(arrived, left)

    def _check_due(self, uid: bytes) -> bool:
        """Is the known card `uid` looked for at this poll? A card that
        arrived lately or missed a check: yes; a card lying still: at one
        poll in SETTLED_EVERY."""
        if self.misses[uid] or self.polls - self.arrived_at.get(uid, 0) < YOUNG_POLLS:
            return True
        return (self.polls + self.slots.get(uid, uid[-1])) % SETTLED_EVERY == 0

    def _still_here(self, uid: bytes) -> bool:
        """Is the known card `uid` (in HALT) still in the field? Its answer to
        its own SELECT says so; it goes back to HALT either way."""
        for _ in range(PRESENCE_TRIES):
            request(self.pcd, WUPA)  # wakes it; the answer, anybody's, proves nothing
            here = select_uid(self.pcd, uid)
            halt(self.pcd)  # it to HALT; any other card woken back to IDLE
            if here:
                return True
        return False

    def _rf_reset(self) -> None:
        """The fields of the group that are on, off and on again: every card
        in them starts again in IDLE. Another reader that fails here is left
        to its own poll."""
        switched = []
        for pcd in {id(p): p for p in [self.pcd, *self.group]}.values():
            try:
                if pcd.antenna_on():
                    pcd.antenna(False)
                    switched.append(pcd)
            except OSError:
                if pcd is self.pcd:
                    raise
        self.pcd.sleep(RF_RESET_S)
        for pcd in switched:
            try:
                pcd.antenna(True)
            except OSError:
                if pcd is self.pcd:
                    raise
