"""The hub's service: subscribe, store every entry once, follow the room,
answer each table with its high-water mark.

Messages arrive on paho's network thread; what is plainly too much is
refused there, before it is queued (a message larger than
`topics.MAX_ENTRY_BYTES`, a table sending faster than `Limits.rate`, a queue
already holding `Limits.queue_bytes`). One worker thread takes the rest in
batches: an entry is kept when it is its journal's next one (its `seq` is the
mark + 1), a resend of one already held is dropped, and an entry after a gap
makes the hub repeat its mark (the table sends again from there). A journal
is (table, journal id): a rebuilt Pi with the same name starts its own, and
an entry of another journal never touches it. The new entries of a batch go
to the store in one transaction, then to the room (the replay), then the
marks are published (retained) and `on_change` is called (the web pages push
the news to the browsers).

No message can stop the hub: every refusal is counted by its reason and
logged at most once every `LOG_EVERY` seconds per reason; the worker runs
under a supervisor that restarts it (logged, counted) if anything escapes
it; `health()` says whether the hub is storing.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from table.club import topics
from table.club.config import Broker
from table.club.mqtt import make_client, reason_text
from table.club.room import Room
from table.club.store import EntryStore, StoreError

log = logging.getLogger("cardtable.hub")

#: The shortest time between two repeats of a mark for the same table.
REPEAT_EVERY = 0.5
BATCH = 500
#: Seconds between two log lines of the same kind of refusal (the count goes on).
LOG_EVERY = 10.0
#: Seconds without a turn of the worker's loop after which the hub is not storing.
STALL = 5.0
_CONNECTED = b"connected"


@dataclass(frozen=True)
class Limits:
    """What the hub takes from the network (docs/club.md, "Limits")."""

    #: Journal messages a second per table, on average, and in one burst.
    rate: float = 1000.0
    burst: float = 10_000.0
    #: Bytes a second per table, on average, and in one burst.
    byte_rate: float = 2 * 1024 * 1024
    byte_burst: float = 16 * 1024 * 1024
    #: Bytes waiting for the worker, at most (beyond: refused, the tables resend).
    queue_bytes: int = 64 * 1024 * 1024
    #: Journals (table, journal id) the hub follows at most; a new one beyond is refused.
    journals: int = 2000


class _Bucket:
    """A token bucket: `take(n)` is True while the rate allows it."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, now

    def take(self, n: float, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < n:
            return False
        self.tokens -= n
        return True


class Refusals:
    """Refused messages counted by reason, logged at most once every
    `LOG_EVERY` seconds per reason (with how many were refused since)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._logged: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def add(self, reason: str, text: str) -> None:
        now = time.monotonic()
        with self._lock:
            self.counts[reason] += 1
            at, count = self._logged.get(reason, (-LOG_EVERY, 0))
            if now - at < LOG_EVERY:
                return
            since = self.counts[reason] - count - 1
            self._logged[reason] = (now, self.counts[reason])
        more = f" ({since} more refused for this reason since the last line)" if since else ""
        log.warning("hub: refused a message: %s%s", text, more)

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self.counts)


class Hub:
    """See the module docstring."""

    def __init__(self, store: EntryStore, broker: Broker, *,
                 client_id: str = "cardtable-hub",
                 on_change: Callable[[], None] | None = None,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.broker = broker
        self.on_change = on_change
        self.limits = limits or Limits()
        self.lock = threading.Lock()
        self.room = Room()
        self.version = 0
        #: (table, journal) -> its mark, the oldest journal first.
        self.marks = store.marks()
        for name, journal in self.marks:
            for e in store.entries(name, journal=journal):
                self.room.apply(e)
        self.connected = False
        #: Set once the broker has confirmed the hub's subscriptions: from then on
        #: no message a table sends can pass the hub by.
        self.subscribed = threading.Event()
        self.refused = Refusals()
        self._queue: queue.SimpleQueue[tuple[str, bytes, bool]] = queue.SimpleQueue()
        self._queued = 0
        self._queued_lock = threading.Lock()
        self._buckets: dict[str, tuple[_Bucket, _Bucket]] = {}
        self._repeated: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._watch: threading.Thread | None = None
        self._beat = time.monotonic()
        self.client = make_client(broker, client_id, persistent=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        #: Entries received / stored / dropped as resends (the benchmark's figures).
        self.received = 0
        self.stored = 0
        self.duplicates = 0
        #: When the last entry was stored (seconds since the epoch), None: not yet.
        self.last_stored: float | None = None
        #: Times the worker failed and was started again.
        self.restarts = 0

    # ----- life ---------------------------------------------------------------------------

    def start(self) -> None:
        self._start_worker()
        self._watch = threading.Thread(target=self._supervise, name="club-hub-watch",
                                       daemon=True)
        self._watch.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()

    def _start_worker(self) -> None:
        self._beat = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="club-hub", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._queue.put(("", b"", False))
        if self._watch is not None:
            self._watch.join(5)
            self._watch = None
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self.connected = False
        self.client.disconnect()
        self.client.loop_stop()

    def snapshot(self, by: str = "partnership") -> tuple[int, list[dict[str, Any]], list[Any]]:
        """(version, every table's summary, standings `by` partnership, player
        or table), consistent."""
        with self.lock:
            tables = [self.room.tables[n].summary() for n in sorted(self.room.tables)]
            return self.version, tables, self.room.standings(by)

    def health(self) -> dict[str, Any]:
        """Whether the hub is storing, and its counts (the `/health` page)."""
        worker = self._thread is not None and self._thread.is_alive() and \
            time.monotonic() - self._beat < STALL
        with self._queued_lock:
            queued = self._queued
        return {"storing": bool(worker and self.connected and self.subscribed.is_set()),
                "worker": worker, "connected": self.connected,
                "subscribed": self.subscribed.is_set(), "last_stored": self.last_stored,
                "received": self.received, "stored": self.stored,
                "duplicates": self.duplicates, "refused": self.refused.snapshot(),
                "restarts": self.restarts, "queued_bytes": queued,
                "journals": len(self.marks)}

    # ----- network thread -------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("the broker %s refused the hub: %s", self.broker.url,
                        reason_text(reason))
            return
        client.subscribe([(topics.ENTRIES_FILTER, 1), (topics.STATUS_FILTER, 1)])
        self._queue.put(("", _CONNECTED, False))   # the worker publishes every mark again
        self.connected = True
        log.info("hub connected to %s", self.broker.url)

    def _on_subscribe(self, client: Any, userdata: Any, mid: Any, reasons: Any,
                      properties: Any) -> None:
        self.subscribed.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.subscribed.clear()
        if self.connected:
            log.warning("hub lost the broker %s (%s); reconnecting", self.broker.url,
                        reason_text(reason))
        self.connected = False

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            self._take(str(msg.topic), msg.payload, bool(msg.retain))
        except Exception as exc:  # never paho's thread: it would stop hearing anything
            self.refused.add("error", f"{type(exc).__name__}: {exc}")

    def _take(self, topic: str, payload: bytes, retained: bool) -> None:
        """Queue a message for the worker, or refuse what is plainly too much."""
        size = len(payload)
        if not size:
            return  # a retained message cleared: nothing to take
        if topic.endswith("/journal"):
            if size > topics.MAX_ENTRY_BYTES:
                self.refused.add("too_big", f"{topic[:80]}: {size:,} bytes, more than an "
                                 f"entry may have ({topics.MAX_ENTRY_BYTES:,})")
                return
            name = topic.split("/")[2] if topic.count("/") == 3 else ""
            now = time.monotonic()
            buckets = self._buckets.get(name)
            if buckets is None:
                if len(self._buckets) > 4 * self.limits.journals:
                    self._buckets.clear()   # names made up by the thousand: start over
                lim = self.limits
                buckets = self._buckets[name] = (_Bucket(lim.rate, lim.burst, now),
                                                 _Bucket(lim.byte_rate, lim.byte_burst, now))
            if not (buckets[0].take(1, now) and buckets[1].take(size, now)):
                self.refused.add("rate", f"table {name[:40]!r} sends faster than "
                                 f"{self.limits.rate:.0f} entries or "
                                 f"{self.limits.byte_rate / 2 ** 20:.0f} MiB a second")
                return
        elif not topic.endswith("/status"):
            return  # not what the hub asked for (amqtt may pass on the marks it sends)
        elif size > 64:
            self.refused.add("too_big", f"{topic[:80]}: {size:,} bytes")
            return
        with self._queued_lock:
            if self._queued + size > self.limits.queue_bytes:
                full = True
            else:
                full = False
                self._queued += size
        if full:
            self.refused.add("queue_full", "the hub's queue is full (the tables send again)")
            return
        self._queue.put((topic, bytes(payload), retained))

    # ----- the worker -------------------------------------------------------------------------

    def _supervise(self) -> None:
        """Start the worker again whenever it ends before `stop`."""
        while not self._stop.wait(0.5):
            thread = self._thread
            if thread is not None and not thread.is_alive() and not self._stop.is_set():
                self.restarts += 1
                log.error("hub: the storing worker stopped; started again (%d times)",
                          self.restarts)
                self._start_worker()

    def _run(self) -> None:
        failed_at = 0.0
        while not self._stop.is_set():
            try:
                self._work()
            except Exception as exc:
                # a bug, not a message: the batch is dropped (the tables send it
                # again from the mark) and the worker goes on
                self.restarts += 1
                now = time.monotonic()
                if now - failed_at >= LOG_EVERY:
                    log.exception("hub: the storing worker failed (%s); going on (%d times)",
                                  exc, self.restarts)
                failed_at = now
                try:
                    with self.lock:
                        self.marks = self.store.marks()
                except StoreError:
                    pass
                self._stop.wait(0.2)

    def _work(self) -> None:
        while not self._stop.is_set():
            self._beat = time.monotonic()
            try:
                first = self._queue.get(timeout=0.5)
            except queue.Empty:
                continue
            batch = [first]
            while len(batch) < BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            with self._queued_lock:
                self._queued -= sum(len(p) for t, p, _ in batch if t)
            try:
                self._handle(batch)
            except StoreError as exc:
                log.error("hub: %s (the entries will come again)", exc)
                with self.lock:
                    self.marks = self.store.marks()
                self._stop.wait(0.5)

    def _handle(self, batch: list[tuple[str, bytes, bool]]) -> None:
        accepted: list[topics.Entry] = []
        statuses: dict[str, bool] = {}
        #: journals whose mark is said again: an entry after a gap (the table
        #: sends again from the mark), or one the hub holds (the table is behind)
        repeat: dict[str, str] = {}
        adopted: list[tuple[str, str]] = []
        marks = self.marks
        for topic, payload, _retained in batch:
            if not topic:
                if payload == _CONNECTED:
                    newest = {name: (journal, seq) for (name, journal), seq in marks.items()}
                    for name, (journal, seq) in newest.items():
                        self.client.publish(topics.ack_topic(name),
                                            topics.encode_ack(seq, journal),
                                            qos=1, retain=True)
                continue
            if topic.endswith("/status"):
                try:
                    name = topics.table_of(topic, "status")
                except topics.BadMessage as exc:
                    self.refused.add(exc.reason, str(exc))
                    continue
                statuses[name] = payload == topics.ONLINE.encode()
                continue
            try:
                e = topics.Entry.decode(topic, payload)
            except topics.BadMessage as exc:
                self.refused.add(exc.reason, str(exc))
                continue
            self.received += 1
            key = (e.table, e.journal)
            mark = marks.get(key)
            if mark is None:
                old = marks.get((e.table, ""))
                if e.journal and old is not None and e.seq == old + 1 and \
                        not any(t == e.table and j for t, j in marks):
                    # a table updated to send its journal's id, going on where
                    # its old entries stop: they were its journal's
                    marks[key] = marks.pop((e.table, ""))
                    adopted.append(key)
                elif len(marks) >= self.limits.journals:
                    self.refused.add("journals", f"table {e.table}: a new journal, and the "
                                     f"hub follows {self.limits.journals} already")
                    continue
                mark = marks.get(key, 0)
            if e.seq == mark + 1:
                accepted.append(e)
                marks[key] = e.seq
            else:
                if e.seq <= mark:
                    self.duplicates += 1
                repeat[e.table] = e.journal
        for name, journal in adopted:
            self.store.adopt(name, journal)
        if accepted:
            self.store.add(accepted)
            self.stored += len(accepted)
            self.last_stored = time.time()
        changed = {(e.table, e.journal) for e in accepted}
        if accepted or statuses or adopted:
            with self.lock:
                for name, journal in adopted:
                    self.room.adopt(name, journal)
                for e in accepted:
                    self.room.apply(e)
                for name, online in statuses.items():
                    if name in self.room.tables or len(self.room.tables) < self.limits.journals:
                        self.room.set_online(name, online)
                self.version += 1
        now = time.monotonic()
        names = {name for name, _ in changed}
        if len(self._repeated) > 4 * self.limits.journals:
            self._repeated.clear()
        for name, journal in repeat.items():
            if name not in names and now - self._repeated.get(name, 0.0) >= REPEAT_EVERY:
                self._repeated[name] = now
                changed.add((name, journal))
        for name, journal in changed:
            self.client.publish(topics.ack_topic(name),
                                topics.encode_ack(marks.get((name, journal), 0), journal),
                                qos=1, retain=True)
        if (accepted or statuses) and self.on_change is not None:
            self.on_change()
