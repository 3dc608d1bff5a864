"""The club room under load: 16 tables for the equivalent of an 8-hour
session against one hub on this machine, time-compressed.

    .venv/bin/python bench/club_bench.py [--tables 16] [--hours 8] [--seconds 360]

1. Journals: bots play at simulated tables (the real controller) until each
   of four games has a journal as long as `--hours` of play at a real table
   (about 9 entries a minute: a Filicău hand of 32 cards takes ~4 minutes).
   Table i replays the journal of game i mod 4.
2. The hub runs as `cardtable hub` in its own process (SQLite), on
   Mosquitto as a club runs it (`--broker embedded`: the hub's own amqtt).
   Each table appends its entries to its own journal file (SQLite, synced, as
   a table does; in /dev/shm, since here 16 tables share one disk where a
   room has 16 Pis) spread over `--seconds`, and the real publisher sends them.
   A browser-like client holds the TV page's event stream open and notes
   when each table's mark reaches each card: card -> scoreboard.
3. Then all tables send a second copy of the session flat out: the entries per
   second the hub sustains.

Baselines in the same run: a real room's rate (16 tables, 9 entries a
minute each) and the hub's store alone (SqliteStore.add of the same entries).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from table.club.config import ClubConfig, parse_broker  # noqa: E402
from table.club.publisher import Publisher  # noqa: E402
from table.club.store import SqliteStore  # noqa: E402
from table.club.topics import Entry  # noqa: E402
from table.journal import Journal  # noqa: E402

PER_HOUR = 540          # journal entries an hour at a real table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_journal(args: tuple[int, int, str]) -> str:
    """Bots play game `index` until its journal has `entries` entries."""
    index, entries, folder = args
    from hw_mocks.simulator.club import club_settings
    from hw_mocks.simulator.driver import SimTable

    sim = SimTable(club_settings(index), humans=(), seed=index + 1, state_dir=folder)
    while sim.rig.session.seq < entries:
        if sim.state == "match_over":
            sim.rig.press("ok")
        if sim.state == "ready" or sim.match is None:
            sim.start()
        elif not sim.advance():
            sim.start()
    sim.close()
    return folder


def read(path: Path) -> list[tuple[int, str, dict]]:
    j = Journal(path)
    out = [(e.seq, e.kind, dict(e.data)) for e in j.entries()]
    j.close()
    return out


class Feeder(threading.Thread):
    """One table: appends its entries to its journal at a pace, the real
    publisher sends them; `times[seq]` is when each entry was on disk."""

    def __init__(self, name: str, entries: list, folder: Path, broker_url: str,
                 seconds: float) -> None:
        super().__init__(daemon=True)
        self.name_ = name
        self.entries = entries
        self.path = folder / f"{name}.sqlite"
        self.journal = Journal(self.path)
        self.seconds = seconds
        self.times: dict[int, float] = {}
        self.cards: set[int] = set()
        self.publisher = Publisher(self.path, ClubConfig(parse_broker(broker_url), name),
                                   resend_after=5.0)
        self.publisher.start()

    def run(self) -> None:
        start = time.monotonic()
        n = len(self.entries)
        for i, (_, kind, data) in enumerate(self.entries):
            due = start + self.seconds * i / n
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            seq = self.journal.append(kind, data)
            self.times[seq] = time.monotonic()
            if kind == "card":
                self.cards.add(seq)
            self.publisher.notify(seq)


class Watcher(threading.Thread):
    """The TV page's event stream: when each table's mark moved."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.marks: dict[str, list[tuple[float, int]]] = {}
        self.stop = False

    def run(self) -> None:
        with urllib.request.urlopen(self.url + "/events", timeout=600) as r:
            for raw in r:
                if self.stop:
                    return
                line = raw.decode()
                if not line.startswith("data:"):
                    continue
                now = time.monotonic()
                for name, mark in re.findall(r"data-table='([^']+)' data-mark=(\d+)", line):
                    seen = self.marks.setdefault(name, [])
                    if not seen or seen[-1][1] != int(mark):
                        seen.append((now, int(mark)))


def latencies(feeders: list[Feeder], watcher: Watcher) -> list[float]:
    out = []
    for f in feeders:
        seen = watcher.marks.get(f.name_, [])
        i = 0
        for seq in sorted(f.cards):
            while i < len(seen) and seen[i][1] < seq:
                i += 1
            if i < len(seen):
                out.append(seen[i][0] - f.times[seq])
    return out


def proc_stats(pid: int) -> tuple[float, float]:
    """(CPU seconds, peak RSS MB) of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    hwm = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            hwm = int(line.split()[1]) / 1024
    return cpu, hwm


def wait_all(feeders: list[Feeder], timeout: float) -> bool:
    end = time.monotonic() + timeout
    for f in feeders:
        if not f.publisher.wait_confirmed(f.journal.last_seq(), max(0, end - time.monotonic())):
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--hours", type=float, default=8.0)
    ap.add_argument("--seconds", type=float, default=360.0,
                    help="wall-clock seconds the session is compressed into")
    ap.add_argument("--journals", type=Path, help="keep / reuse the bots' journals here")
    ap.add_argument("--broker", choices=("mosquitto", "embedded"), default="mosquitto")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="club-bench-"))
    shm = Path("/dev/shm")
    tables_dir = Path(tempfile.mkdtemp(prefix="club-bench-", dir=shm if shm.is_dir() else None))
    per_table = int(PER_HOUR * args.hours)
    store_dir = args.journals or work / "journals"
    store_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    todo = [(i, per_table, str(store_dir / f"game-{i}")) for i in range(4)
            if not (store_dir / f"game-{i}" / "journal.sqlite").exists()
            or len(read(store_dir / f"game-{i}" / "journal.sqlite")) < per_table]
    if todo:
        with multiprocessing.Pool(min(len(todo), os.cpu_count() or 1)) as pool:
            pool.map(make_journal, todo)
    games = [read(store_dir / f"game-{i}" / "journal.sqlite")[:per_table] for i in range(4)]
    print(f"journals: 4 x {per_table} entries ({time.monotonic() - t0:.0f} s to play)")

    # baseline: the store alone
    base = SqliteStore(work / "baseline.sqlite")
    batch = [Entry(f"t{t}", seq, k, d) for t in range(args.tables)
             for seq, k, d in games[t % 4]]
    tb = time.perf_counter()
    for i in range(0, len(batch), 500):
        base.add(batch[i:i + 500])
    store_rate = len(batch) / (time.perf_counter() - tb)
    base.close()

    mqtt, web = free_port(), free_port()
    mosquitto = None
    if args.broker == "mosquitto":
        binary = shutil.which("mosquitto", path="/usr/sbin:/usr/bin:/usr/local/sbin")
        if binary is None:
            sys.exit("mosquitto is not installed: sudo apt-get install mosquitto "
                     "(or --broker embedded)")
        (work / "m.conf").write_text(f"listener {mqtt} 127.0.0.1\nallow_anonymous true\n"
                                     f"max_queued_messages 100000\n")
        mosquitto = subprocess.Popen([binary, "-c", str(work / "m.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        where = ["--broker", f"mqtt://127.0.0.1:{mqtt}"]
    else:
        where = ["--mqtt-host", "127.0.0.1", "--mqtt-port", str(mqtt)]
    hub = subprocess.Popen([sys.executable, "-m", "table.cli", "hub", *where, "--host",
                            "127.0.0.1", "--port", str(web), "--db", str(work / "hub.sqlite")],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{web}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/api/room", timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    watcher = Watcher(url)
    watcher.start()
    broker = f"mqtt://127.0.0.1:{mqtt}"
    cpu0, _ = proc_stats(hub.pid)
    feeders = [Feeder(f"table-{t + 1}", games[t % 4], tables_dir, broker, args.seconds)
               for t in range(args.tables)]
    t1 = time.monotonic()
    for f in feeders:
        f.start()
    for f in feeders:
        f.join()
    ok = wait_all(feeders, 120)
    paced = time.monotonic() - t1
    cpu1, rss1 = proc_stats(hub.pid)
    time.sleep(1.0)
    lat = latencies(feeders, watcher)
    total = sum(len(f.entries) for f in feeders)

    # flat out: the same session again, as fast as the tables can send it
    for f in feeders:
        f.publisher.stop()
    fast = [Feeder(f"fast-{t + 1}", games[t % 4], tables_dir, broker, 0.0)
            for t in range(args.tables)]
    t2 = time.monotonic()
    for f in fast:
        f.start()
    for f in fast:
        f.join()
    ok2 = wait_all(fast, 300)
    flat = time.monotonic() - t2
    cpu2, rss2 = proc_stats(hub.pid)
    for f in fast:
        f.publisher.stop()
    watcher.stop = True
    hub.terminate()
    hub.wait(10)
    if mosquitto is not None:
        mosquitto.terminate()
        mosquitto.wait(10)
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(tables_dir, ignore_errors=True)

    real_rate = args.tables * PER_HOUR / 3600
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [float("nan")] * 99
    print()
    print(f"{args.tables} tables, {args.hours:g} h of play each ({total} entries), "
          f"compressed into {args.seconds:g} s; broker: {args.broker}; "
          f"all confirmed: {ok and ok2}")
    print()
    print("| measure | value |")
    print("|---|---|")
    print(f"| offered load (paced run) | {total / args.seconds:,.0f} entries/s = "
          f"{total / args.seconds / real_rate:,.0f}x a real {args.tables}-table room |")
    print(f"| card -> scoreboard (SSE), p50 / p95 / max | {q[49] * 1000:.0f} ms / "
          f"{q[94] * 1000:.0f} ms / {max(lat) * 1000:.0f} ms ({len(lat)} cards) |")
    print(f"| hub sustained, flat out | {total / flat:,.0f} entries/s = "
          f"{total / flat / real_rate:,.0f}x a real room; "
          f"{total / flat / store_rate:.2f}x the store alone ({store_rate:,.0f}/s) |")
    print(f"| hub CPU, paced run | {(cpu1 - cpu0) / paced * 100:.0f}% of one core |")
    print(f"| hub CPU, flat out | {(cpu2 - cpu1) / flat * 100:.0f}% of one core |")
    print(f"| hub peak memory (VmHWM) | {max(rss1, rss2):.0f} MB |")


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
