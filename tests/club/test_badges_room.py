"""Players known by their badges in the club room: per-player and
per-partnership standings, kept across tables and across hub restarts
(sessions), members' pages on the hub."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

from hw_mocks.simulator.club import ClubTable, make_tables, play, wait_confirmed
from table.club.config import parse_broker
from table.club.room import Room
from table.club.topics import Entry
from table.journal import Journal
from table.registry import member_id
from tests.club.services import Amqtt, HubRunner

FILICAU = [0, 0]             # club-sim's first game: Filicău, 4 players, seats 1+3 / 2+4


def journal(t: ClubTable) -> list[tuple[int, str, dict]]:
    j = Journal(t.journal_path)
    try:
        return [(e.seq, e.kind, dict(e.data)) for e in j.entries()]
    finally:
        j.close()


def room_of(tables: list[ClubTable]) -> Room:
    room = Room()
    for t in tables:
        for seq, kind, data in journal(t):
            room.apply(Entry(t.name, seq, kind, data))
    return room


def per_member_from_journals(tables: list[ClubTable]) -> dict[str, tuple[int, int, int]]:
    """(matches finished, hands, card points) of every member, read straight
    from the tables' journals: who sat where at each start, each hand's
    points per team (Filicău: seats 1+3 and 2+4), each match's end."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for t in tables:
        players: dict[int, str] = {}
        for _seq, kind, data in journal(t):
            if kind == "start":
                players = {int(s): p["member"] for s, p in (data.get("players") or {}).items()
                           if int(s) < 4}
            elif kind == "next":
                for seat, member in players.items():
                    out[member][1] += 1
                    out[member][2] += data["points"][seat % 2]
            elif kind == "end":
                for member in players.values():
                    out[member][0] += 1
                players = {}
    return {m: (v[0], v[1], v[2]) for m, v in out.items()}


def test_standings_by_player_and_partnership_follow_members_across_tables_per_game(
        tmp_path: Path):
    # two Filicău tables and a Sueca table share 14 members
    tables = make_tables(parse_broker("mqtt://127.0.0.1:9"), 3, state_root=tmp_path,
                         games=[0, 0, 1], members=14)
    try:
        play(tables, 700, rng=random.Random(5))
        room = room_of(tables)
        expected = per_member_from_journals(tables[:2])
    finally:
        for t in tables:
            t.close()
    rows = room.standings("player")
    # per game: the points of Filicău and Sueca never add up
    assert {r.game for r in rows} == {"Filicău", "Sueca"}
    games = [r.game for r in rows]
    assert games == sorted(games)                    # grouped by game, best first in each
    filicau = [r for r in rows if r.game == "Filicău"]
    got = {r.key_id.removeprefix("m:"): (r.matches, r.hands, r.points) for r in filicau}
    assert len(expected) >= 9                        # members moved between tables
    assert got == expected
    assert {r.name for r in rows} <= {f"Member {n}" for n in range(1, 15)}
    tables_of: dict[str, set[str]] = defaultdict(set)
    for t in room.tables.values():
        for m in t.matches:
            for p in m.players.values():
                tables_of[p.member].add(t.name)
    assert any(len(v) > 1 for v in tables_of.values())
    # partnerships: a pair of members, whatever seats or table they played at
    pairs = [r for r in room.standings("partnership") if r.game == "Filicău"]
    assert any(r.key_id.startswith("p:") for r in pairs)
    for r in pairs:
        if r.key_id.startswith("p:"):
            ids = r.key_id[2:].split("+")
            assert len(ids) == 2 and ids == sorted(ids)
            assert r.hands <= min(expected[i][1] for i in ids)
    # by table: every table's seats, as before badges existed
    assert {r.name.split()[0] for r in room.standings("table")} == {"table-1", "table-2",
                                                                  "table-3"}


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_hub_keeps_each_members_results_across_sessions(amqtt: Amqtt, tmp_path: Path):
    tables = make_tables(parse_broker(amqtt.url()), 2, state_root=tmp_path, games=FILICAU,
                         members=6)
    runner = HubRunner(tmp_path, amqtt.url(), web=True)
    try:
        runner.start()
        play(tables, 260, rng=random.Random(7))
        assert wait_confirmed(tables, 20)
        status, body = get(runner.url + "/api/room?by=player")
        assert status == 200
        mine = room_of(tables).standings("player")
        assert json.loads(body)["standings"] == [asdict(s) for s in mine]
        first = {r.key_id: r.hands for r in mine}
        assert get(runner.url + "/api/room?by=nonsense")[0] == 400
        status, page = get(runner.url + "/players")
        assert status == 200
        for n in range(1, 7):
            assert f"Member {n}" in page

        runner.stop()                                    # the evening is over
        play(tables, 160, rng=random.Random(8))          # the next session, hub down at first
        runner.start()
        assert wait_confirmed(tables, 20)
        mine = room_of(tables).standings("player")
        after = {r.key_id: r.hands for r in mine}
        assert set(first) <= set(after)
        assert all(after[k] >= v for k, v in first.items())
        assert sum(after.values()) > sum(first.values())
        status, body = get(runner.url + "/api/room?by=player")
        assert json.loads(body)["standings"] == [asdict(s) for s in mine]

        who = member_id("BADC0001")
        status, page = get(f"{runner.url}/player/{who}")
        assert status == 200 and "<h1>Member 1</h1>" in page
        row = next(r for r in mine if r.key_id == f"m:{who}")
        assert f"<td>{row.matches}</td><td>{row.won}</td><td>{row.hands}</td>" in page
        assert page.count("data-result=") == sum(
            1 for t in room_of(tables).tables.values() for m in t.matches
            if any(p.member == who for p in m.players.values()))
        assert get(f"{runner.url}/player/0123456789ab")[0] == 404
        status, tv = get(runner.url + "/")
        assert "<th>team</th>" in tv and "Member" in tv   # partnerships of members
    finally:
        for t in tables:
            t.close()
        runner.stop()
