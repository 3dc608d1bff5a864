"""The journal: every accepted event of the table, in order, on SQLite.

The controller appends an event before it shows its effect (screen, LEDs,
buzzer). The file is in WAL mode with `synchronous=FULL`, so `append` returns
only once the entry is on disk: pulling the plug (or `kill -9`) at any moment
loses nothing that was shown. The one exception is a card put down: its
entries are written, its verdict shown, then they are synced
(`defer_sync`, `sync`); a power cut in between loses them but not the card,
which lies on its reader and is read again when the table is back. On
start the controller replays the journal from the last checkpoint (the
start of the match or of the hand in play) and resumes exactly where it
stopped. The entry kinds are listed in docs/controller.md.

A journal that holds less than what the table showed (only the main file
copied without its write-ahead log, a damaged or lost log, an old backup put
back) opens without any SQLite error. So every append also records the
entry's number in `journal.mark` next to the file (`table.storemark`), and
`Journal.open_checked` refuses a journal that holds less than its mark
(`JournalBehind`) before anything is written. The write-ahead log is folded
into the main file at every checkpoint entry (a match started, a hand
settled, a match ended), so a copy of the main file alone is at most one hand
behind. Every SQLite error, on any method, becomes a `JournalError` naming
the file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from table import storemark
from table.ports import JournalEntry

FORMAT_VERSION = 1

#: Entry kinds after which the write-ahead log is folded into the main file.
FOLD_AFTER = frozenset({"start", "next", "end", "select"})

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

RECOVERY = ("To recover: stop the table, put back the latest backup of the state folder "
            "(journal.sqlite with its journal.sqlite-wal, or a copy made by `cardtable "
            "journal backup`), or keep `cardtable export` files of the matches; "
            "`cardtable journal check --state DIR` says what a folder holds. "
            "Nothing was changed.")


class JournalError(RuntimeError):
    """The journal cannot be opened, read or written. Nothing in it was changed."""


class JournalBehind(JournalError):
    """The journal holds less than the table had acknowledged (its mark)."""

    def __init__(self, path: str, have: int, mark: int, detail: str) -> None:
        self.path = path
        self.have = have
        self.mark = mark
        super().__init__(f"the journal {path} {detail}. The table refuses to play rather "
                         f"than go back in time. {RECOVERY}")


def mark_path(path: str | Path) -> Path:
    """The mark file of a journal (or registry) file: `journal.sqlite` -> `journal.mark`."""
    return Path(path).with_suffix(".mark")


def inspect(path: str | Path) -> tuple[str | None, int]:
    """(journal id, last entry number) of a journal file, read through a
    read-only connection: the file and its write-ahead log are left exactly
    as they are (a read-write connection would fold the log into the file
    when it closes). `JournalError` when the file cannot be read."""
    p = Path(path)
    try:
        db = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise JournalError(f"the journal {p} cannot be read ({exc}). {RECOVERY}") from None
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "entries" not in tables:
            return None, 0
        row = db.execute("SELECT value FROM meta WHERE key = 'id'").fetchone() \
            if "meta" in tables else None
        last = db.execute("SELECT MAX(seq) FROM entries").fetchone()[0]
        return (str(row[0]) if row else None), int(last or 0)
    except (sqlite3.Error, TypeError, ValueError) as exc:
        raise JournalError(f"the journal {p} cannot be read ({exc}). {RECOVERY}") from None
    finally:
        db.close()


def quick_check(db: sqlite3.Connection, path: str) -> None:
    """SQLite's `quick_check` of an open database; `JournalError` naming what it found."""
    try:
        rows = [str(r[0]) for r in db.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.Error as exc:
        raise JournalError(f"the journal {path} is damaged ({exc}). {RECOVERY}") from None
    if rows != ["ok"]:
        found = "; ".join(rows[:3]) + ("; ..." if len(rows) > 3 else "")
        raise JournalError(f"the journal {path} is damaged ({found}). {RECOVERY}")


class Journal:
    """Implements `table.ports.Store` on an SQLite file (`":memory:"` for tests).

    `Journal(path)` opens for reading and writing, without looking at the
    mark. The table opens its journal with `Journal.open_checked(path)`: it
    first compares the file with its mark, then keeps the mark up to date
    on every append.
    `readonly=True` opens an existing journal only to read it (export,
    check): nothing is written, not even the write-ahead log folded in.
    """

    def __init__(self, path: str | Path = ":memory:", *, readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.id: str | None = None
        self._marks: storemark.MarkFile | None = None
        #: during `defer_sync`: the newest entry written but not yet synced (0: none)
        self._deferred: int | None = None
        memory = self.path == ":memory:"
        try:
            if readonly:
                if memory or not Path(self.path).is_file():
                    raise JournalError(f"there is no journal {self.path}")
                self.db = sqlite3.connect(f"{Path(self.path).resolve().as_uri()}?mode=ro",
                                          uri=True, isolation_level=None,
                                          check_same_thread=False)
                mode = self.db.execute("PRAGMA journal_mode").fetchone()[0]
                self._check_format(create=False)
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None,
                                          check_same_thread=False)
                mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.executescript(_SCHEMA)
                self._check_format(create=True)
        except sqlite3.Error as exc:
            raise JournalError(f"the journal {self.path} cannot be read ({exc}). It was left "
                               "as it is; move it away to start a new one.") from None
        #: "wal", or "memory" for an in-memory journal.
        self.mode = str(mode)

    def _check_format(self, create: bool) -> None:
        rows = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        fmt = rows.get("format")
        if fmt is None and create:
            self.db.execute("INSERT INTO meta (key, value) VALUES ('format', ?)",
                            (str(FORMAT_VERSION),))
        elif fmt is not None and fmt != str(FORMAT_VERSION):
            raise JournalError(f"the journal {self.path} has format {fmt}; this version "
                               f"reads format {FORMAT_VERSION}. It was left as it is.")
        self.id = rows.get("id")
        if self.id is None and create:
            self.id = uuid.uuid4().hex
            self.db.execute("INSERT INTO meta (key, value) VALUES ('id', ?)", (self.id,))

    @classmethod
    def verify(cls, path: str | Path) -> storemark.Mark | None:
        """Compare a journal file with its mark without changing anything
        (a read-only look): `JournalBehind` when it holds less than the table
        acknowledged, `JournalError` when the mark cannot be read. Returns
        the mark (None when there is none yet)."""
        p = Path(path)
        mpath = mark_path(p)
        try:
            mark = storemark.read(mpath)
        except storemark.MarkError as exc:
            raise JournalError(f"{exc}. If the journal itself is sound (`cardtable journal "
                               f"check`), `cardtable journal accept` writes a new mark. "
                               "Nothing was changed.") from None
        if p.is_file():
            journal_id, have = inspect(p)
        else:
            journal_id, have = None, 0
        if mark is not None and not p.is_file():
            raise JournalBehind(str(p), 0, mark.value,
                                f"is missing, but the table had shown entries up to "
                                f"{mark.value} ({mpath.name}): all {mark.value} entries are "
                                "missing (the file was moved or deleted)")
        if mark is not None:
            if journal_id is not None and journal_id != mark.store_id:
                raise JournalBehind(str(p), have, mark.value,
                                    f"is not the one the table was writing (it was journal "
                                    f"{mark.store_id}, up to entry {mark.value}; this one is "
                                    f"{journal_id} with {have} entries)")
            if have < mark.value:
                missing = mark.value - have
                raise JournalBehind(str(p), have, mark.value,
                                    f"holds entries up to {have}, but the table had shown "
                                    f"entries up to {mark.value} ({mpath.name}): the last "
                                    f"{missing} entr{'y is' if missing == 1 else 'ies are'} "
                                    "missing (a lost or damaged journal.sqlite-wal, or an "
                                    "older copy of the journal)")
        return mark

    @classmethod
    def open_checked(cls, path: str | Path) -> Journal:
        """Open the table's journal after `verify`; a journal with no mark yet
        (new, or from a version without marks) gets one. `JournalError` also
        when SQLite's quick_check finds damage."""
        p = Path(path)
        mark = cls.verify(p)
        journal = cls(p)
        try:
            quick_check(journal.db, str(p))
            journal._sync_mark(mark)
        except BaseException:
            journal.close()
            raise
        return journal

    def _sync_mark(self, mark: storemark.Mark | None) -> None:
        assert self.id is not None
        self._marks = storemark.MarkFile(mark_path(self.path))
        last = self.last_seq()
        try:
            if mark is None or mark.store_id != self.id:
                self._marks.create(storemark.Mark(self.id, last))
            elif last > mark.value:   # the power went between an append and its mark
                self._marks.write(storemark.Mark(self.id, last))
        except storemark.MarkError as exc:
            raise JournalError(str(exc)) from None

    def append(self, kind: str, data: Mapping[str, Any]) -> int:
        """Add an entry; returns its sequence number once it is on disk
        (and, for a file journal, once its mark is)."""
        if self.readonly:
            raise JournalError(f"the journal {self.path} was opened only for reading")
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        try:
            cur = self.db.execute("INSERT INTO entries (kind, data, at) VALUES (?, ?, ?)",
                                  (kind, text, time.time()))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from None
        seq = cur.lastrowid
        assert seq is not None
        if self._deferred is not None:
            self._deferred = seq
        elif self._marks is not None and self.id is not None:
            try:
                self._marks.write(storemark.Mark(self.id, seq))
            except storemark.MarkError as exc:
                raise JournalError(str(exc)) from None
        if kind in FOLD_AFTER and self.mode == "wal":
            self.fold()
        return seq

    def defer_sync(self) -> None:
        """From now until `sync()`, `append` writes entries without waiting
        for the disk (SQLite `synchronous=NORMAL`, the mark left as it is):
        the controller shows a card's verdict while they go to disk. Only
        for what the table can read again after a power cut: the card lying
        on its reader (docs/controller.md)."""
        if self.mode == "wal" and self._deferred is None and not self.readonly:
            self._execute("PRAGMA synchronous=NORMAL")
            self._deferred = 0

    def sync(self) -> None:
        """End `defer_sync`: the write-ahead log synced to disk, then the
        mark of the newest entry (as `append` does for each entry); from now
        on each append waits for the disk again. Nothing to do without a
        deferral."""
        newest, self._deferred = self._deferred, None
        if newest is None:
            return
        self._execute("PRAGMA synchronous=FULL")
        if not newest:
            return
        try:
            fd = os.open(self.path + "-wal", os.O_RDONLY)
        except FileNotFoundError:
            fd = None       # folded into the main file, which the checkpoint synced
        except OSError as exc:
            raise JournalError(f"cannot write to the journal {self.path}: "
                               f"{exc.strerror or exc}") from None
        if fd is not None:
            try:
                os.fdatasync(fd)
            except OSError as exc:
                raise JournalError(f"cannot write to the journal {self.path}: "
                                   f"{exc.strerror or exc}") from None
            finally:
                os.close(fd)
        if self._marks is not None and self.id is not None:
            try:
                self._marks.write(storemark.Mark(self.id, newest))
            except storemark.MarkError as exc:
                raise JournalError(str(exc)) from None

    def _execute(self, sql: str) -> None:
        try:
            self.db.execute(sql)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from None

    def fold(self) -> None:
        """Fold the write-ahead log into the main file (an SQLite checkpoint)."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from None

    def _rows(self, sql: str, args: Iterable[Any] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, tuple(args)).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {self.path} ({exc}). "
                               f"{RECOVERY}") from None

    def entries(self, after: int = 0) -> Iterator[JournalEntry]:
        """Every entry with `seq > after`, oldest first."""
        rows = self._rows("SELECT seq, kind, data FROM entries WHERE seq > ? ORDER BY seq",
                          (after,))
        for seq, kind, data in rows:
            yield _entry(self.path, seq, kind, data)

    def get(self, seq: int) -> JournalEntry:
        rows = self._rows("SELECT seq, kind, data FROM entries WHERE seq = ?", (seq,))
        if not rows:
            raise JournalError(f"the journal {self.path} has no entry {seq}")
        return _entry(self.path, *rows[0])

    def written_at(self, seq: int) -> float | None:
        """When entry `seq` was written (seconds since the epoch), None if absent."""
        rows = self._rows("SELECT at FROM entries WHERE seq = ?", (seq,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    def last(self, kinds: Iterable[str]) -> JournalEntry | None:
        """The newest entry of one of these kinds."""
        kinds = list(kinds)
        marks = ",".join("?" * len(kinds))
        rows = self._rows(f"SELECT seq, kind, data FROM entries WHERE kind IN ({marks}) "
                          "ORDER BY seq DESC LIMIT 1", kinds)
        if not rows:
            return None
        return _entry(self.path, *rows[0])

    def count(self) -> int:
        return _int(self.path, self._rows("SELECT COUNT(*) FROM entries")[0][0])

    def last_seq(self) -> int:
        return _int(self.path, self._rows("SELECT MAX(seq) FROM entries")[0][0] or 0)

    def close(self) -> None:
        if self._marks is not None:
            self._marks.close()
        try:
            self.db.close()
        except sqlite3.Error:
            pass


def _int(path: str, value: object) -> int:
    if not isinstance(value, int):
        raise JournalError(f"the journal {path} is damaged (a count reads {value!r}). "
                           f"{RECOVERY}")
    return value


def _entry(path: str, seq: object, kind: object, data: object) -> JournalEntry:
    if not isinstance(seq, int) or not isinstance(kind, str):
        raise JournalError(f"the journal {path} is damaged (entry {seq!r} has kind "
                           f"{kind!r}). {RECOVERY}")
    return JournalEntry(seq, kind, _decode(seq, data))


def _decode(seq: int, data: object) -> dict[str, Any]:
    if not isinstance(data, (str, bytes)):
        raise JournalError(f"journal entry {seq} is damaged (its data is "
                           f"{type(data).__name__}, not JSON text). {RECOVERY}")
    try:
        obj = json.loads(data)
    except (ValueError, TypeError):
        raise JournalError(f"journal entry {seq} is damaged (not JSON). {RECOVERY}") from None
    if not isinstance(obj, dict):
        raise JournalError(f"journal entry {seq} is damaged (not an object). {RECOVERY}")
    return obj
