"""The hub's store, the same on SQLite and PostgreSQL: each entry once,
the marks, the entries back in order, a database it cannot use named."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from table.club.store import PostgresStore, SqliteStore, StoreError, open_store
from table.club.topics import Entry
from tests.club.services import free_port
from tests.system_programs import require_program


def postgres_bin(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(
        f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    return found or require_program(name)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A real PostgreSQL server in a temporary folder (as the `postgres`
    user when the tests run as root, which PostgreSQL refuses)."""
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="club-pg-"))
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data = folder / "data"
    port = free_port()
    subprocess.run([*as_user, initdb, "-D", str(data), "-U", "club", "--auth=trust"],
                   check=True, capture_output=True)
    subprocess.run([*as_user, pg_ctl, "-D", str(data), "-w", "-l", str(folder / "log"), "-o",
                    f"-p {port} -k {folder} -c listen_addresses=127.0.0.1", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql://club@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = open_store(tmp_path / "hub.sqlite")
        assert isinstance(s, SqliteStore)
    else:
        s = open_store(request.getfixturevalue("postgres_url"))
        assert isinstance(s, PostgresStore)
        s.db.execute("DROP TABLE IF EXISTS club_entries")
        s.close()
        s = open_store(request.getfixturevalue("postgres_url"))
    yield s
    s.close()


def test_each_entry_is_kept_once_and_comes_back_in_order(store):
    a = [Entry("t1", i, "card", {"seat": i % 4, "card": "AS", "ñ": "ő"}) for i in range(1, 6)]
    b = [Entry("t2", 1, "start", {"game": "sueca"})]
    assert store.add(a[:3] + b) == 4
    assert store.add(a) == 2                    # 1..3 again: only 4 and 5 are new
    assert store.marks() == {("t1", ""): 5, ("t2", ""): 1}
    assert list(store.entries("t1")) == a
    assert list(store.entries("t1", after=3)) == a[3:]
    assert store.count() == 6
    assert store.add([]) == 0


def test_a_database_that_cannot_be_used_is_named(tmp_path):
    (tmp_path / "notadb.sqlite").write_text("this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot be used"):
        open_store(tmp_path / "notadb.sqlite")
    with pytest.raises(StoreError, match="cannot be used"):
        open_store(f"postgresql://nobody:secret@127.0.0.1:{free_port()}/x")
    with pytest.raises(StoreError) as err:
        open_store(f"postgresql://nobody:secret@127.0.0.1:{free_port()}/x")
    assert "secret" not in str(err.value)


def test_each_journal_of_a_table_is_kept_apart(store):
    """A rebuilt table (same name, a new journal) starts again from 1: its
    entries are its own, never taken for the old journal's."""
    old = [Entry("t1", i, "card", {"n": i}, "a" * 32) for i in range(1, 4)]
    new = [Entry("t1", i, "card", {"n": -i}, "b" * 32) for i in range(1, 3)]
    assert store.add(old) == 3
    assert store.add(new) == 2                  # the same numbers: new entries all the same
    assert store.marks() == {("t1", "a" * 32): 3, ("t1", "b" * 32): 2}
    assert list(store.entries("t1", journal="a" * 32)) == old
    assert list(store.entries("t1")) == new     # the table's newest journal
    assert list(store.entries("t1", after=1, journal="b" * 32)) == new[1:]


def test_a_table_updated_to_send_its_journal_takes_its_old_entries(store):
    store.add([Entry("t1", i, "card", {"n": i}) for i in (1, 2)])
    store.adopt("t1", "c" * 32)
    store.add([Entry("t1", 3, "card", {"n": 3}, "c" * 32)])
    assert store.marks() == {("t1", "c" * 32): 3}
    assert [e.seq for e in store.entries("t1")] == [1, 2, 3]


OLD_SCHEMA = """CREATE TABLE club_entries (
    tbl      TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    data     TEXT NOT NULL,
    received DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tbl, seq)
)"""


def test_a_database_of_the_old_schema_is_migrated_and_loses_nothing(tmp_path):
    """The database as the hub made it before journals were kept (its very
    schema and rows, written here without the new code): opened by the new
    store, every entry is there, in the old journal "", and new journals of
    the same tables are kept apart from them."""
    import json
    import sqlite3

    path = tmp_path / "old-hub.sqlite"
    db = sqlite3.connect(path)
    db.execute(OLD_SCHEMA)
    rows = [("t1", i, "card", json.dumps({"n": i}), 1000.0 + i) for i in range(1, 6)] + \
        [("t2", 1, "start", json.dumps({"game": "sueca"}), 1000.0)]
    db.executemany("INSERT INTO club_entries VALUES (?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    store = SqliteStore(path)
    try:
        assert store.marks() == {("t2", ""): 1, ("t1", ""): 5}
        assert [(e.seq, e.journal, dict(e.data)) for e in store.entries("t1")] == \
            [(i, "", {"n": i}) for i in range(1, 6)]
        assert store.add([Entry("t1", 1, "select", {}, "d" * 32)]) == 1
        assert store.count() == 7
    finally:
        store.close()
    again = SqliteStore(path)                   # opened again: nothing migrated twice
    try:
        assert again.count() == 7
    finally:
        again.close()


def test_a_postgres_database_of_the_old_schema_is_migrated(postgres_url):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS club_entries")
        db.execute(OLD_SCHEMA)
        db.execute("INSERT INTO club_entries VALUES ('t1', 1, 'card', '{}', 1.0), "
                   "('t1', 2, 'card', '{}', 2.0)")
    store = PostgresStore(postgres_url)
    try:
        assert store.marks() == {("t1", ""): 2}
        assert store.add([Entry("t1", 1, "card", {}, "e" * 32)]) == 1
        assert store.marks() == {("t1", ""): 2, ("t1", "e" * 32): 1}
    finally:
        store.db.execute("DROP TABLE IF EXISTS club_entries")
        store.close()
