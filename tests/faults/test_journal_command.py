"""`cardtable journal check|backup|accept`, and the refusal screen."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

from hw_mocks.display import FakeDisplay
from table.controller.loop import JOURNAL_FILE
from table.controller.refusal import show_refusal
from table.journal import JournalBehind, JournalError
from tests.faults.helpers import cardtable, crash_image, fingerprint, played_rig, zero_page
from tests.faults.test_storage import open_table

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CARDTABLE_GOLDEN") == "update"


def check(state: Path):
    proc = cardtable("journal", "check", "--state", str(state))
    assert "Traceback" not in proc.stderr.decode()
    return proc.returncode, proc.stdout.decode()


def test_check_says_all_well_of_a_sound_folder(tmp_path):
    rig = played_rig(tmp_path / "s", moves=6)
    seq = rig.ctl.journal.last_seq()
    status, out = check(tmp_path / "s")            # while the table runs
    rig.close()
    assert status == 0, out
    assert f"journal: mark {seq}, holds {seq}: nothing missing" in out
    assert f"journal: {seq} entries, every one decodes" in out
    assert "registry: 1 packs, 32 cards, every one reads" in out
    assert out.rstrip().endswith("all well")


def test_check_finds_a_missing_wal_and_changes_nothing(tmp_path):
    rig = played_rig(tmp_path / "s", moves=8)
    seq = rig.ctl.journal.last_seq()
    image = crash_image(tmp_path / "s", tmp_path / "image")
    rig.close()
    (image / "journal.sqlite-wal").unlink()
    before = fingerprint(image)
    status, out = check(image)
    assert status == 1
    assert f"journal: BEHIND its mark: holds entry 1, the table had reached {seq}" in out
    assert "PROBLEMS" in out
    after = fingerprint(image)
    assert {k: after[k] for k in before} == before


def test_check_finds_a_damaged_page(tmp_path):
    rig = played_rig(tmp_path / "s", moves=8)
    rig.close()
    zero_page(tmp_path / "s" / JOURNAL_FILE, 1)
    status, out = check(tmp_path / "s")
    assert status == 1 and "PROBLEMS" in out


def test_check_of_no_folder():
    status, _ = check(Path("/nonexistent/cardtable"))
    assert status == 2


def test_backup_while_the_table_plays_is_complete_and_restores(tmp_path):
    rig = played_rig(tmp_path / "s", moves=9)      # the last entries only in the WAL
    seq = rig.ctl.journal.last_seq()
    snapshot = rig.snapshot()
    proc = cardtable("journal", "backup", "--state", str(tmp_path / "s"), "--to",
                     str(tmp_path / "b"))
    assert proc.returncode == 0, proc.stderr
    rig.close()
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == [
        "journal.mark", "journal.sqlite", "registry.mark", "registry.sqlite"]
    assert check(tmp_path / "b")[0] == 0
    ctl = open_table(tmp_path / "b")               # a restore is: use the backup folder
    try:
        assert ctl.session.seq == seq
        from table.controller.session import snapshot as snap

        assert snap(ctl.session) == snapshot
    finally:
        ctl.close()


def test_backup_never_overwrites(tmp_path):
    rig = played_rig(tmp_path / "s", moves=2)
    rig.close()
    dest = tmp_path / "b"
    dest.mkdir()
    (dest / "journal.sqlite").write_bytes(b"precious")
    proc = cardtable("journal", "backup", "--state", str(tmp_path / "s"), "--to", str(dest))
    assert proc.returncode == 2 and b"nothing was written" in proc.stderr
    assert (dest / "journal.sqlite").read_bytes() == b"precious"
    assert sorted(p.name for p in dest.iterdir()) == ["journal.sqlite"]


def test_accept_says_what_is_given_up_then_does_it_with_yes(tmp_path):
    rig = played_rig(tmp_path / "s", moves=8)
    seq = rig.ctl.journal.last_seq()
    image = crash_image(tmp_path / "s", tmp_path / "image")
    rig.close()
    (image / "journal.sqlite-wal").unlink()
    proc = cardtable("journal", "accept", "--state", str(image))
    out = proc.stdout.decode()
    assert proc.returncode == 1
    assert f"journal.sqlite: holds 1 entries; {seq - 1} entries after 1 are given up" in out
    assert "nothing was changed" in out
    try:
        open_table(image)
        raise AssertionError("the table played on")
    except JournalBehind:
        pass
    proc = cardtable("journal", "accept", "--state", str(image), "--yes")
    assert proc.returncode == 0, proc.stderr
    ctl = open_table(image)
    try:
        assert ctl.session.seq == 1
    finally:
        ctl.close()


def test_accept_refuses_a_damaged_file(tmp_path):
    rig = played_rig(tmp_path / "s", moves=8)
    rig.close()
    zero_page(tmp_path / "s" / JOURNAL_FILE, 1)
    proc = cardtable("journal", "accept", "--state", str(tmp_path / "s"), "--yes")
    assert proc.returncode == 1 and b"damaged" in proc.stderr


def test_the_refusal_screen_stays_after_the_program_ends():
    display = FakeDisplay((128, 64))
    show_refusal(display, JournalBehind("/var/lib/cardtable/journal.sqlite", 60, 74, "x"))
    shown = display.image.copy()
    golden = GOLDEN / "refusal_journal_behind.png"
    if UPDATE:
        shown.save(golden)
    assert ImageChops.difference(shown.convert("L"),
                                 Image.open(golden).convert("L")).getbbox() is None
    display.device.cleanup()                       # what luma does at exit
    assert ImageChops.difference(display.image.convert("L"),
                                 shown.convert("L")).getbbox() is None


def test_refusal_screens_for_every_kind_of_storage_error():
    from table.controller.refusal import screen_text
    from table.registry import RegistryBehind, RegistryDamaged

    assert screen_text(JournalBehind("j", 60, 74, "x")).message.startswith(
        "14 entries missing.")
    assert screen_text(JournalBehind("j", 1, 1, "x")).message.startswith("another journal")
    assert screen_text(JournalError("x")).title == "STOPPED: journal"
    assert screen_text(RegistryBehind("x")).title == "STOPPED: cards"
    assert "cannot be read" in screen_text(RegistryDamaged("x")).message
