"""The hub's store: every entry of every table, once.

One schema, two databases: SQLite (a file, the default) and PostgreSQL
(through psycopg, when a club outgrows one machine). `open_store(url)` picks
by the address: a path or `sqlite:///path`, or `postgresql://...`.

Entries are kept per table *and journal* (the id a table's journal got when
it was made; "" for entries of tables of older versions): a rebuilt Pi with
the same name starts a journal of its own. A database made before journals
were kept (every entry's journal "") is migrated when it is opened: its
entries keep their table and number, in the old journal "".

An entry is kept only in order: the hub adds a journal's entry `seq` only when
it holds every entry before it, so the largest `seq` of a journal is also its
high-water mark, the mark the table resends from.
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

_TABLE = """CREATE TABLE IF NOT EXISTS {name} (
        tbl      TEXT NOT NULL,
        journal  TEXT NOT NULL DEFAULT '',
        seq      INTEGER NOT NULL,
        kind     TEXT NOT NULL,
        data     TEXT NOT NULL,
        received DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (tbl, journal, seq)
    )"""
SCHEMA = (_TABLE.format(name="club_entries"),)
INSERT = ("INSERT INTO club_entries (tbl, journal, seq, kind, data, received) VALUES ({p}, "
          "{p}, {p}, {p}, {p}, {p}) ON CONFLICT (tbl, journal, seq) DO NOTHING")
#: Every journal of every table, the oldest first (by its first entry's arrival).
STREAMS = ("SELECT tbl, journal, MAX(seq), MIN(received) FROM club_entries "
           "GROUP BY tbl, journal ORDER BY MIN(received), tbl, journal")
ENTRIES = ("SELECT seq, kind, data FROM club_entries WHERE tbl = {p} AND journal = {p} "
           "AND seq > {p} ORDER BY seq")
#: The newest journal of a table (the one whose first entry came last).
NEWEST = ("SELECT journal FROM club_entries WHERE tbl = {p} GROUP BY journal "
          "ORDER BY MIN(received) DESC, journal DESC LIMIT 1")
ADOPT = "UPDATE club_entries SET journal = {p} WHERE tbl = {p} AND journal = ''"


class StoreError(RuntimeError):
    """The hub's database cannot be opened, read or written."""


class EntryStore(Protocol):
    """What the hub needs of its database."""

    def add(self, entries: Sequence[Entry]) -> int:
        """Store these entries in one transaction (an entry already there is
        left as it is); returns how many were new."""

    def marks(self) -> dict[tuple[str, str], int]:
        """Every (table, journal)'s high-water mark (its largest seq), the
        oldest journal first."""

    def entries(self, table: str, after: int = 0,
                journal: str | None = None) -> Iterator[Entry]:
        """A table's entries of `journal` (None: its newest journal) with
        `seq > after`, in order."""

    def adopt(self, table: str, journal: str) -> None:
        """The table's old journal ("") is its journal `journal`: a table
        updated to a version that sends its journal's id, going on where its
        old entries stop."""

    def count(self) -> int: ...

    def close(self) -> None: ...


def _rows(entries: Sequence[Entry]) -> list[tuple[Any, ...]]:
    now = time.time()
    return [(e.table, e.journal, e.seq, e.kind,
             json.dumps(e.data, ensure_ascii=False, sort_keys=True), now) for e in entries]


def _marks(rows: Iterator[Any] | list[Any]) -> dict[tuple[str, str], int]:
    return {(str(t), str(j)): int(s) for t, j, s, _first in rows}


def _migrate_sqlite(db: sqlite3.Connection) -> None:
    """Give a database made before journals were kept its `journal` column
    (in one transaction: the old table's rows, every one in journal "")."""
    columns = [r[1] for r in db.execute("PRAGMA table_info(club_entries)")]
    if not columns or "journal" in columns:
        return
    db.execute("BEGIN")
    try:
        db.execute(_TABLE.format(name="club_entries_new"))
        db.execute("INSERT INTO club_entries_new (tbl, journal, seq, kind, data, received) "
                   "SELECT tbl, '', seq, kind, data, received FROM club_entries")
        db.execute("DROP TABLE club_entries")
        db.execute("ALTER TABLE club_entries_new RENAME TO club_entries")
        db.execute("COMMIT")
    except sqlite3.Error:
        db.execute("ROLLBACK")
        raise


class SqliteStore:
    """`EntryStore` on an SQLite file (WAL; every batch synced)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            _migrate_sqlite(self.db)
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

    def marks(self) -> dict[tuple[str, str], int]:
        with self._lock:
            return _marks(self.db.execute(STREAMS).fetchall())

    def entries(self, table: str, after: int = 0,
                journal: str | None = None) -> Iterator[Entry]:
        with self._lock:
            if journal is None:
                row = self.db.execute(NEWEST.format(p="?"), (table,)).fetchone()
                journal = str(row[0]) if row else ""
            rows = self.db.execute(ENTRIES.format(p="?"), (table, journal, after)).fetchall()
        for seq, kind, data in rows:
            yield Entry(table, int(seq), str(kind), json.loads(data), journal)

    def adopt(self, table: str, journal: str) -> None:
        with self._lock:
            try:
                self.db.execute(ADOPT.format(p="?"), (journal, table))
            except sqlite3.Error as exc:
                raise StoreError(f"cannot write to {self.path}: {exc}") from None

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
            self._migrate()
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

    def _migrate(self) -> None:
        """A table made before journals were kept gets its `journal` column."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM information_schema.columns WHERE table_name = "
            "'club_entries' AND column_name = 'journal'").fetchone()
        exists = self.db.execute("SELECT to_regclass('club_entries')").fetchone()
        if not exists or exists[0] is None or (row and row[0]):
            return
        with self.db.transaction():
            self.db.execute("ALTER TABLE club_entries ADD COLUMN journal TEXT NOT NULL "
                            "DEFAULT ''")
            self.db.execute("ALTER TABLE club_entries DROP CONSTRAINT club_entries_pkey")
            self.db.execute("ALTER TABLE club_entries ADD PRIMARY KEY (tbl, journal, seq)")

    def marks(self) -> dict[tuple[str, str], int]:
        with self._lock:
            return _marks(self.db.execute(STREAMS).fetchall())

    def entries(self, table: str, after: int = 0,
                journal: str | None = None) -> Iterator[Entry]:
        with self._lock:
            if journal is None:
                row = self.db.execute(NEWEST.format(p="%s"), (table,)).fetchone()
                journal = str(row[0]) if row else ""
            rows = self.db.execute(ENTRIES.format(p="%s"), (table, journal, after)).fetchall()
        for seq, kind, data in rows:
            yield Entry(table, int(seq), str(kind), json.loads(data), journal)

    def adopt(self, table: str, journal: str) -> None:
        with self._lock:
            try:
                self.db.execute(ADOPT.format(p="%s"), (journal, table))
            except self._psycopg.Error as exc:
                raise StoreError(f"cannot write to {_safe(self.url)}: {exc}") from None

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
