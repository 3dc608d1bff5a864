"""Simulated tables in a club room: bots play at fake tables whose
journals are published to a hub (`cardtable club-sim`, `cardtable sim
--club`, the club tests and benchmark).

Each `ClubTable` is the real controller on fake hardware (`SimTable`) with
the real publisher (`table.club.publisher`) attached: nothing about the
room is faked but the players.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hw_mocks.simulator.driver import SimTable
from hw_mocks.simulator.headless import demo_settings
from table.club.config import Broker, ClubConfig
from table.club.publisher import Publisher, attach, follow
from table.controller.loop import JOURNAL_FILE
from table.registry import member_id
from table.settings import TableSettings

#: The games club-sim deals out, table after table.
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("filicau", {"match_length": 2}), ("sueca", {}), ("filko", {}), ("filcau20", {}),
)


class ClubSimTable(SimTable):
    """A simulated table with the club publisher attached (also after a
    power cut: the new controller tells the same publisher)."""

    def __init__(self, settings: TableSettings, club: ClubConfig, *,
                 resend_after: float = 3.0, **kw: Any) -> None:
        super().__init__(settings, **kw)
        self.club = club
        self.publisher: Publisher = attach(self.rig.ctl, club, self.journal_path,
                                           resend_after=resend_after)

    @property
    def journal_path(self) -> Path:
        return self.rig.state_dir / JOURNAL_FILE

    def power_cut(self) -> None:
        super().power_cut()
        follow(self.rig.ctl, self.publisher)

    def close(self) -> None:
        self.publisher.stop()
        super().close()


def badge_uid(number: int) -> str:
    """The made-up badge UID of simulated member `number` (4 bytes)."""
    return f"BADC{number % 65536:04X}"


class MemberPool:
    """The club's members for `club-sim --members N`: each has a badge
    enrolled at every table; a member sits at one table at a time."""

    def __init__(self, count: int, rng: random.Random) -> None:
        self.members = [(badge_uid(n), f"Member {n}") for n in range(1, count + 1)]
        self.busy: set[str] = set()
        self.rng = rng

    def take(self, k: int) -> list[str]:
        """The badges of `k` members not playing elsewhere (fewer if too few are free)."""
        free = [uid for uid, _ in self.members if uid not in self.busy]
        chosen = self.rng.sample(free, min(k, len(free)))
        self.busy.update(chosen)
        return chosen

    def release(self, uids: Sequence[str]) -> None:
        self.busy.difference_update(uids)


class ClubTable:
    """A bot table publishing to the club (see the module docstring). With a
    `MemberPool` the bots' seats are taken by members tapping their badges
    before each match."""

    def __init__(self, name: str, broker: Broker, settings: TableSettings, *, seed: int = 1,
                 state_dir: str | Path | None = None, resend_after: float = 3.0,
                 members: MemberPool | None = None) -> None:
        self.name = name
        self.sim = ClubSimTable(settings, ClubConfig(broker, name), seed=seed,
                                state_dir=state_dir, resend_after=resend_after)
        self.publisher = self.sim.publisher
        self.matches = 0
        self.members = members
        self.seated: list[str] = []
        if members is not None:
            registry = self.sim.rig.registry
            for uid, member_name in members.members:
                if registry.badge(uid) is None:
                    registry.enroll_badge(uid, member_name)

    def sit_members(self) -> None:
        """Members tap their badges at the seats of the next match."""
        if self.members is None:
            return
        self.members.release(self.seated)
        players = self.sim.rig.session.selection.make_game().players
        self.seated = self.members.take(players)
        sitting = self.sim.rig.session.players
        for seat, uid in enumerate(self.seated):
            there = sitting.get(seat)
            if there is None or there.member != member_id(uid):   # the same badge: stands up
                self.sim.rig.player.tap(seat, uid)
        self.sim.rig.player.pause(10)       # the notices go

    @property
    def journal_path(self) -> Path:
        return self.sim.journal_path

    @property
    def seq(self) -> int:
        return int(self.sim.rig.session.seq)

    def step(self) -> bool:
        """One move of the bots; a finished match is followed by a new one.
        False when nothing could be done."""
        sim = self.sim
        if sim.state == "match_over":
            sim.rig.press("ok")
            self.matches += 1
        if sim.state == "ready" or sim.match is None:
            self.sit_members()
            sim.start()
            return True
        return sim.advance()

    def power_cut(self) -> None:
        """Pull the table's plug: it restarts from its journal and publishes on."""
        self.sim.power_cut()

    def close(self) -> None:
        self.sim.close()


def club_demo(settings: TableSettings, club: ClubConfig, seed: int = 1,
              state_dir: Path | None = None, timeout: float = 30.0) -> tuple[ClubSimTable, bool]:
    """`cardtable sim --demo --headless --club URL`: bots play a match at a
    table of the room; True when the hub confirmed every entry."""
    sim = ClubSimTable(settings, club, seed=seed, state_dir=state_dir)
    sim.start()
    sim.run_bots()
    return sim, sim.publisher.wait_confirmed(int(sim.rig.session.seq), timeout)


def club_config(url: str, name: str) -> ClubConfig:
    """The club of `--club URL` for a table called `name` (ValueError: why not)."""
    from table.club.config import TABLE_NAME, parse_broker

    if not TABLE_NAME.match(name):
        raise ValueError(f"--table-name must be 1..40 letters, digits, - or _, not {name!r}")
    return ClubConfig(parse_broker(url), name)


def club_settings(index: int) -> TableSettings:
    game, options = GAMES[index % len(GAMES)]
    return demo_settings(game, options, "open")


def make_tables(broker: Broker, count: int, *, seed: int = 1, prefix: str = "table",
                state_root: Path | None = None, games: Sequence[int] | None = None,
                resend_after: float = 3.0, members: int = 0) -> list[ClubTable]:
    """`count` bot tables; `members` > 0: that many members with badges take the seats."""
    pool = MemberPool(members, random.Random(seed)) if members > 0 else None
    tables = []
    for i in range(count):
        state = state_root / f"{prefix}-{i + 1}" if state_root is not None else None
        settings = club_settings(games[i] if games is not None else i)
        tables.append(ClubTable(f"{prefix}-{i + 1}", broker, settings, seed=seed + i,
                                state_dir=state, resend_after=resend_after, members=pool))
    return tables


def play(tables: Sequence[ClubTable], moves: int, *, pace: float = 0.0,
         rng: random.Random | None = None,
         each: Callable[[ClubTable], None] | None = None) -> int:
    """`moves` bot moves in all, spread over the tables at random (one table
    after another, as a room plays); `pace` seconds between moves."""
    rng = rng or random.Random(0)
    done = 0
    for _ in range(moves):
        t = rng.choice(tables)
        if t.step():
            done += 1
            if each is not None:
                each(t)
        if pace:
            time.sleep(pace)
    return done


def wait_confirmed(tables: Sequence[ClubTable], timeout: float) -> bool:
    """Wait until the hub holds every table's whole journal."""
    end = time.monotonic() + timeout
    for t in tables:
        if not t.publisher.wait_confirmed(t.seq, max(0.0, end - time.monotonic())):
            return False
    return True
