"""The hub trusts the rules, not a table's numbers; bad or out-of-order
messages lose nothing and store nothing wrong."""

from __future__ import annotations

import logging
import random
import threading
from pathlib import Path

from hw_mocks.simulator.club import make_tables, play
from table.club import pages, topics
from table.club.config import parse_broker
from table.club.mqtt import make_client
from table.club.room import Room
from table.club.topics import Entry
from table.journal import Journal
from tests.club.services import Amqtt, HubRunner, wait_until


def session_entries(tmp_path: Path, moves: int = 90) -> list[Entry]:
    (t,) = make_tables(parse_broker("mqtt://127.0.0.1:9"), 1, state_root=tmp_path)
    play([t], moves, rng=random.Random(2))
    j = Journal(t.journal_path)
    entries = [Entry("t1", e.seq, e.kind, dict(e.data)) for e in j.entries()]
    j.close()
    t.close()
    return entries


def test_a_table_whose_numbers_are_not_the_rules_is_not_followed(tmp_path: Path):
    entries = session_entries(tmp_path)
    nexts = [i for i, e in enumerate(entries) if e.kind == "next"]
    assert nexts, "the session finished no hand"
    i = nexts[0]
    honest = Room()
    for e in entries:
        honest.apply(e)
    assert honest.tables["t1"].error is None
    forged = dict(entries[i].data)
    forged["state"] = {**forged["state"], "status": "masters:1" if
                       forged["state"].get("status") != "masters:1" else "even"}
    room = Room()
    for e in entries[:i] + [Entry("t1", entries[i].seq, "next", forged)] + entries[i + 1:]:
        room.apply(e)
    t = room.tables["t1"]
    assert t.error is not None and "replaying the hand gives" in t.error
    assert t.matches[-1].hands == []            # the forged hand is not counted
    assert room.standings() != honest.standings()
    html = pages.tv_fragment([t.summary()], room.standings())
    assert "cannot be followed" in html


def test_bad_and_out_of_order_messages_store_nothing_wrong(amqtt: Amqtt, tmp_path: Path,
                                                         caplog):
    entries = session_entries(tmp_path, 20)
    runner = HubRunner(tmp_path, amqtt.url())
    hub = runner.start()
    assert hub.subscribed.wait(10), "the hub did not subscribe"   # else "not json" may pass it by
    acks: list[int] = []
    got = threading.Event()
    client = make_client(parse_broker(amqtt.url()), "tester", persistent=False)

    def on_message(c, u, msg):
        acks.append(topics.decode_ack(msg.payload))
        got.set()

    client.on_message = on_message
    client.connect("127.0.0.1", amqtt.port)
    client.loop_start()
    client.subscribe(topics.ack_topic("t1"), qos=1)
    try:
        caplog.set_level(logging.WARNING, "cardtable.hub")
        topic = topics.journal_topic("t1")
        client.publish(topic, b"not json", qos=1)
        client.publish(topic, entries[2].encode(), qos=1)       # 1 and 2 are missing
        wait_until(lambda: 0 in acks, 5, "the hub to repeat its mark 0")
        for e in entries[:2] + entries[:3]:                     # then in order, twice
            client.publish(topic, e.encode(), qos=1)
        wait_until(lambda: acks and acks[-1] == 3, 5, "the mark 3")
        assert [(e.seq, e.kind) for e in runner.store.entries("t1")] == \
            [(e.seq, e.kind) for e in entries[:3]]
        assert runner.hub.duplicates >= 2
        assert any("not JSON" in r.getMessage() for r in caplog.records)
        assert not any(r.exc_info for r in caplog.records)
    finally:
        client.disconnect()
        client.loop_stop()
        runner.stop()
