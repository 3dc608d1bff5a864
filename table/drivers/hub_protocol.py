"""The reader hub's line protocol on the host side (firmware/PROTOCOL.md).

Pure: no I/O. `LineSplitter` cuts a byte stream into lines and drops
endless ones; `parse_line` checks a line and raises `BadLine` with the reason
it was dropped; `SequenceCheck` tells new lines from replays and gaps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: Longest line the host accepts from the hub: a CARDS line with a 7-byte
#: card on each of the 8 channels is 140 characters.
MAX_LINE = 200
KINDS = frozenset({"BOOT", "ON", "OFF", "CARDS", "HB", "ERR", "BACK", "VER", "OK"})
_FIELD = re.compile(r"[ -)+-~]*")  # printable ASCII but ',' and '*'
_UID = re.compile(r"(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})")


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, init 0xFFFF ("123456789" -> 0x29B1)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        crc &= 0xFFFF
    return crc


def channel_mask(channels: Iterable[int]) -> str:
    """Channels 0..7 as the 2-digit hex bit mask `USE` and `HB` carry: {0, 2} -> "05"."""
    mask = 0
    for channel in channels:
        if not 0 <= channel <= 7:
            raise ValueError(f"hub channels are 0..7, not {channel}")
        mask |= 1 << channel
    return f"{mask:02X}"


def encode_command(kind: str, *fields: object) -> bytes:
    """A command to the hub: $KIND[,field...]*CRC\\n."""
    body = ",".join([kind, *(str(f) for f in fields)]).encode("ascii")
    return b"$" + body + b"*%04X\n" % crc16(body)


class BadLine(ValueError):
    """A line dropped; `reason` names the counter it goes to."""

    def __init__(self, reason: str, line: bytes = b"") -> None:
        super().__init__(f"{reason}: {line[:60]!r}")
        self.reason = reason


@dataclass(frozen=True)
class Line:
    seq: int
    kind: str
    fields: tuple[str, ...]


def _uid_ok(uid: str) -> bool:
    return _UID.fullmatch(uid) is not None


def _channel(text: str) -> int:
    if len(text) != 1 or text not in "01234567":
        raise BadLine("malformed")
    return int(text)


def parse_line(raw: bytes) -> Line:
    """One line (without its end of line) from the hub, checked."""
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise BadLine("not_ascii", raw) from None
    text = text.strip("\r")
    if not text.startswith("$") or len(text) < 8 or text[-5] != "*":
        raise BadLine("malformed", raw)
    body = text[1:-5]
    try:
        crc = int(text[-4:], 16)
    except ValueError:
        raise BadLine("malformed", raw) from None
    if not all(c in "0123456789ABCDEF" for c in text[-4:]):
        raise BadLine("malformed", raw)
    if crc != crc16(body.encode("ascii")):
        raise BadLine("bad_checksum", raw)
    parts = body.split(",")
    if len(parts) < 2 or not parts[0].isdigit() or len(parts[0]) > 5:
        raise BadLine("malformed", raw)
    seq = int(parts[0])
    kind, fields = parts[1], tuple(parts[2:])
    if seq > 0xFFFF or not all(_FIELD.fullmatch(f) for f in fields):
        raise BadLine("malformed", raw)
    if kind not in KINDS:
        raise BadLine("unknown_kind", raw)
    _check_fields(kind, fields, raw)
    return Line(seq, kind, fields)


def _check_fields(kind: str, fields: tuple[str, ...], raw: bytes) -> None:
    try:
        if kind in ("ON", "OFF"):
            if len(fields) != 2 or not _uid_ok(fields[1]):
                raise BadLine("malformed")
            _channel(fields[0])
        elif kind == "BACK":
            if len(fields) != 1:
                raise BadLine("malformed")
            _channel(fields[0])
        elif kind == "CARDS":
            if not 1 <= len(fields) <= 8:
                raise BadLine("malformed")
            for f in fields:
                if f not in ("", "!") and not all(_uid_ok(u) for u in f.split("+")):
                    raise BadLine("malformed")
        elif kind == "HB":
            if len(fields) != 3 or not fields[0].isdigit():
                raise BadLine("malformed")
            int(fields[1], 16)
        elif kind == "ERR":
            if len(fields) < 2:
                raise BadLine("malformed")
            if fields[0] != "-":
                _channel(fields[0])
        elif kind == "BOOT" and len(fields) != 4:
            raise BadLine("malformed")
    except ValueError as exc:
        raise BadLine(exc.reason if isinstance(exc, BadLine) else "malformed", raw) from None


class LineSplitter:
    """Bytes in, complete lines out. A line longer than `max_len` is dropped
    whole (up to its end of line) and counted in `overlong`."""

    def __init__(self, max_len: int = MAX_LINE) -> None:
        self.max_len = max_len
        self._buf = bytearray()
        self._discarding = False
        self.overlong = 0

    def feed(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self._discarding:
                if len(self._buf) + len(chunk) > self.max_len:
                    self._buf.clear()
                    self._discarding = True
                    self.overlong += 1
                else:
                    self._buf += chunk
            if end < 0:
                return lines
            if not self._discarding and self._buf:
                lines.append(bytes(self._buf))
            self._buf.clear()
            self._discarding = False
            start = end + 1

    def reset(self) -> None:
        self._buf.clear()
        self._discarding = False


class SequenceCheck:
    """Sequence numbers of the hub's lines: 'new', 'gap' (some lost) or 'replay'."""

    def __init__(self) -> None:
        self.last: int | None = None
        self.missed = 0

    def check(self, line: Line) -> str:
        if line.kind == "BOOT" and line.seq == 0:
            self.last = 0
            return "new"
        if self.last is None:
            self.last = line.seq
            return "new"
        ahead = (line.seq - self.last) & 0xFFFF
        if ahead == 0 or ahead > 0x8000:
            return "replay"
        self.last = line.seq
        if ahead > 1:
            self.missed += ahead - 1
            return "gap"
        return "new"

    def reset(self) -> None:
        self.last = None
