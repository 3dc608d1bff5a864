"""The journal: every accepted event of the table, in order, on SQLite.

The controller appends an event before it shows its effect (screen, LEDs,
buzzer). The file is in WAL mode with `synchronous=FULL`, so `append` returns
only once the entry is on disk: pulling the plug (or `kill -9`) at any moment
loses nothing that was shown. On start the controller replays the journal from
the last checkpoint (the start of the match or of the hand in play) and
resumes exactly where it stopped. The entry kinds are listed in
docs/controller.md.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from table.ports import JournalEntry

FORMAT_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at   REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_kind ON entries (kind, seq);
"""


class JournalError(RuntimeError):
    """The journal cannot be opened, read or written. Nothing in it was changed."""


class Journal:
    """Implements `table.ports.Store` on an SQLite file (`":memory:"` for tests)."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta (key, value) VALUES ('format', ?)",
                                (str(FORMAT_VERSION),))
            elif row[0] != str(FORMAT_VERSION):
                raise JournalError(f"the journal {self.path} has format {row[0]}; this version "
                                   f"reads format {FORMAT_VERSION}. It was left as it is.")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"the journal {self.path} cannot be read ({exc}). It was left "
                               "as it is; move it away to start a new one.") from None
        #: "wal", or "memory" for an in-memory journal.
        self.mode = str(mode)

    def append(self, kind: str, data: Mapping[str, Any]) -> int:
        """Add an entry; returns its sequence number once it is on disk."""
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        try:
            cur = self.db.execute("INSERT INTO entries (kind, data, at) VALUES (?, ?, ?)",
                                  (kind, text, time.time()))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from None
        seq = cur.lastrowid
        assert seq is not None
        return seq

    def entries(self, after: int = 0) -> Iterator[JournalEntry]:
        """Every entry with `seq > after`, oldest first."""
        try:
            rows = self.db.execute(
                "SELECT seq, kind, data FROM entries WHERE seq > ? ORDER BY seq", (after,)
            ).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc}") from None
        for seq, kind, data in rows:
            yield JournalEntry(seq, kind, _decode(seq, data))

    def get(self, seq: int) -> JournalEntry:
        row = self.db.execute("SELECT seq, kind, data FROM entries WHERE seq = ?",
                              (seq,)).fetchone()
        if row is None:
            raise JournalError(f"the journal {self.path} has no entry {seq}")
        return JournalEntry(row[0], row[1], _decode(row[0], row[2]))

    def last(self, kinds: Iterable[str]) -> JournalEntry | None:
        """The newest entry of one of these kinds."""
        kinds = list(kinds)
        marks = ",".join("?" * len(kinds))
        row = self.db.execute(
            f"SELECT seq, kind, data FROM entries WHERE kind IN ({marks}) "
            "ORDER BY seq DESC LIMIT 1", kinds).fetchone()
        if row is None:
            return None
        return JournalEntry(row[0], row[1], _decode(row[0], row[2]))

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def last_seq(self) -> int:
        row = self.db.execute("SELECT MAX(seq) FROM entries").fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        self.db.close()


def _decode(seq: int, data: str) -> dict[str, Any]:
    try:
        obj = json.loads(data)
    except ValueError:
        raise JournalError(f"journal entry {seq} is damaged (not JSON)") from None
    if not isinstance(obj, dict):
        raise JournalError(f"journal entry {seq} is damaged (not an object)")
    return obj
