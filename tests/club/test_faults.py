"""Faults survived: a multi-table session while the broker, the hub or a
table's network is killed at random moments (real processes on localhost,
SIGKILL), then the hub must hold every entry of every table exactly once,
and its standings must be those the tables' own journals give.

Two runs (the embedded broker, Mosquitto) of `FAULTS` faults each: at least
100 faults in all, in a few seconds per run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import urllib.request
from dataclasses import asdict
from pathlib import Path

import pytest

from hw_mocks.simulator.club import ClubTable, make_tables, wait_confirmed
from table.club.config import parse_broker
from table.club.room import Room
from table.club.store import SqliteStore
from table.club.topics import Entry
from table.journal import Journal
from tests.club.services import Mosquitto, TcpProxy, free_port, wait_port, wait_until

FAULTS = 55
TABLES = 3
ROOT = Path(__file__).resolve().parents[2]


class Proc:
    """A service in its own process, killed with SIGKILL (no goodbye)."""

    def __init__(self, argv: list[str], port: int) -> None:
        self.argv = argv
        self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(self.argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)
            assert self.proc.stderr is not None
            err = self.proc.stderr.read().decode(errors="replace")
            self.proc.stderr.close()
            self.proc = None
            assert "Traceback" not in err, err

    @property
    def up(self) -> bool:
        return self.proc is not None


def amqtt_proc(port: int) -> Proc:
    code = ("import time; from table.club.broker import EmbeddedBroker; "
            f"b = EmbeddedBroker('127.0.0.1', {port}); b.start(); time.sleep(3600)")
    return Proc([sys.executable, "-c", code], port)


class MosquittoProc(Proc):
    def __init__(self, folder: Path) -> None:
        self.m = Mosquitto(folder)
        super().__init__([self.m.binary, "-c", str(self.m.conf)], self.m.port)


def hub_proc(broker_url: str, db: Path, port: int) -> Proc:
    return Proc([sys.executable, "-m", "table.cli", "hub", "--broker", broker_url, "--db",
                 str(db), "--host", "127.0.0.1", "--port", str(port)], port)


def journal(t: ClubTable) -> list[tuple[int, str, dict]]:
    j = Journal(t.journal_path)
    try:
        return [(e.seq, e.kind, dict(e.data)) for e in j.entries()]
    finally:
        j.close()


def room_json(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/room", timeout=5) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("kind", ["amqtt", "mosquitto"])
def test_nothing_lost_nothing_twice_after_random_faults(kind: str, tmp_path: Path):
    rng = random.Random(17 if kind == "amqtt" else 71)
    broker = amqtt_proc(free_port()) if kind == "amqtt" else MosquittoProc(tmp_path)
    broker.start()
    wait_port(broker.port)
    url = f"mqtt://127.0.0.1:{broker.port}"
    db = tmp_path / "hub.sqlite"
    web_port = free_port()
    hub = hub_proc(url, db, web_port)
    hub.start()
    proxies = [TcpProxy(broker.port) for _ in range(TABLES)]
    tables: list[ClubTable] = []
    for i, p in enumerate(proxies):
        tables += make_tables(parse_broker(p.url()), 1, seed=i + 1, prefix=f"t{i}",
                              state_root=tmp_path, games=[i], resend_after=0.5)
    down: list[tuple[int, str, int]] = []     # (moves left, what, which)
    faults: dict[str, int] = {}
    try:
        for _ in range(FAULTS):
            for _ in range(rng.randint(1, 4)):
                rng.choice(tables).step()
            # bring back what was down long enough
            still = []
            for left, what, which in down:
                if left > 0:
                    still.append((left - 1, what, which))
                elif what == "broker":
                    broker.start()
                elif what == "hub":
                    hub.start()
                else:
                    proxies[which].mend()
            down = still
            what = rng.choice(["broker", "hub", "net", "net", "power"])
            if what == "broker" and broker.up:
                broker.kill()
                down.append((rng.randint(0, 2), "broker", 0))
            elif what == "hub" and hub.up:
                hub.kill()
                down.append((rng.randint(0, 3), "hub", 0))
            elif what == "power":
                rng.choice(tables).power_cut()
            else:
                which = rng.randrange(TABLES)
                proxies[which].cut()
                down.append((rng.randint(0, 3), "net", which))
                what = "net"
            faults[what] = faults.get(what, 0) + 1
        for _, what, which in down:
            if what == "broker":
                broker.start()
            elif what == "hub":
                hub.start()
            else:
                proxies[which].mend()
        assert sum(faults.values()) == FAULTS, faults
        assert wait_confirmed(tables, 60), [(t.name, t.publisher.confirmed, t.seq)
                                            for t in tables]
        # the hub's own pages say the same as the tables' journals
        wait_until(lambda: _marks(web_port) == {t.name: t.seq for t in tables}, 10,
                   "the hub's page to show every entry")
        mine = Room()
        for t in tables:
            for seq, k, data in journal(t):
                mine.apply(Entry(t.name, seq, k, data))
        assert room_json(web_port)["standings"] == [asdict(s) for s in mine.standings()]
    finally:
        for t in tables:
            t.close()
        hub.kill()
        broker.kill()
        for p in proxies:
            p.close()
    store = SqliteStore(db)
    try:
        for t in tables:
            assert [(e.seq, e.kind, dict(e.data)) for e in store.entries(t.name)] == journal(t)
        assert store.count() == sum(t.seq for t in tables)
    finally:
        store.close()
    print(f"{kind}: faults {faults}; entries {sum(t.seq for t in tables)}")


def _marks(port: int) -> dict[str, int]:
    try:
        return {t["name"]: t["mark"] for t in room_json(port)["tables"]}
    except OSError:
        return {}
