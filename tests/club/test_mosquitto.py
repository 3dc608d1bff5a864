"""The hub on Mosquitto as docs/club.md sets it up: a user per table, an
ACL so a table publishes only its own topics, TLS."""

from __future__ import annotations

import random
from pathlib import Path

from hw_mocks.simulator.club import ClubTable, club_settings, play, wait_confirmed
from table.club import topics
from table.club.config import parse_broker
from table.club.mqtt import make_client
from table.club.topics import Entry
from tests.club.services import HubRunner, Mosquitto, wait_until

USERS = {"hub": "hub-pw", "table-1": "pw-1", "table-2": "pw-2"}


def test_with_users_and_the_acl_a_table_publishes_only_its_own_topics(tmp_path: Path):
    m = Mosquitto(tmp_path, USERS)
    m.start()
    runner = HubRunner(tmp_path, m.url("hub"))
    runner.start()
    t1 = ClubTable("table-1", parse_broker(m.url("table-1")), club_settings(0),
                   state_dir=tmp_path / "t1")
    intruder = make_client(parse_broker(m.url("table-1")), "intruder", persistent=False)
    try:
        play([t1], 30, rng=random.Random(1))
        assert wait_confirmed([t1], 15)
        # table-1's credentials cannot write table-2's journal
        intruder.connect("127.0.0.1", m.port)
        intruder.loop_start()
        forged = Entry("table-2", 1, "select", {"game": "sueca", "knowledge": "open"})
        sent = intruder.publish(topics.journal_topic("table-2"), forged.encode(), qos=1)
        sent.wait_for_publish(5)
        play([t1], 10, rng=random.Random(2))
        assert wait_confirmed([t1], 15)
        assert list(runner.store.entries("table-2")) == []
        assert "table-2" not in runner.hub.room.tables
        # a wrong password is refused: the table plays on, offline
        bad = ClubTable("table-2", parse_broker(m.url("table-2"), password="wrong"),
                        club_settings(1), state_dir=tmp_path / "t2")
        play([bad], 5, rng=random.Random(3))
        assert not bad.publisher.online
        bad.close()
    finally:
        intruder.disconnect()
        intruder.loop_stop()
        t1.close()
        runner.stop()
        m.stop()


def test_over_tls_with_the_clubs_own_ca(tmp_path: Path):
    m = Mosquitto(tmp_path, USERS, tls=True)
    m.start()
    ca = tmp_path / "ca.pem"
    runner = HubRunner(tmp_path, m.url("hub"))
    runner.broker = parse_broker(m.url("hub"), ca_file=ca)
    runner.start()
    t1 = ClubTable("table-1", parse_broker(m.url("table-1"), ca_file=ca), club_settings(0),
                   state_dir=tmp_path / "t1")
    try:
        play([t1], 30, rng=random.Random(1))
        assert wait_confirmed([t1], 15)
        wait_until(lambda: runner.store.count() == t1.seq, 5)
    finally:
        t1.close()
        runner.stop()
        m.stop()
