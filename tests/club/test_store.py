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
    assert store.marks() == {"t1": 5, "t2": 1}
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
