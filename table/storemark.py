"""High-water marks: a second, independent record of how far a store got.

The journal (and the card registry) keep their data in SQLite. A copy of
only the main file, a lost or damaged write-ahead log, or an old backup put
back in place all open without an error, just with fewer entries: SQLite
cannot know what it never saw. So after every write the store also records
its newest sequence number (the journal's last entry, the registry's
generation) in a small file next to it, `<name>.mark`, synced to disk. On
start the store compares: if it holds less than its mark says, the table
refuses to play instead of silently going back in time.

The mark file is 1,024 bytes: two 512-byte slots, written in turn, each a
line `cardtable-mark 1 <store id> <value> <crc32>`. A write torn by a power
cut damages at most the slot being written; the other still holds the
previous value, which is never more than one write behind.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path

MAGIC = "cardtable-mark"
VERSION = 1
SLOT = 512


class MarkError(RuntimeError):
    """The mark file cannot be read or written. Nothing was changed."""


@dataclass(frozen=True)
class Mark:
    """What a mark file says: the store's id and the value it reached."""

    store_id: str
    value: int


def _encode(mark: Mark) -> bytes:
    body = f"{MAGIC} {VERSION} {mark.store_id} {mark.value}"
    line = f"{body} {zlib.crc32(body.encode('ascii')):08x}\n".encode("ascii")
    if len(line) > SLOT:
        raise MarkError("a store id this long does not fit in a mark")
    return line.ljust(SLOT, b"\0")


def _decode(slot: bytes) -> Mark | None:
    """The mark in one slot, or None when the slot is empty or damaged."""
    try:
        text = slot.split(b"\n", 1)[0].decode("ascii")
    except UnicodeDecodeError:
        return None
    parts = text.split(" ")
    if len(parts) != 5 or parts[0] != MAGIC or parts[1] != str(VERSION):
        return None
    body = " ".join(parts[:4])
    try:
        crc = int(parts[4], 16)
        value = int(parts[3])
    except ValueError:
        return None
    if zlib.crc32(body.encode("ascii")) != crc or value < 0:
        return None
    return Mark(parts[2], value)


def read(path: str | Path) -> Mark | None:
    """The newest valid mark in the file; None when there is no file.
    `MarkError` when the file is there but neither slot can be read."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise MarkError(f"cannot read the mark file {p}: {exc.strerror or exc}") from None
    marks = [m for m in (_decode(data[i:i + SLOT]) for i in (0, SLOT)) if m is not None]
    if not marks:
        raise MarkError(f"the mark file {p} is damaged (neither copy can be read)")
    ids = {m.store_id for m in marks}
    if len(ids) > 1:
        raise MarkError(f"the mark file {p} is damaged (its two copies name different "
                        "stores)")
    return max(marks, key=lambda m: m.value)


class MarkFile:
    """Writes marks to one file, alternating its two slots, each synced."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self._slot = 0

    def create(self, mark: Mark) -> None:
        """Write a new mark file (both slots) atomically: a temporary file,
        synced, renamed over the old one, the folder synced."""
        tmp = self.path.with_name(self.path.name + ".new")
        data = _encode(mark) * 2
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
            try:
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.path)
            _sync_dir(self.path.parent)
        except OSError as exc:
            raise MarkError(f"cannot write the mark file {self.path}: "
                            f"{exc.strerror or exc}") from None
        self.close()

    def write(self, mark: Mark) -> None:
        """Record a new value: overwrite one slot in place and sync it (the
        file never grows, so a full disk cannot stop it)."""
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR)
                current = read(self.path)
                data = os.pread(self._fd, 2 * SLOT, 0)
                # write first over the slot that does not hold the newest value
                first = _decode(data[:SLOT])
                self._slot = 1 if (first is not None and current is not None
                                   and first.value == current.value) else 0
            os.pwrite(self._fd, _encode(mark), self._slot * SLOT)
            os.fdatasync(self._fd)
        except OSError as exc:
            self.close()
            raise MarkError(f"cannot write the mark file {self.path}: "
                            f"{exc.strerror or exc}") from None
        self._slot ^= 1

    def close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
