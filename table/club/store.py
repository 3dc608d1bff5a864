"""The hub's store: every entry of every table, once.

One schema, two databases: SQLite (a file, the default) and PostgreSQL
(through psycopg, when a club outgrows one machine). `open_store(url)` picks
by the address: a path or `sqlite:///path`, or `postgresql://...`.

An entry is kept only in order: the hub adds a table's entry `seq` only when
it holds every entry before it, so the largest `seq` of a table is also its
high-water mark, the mark the tables resend from.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from table.club.topics import Entry

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS club_entries (
        tbl      TEXT NOT NULL,
        seq      INTEGER NOT NULL,
        kind     TEXT NOT NULL,
        data     TEXT NOT NULL,
        received DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (tbl, seq)
    )""",
)
INSERT = ("INSERT INTO club_entries (tbl, seq, kind, data, received) VALUES ({p}, {p}, {p}, "
          "{p}, {p}) ON CONFLICT (tbl, seq) DO NOTHING")


class StoreError(RuntimeError):
    """The hub's database cannot be opened, read or written."""


class EntryStore(Protocol):
    """What the hub needs of its database."""

    def add(self, entries: Sequence[Entry]) -> int:
        """Store these entries in one transaction (an entry already there is
        left as it is); returns how many were new."""

    def marks(self) -> dict[str, int]:
        """Every table's high-water mark (its largest seq)."""

    def entries(self, table: str, after: int = 0) -> Iterator[Entry]:
        """A table's entries with `seq > after`, in order."""

    def count(self) -> int: ...

    def close(self) -> None: ...


def _rows(entries: Sequence[Entry]) -> list[tuple[Any, ...]]:
    now = time.time()
    return [(e.table, e.seq, e.kind, json.dumps(e.data, ensure_ascii=False, sort_keys=True),
             now) for e in entries]


class SqliteStore:
    """`EntryStore` on an SQLite file (WAL; every batch synced)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            for stmt in SCHEMA:
                self.db.execute(stmt)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the hub's database {self.path} cannot be used: {exc}") from None

    def add(self, entries: Sequence[Entry]) -> int:
        if not entries:
            return 0
        sql = INSERT.format(p="?")
        with self._lock:
            try:
                before = self.db.total_changes
                self.db.execute("BEGIN")
                self.db.executemany(sql, _rows(entries))
                self.db.execute("COMMIT")
                return self.db.total_changes - before
            except sqlite3.Error as exc:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise StoreError(f"cannot write to {self.path}: {exc}") from None

    def marks(self) -> dict[str, int]:
        with self._lock:
            rows = self.db.execute("SELECT tbl, MAX(seq) FROM club_entries GROUP BY tbl")
            return {str(t): int(s) for t, s in rows}

    def entries(self, table: str, after: int = 0) -> Iterator[Entry]:
        with self._lock:
            rows = self.db.execute("SELECT seq, kind, data FROM club_entries WHERE tbl = ? "
                                   "AND seq > ? ORDER BY seq", (table, after)).fetchall()
        for seq, kind, data in rows:
            yield Entry(table, int(seq), str(kind), json.loads(data))

    def count(self) -> int:
        with self._lock:
            return int(self.db.execute("SELECT COUNT(*) FROM club_entries").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self.db.close()


class PostgresStore:
    """`EntryStore` on PostgreSQL through psycopg (3), the same schema."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ModuleNotFoundError:
            raise StoreError("a PostgreSQL store needs psycopg: pip install 'psycopg[binary]'"
                             ) from None
        self._psycopg = psycopg
        self.url = url
        self._lock = threading.Lock()
        try:
            self.db = psycopg.connect(url, autocommit=True)
            for stmt in SCHEMA:
                self.db.execute(stmt)
        except psycopg.Error as exc:
            raise StoreError(f"the hub's database {_safe(url)} cannot be used: "
                             f"{str(exc).strip()}") from None

    def add(self, entries: Sequence[Entry]) -> int:
        if not entries:
            return 0
        sql = INSERT.format(p="%s")
        with self._lock:
            try:
                with self.db.transaction(), self.db.cursor() as cur:
                    n = 0
                    for row in _rows(entries):
                        cur.execute(sql, row)
                        n += max(cur.rowcount, 0)
                    return n
            except self._psycopg.Error as exc:
                raise StoreError(f"cannot write to {_safe(self.url)}: {exc}") from None

    def marks(self) -> dict[str, int]:
        with self._lock:
            rows = self.db.execute(
                "SELECT tbl, MAX(seq) FROM club_entries GROUP BY tbl").fetchall()
        return {str(t): int(s) for t, s in rows}

    def entries(self, table: str, after: int = 0) -> Iterator[Entry]:
        with self._lock:
            rows = self.db.execute("SELECT seq, kind, data FROM club_entries WHERE tbl = %s "
                                   "AND seq > %s ORDER BY seq", (table, after)).fetchall()
        for seq, kind, data in rows:
            yield Entry(table, int(seq), str(kind), json.loads(data))

    def count(self) -> int:
        with self._lock:
            row = self.db.execute("SELECT COUNT(*) FROM club_entries").fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        with self._lock:
            self.db.close()


def _safe(url: str) -> str:
    """The address without its password."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


def open_store(where: str | Path) -> EntryStore:
    """`postgresql://...` (or `postgres://`), `sqlite:///path`, or a file path."""
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        return PostgresStore(text)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]   # sqlite:///rel.db, sqlite:////abs/path.db
    elif "://" in text:
        raise StoreError(f"the database must be a file, sqlite:///path or postgresql://..., "
                         f"not {text!r}")
    return SqliteStore(text)
