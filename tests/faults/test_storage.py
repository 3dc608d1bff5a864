"""Damaged storage never crashes the table and never silently turns back
the clock: zeroed pages, missing, truncated and bit-flipped write-ahead logs,
old copies put back, damaged marks, NULL fields, a full disk. Each case is
made on real SQLite files the way it happens (a copy of the folder taken
while the table runs is what the disk holds when the power goes)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from table.controller.loop import JOURNAL_FILE, REGISTRY_FILE, Controller
from table.controller.refusal import EXIT_REFUSED
from table.journal import Journal, JournalBehind, JournalError
from table.registry import CardRegistry, RegistryBehind, RegistryDamaged, RegistryError
from tests.faults.helpers import (
    Rig,
    cardtable,
    crash_image,
    fingerprint,
    flip_bit,
    played_rig,
    settings,
    zero_page,
)


def open_table(state: Path) -> Controller:
    from hw_mocks.table import MockTable

    mock = MockTable(seats=4)
    return Controller.open(settings(), mock.ports, state, strict=True)


def refused_by_the_command(state: Path, *words: str) -> str:
    """`cardtable run` on `state`: it must exit 78 with a message and no
    traceback, leaving every file as it was. Returns its stderr."""
    before = fingerprint(state)
    proc = cardtable("run", "--hardware", "mock", "--state", str(state), "--quiet")
    err = proc.stderr.decode()
    assert proc.returncode == EXIT_REFUSED, (proc.returncode, err)
    assert "Traceback" not in err and "Traceback" not in proc.stdout.decode()
    assert "refusing to start" in err and "Nothing was changed" in err
    for w in words:
        assert w in err, (w, err)
    after = fingerprint(state)
    assert {name: after.get(name) for name in before} == before   # no file was changed
    return err


@pytest.fixture
def crashed(tmp_path):
    """The state folder of a table that had shown 10 plays when the power went."""
    rig = played_rig(tmp_path / "live", moves=10)
    shown = rig.ctl.journal.last_seq()
    image = crash_image(tmp_path / "live", tmp_path / "image")
    rig.close()
    assert (image / "journal.sqlite-wal").stat().st_size > 0
    return image, shown


def test_the_crash_image_itself_resumes_with_everything(crashed):
    image, shown = crashed
    ctl = open_table(image)
    try:
        assert ctl.session.seq == shown
    finally:
        ctl.close()


def test_a_missing_wal_is_refused_not_rolled_back(crashed):
    image, shown = crashed
    (image / "journal.sqlite-wal").unlink()
    with pytest.raises(JournalBehind) as info:
        open_table(image)
    assert info.value.mark == shown and info.value.have < shown
    err = refused_by_the_command(image, "missing", f"entries up to {shown}", "backup",
                                 "cardtable export")
    assert "journal.sqlite-wal" in err


def test_a_truncated_wal_is_refused(crashed):
    image, _ = crashed
    wal = image / "journal.sqlite-wal"
    with open(wal, "r+b") as f:
        f.truncate(wal.stat().st_size // 2)
    with pytest.raises(JournalBehind):
        open_table(image)
    refused_by_the_command(image, "missing")


def test_one_flipped_bit_in_the_wal_is_refused(crashed):
    image, _ = crashed
    wal = image / "journal.sqlite-wal"
    # a bit in the middle of the log: SQLite drops that frame and every one after it
    flip_bit(wal, wal.stat().st_size // 2)
    with pytest.raises(JournalBehind):
        open_table(image)
    refused_by_the_command(image, "missing")


def test_an_old_copy_of_the_journal_put_back_is_refused(tmp_path):
    rig = played_rig(tmp_path / "s", moves=4)
    rig.ctl.journal.fold()
    old = (tmp_path / "s" / JOURNAL_FILE).read_bytes()
    bot_moves = rig.bot  # noqa: F841  (the table plays on)
    rig.press("undo")
    rig.press("ok")
    rig.close()
    (tmp_path / "s" / JOURNAL_FILE).write_bytes(old)
    for extra in ("-wal", "-shm"):
        (tmp_path / "s" / (JOURNAL_FILE + extra)).unlink(missing_ok=True)
    with pytest.raises(JournalBehind):
        open_table(tmp_path / "s")
    refused_by_the_command(tmp_path / "s", "older copy")


def test_a_deleted_journal_is_not_replaced_by_an_empty_one(tmp_path):
    rig = played_rig(tmp_path / "s", moves=3)
    rig.close()
    for f in (tmp_path / "s").glob("journal.sqlite*"):
        f.unlink()
    refused_by_the_command(tmp_path / "s", "missing")
    assert not (tmp_path / "s" / JOURNAL_FILE).exists()


def test_another_journal_in_place_is_refused(tmp_path):
    rig = played_rig(tmp_path / "a", moves=3)
    rig.close()
    other = played_rig(tmp_path / "b", moves=5)
    other.close()
    for suffix in ("", "-wal"):
        src = tmp_path / "b" / (JOURNAL_FILE + suffix)
        if src.exists():
            (tmp_path / "a" / (JOURNAL_FILE + suffix)).write_bytes(src.read_bytes())
    with pytest.raises(JournalBehind, match="not the one the table was writing"):
        open_table(tmp_path / "a")


@pytest.mark.parametrize("page", [0, 1, 2])
def test_a_zeroed_page_is_an_error_not_a_traceback(tmp_path, page):
    rig = played_rig(tmp_path / "s", moves=8)
    rig.close()                                 # folded: everything in the main file
    path = tmp_path / "s" / JOURNAL_FILE
    assert not (tmp_path / "s" / (JOURNAL_FILE + "-wal")).exists()
    zero_page(path, page)
    with pytest.raises(JournalError):
        open_table(tmp_path / "s")
    refused_by_the_command(tmp_path / "s")


def test_every_journal_method_turns_sqlite_errors_into_journal_errors(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    j.append("select", {"game": "filicau"})
    j.db.close()                                # every later call meets sqlite3 errors
    for call in (lambda: j.last(["start"]), lambda: j.get(1), j.count, j.last_seq,
                 lambda: list(j.entries()), lambda: j.append("undo", {}), j.fold):
        with pytest.raises(JournalError):
            call()


def test_null_and_binary_fields_are_journal_errors(tmp_path):
    path = tmp_path / JOURNAL_FILE
    db = sqlite3.connect(path)
    # a file whose columns lost their NOT NULL (as a damaged schema page can)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('format', '1');
        CREATE TABLE entries (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT,
                              data TEXT, at REAL);
        INSERT INTO entries (kind, data, at) VALUES ('select', NULL, 0);
        INSERT INTO entries (kind, data, at) VALUES (NULL, '{}', 0);
        INSERT INTO entries (kind, data, at) VALUES ('undo', 7, 0);
        INSERT INTO entries (kind, data, at) VALUES ('undo', '[1]', 0);
    """)
    db.commit()
    db.close()
    j = Journal(path)
    for seq in (1, 2, 3, 4):
        with pytest.raises(JournalError, match="damaged"):
            j.get(seq)
    with pytest.raises(JournalError):
        j.last(["select"])
    with pytest.raises(JournalError):
        list(j.entries())
    j.close()
    refused_by_the_command(tmp_path)


def test_a_damaged_mark_is_refused_and_accept_repairs_it(tmp_path):
    rig = played_rig(tmp_path / "s", moves=3)
    rig.close()
    mark = tmp_path / "s" / "journal.mark"
    mark.write_bytes(b"\xff" * 1024)
    refused_by_the_command(tmp_path / "s", "journal.mark", "damaged")
    proc = cardtable("journal", "accept", "--state", str(tmp_path / "s"), "--yes")
    assert proc.returncode == 0, proc.stderr
    ctl = open_table(tmp_path / "s")
    ctl.close()


def test_a_torn_mark_write_keeps_the_other_copy(tmp_path):
    rig = played_rig(tmp_path / "s", moves=5)
    seq = rig.ctl.journal.last_seq()
    rig.close()
    mark = tmp_path / "s" / "journal.mark"
    data = bytearray(mark.read_bytes())
    data[512:1024] = b"\0" * 200 + b"\x13" * 312   # the slot being written when the power went
    mark.write_bytes(bytes(data))
    ctl = open_table(tmp_path / "s")               # the other slot holds seq or seq - 1
    try:
        assert ctl.session.seq == seq
    finally:
        ctl.close()


def test_an_entry_written_before_its_mark_is_kept(tmp_path):
    """The power went between the journal's write and the mark's: the
    journal holds one entry more than the mark. That is not a loss."""
    rig = played_rig(tmp_path / "s", moves=5)
    image = crash_image(tmp_path / "s", tmp_path / "image")
    rig.ctl.journal._marks = None                # the next mark write never happens
    rig.press("undo")
    rig.press("ok")
    seq = rig.ctl.journal.last_seq()
    image2 = crash_image(tmp_path / "s", tmp_path / "image2")
    (image2 / "journal.mark").write_bytes((image / "journal.mark").read_bytes())
    rig.close()
    ctl = open_table(image2)
    try:
        assert ctl.session.seq == seq
    finally:
        ctl.close()


def test_a_full_disk_stops_the_table_with_its_reason(tmp_path):
    rig = played_rig(tmp_path / "s", moves=4)
    db = rig.ctl.journal.db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")   # SQLite's own "disk is full"
    shown = rig.ctl.journal.last_seq()
    for _ in range(5):                               # up to five hands
        bot = rig.bot(random.Random(3))
        bot.new_hand(rig.session.match.hand.state, "open")
        while not rig.ctl.failed and (move := bot.next_move()) is not None:
            rig.do(move)
        if rig.ctl.failed:
            break
        rig.next_hand()
    assert rig.ctl.failed is not None and "full" in rig.ctl.failed
    assert "full" in rig.ctl.view.message
    # nothing that was not written was shown; a restart resumes from the journal
    seq = rig.ctl.journal.last_seq()
    assert seq >= shown
    rig2 = rig.restart()
    try:
        assert rig2.session.seq == seq
    finally:
        rig2.close()


# ----- the card registry --------------------------------------------------------------------

@pytest.fixture
def enrolled(tmp_path):
    """A state folder whose registry got a virtual pack, then 5 cards enrolled
    one by one with the admin tag (only in the registry's write-ahead log)."""
    from hw_mocks.table import MockTable

    state = tmp_path / "s"
    mock = MockTable(seats=4)
    ctl = Controller.open(settings(), mock.ports, state, strict=True)
    ctl.registry.enroll_virtual("german32")
    ctl.registry.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    rec = ctl.registry.new_pack("german32")
    for i in range(5):
        ctl.registry.enroll(rec.number, f"04AA00{i:02X}")
    generation = ctl.registry.generation
    image = crash_image(state, tmp_path / "image")
    ctl.close()
    mock.close()
    return image, generation


def test_a_registry_without_its_wal_is_refused(enrolled):
    image, generation = enrolled
    (image / "registry.sqlite-wal").unlink()
    with pytest.raises(RegistryBehind) as info:
        CardRegistry.open_checked(image / REGISTRY_FILE)
    assert f"made {generation} changes" in str(info.value)
    refused_by_the_command(image, "card registry", "enrollment changes are missing")


def test_a_registry_wal_with_a_flipped_bit_is_refused(enrolled):
    image, _ = enrolled
    wal = image / "registry.sqlite-wal"
    flip_bit(wal, wal.stat().st_size // 2)
    with pytest.raises(RegistryBehind):
        CardRegistry.open_checked(image / REGISTRY_FILE)


def test_a_zeroed_registry_page_is_an_error(tmp_path, enrolled):
    image, _ = enrolled
    reg = CardRegistry.open_checked(image / REGISTRY_FILE)
    reg.close()                                      # folded into the main file
    zero_page(image / REGISTRY_FILE, 1)
    with pytest.raises(RegistryError):
        CardRegistry.open_checked(image / REGISTRY_FILE)
    refused_by_the_command(image, "card registry")


def test_registry_writes_on_a_full_disk_change_nothing(tmp_path):
    reg = CardRegistry.open_checked(tmp_path / REGISTRY_FILE)
    rec = reg.new_pack("german32")
    reg.enroll(rec.number, "04AA0001")
    pages = reg.db.execute("PRAGMA page_count").fetchone()[0]
    reg.db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(RegistryDamaged, match="full"):
        reg.import_data({"format": "cardtable-registry", "version": 1, "packs": [
            {"type": "french64double", "name": "big" * 5000, "cards": [
                {"uid": f"04BB{i:04X}", "card": c.code}
                for i, c in enumerate(__import__("engine.packs", fromlist=["PACKS"])
                                      .PACKS["french64double"].cards)]}]})
    assert [p.number for p in reg.packs()] == [rec.number]
    assert reg.lookup("04AA0001") is not None and len(reg) == 1
    reg.close()
    again = CardRegistry.open_checked(tmp_path / REGISTRY_FILE)
    assert len(again) == 1
    again.close()


def test_a_registry_error_at_the_table_is_shown_and_logged_without_traceback(
        tmp_path, caplog):
    rig = Rig(settings(), tmp_path, seats=4, strict=False)
    rig.registry.db.execute("PRAGMA query_only = ON")     # every write now fails
    from tests.faults.helpers import ADMIN

    rig.tap(0, ADMIN)
    assert rig.state == "admin_menu"
    rig.press("menu")                       # to a pack type to enroll
    with caplog.at_level("ERROR"):
        rig.press("ok")                     # begin enrolling: a new pack cannot be written
    assert rig.state == "admin_menu"
    assert "card registry" in rig.ctl.view.message.lower() or \
        "registry" in rig.ctl.view.message
    assert not any(r.exc_info for r in caplog.records)
    assert rig.ctl.failed is None
    rig.close()


def test_the_pi_run_refuses_with_78_and_leaves_the_reason_on_the_screen(
        crashed, monkeypatch, capsys, tmp_path):
    import table.drivers
    from hw_mocks.table import MockTable
    from table.cli import main

    image, shown = crashed
    (image / "journal.sqlite-wal").unlink()
    before = fingerprint(image)
    mock = MockTable(seats=4)
    closed = []
    monkeypatch.setattr(table.drivers, "build_ports", lambda config, **_: mock.ports)
    monkeypatch.setattr(table.drivers, "close_ports", lambda ports: closed.append(ports))
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["run", "--hardware", "pi", "--config", str(config),
                 "--state", str(image)]) == EXIT_REFUSED
    err = capsys.readouterr().err
    assert "refusing to start" in err and f"entries up to {shown}" in err
    assert "Traceback" not in err
    assert closed == [mock.ports]                     # the hardware is released ...
    assert mock.display.device.persist                # ... but the screen keeps the reason
    frame = mock.display.image.copy()
    mock.display.device.cleanup()
    assert mock.display.image.tobytes() == frame.tobytes()
    lit = frame.convert("L").histogram()[255]
    assert lit > frame.width * frame.height / 2       # inverse video: an error screen
    after = fingerprint(image)
    assert {k: after[k] for k in before} == before
    mock.close()


def test_a_real_full_disk_stops_the_run_and_loses_nothing_shown(tmp_path):
    """The operating system refuses to let the files grow (RLIMIT_FSIZE, as a
    full SD card would): the run stops with the reason, no traceback; started
    again with room, the table resumes with every card it had accepted."""
    import resource
    import signal
    import subprocess
    import sys

    from tests.table.test_journal import _events_for_a_long_game

    events = tmp_path / "e.txt"
    lines = _events_for_a_long_game(5).splitlines()
    (tmp_path / "first.txt").write_text("\n".join(lines[:3]) + "\n")
    events.write_text("\n".join(lines[3:]) + "\n")
    state = tmp_path / "s"
    base = ["run", "--hardware", "mock", "--state", str(state), "--seed", "5",
            "--knowledge", "scan"]
    first = cardtable(*base, "--events", str(tmp_path / "first.txt"))
    assert first.returncode == 0, first.stderr          # the pack enrolled, the match begun
    room = max(f.stat().st_size for f in state.iterdir()) + 12 * 4096

    def little_room():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write that does not fit fails
        resource.setrlimit(resource.RLIMIT_FSIZE, (room, room))

    proc = subprocess.run([sys.executable, "-m", "table.cli", *base, "--events", str(events)],
                          capture_output=True, text=True, preexec_fn=little_room,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "cannot write to the journal" in proc.stderr and "Traceback" not in proc.stderr
    accepted = sum(1 for ln in proc.stdout.splitlines() if ln.endswith("accepted"))
    assert accepted > 0
    again = cardtable(*base)
    assert again.returncode == 0, again.stderr
    j = Journal(state / JOURNAL_FILE, readonly=True)
    taken = sum(1 for e in j.entries() if e.kind in ("scan", "card"))
    j.close()
    assert taken >= accepted + 1                        # + the first file's tap
    assert cardtable("journal", "check", "--state", str(state)).returncode == 0
