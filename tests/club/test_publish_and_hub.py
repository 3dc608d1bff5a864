"""A table publishes its journal; the hub stores every entry once and
follows the match with the rules (real brokers on localhost)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hw_mocks.simulator.club import ClubTable, club_settings, make_tables, play, wait_confirmed
from table.club.config import parse_broker
from table.club.room import Room
from table.journal import Journal
from tests.club.services import Amqtt, HubRunner, Mosquitto, TcpProxy, wait_until


def journal_entries(t: ClubTable) -> list[tuple[int, str, dict]]:
    j = Journal(t.journal_path)
    try:
        return [(e.seq, e.kind, dict(e.data)) for e in j.entries()]
    finally:
        j.close()


def hub_entries(runner: HubRunner, name: str) -> list[tuple[int, str, dict]]:
    return [(e.seq, e.kind, dict(e.data)) for e in runner.store.entries(name)]


def room_from_journals(tables: list[ClubTable]) -> Room:
    """The room as the tables' own journals tell it."""
    room = Room()
    for t in tables:
        from table.club.topics import Entry

        for seq, kind, data in journal_entries(t):
            room.apply(Entry(t.name, seq, kind, data))
    return room


@pytest.fixture(params=["amqtt", "mosquitto"])
def broker_url(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "amqtt":
        b = Amqtt()
        b.start()
        yield b.url()
        b.stop()
    else:
        m = Mosquitto(tmp_path)
        m.start()
        yield m.url()
        m.stop()


def test_tables_publish_and_the_hub_holds_every_entry_once(broker_url: str, tmp_path: Path):
    runner = HubRunner(tmp_path, broker_url)
    hub = runner.start()
    tables = make_tables(parse_broker(broker_url), 2, state_root=tmp_path)
    try:
        play(tables, 150, rng=random.Random(3))
        assert wait_confirmed(tables, 15)
        for t in tables:
            assert hub_entries(runner, t.name) == journal_entries(t)
        assert runner.store.count() == sum(t.seq for t in tables)
        _, summaries, standings = hub.snapshot()
        assert [s["name"] for s in summaries] == ["table-1", "table-2"]
        assert any(s["hands"] for s in summaries)      # hands were finished and scored
        assert [s["mark"] for s in summaries] == [t.seq for t in tables]
        assert standings == room_from_journals(tables).standings()
        # what a table shows as its hands played is what the hub shows
        for s, t in zip(summaries, tables, strict=True):
            match = t.sim.match
            assert s["game"] == match.game.title
            assert s["online"] is True
    finally:
        for t in tables:
            t.close()
        runner.stop()


def test_a_hub_started_late_gets_everything_and_a_restarted_hub_forgets_nothing(
        amqtt: Amqtt, tmp_path: Path):
    tables = make_tables(parse_broker(amqtt.url()), 2, state_root=tmp_path)
    runner = HubRunner(tmp_path, amqtt.url())
    try:
        play(tables, 60, rng=random.Random(1))        # nobody listens yet
        runner.start()
        assert wait_confirmed(tables, 15)
        runner.stop()
        play(tables, 60, rng=random.Random(2))        # the hub is down
        hub = runner.start()                           # reads its store again
        assert wait_confirmed(tables, 15)
        for t in tables:
            assert hub_entries(runner, t.name) == journal_entries(t)
        assert hub.snapshot()[2] == room_from_journals(tables).standings()
    finally:
        for t in tables:
            t.close()
        runner.stop()


def test_the_table_shows_offline_while_its_network_is_cut_and_plays_on(amqtt: Amqtt,
                                                                       tmp_path: Path):
    proxy = TcpProxy(amqtt.port)
    runner = HubRunner(tmp_path, amqtt.url())
    runner.start()
    table = ClubTable("t1", parse_broker(proxy.url()), club_settings(0),
                      state_dir=tmp_path / "t1")
    try:
        wait_until(lambda: table.publisher.online, what="the table online")
        table.step()
        table.sim.rig.ctl.pump()
        assert "\u2298" not in table.sim.rig.view.header.detail
        proxy.cut()
        wait_until(lambda: not table.publisher.online, what="the table offline")
        for _ in range(40):                            # playing never waits
            table.step()
        table.sim.rig.ctl.pump()
        assert table.sim.rig.view.header.detail.startswith("\u2298")
        assert table.publisher.confirmed < table.seq
        proxy.mend()
        assert table.publisher.wait_confirmed(table.seq, 15)
        table.sim.rig.ctl.pump()
        assert "\u2298" not in table.sim.rig.view.header.detail
        assert hub_entries(runner, "t1") == journal_entries(table)
    finally:
        table.close()
        runner.stop()
        proxy.close()
