"""The table's side of the club room: publish every journal entry.

The controller calls `notify(seq)` after each event that appended entries
(it only wakes this publisher's thread, never waits). The thread reads the
journal (its own connection to the SQLite file) and publishes each entry,
QoS 1, on a persistent session. The journal is the offline buffer: nothing
is kept in memory that is not on disk. The hub answers with its high-water
mark (retained, so a table that connects learns it at once); after any
outage, or when the hub says it misses something, or when the mark does not
move for `resend_after` seconds, the table sends again everything after the
mark. Sending an entry twice is harmless: (table, journal, seq) is its id.
Each entry carries the id of the journal it belongs to (`journal_id`), and
a mark counting another journal (the old journal of a rebuilt Pi with the
same name) is not this table's (`topics.mark_for`).

Two things guard the room against its network:

* only a mark the hub could have sent is believed: a mark beyond the last
  entry this table wrote is forged (or the journal is not the one the hub
  knows) and is ignored, with a line in the log, so the table never stops
  sending, nor `wait_confirmed` says yes, on it;
* no hand is seen before it is played: the entries that say which cards a
  player holds (`scan`, `deal`: the tables that learn the hands before
  play) wait in the journal until their hand is over, and everything after
  them waits with them (the hub takes entries in order only).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table.club import topics
from table.club.config import ClubConfig
from table.club.mqtt import make_client, reason_text
from table.journal import Journal, JournalError

log = logging.getLogger("cardtable.club")

#: Entries sent past the hub's mark before waiting for it to move.
WINDOW = 200
#: Seconds after going back to the mark before the hub's repeated mark is heeded again
#: (entries already on their way still arrive after the gap and make it repeat).
NACK_COOLDOWN = 2.0
#: The longest wait for the mark to move before sending again (the wait doubles each time).
MAX_RESEND_AFTER = 60.0
#: Seconds to wait, after connecting, for the hub's retained mark before sending.
ACK_WAIT = 1.0
#: Entries that tell a player's cards before they are played.
DEALING = frozenset({"scan", "deal"})
#: Entries after which no hand is in play (a hand ended, thrown in, a match ended or begun).
HAND_OVER = frozenset({"next", "abort", "end", "select", "start"})
#: Seconds between two log lines about forged marks.
FORGED_LOG_EVERY = 30.0


class Publisher:
    """See the module docstring. `on_status(online)` is called (on the
    network thread) when the connection to the broker comes or goes."""

    def __init__(self, journal_path: str | Path, club: ClubConfig, *,
                 on_status: Callable[[bool], None] | None = None,
                 resend_after: float = 3.0, window: int = WINDOW) -> None:
        self.club = club
        self.name = club.table
        self.journal_path = Path(journal_path)
        self.on_status = on_status
        self.resend_after = resend_after
        self.window = window
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._connected = False
        self._ack_seen = False
        self._connected_at = 0.0
        self._confirmed = 0
        self._sent = 0
        self._last = 0
        self._progress_at = time.monotonic()
        self._rewind = False
        self._rewound_at = 0.0
        self._resend_after = resend_after
        self._thread: threading.Thread | None = None
        #: The id of the journal this table publishes (read at `start`).
        self.journal_id: str | None = None
        #: The highest entry ever published (a true mark is never above it nor the journal).
        self._published_max = 0
        #: The journal's entries read for the hold-back, and the first dealing entry
        #: of the hand in play (None: nothing held).
        self._scanned: int | None = None
        self._held: int | None = None
        self._forged_logged = -FORGED_LOG_EVERY
        #: Marks ignored because they were beyond the journal (for the tests).
        self.forged_marks = 0
        self.client = make_client(club.broker, f"cardtable-table-{self.name}")
        self.client.will_set(topics.status_topic(self.name), topics.OFFLINE, qos=1,
                             retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        #: Entries published (resends included), for the tests and the benchmark.
        self.published = 0

    # ----- what the controller and the screen see -------------------------------------------

    @property
    def online(self) -> bool:
        return self._connected

    @property
    def confirmed(self) -> int:
        """The hub's high-water mark as last heard."""
        return self._confirmed

    def notify(self, seq: int) -> None:
        """The journal has entries up to `seq` (thread-safe, never blocks)."""
        if seq > self._last:
            self._last = seq
        self._wake.set()

    # ----- life ---------------------------------------------------------------------------------

    def start(self) -> None:
        journal = Journal(self.journal_path)
        self._last = max(self._last, journal.last_seq())
        self.journal_id = journal.id
        journal.close()
        broker = self.club.broker
        self.client.connect_async(broker.host, broker.port, keepalive=self.club.keepalive)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name=f"club-{self.name}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        if self._connected:
            self.client.publish(topics.status_topic(self.name), topics.OFFLINE, qos=1,
                                retain=True)
        self.client.disconnect()
        self.client.loop_stop()

    def wait_confirmed(self, seq: int, timeout: float) -> bool:
        """Wait until the hub holds every entry up to `seq` (tests, club-sim)."""
        end = time.monotonic() + timeout
        while self._confirmed < seq:
            if time.monotonic() > end:
                return False
            time.sleep(0.02)
        return True

    # ----- the network thread's callbacks ---------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("club broker %s refused table %s: %s", self.club.broker.url,
                        self.name, reason_text(reason))
            return
        client.subscribe(topics.ack_topic(self.name), qos=1)
        client.publish(topics.status_topic(self.name), topics.ONLINE, qos=1, retain=True)
        with self._lock:
            self._connected = True
            self._ack_seen = False
            self._connected_at = time.monotonic()
            self._rewind = True
        self._status(True)
        self._wake.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        was = self._connected
        self._connected = False
        if was:
            log.info("club broker %s: table %s offline (%s)", self.club.broker.url, self.name,
                     reason_text(reason))
            self._status(False)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        if msg.topic != topics.ack_topic(self.name):
            return  # (a broker may pass on what the session once asked for)
        try:
            value = self._mark(msg.payload)
        except topics.BadMessage as exc:
            log.warning("club: %s", exc)
            return
        if value is None:
            return  # the mark of another journal of this name
        if self._forged(value):
            return
        with self._lock:
            self._ack_seen = True
            now = time.monotonic()
            if value > self._confirmed:
                self._confirmed = value
                self._progress_at = now
                self._resend_after = self.resend_after
                if value > self._sent:
                    self._sent = value
            elif not msg.retain and self._sent > self._confirmed \
                    and now - self._rewound_at >= NACK_COOLDOWN:
                # the hub repeats its mark: it misses the entry after it
                self._rewind = True
        self._wake.set()

    def _mark(self, payload: bytes) -> int | None:
        """The hub's mark for this table's journal (None: another journal's)."""
        return topics.mark_for(payload, self.journal_id)

    def _entry(self, e: Any) -> topics.Entry:
        """The journal entry `e` as published: with its journal's id."""
        return topics.Entry(self.name, e.seq, e.kind, e.data, self.journal_id or "")
    def _forged(self, value: int) -> bool:
        """A mark above every entry this table wrote: the hub never sent it."""
        limit = max(self._last, self._published_max)
        if value <= limit:
            return False
        self.forged_marks += 1
        now = time.monotonic()
        if now - self._forged_logged >= FORGED_LOG_EVERY:
            self._forged_logged = now
            log.warning("club: ignored a mark of %d for table %s, which wrote %d entries "
                        "(not the hub's: a forged mark, or another journal under this "
                        "table's name)", value, self.name, limit)
        return True

    def _status(self, online: bool) -> None:
        if self.on_status is not None:
            try:
                self.on_status(online)
            except Exception:  # the screen's business; never the network's
                log.exception("club status listener failed")

    # ----- the sending thread -------------------------------------------------------------------

    def _run(self) -> None:
        journal: Journal | None = None
        try:
            journal = Journal(self.journal_path)
            while not self._stop.is_set():
                self._wake.wait(0.25)
                self._wake.clear()
                try:
                    self._pump(journal)
                except JournalError as exc:
                    log.error("club: cannot read the journal: %s", exc)
                    self._stop.wait(1.0)
        except JournalError as exc:
            log.error("club: cannot open the journal: %s", exc)
        finally:
            if journal is not None:
                journal.close()

    def _pump(self, journal: Journal) -> None:
        now = time.monotonic()
        with self._lock:
            if not self._connected:
                return
            if not self._ack_seen and now - self._connected_at < ACK_WAIT:
                return
            stalled = self._sent > self._confirmed and \
                now - self._progress_at > self._resend_after
            if stalled:   # wait longer next time: a slow hub is not helped by a flood
                self._resend_after = min(self._resend_after * 2, MAX_RESEND_AFTER)
            if self._rewind or stalled:
                self._sent = self._confirmed
                self._progress_at = now
                self._rewound_at = now
                self._rewind = False
        until = self._sendable_until(journal)
        while self._connected and not self._stop.is_set():
            with self._lock:
                start, room = self._sent, self._confirmed + self.window - self._sent
            if start >= min(self._last, until) or room <= 0:
                return
            batch = [e for e in itertools.islice(journal.entries(start), min(room, 200))
                     if e.seq <= until]
            if not batch:
                return
            for e in batch:
                entry = self._entry(e)
                info = self.client.publish(topics.journal_topic(self.name), entry.encode(),
                                           qos=1)
                if info.rc != 0:
                    return
                self.published += 1
                self._published_max = max(self._published_max, e.seq)
                with self._lock:
                    if self._sent == self._confirmed:
                        self._progress_at = time.monotonic()  # the wait for the mark starts
                    if self._sent < e.seq:
                        self._sent = e.seq

    # ----- the hold-back of the hand in play ------------------------------------------------------

    def _sendable_until(self, journal: Journal) -> int:
        """The last entry that may be published now: the one before the first
        dealing entry of the hand in play, else the last one looked at (an
        entry written meanwhile is looked at next time)."""
        if self._scanned is None:
            self._scanned, self._held = _hand_in_play(journal)
        for e in journal.entries(self._scanned):
            if e.kind in HAND_OVER:
                self._held = None
            elif e.kind in DEALING and self._held is None:
                self._held = e.seq
            self._scanned = e.seq
        return self._scanned if self._held is None else self._held - 1

    @property
    def held(self) -> int | None:
        """The first entry held back (the hand in play's first dealing entry), if any."""
        return self._held


def _hand_in_play(journal: Journal) -> tuple[int, int | None]:
    """(the last entry looked at, the first dealing entry of the hand in
    play or None), reading only the hand in play."""
    over = journal.last(HAND_OVER)
    start = over.seq if over is not None else 0
    held = None
    last = start
    for e in journal.entries(start):
        if e.kind in DEALING and held is None:
            held = e.seq
        last = e.seq
    return last, held


def follow(controller: Any, publisher: Publisher) -> None:
    """Let `controller` tell `publisher` of its journal entries, and show the
    offline mark on its screen while the broker cannot be reached (again
    after a restart: a new controller on the same journal)."""
    def status(online: bool) -> None:
        controller.model.club_offline = not online
        controller.post_refresh()

    controller.model.club_offline = not publisher.online
    publisher.on_status = status
    controller.journal_listeners.append(publisher.notify)
    publisher.notify(controller.session.seq)


def attach(controller: Any, club: ClubConfig, journal_path: str | Path,
           resend_after: float = 3.0) -> Publisher:
    """A started publisher for `controller`'s journal (see `follow`)."""
    pub = Publisher(journal_path, club, resend_after=resend_after)
    follow(controller, pub)
    pub.start()
    return pub
