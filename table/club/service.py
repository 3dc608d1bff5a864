"""The hub's service: subscribe, store every entry once, follow the room,
answer each table with its high-water mark.

Messages arrive on paho's network thread and are queued; one worker thread
takes them in batches: an entry is kept when it is the table's next one
(its `seq` is the mark + 1), a resend of one already held is dropped, and
an entry after a gap makes the hub repeat its mark (the table sends again
from there). The new entries of a batch go to the store in one transaction,
then to the room (the replay), then the marks are published (retained) and
`on_change` is called (the web pages push the news to the browsers).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
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
_CONNECTED = b"connected"


class Hub:
    """See the module docstring."""

    def __init__(self, store: EntryStore, broker: Broker, *,
                 client_id: str = "cardtable-hub",
                 on_change: Callable[[], None] | None = None) -> None:
        self.store = store
        self.broker = broker
        self.on_change = on_change
        self.lock = threading.Lock()
        self.room = Room()
        self.version = 0
        self.marks = store.marks()
        for name in sorted(self.marks):
            for e in store.entries(name):
                self.room.apply(e)
        self.connected = False
        #: Set once the broker has confirmed the hub's subscriptions: from then on
        #: no message a table sends can pass the hub by.
        self.subscribed = threading.Event()
        self.refused: dict[str, str] = {}
        self._queue: queue.SimpleQueue[tuple[str, bytes, bool]] = queue.SimpleQueue()
        self._repeated: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.client = make_client(broker, client_id, persistent=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        #: Entries received / stored / dropped as resends (the benchmark's figures).
        self.received = 0
        self.stored = 0
        self.duplicates = 0

    # ----- life ---------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="club-hub", daemon=True)
        self._thread.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()

    def stop(self) -> None:
        self._stop.set()
        self._queue.put(("", b"", False))
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
        self._queue.put((str(msg.topic), bytes(msg.payload), bool(msg.retain)))

    # ----- the worker -------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
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
            try:
                self._handle(batch)
            except StoreError as exc:
                log.error("hub: %s (the entries will come again)", exc)
                with self.lock:
                    self.marks = self.store.marks()
                time.sleep(0.5)

    def _handle(self, batch: list[tuple[str, bytes, bool]]) -> None:
        accepted: list[topics.Entry] = []
        statuses: dict[str, bool] = {}
        gaps: set[str] = set()
        marks = self.marks
        for topic, payload, _retained in batch:
            if not topic:
                if payload == _CONNECTED:
                    for name, seq in marks.items():
                        self.client.publish(topics.ack_topic(name), topics.encode_ack(seq),
                                            qos=1, retain=True)
                continue
            if topic.endswith("/status"):
                try:
                    name = topics.table_of(topic, "status")
                except topics.BadMessage:
                    continue
                statuses[name] = payload == topics.ONLINE.encode()
                continue
            try:
                e = topics.Entry.decode(topic, payload)
            except topics.BadMessage as exc:
                self._refuse(topic, str(exc))
                continue
            self.received += 1
            mark = marks.get(e.table, 0)
            if e.seq == mark + 1:
                accepted.append(e)
                marks[e.table] = e.seq
            elif e.seq <= mark:
                self.duplicates += 1
            else:
                gaps.add(e.table)
        if accepted:
            self.store.add(accepted)
            self.stored += len(accepted)
        changed = {e.table for e in accepted}
        if accepted or statuses:
            with self.lock:
                for e in accepted:
                    self.room.apply(e)
                for name, online in statuses.items():
                    self.room.table(name).online = online
                self.version += 1
        now = time.monotonic()
        for name in gaps - changed:
            if now - self._repeated.get(name, 0.0) >= REPEAT_EVERY:
                self._repeated[name] = now
                changed.add(name)
        for name in changed:
            self.client.publish(topics.ack_topic(name), topics.encode_ack(marks.get(name, 0)),
                                qos=1, retain=True)
        if (accepted or statuses) and self.on_change is not None:
            self.on_change()

    def _refuse(self, topic: str, why: str) -> None:
        if self.refused.get(topic) != why:
            log.warning("hub: refused a message: %s", why)
        self.refused[topic] = why
