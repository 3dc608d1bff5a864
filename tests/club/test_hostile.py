"""A hostile member of the club's wifi against the room as docs/club.md sets
it up: the default `cardtable hub` (its embedded broker, with credentials
made by `cardtable hub add-table`) and the hub on Mosquitto with the
documented users, ACL and `use_username_as_clientid`.

Each attack is refused or harmless: no forged result, mark or status is
taken; a table's own credential cannot take another's client id, write
another's journal or read anyone's stream; the hub is up and storing after
each attack, and in the end it holds every entry every table wrote.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from hw_mocks.simulator.club import ClubTable, club_settings, play, wait_confirmed
from table.club import topics
from table.club.broker import raise_file_limit
from table.club.config import Broker, ClubConfig, check_club
from table.club.store import SqliteStore
from table.club.topics import Entry
from table.journal import Journal
from tests.club.services import Mosquitto, free_port, wait_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("table-1", "table-2")


def cardtable(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def club_of(lines: str) -> ClubConfig:
    """The `[club]` section a table's configuration gets from these lines."""
    problems: list[str] = []
    club = check_club(tomllib.loads(lines)["club"], lambda k, m: problems.append(f"{k}: {m}"))
    assert club is not None, problems
    return club


@dataclass
class Room:
    """A hub (its own process), its broker, and the tables' credentials."""

    kind: str
    port: int                       # the broker's port, as the club's network sees it
    web: int
    db: Path
    log: Path
    proc: subprocess.Popen[bytes]
    clubs: dict[str, ClubConfig]
    stop_broker: Any = None
    tables: list[ClubTable] = field(default_factory=list)

    def api(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.web}/api/room", timeout=5) as r:
            return dict(json.loads(r.read()))

    def table_line(self, name: str) -> dict[str, Any]:
        return next(t for t in self.api()["tables"] if t["name"] == name)

    def restart(self, name: str) -> ClubTable:
        """Table `name` is switched off and on: it connects again, from its journal."""
        i = next(i for i, t in enumerate(self.tables) if t.name == name)
        old = self.tables[i]
        old.close()
        self.tables[i] = ClubTable(name, self.clubs[name].broker, club_settings(i), seed=i + 1,
                                   state_dir=old.sim.rig.state_dir, resend_after=0.5)
        return self.tables[i]

    def storing(self, moves: int = 12, seed: int = 0) -> None:
        """The tables play on and the hub holds every entry (its page says so)."""
        play(self.tables, moves, rng=random.Random(seed))
        assert wait_confirmed(self.tables, 30), (
            [(t.name, t.publisher.confirmed, t.seq) for t in self.tables],
            self.log.read_text(errors="replace")[-2000:])
        want = {t.name: t.seq for t in self.tables}
        wait_until(lambda: {t["name"]: t["mark"] for t in self.api()["tables"]} == want, 10,
                   "the hub's page to show every entry")
        assert self.proc.poll() is None, "the hub died"


def start_hub(argv: list[str], log: Path, web: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "table.cli", "hub", *argv,
                                 "--host", "127.0.0.1", "--port", str(web)],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    wait_port(web, 20)
    return proc


@pytest.fixture(params=["embedded", "mosquitto"])
def room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Room]:
    web, db, log = free_port(), tmp_path / "hub.sqlite", tmp_path / "hub.log"
    if request.param == "embedded":
        port, users = free_port(), tmp_path / "hub.passwd"
        clubs = {}
        for name in TABLES:   # the organiser's one step per table
            r = cardtable("hub", "add-table", name, "--users", str(users), "--broker",
                          f"mqtt://127.0.0.1:{port}", "--no-qr")
            assert r.returncode == 0, r.stderr
            clubs[name] = club_of(r.stdout[r.stdout.index("\n[club]\n"):])
        proc = start_hub(["--mqtt-host", "127.0.0.1", "--mqtt-port", str(port), "--db",
                          str(db), "--users", str(users)], log, web)
        wait_port(port)
        stop_broker = None
    else:
        secrets = {"hub": "hub-secret", **{n: f"pw-{n}" for n in TABLES}}
        m = Mosquitto(tmp_path, secrets)
        m.start()
        port = m.port
        clubs = {n: ClubConfig(Broker("127.0.0.1", port, username=n, password=secrets[n]), n)
                 for n in TABLES}
        proc = start_hub(["--broker", f"mqtt://127.0.0.1:{port}", "--username", "hub",
                          "--password", "hub-secret", "--db", str(db)], log, web)
        stop_broker = m.stop
    room = Room(request.param, port, web, db, log, proc, clubs, stop_broker)
    try:
        room.tables = [ClubTable(n, clubs[n].broker, club_settings(i), seed=i + 1,
                                 state_dir=tmp_path / n, resend_after=0.5)
                       for i, n in enumerate(TABLES)]
        room.storing(20)
        yield room
        # nothing a table wrote is lost: the hub's database holds every journal
        room.storing(6, seed=99)
    finally:
        for t in room.tables:
            t.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        if stop_broker is not None:
            stop_broker()
    store = SqliteStore(db)
    try:
        for t in room.tables:
            j = Journal(t.journal_path)
            try:
                mine = [(e.seq, e.kind, dict(e.data)) for e in j.entries()]
            finally:
                j.close()
            assert [(e.seq, e.kind, dict(e.data)) for e in store.entries(t.name)] == mine
    finally:
        store.close()
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


# ----- a hostile client ---------------------------------------------------------------------------


class Client:
    """paho, connecting as anyone with any client id; what the broker said."""

    def __init__(self, room: Room, client_id: str, user: str | None = None,
                 password: str | None = None, *, clean: bool = True) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             clean_session=clean, protocol=mqtt.MQTTv311)
        if user is not None:
            self.c.username_pw_set(user, password)
        self.answer = threading.Event()
        self.reason: Any = None
        self.got: list[tuple[str, bytes]] = []
        self.granted: list[Any] = []
        self.c.on_connect = self._connected
        self.c.on_message = lambda c, u, m: self.got.append((m.topic, bytes(m.payload)))
        self.c.on_subscribe = lambda c, u, mid, codes, p: self.granted.extend(codes)
        self.c.reconnect_delay_set(5, 5)
        self.c.connect("127.0.0.1", room.port, keepalive=30)
        self.c.loop_start()
        self.answer.wait(10)

    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any,
                   properties: Any) -> None:
        self.reason = reason
        self.answer.set()

    @property
    def refused(self) -> bool:
        return self.reason is None or bool(self.reason.is_failure)

    def publish(self, topic: str, payload: bytes | str, retain: bool = False) -> None:
        info = self.c.publish(topic, payload, qos=1, retain=retain)
        if not self.refused:
            info.wait_for_publish(5)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def next_entry(room: Room, name: str) -> Entry:
    t = next(t for t in room.tables if t.name == name)
    return Entry(name, t.seq + 1, "end", {"match": 1, "reason": "forged"})


def credential(room: Room, name: str) -> tuple[str | None, str | None]:
    b = room.clubs[name].broker
    return b.username, b.password


def test_anonymous_clients_are_refused(room: Room):
    anon = Client(room, "someone")
    try:
        assert anon.refused
        ghost = Entry("ghost", 1, "select", {"game": "sueca", "knowledge": "open"})
        anon.publish(topics.journal_topic("ghost"), ghost.encode())
        anon.publish(topics.journal_topic("table-1"), next_entry(room, "table-1").encode())
    finally:
        anon.close()
    room.storing()
    assert "ghost" not in {t["name"] for t in room.api()["tables"]}


@pytest.mark.parametrize("who", ["anonymous", "table-2"])
def test_nobody_takes_the_hubs_or_a_tables_client_id(room: Room, who: str):
    user, password = (None, None) if who == "anonymous" else credential(room, who)
    takers = [Client(room, "hub", user, password), Client(room, "table-1", user, password),
              Client(room, "cardtable-hub", user, password),
              Client(room, "cardtable-table-table-1", user, password),
              Client(room, "cardtable-hub", user, password, clean=False)]
    try:
        if room.kind == "embedded" or who == "anonymous":
            assert all(t.refused for t in takers)
        # (on Mosquitto, table-2's credential connects as client "table-2" whatever id it
        # gives: its own session, not the hub's nor table-1's)
        room.storing()
        assert room.table_line("table-1")["online"] is True
    finally:
        for t in takers:
            t.close()
    room.storing()


def test_no_result_from_a_table_that_does_not_exist(room: Room):
    user, password = credential(room, "table-2")
    c = Client(room, "cardtable-table-table-2", user, password)
    try:
        for seq, kind, data in [(1, "select", {"game": "sueca", "knowledge": "open"}),
                                (2, "end", {"match": 1, "reason": "forged"})]:
            c.publish(topics.journal_topic("ghost"), Entry("ghost", seq, kind, data).encode())
    finally:
        c.close()
    room.storing()
    assert "ghost" not in {t["name"] for t in room.api()["tables"]}


@pytest.mark.parametrize("who", ["anonymous", "table-2"])
def test_no_entry_on_a_tables_journal_without_its_credential(room: Room, who: str):
    user, password = (None, None) if who == "anonymous" else credential(room, who)
    c = Client(room, f"cardtable-table-{who}", user, password)
    try:
        c.publish(topics.journal_topic("table-1"), next_entry(room, "table-1").encode())
    finally:
        c.close()
    room.storing()
    line = room.table_line("table-1")
    assert line["error"] is None, line


def test_no_forged_mark_and_no_forged_status(room: Room):
    user, password = credential(room, "table-2")
    c = Client(room, "cardtable-table-table-2", user, password)
    try:
        c.publish(topics.ack_topic("table-1"), "999999999", retain=True)
        c.publish(topics.status_topic("table-1"), topics.OFFLINE, retain=True)
    finally:
        c.close()
    t1 = next(t for t in room.tables if t.name == "table-1")
    time.sleep(0.5)
    assert t1.publisher.confirmed <= t1.seq
    room.storing()
    assert room.table_line("table-1")["online"] is True
    # a table that connects again is given the hub's mark, not the forged one
    t1 = room.restart("table-1")
    room.storing()
    assert t1.publisher.forged_marks == 0
    assert room.table_line("table-1")["online"] is True


@pytest.mark.parametrize("who", ["anonymous", "table-2"])
def test_nobody_but_the_hub_reads_the_tables_streams(room: Room, who: str):
    user, password = (None, None) if who == "anonymous" else credential(room, who)
    c = Client(room, f"cardtable-table-{who}", user, password)
    try:
        c.c.subscribe([("cardtable/#", 1), (topics.journal_topic("table-1"), 1),
                       (topics.ack_topic("table-1"), 1), ("#", 1)])
        room.storing()
        time.sleep(0.3)
        assert [topic for topic, _ in c.got if "table-1" in topic] == []
        assert not any(topic.endswith("/journal") for topic, _ in c.got)
        if room.kind == "embedded" and not c.refused:
            # (Mosquitto grants the subscription and sends nothing the ACL forbids)
            assert all(code.is_failure for code in c.granted), c.granted
    finally:
        c.close()


def test_a_thousand_idle_connections_stop_nothing(room: Room):
    raise_file_limit(4096)
    socks: list[socket.socket] = []
    try:
        for _ in range(1100):
            s = socket.socket()
            s.setblocking(False)
            try:
                s.connect(("127.0.0.1", room.port))
            except BlockingIOError:
                pass
            socks.append(s)
        # the tables connected already play on, and the hub stores their entries
        room.storing(10, seed=3)
        time.sleep(6)          # the embedded broker drops what sent no CONNECT in 5 s
        room.storing(6, seed=4)
    finally:
        for s in socks:
            s.close()
    # a table that connects now gets in
    room.restart("table-2")
    room.storing(10, seed=5)
    assert room.log.stat().st_size < 200_000, room.log.stat().st_size
