"""The journal: SQLite in WAL mode with synchronous FULL, entries kept in
order across reopening, clear errors (and an untouched file) for a damaged
or foreign journal, and `kill -9` at any moment losing nothing that the table
had acknowledged."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import get_game
from hw_mocks.bot import Bot
from table.controller.session import Selection, Session
from table.journal import Journal, JournalError
from table.ports import DEALER, Store


def test_entries_come_back_in_order_with_their_data(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    assert isinstance(j, Store)
    a = j.append("scan", {"seat": 1, "uid": "04AA", "card": "Kh"})
    b = j.append("select", {"game": "filicau", "note": "Filicău ăîșț őű"})
    assert b == a + 1
    j.close()
    j = Journal(tmp_path / "j.sqlite")
    got = [(e.seq, e.kind, dict(e.data)) for e in j.entries()]
    assert got == [(a, "scan", {"seat": 1, "uid": "04AA", "card": "Kh"}),
                   (b, "select", {"game": "filicau", "note": "Filicău ăîșț őű"})]
    assert [e.seq for e in j.entries(after=a)] == [b]
    assert j.last(["scan"]).seq == a and j.last(["next"]) is None
    j.close()


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    assert j.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 2      # FULL
    j.close()


def test_a_file_that_is_not_a_journal_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is a shopping list, not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(JournalError, match="cannot be read"):
        Journal(path)
    assert path.read_bytes() == before


def test_a_journal_of_another_format_is_refused(tmp_path):
    path = tmp_path / "j.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="format 99"):
        Journal(path)


def test_a_damaged_entry_is_named(tmp_path):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    j.append("select", {"game": "filicau", "knowledge": "open"})
    j.db.execute("INSERT INTO entries (kind, data, at) VALUES ('scan', '{not json', 0)")
    with pytest.raises(JournalError, match="entry 2 is damaged"):
        list(j.entries())
    j.close()


def test_an_entry_that_does_not_fit_the_match_stops_the_replay_with_its_number(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    session = Session(Selection("filicau"), j)
    session.start_match(7)
    j.append("card", {"seat": 9, "card": "Kh", "uid": "04AA", "place": 9})
    with pytest.raises(JournalError, match="entry 2 \\(card\\) cannot be replayed"):
        Session(Selection("filicau")).restore(j)
    j.append("start", {"game": "no_such_game", "options": {}, "knowledge": "open",
                       "seed": 1, "state": {}})
    with pytest.raises(JournalError, match="entry 3"):
        Session(Selection("filicau")).restore(j)
    j.close()


def test_replay_starts_from_the_last_checkpoint(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    session = Session(Selection("filicau"), j)
    session.start_match(3)
    game = session.match.game
    bot = Bot(game, random.Random(1), lambda c, k: f"04{c.index:06X}")
    for _ in range(2):
        bot.new_hand(session.match.hand.state, "open")
        while (m := bot.next_move()) is not None:
            session.card(m.seat, m.card, m.uid, m.place)
        session.next_hand()
    resumed = Session(Selection("filicau"))
    applied = resumed.restore(j)
    assert applied == 0                     # the checkpoint is the last entry
    assert resumed.match.state == session.match.state
    assert resumed.match.hand.number == 3
    j.close()


def _events_for_a_long_game(seed):
    """Events for `cardtable run`: several Filicău hands, open play."""
    game = get_game("filicau")
    seeds = random.Random(seed)
    state = game.new_match(random.Random(seeds.randrange(2**62)))
    bot = Bot(game, random.Random(seed), lambda c, k: f"{c.code}#{k}")
    lines = ["press ok"]
    for _ in range(4):
        bot.new_hand(state, "scan")
        for m in bot.scan_moves():
            lines.append(f"tap {m.place} {m.uid}")
        while (m := bot.next_move()) is not None:
            place = "dealer" if m.place == DEALER else m.place
            lines.append(f"tap {place} {m.uid}")
        state = game.state_from_json(bot.shadow.settled().to_json())
        lines.append("press ok")
    return "\n".join(lines) + "\n"


def test_kill_9_at_any_moment_loses_nothing_acknowledged(tmp_path):
    events = tmp_path / "events.txt"
    events.write_text(_events_for_a_long_game(5))
    state = tmp_path / "state"
    rng = random.Random(2)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "table.cli", "run", "--hardware", "mock", "--events",
           str(events), "--state", str(state), "--seed", "5", "--knowledge", "scan",
           "--pace", "0.001"]
    total = 0
    for _attempt in range(2):
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env, cwd=Path(__file__).resolve().parents[2])
        acked = 0
        wanted = rng.randrange(20, 120)
        deadline = time.monotonic() + 60
        assert proc.stdout is not None
        while acked < wanted and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.rstrip().endswith("accepted"):
                acked += 1
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert acked == wanted, proc.stderr.read() if proc.stderr else ""
        total += acked
        j = Journal(state / "journal.sqlite")
        taken = sum(1 for e in j.entries() if e.kind in ("scan", "card"))
        resumed = Session(Selection("filicau"))
        resumed.restore(j)                  # the journal replays: not corrupt
        j.close()
        # every card the table said it accepted is in the journal
        assert taken >= total
    # and the table starts again from it
    out = subprocess.run([sys.executable, "-m", "table.cli", "run", "--hardware", "mock",
                          "--state", str(state)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    assert "resumed from the journal" in out.stdout
