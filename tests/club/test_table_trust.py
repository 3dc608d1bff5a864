"""The table's side against a hostile network: it believes no mark beyond
its own journal, and it publishes no card before it is on the table (the
dealing entries of the hand in play wait in its journal until the hand is
over), while the hub's room shows the same as the tables' journals give.

On an open broker (no credentials: the worst case), real amqtt."""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from hw_mocks.simulator.club import ClubTable, wait_confirmed
from hw_mocks.simulator.headless import demo_settings
from table.club import topics
from table.club.config import parse_broker
from table.club.publisher import DEALING, HAND_OVER
from table.club.room import Room
from table.club.topics import Entry
from table.journal import Journal
from tests.club.services import Amqtt, HubRunner, wait_until


class Spy:
    """A subscriber to `cardtable/#` (on an open broker anyone may be one)."""

    def __init__(self, amqtt: Amqtt, on_entry: Any = None) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.entries: list[Entry] = []
        self.on_entry = on_entry
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="spy")
        ready = threading.Event()
        self.c.on_subscribe = lambda *a: ready.set()
        self.c.on_message = self._message
        self.c.connect("127.0.0.1", amqtt.port)
        self.c.loop_start()
        self.c.subscribe("cardtable/#", 1)
        assert ready.wait(5)

    def _message(self, client: Any, userdata: Any, msg: Any) -> None:
        if msg.topic.endswith("/journal"):
            e = Entry.decode(msg.topic, bytes(msg.payload))
            if self.on_entry is not None:
                self.on_entry(e)
            self.entries.append(e)

    def publish(self, topic: str, payload: str, retain: bool = False) -> None:
        self.c.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def journal_entries(path: Path) -> list[Any]:
    j = Journal(path)
    try:
        return list(j.entries())
    finally:
        j.close()


def test_a_mark_beyond_the_journal_is_ignored(amqtt: Amqtt, tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture):
    spy = Spy(amqtt)
    spy.publish(topics.ack_topic("t1"), "999999999", retain=True)
    caplog.set_level(logging.WARNING, "cardtable.club")
    t = ClubTable("t1", parse_broker(amqtt.url()), demo_settings("sueca"), seed=3,
                  state_dir=tmp_path / "t1", resend_after=0.5)
    try:
        for _ in range(15):
            t.step()
        # no hub: nothing is confirmed, whatever the forged mark says
        assert not t.publisher.wait_confirmed(t.seq, 2.0)
        assert t.publisher.confirmed == 0 and t.publisher.forged_marks >= 1
        assert "ignored a mark of 999999999 for table t1" in caplog.text
        # the table went on sending: the hub, started now, gets every entry
        runner = HubRunner(tmp_path, amqtt.url())
        runner.start()
        try:
            assert t.publisher.wait_confirmed(t.seq, 20)
            wait_until(lambda: runner.store.count() == t.seq, 5)
        finally:
            runner.stop()
    finally:
        t.close()
        spy.close()


@pytest.mark.parametrize("knowledge", ["dealt", "scan"])
def test_no_card_is_published_before_it_is_played(amqtt: Amqtt, tmp_path: Path,
                                                  knowledge: str):
    path = tmp_path / "t1" / "journal.sqlite"
    early: list[Entry] = []

    def check(e: Entry) -> None:
        """A dealing entry reaches the network only once its hand is over."""
        if e.kind in DEALING:
            later = [x for x in journal_entries(path) if x.seq > e.seq]
            if not any(x.kind in HAND_OVER for x in later):
                early.append(e)

    spy = Spy(amqtt, check)
    runner = HubRunner(tmp_path, amqtt.url())
    hub = runner.start()
    t = ClubTable("t1", parse_broker(amqtt.url()), demo_settings(
        "filicau", {"match_length": 2}, knowledge), seed=5, state_dir=tmp_path / "t1",
        resend_after=0.5)
    assert t.journal_path == path
    rng = random.Random(1)
    try:
        # into the second hand, a few tricks on
        hands_seen, moves = 0, 0
        while moves < 4000:
            t.step()
            moves += 1
            kinds = [e.kind for e in journal_entries(path)]
            hands_seen = kinds.count("next")
            if hands_seen >= 1 and kinds[-1] == "card" and kinds.count("card") > \
                    kinds.index("next") + 12 and rng.random() < 0.5:
                break
        entries = journal_entries(path)
        last_over = max(e.seq for e in entries if e.kind in HAND_OVER)
        first_deal = min(e.seq for e in entries if e.kind in DEALING and e.seq > last_over)
        # the hub holds everything up to the hand in play, and nothing of it
        wait_until(lambda: t.publisher.confirmed == first_deal - 1, 10,
                   "the hub to hold the finished hands")
        time.sleep(0.5)
        assert t.publisher.held == first_deal
        assert max(e.seq for e in spy.entries) < first_deal
        assert _mark_of(hub, "t1") == first_deal - 1
        # the hand ends: all of it goes out, and the room is what the journal gives
        while t.sim.state != "match_over" and moves < 8000:
            t.step()
            moves += 1
        assert t.sim.state == "match_over"
        assert wait_confirmed([t], 20)
        assert t.publisher.held is None
        mine = Room()
        for e in journal_entries(path):
            mine.apply(Entry("t1", e.seq, e.kind, e.data))
        want = {k: v for k, v in mine.tables["t1"].summary().items() if k != "online"}
        wait_until(lambda: [{k: v for k, v in line.items() if k != "online"}
                            for line in hub.snapshot()[1]] == [want], 5,
                   f"the hub's room to be {want}, not {hub.snapshot()[1]}")
        assert [asdict(s) for s in hub.snapshot()[2]] == [asdict(s) for s in
                                                         mine.standings()]
        # the spy is a subscriber like any other: it hears the last entries when it hears them
        wait_until(lambda: {e.seq for e in spy.entries} >= set(range(1, t.seq + 1)), 10,
                   "the cardtable/# subscriber to hear every entry")
        assert early == []
    finally:
        t.close()
        runner.stop()
        spy.close()


def _mark_of(hub, name):
    """The hub's mark for table `name` (the hub keys its marks by table and journal)."""
    return next(seq for (table, _journal), seq in hub.marks.items() if table == name)
