"""`cardtable run` on the fakes with input a person gets wrong, and with its
output cut short: a clear message and exit status, never a traceback."""

from __future__ import annotations

import subprocess
import sys

from table.cli import main
from table.journal import Journal
from tests.table.test_run import ROOT


def test_a_binary_events_file_is_refused_before_anything_runs(tmp_path, capsys):
    events = tmp_path / "photo.png"
    events.write_bytes((ROOT / "tests" / "table" / "golden" / "ready_en.png").read_bytes())
    state = tmp_path / "state"
    assert main(["run", "--hardware", "mock", "--events", str(events),
                 "--state", str(state)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"cardtable run: {events}: 1 mistake:\n  it is not UTF-8 text\n"
    assert captured.out == ""
    assert not state.exists()          # nothing ran, nothing was written


def test_a_file_of_control_characters_names_its_line(tmp_path, capsys):
    events = tmp_path / "noise.txt"
    events.write_bytes(b"press ok\n\x00\x01\x02\x7f\n")
    assert main(["run", "--hardware", "mock", "--events", str(events),
                 "--state", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardtable run: {events}: 1 mistake:\n  line 2: unknown event")
    assert not (tmp_path / "s").exists()


def test_a_card_arriving_twice_stops_the_run_at_that_line(tmp_path, capsys):
    events = tmp_path / "twice.txt"
    events.write_text("press ok\narrive 0 Kh\narrive 0 Kh\npress undo\n")
    state = tmp_path / "state"
    assert main(["run", "--hardware", "mock", "--events", str(events), "--state", str(state),
                 "--game", "filicau", "--quiet"]) == 1
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err.startswith(f"cardtable run: {events}, line 3: `arrive 0 Kh` cannot happen: "
                          "card ")
    assert "already lies on reader 0 (it has to leave before it can arrive again)" in err
    assert err.endswith("The events before it were played (and kept in the journal); "
                        "nothing after it was.")
    assert "Traceback" not in captured.err
    # the match the first line started is in the journal (and the Kh, when the
    # drawn dealer made it a card to take at once); the UNDO after the mistake never ran
    journal = Journal(state / "journal.sqlite")
    kinds = [e.kind for e in journal.entries()]
    journal.close()
    assert kinds in (["start"], ["start", "card"])


def test_a_card_leaving_a_reader_it_never_reached(tmp_path, capsys):
    events = tmp_path / "leave.txt"
    events.write_text("press ok\nleave 2 Kh\n")
    assert main(["run", "--hardware", "mock", "--events", str(events),
                 "--state", str(tmp_path / "s"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"{events}, line 2: `leave 2 Kh` cannot happen: card " in err
    assert "is not on reader 2 (it never arrived there, or has left already)" in err


def test_output_cut_short_ends_quietly_and_the_run_still_finishes(tmp_path):
    """`cardtable run ... | head`: the reader of stdout goes away; the table
    finishes the events (the journal is whole) and exits 0 without a word."""
    events = tmp_path / "e.txt"
    events.write_text("press ok\n" + "press menu\n" * 5 + "press ok\n")
    state = tmp_path / "state"
    proc = subprocess.Popen([sys.executable, "-m", "table.cli", "run", "--hardware", "mock",
                             "--events", str(events), "--state", str(state)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                # `head` has read what it wanted and left
    _, err = proc.communicate(timeout=120)
    assert err.decode() == ""
    assert proc.returncode == 0
    journal = Journal(state / "journal.sqlite")
    assert [e.kind for e in journal.entries()][:1] == ["start"]
    journal.close()
