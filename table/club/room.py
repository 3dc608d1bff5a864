"""The room as the hub sees it: each table's matches, rebuilt from its
entries with the engine.

Every entry goes through the table's own replay (`table.controller.session.
Session.apply`, the code that resumes a table from its journal), so the hub
trusts the rules, not the numbers a table sends: a `next` entry whose match
state the replay does not give is refused, and the table is shown as
"cannot be followed" from there on. Finished hands are kept with their
tricks (a hand in play is never shown, only its trick count).

Standings are kept per game (card points of different games do not add up)
and can be by partnership (default), by player or by table: members known by
their badges (the `players` of a match's start) are followed across tables
and across sessions (the hub rebuilds everything from its stored entries);
a team without badges is its table's seats ("T1 1+3").

A table's entries belong to its journal (`Entry.journal`): each journal is
followed on its own (`Room.streams`), so a rebuilt table with the same name
starts again from its first entry and an entry of another journal (forged,
or of an older table) never stops the table being followed. The room shows
each name's newest journal that can be followed; the standings and the
members' pages count every journal.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.games.base import Game
from engine.messages import team_label
from table.club.topics import Entry
from table.controller.session import Player, Selection, Session
from table.journal import JournalError
from table.ports import JournalEntry

log = logging.getLogger("cardtable.hub")


@dataclass(frozen=True)
class TrickRecord:
    number: int
    plays: tuple[tuple[int, str], ...]   # (seat, card code) in the order played
    winner: int
    points: int


@dataclass(frozen=True)
class HandRecord:
    number: int
    points: tuple[int, ...]          # per team (per seat when teams are not fixed)
    tricks: tuple[TrickRecord, ...]
    status: str                      # the match status after the hand, in words
    #: Why the hand was thrown in and dealt again ("no_binding": nobody bound
    #: in Filcău-20), None for a hand played out: a thrown-in hand is not a
    #: hand of the standings.
    redeal: str | None = None


@dataclass
class MatchRecord:
    id: int
    game: str
    title: str
    teams: tuple[str, ...]
    hands: list[HandRecord] = field(default_factory=list)
    status: str = ""
    ended: str | None = None
    winner: int | None = None
    #: The members seated by their badges (seat -> player), if any.
    players: dict[int, Player] = field(default_factory=dict)
    seats: tuple[tuple[int, ...], ...] = ()     # the seats of each team, from 0
    table: str = ""


def team_seats(game: Game) -> tuple[tuple[int, ...], ...]:
    """The seats (from 0) of each fixed team; every seat alone without teams."""
    groups: dict[int, list[int]] = {}
    try:
        for s in range(game.players):
            groups.setdefault(game.team_of(s), []).append(s)
    except EngineError:
        return tuple((s,) for s in range(game.players))
    return tuple(tuple(groups[t]) for t in sorted(groups))


def team_names(game: Game) -> tuple[str, ...]:
    """"1+3", "2+4": the seats (from 1) of each fixed team; every seat alone
    when the game has no fixed teams."""
    return tuple(team_label(seats) for seats in team_seats(game))


def status_text(teams: tuple[str, ...], state: dict[str, Any]) -> str:
    """The match status in words: masters / even, the score, the winner."""
    parts: list[str] = []
    status = state.get("status")
    if status == "even":
        parts.append("even")
    elif isinstance(status, str) and status.startswith("masters:"):
        try:
            t = int(status.split(":")[1])
            parts.append(f"{teams[t]} masters")
        except (ValueError, IndexError):
            parts.append(status)
    elif isinstance(status, str):
        parts.append(status)
    servant = state.get("servant")
    if isinstance(servant, int):
        parts.append(f"Servant: seat {servant + 1}")
    score = state.get("score")
    if isinstance(score, list) and score and all(isinstance(x, int) for x in score):
        parts.append("score " + ":".join(str(x) for x in score))
    winner = state.get("winner")
    if isinstance(winner, int) and 0 <= winner < len(teams):
        parts.append(f"{teams[winner]} won")
    return ", ".join(parts)


class TableRoom:
    """One table: its replay and what it has shown so far."""

    def __init__(self, name: str, journal: str = "") -> None:
        self.name = name
        self.journal = journal
        self.session = Session(Selection("filicau"))
        self.matches: list[MatchRecord] = []
        self.mark = 0
        self.error: str | None = None
        self.online: bool | None = None
        #: Every finished hand's deal and the match state before it, by
        #: (match id, hand number): what the phone page's review solves.
        self.deals: dict[tuple[int, int], tuple[Any, Any]] = {}

    # ----- following the entries --------------------------------------------------------

    def apply(self, entry: Entry) -> None:
        """Apply the table's next entry (entries come in order)."""
        self.mark = entry.seq
        if self.error is not None:
            return
        je = JournalEntry(entry.seq, entry.kind, entry.data)
        match = self.session.match
        before = None
        deal = None
        if entry.kind == "next" and match is not None and match.hand is not None:
            before = _plays(match.hand)
            deal = match.hand.flow.deal if match.hand.flow is not None else None
        try:
            self.session.apply(je)
        except JournalError as exc:
            self.error = str(exc)
            return
        except Exception as exc:  # an entry the replay did not foresee: never the hub's end
            log.error("hub: table %s cannot be followed from entry %d: %s: %s", self.name,
                      entry.seq, type(exc).__name__, exc)
            self.error = f"entry {entry.seq} cannot be replayed ({type(exc).__name__})"
            return
        match = self.session.match
        if entry.kind == "start" and match is not None:
            self.matches.append(MatchRecord(match.id, match.game.id, match.game.title,
                                            team_names(match.game),
                                            players=dict(match.players),
                                            seats=team_seats(match.game), table=self.name))
            self.matches[-1].status = status_text(self.matches[-1].teams,
                                                  match.state.to_json())
        elif entry.kind == "next" and match is not None and match.last is not None \
                and self.matches:
            rec = self.matches[-1]
            state = match.last.after.to_json()
            rec.status = status_text(rec.teams, state)
            redeal = match.last.result.extra.get("redeal")
            rec.hands.append(HandRecord(match.last.number, tuple(match.last.result.points),
                                        _tricks(before), rec.status,
                                        str(redeal) if redeal else None))
            if deal is not None:
                self.deals[(rec.id, match.last.number)] = (deal, match.last.before)
            if match.last.after.over:
                rec.winner = match.last.after.winner
        elif entry.kind == "end" and self.matches:
            self.matches[-1].ended = str(entry.data.get("reason", ""))

    # ----- what the pages show -----------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The table's line on the scoreboard."""
        match = self.session.match
        rec = self.matches[-1] if self.matches else None
        out: dict[str, Any] = {"name": self.name, "online": self.online, "mark": self.mark,
                               "error": self.error, "game": "", "status": "",
                               "hands": 0, "trick": None, "tricks": None, "state": "idle"}
        if rec is not None:
            out.update(game=rec.title, status=rec.status, hands=len(rec.hands))
        if match is None:
            out["state"] = "ended" if rec is not None else "idle"
            return out
        hand = match.hand
        if hand is None:
            out["state"] = "over"
        elif hand.flow is None or hand.flow.deal is None:
            out["state"] = "dealing"
        else:
            out["state"] = "playing"
            out["trick"] = len(hand.flow.deal.tricks)
            out["tricks"] = match.game.tricks_per_hand
        return out


def _into_trick(action: Any) -> bool:
    """An action that put a card into a trick: a card played, or the Over
    that leads a Filcău-20 fris trick (a "chosen" event naming the fris)."""
    if action.card is None:
        return False
    data = action.event.data or {}
    return bool(action.event.kind == "played" or "fris" in data)


def _plays(hand: Any) -> tuple[list[tuple[int, str]], list[Any]]:
    plays = [(a.seat, a.card.code) for a in hand.actions if _into_trick(a)]
    deal = hand.flow.deal if hand.flow is not None else None
    return plays, list(deal.tricks) if deal is not None else []


def _tricks(before: tuple[list[tuple[int, str]], list[Any]] | None) -> tuple[TrickRecord, ...]:
    if before is None:
        return ()
    plays, tricks = before
    out: list[TrickRecord] = []
    i = 0
    for t in tricks:
        n = len(t.cards)
        out.append(TrickRecord(t.number, tuple(plays[i:i + n]), t.winner, t.points))
        i += n
    return tuple(out)


#: How the standings group results.
STANDINGS_BY = ("partnership", "player", "table")


@dataclass
class Standing:
    """A line of the standings: a partnership, a player or a table's team, in one game."""

    name: str
    game: str = ""
    matches: int = 0
    won: int = 0
    hands: int = 0
    hands_won: int = 0
    points: int = 0
    key_id: str = ""         # what the line follows (a member, members, a table's seats)

    def key(self) -> tuple[str, int, int, int, str]:
        return (self.game, -self.won, -self.hands_won, -self.points, self.name)


def _competitors(m: MatchRecord, team: int, by: str) -> list[tuple[str, str]]:
    """Who a team's results count for: (key, name) pairs."""
    seats = m.seats[team] if team < len(m.seats) else ()
    table_team = (f"t:{m.table}:{m.teams[team]}", f"{m.table} {m.teams[team]}")
    if by == "table":
        return [table_team]
    members = [m.players[s] for s in seats if s in m.players]
    if by == "player":
        return [(f"m:{p.member}", p.name) for p in members]
    if seats and len(members) == len(seats):
        ids = sorted(p.member for p in members)
        return [("p:" + "+".join(ids), " & ".join(sorted(p.name for p in members)))]
    return [table_team]


def standings(tables: Iterable[TableRoom], by: str = "partnership") -> list[Standing]:
    """Every partnership's (player's, table team's) results per game, best
    first within a game: matches won, hands won (most card points in the
    hand), card points."""
    if by not in STANDINGS_BY:
        raise ValueError(f"standings by {by!r}: choose one of {', '.join(STANDINGS_BY)}")
    rows: dict[tuple[str, str], Standing] = {}
    for t in tables:
        for m in t.matches:
            teams = [_competitors(m, i, by) for i in range(len(m.teams))]
            done = m.winner is not None or m.ended is not None
            for i, who in enumerate(teams):
                for key, name in who:
                    row = rows.setdefault((m.title, key), Standing(name, m.title, key_id=key))
                    row.name = name          # the newest name a member goes by
                    if done:
                        row.matches += 1
                    if m.winner == i:
                        row.won += 1
            for h in m.hands:
                if len(h.points) != len(teams) or h.redeal is not None:
                    continue
                best = max(h.points)
                for i, who in enumerate(teams):
                    for key, _name in who:
                        row = rows[(m.title, key)]
                        row.hands += 1
                        row.points += h.points[i]
                        if h.points[i] == best and h.points.count(best) == 1:
                            row.hands_won += 1
    return sorted(rows.values(), key=Standing.key)


@dataclass(frozen=True)
class PlayerMatch:
    """A member's match, for their page."""

    table: str
    match: MatchRecord
    seat: int
    team: int

    @property
    def partners(self) -> list[str]:
        seats = self.match.seats[self.team] if self.team < len(self.match.seats) else ()
        return [self.match.players[s].name if s in self.match.players else f"seat {s + 1}"
                for s in seats if s != self.seat]

    @property
    def result(self) -> str:
        if self.match.winner is not None:
            return "won" if self.match.winner == self.team else "lost"
        return "stopped" if self.match.ended is not None else "playing"


def player_matches(tables: Iterable[TableRoom], member: str) -> list[PlayerMatch]:
    """Every match a member played (by their badge), oldest table first."""
    out: list[PlayerMatch] = []
    for t in tables:
        for m in t.matches:
            for seat, p in m.players.items():
                if p.member != member:
                    continue
                team = next((i for i, seats in enumerate(m.seats) if seat in seats), 0)
                out.append(PlayerMatch(t.name, m, seat, team))
    return out


def members(tables: Iterable[TableRoom]) -> dict[str, str]:
    """Every member seen in the room: id -> the newest name."""
    out: dict[str, str] = {}
    for t in tables:
        for m in t.matches:
            for p in m.players.values():
                out[p.member] = p.name
    return out


class Room:
    """Every table of the room (see the module docstring)."""

    def __init__(self) -> None:
        #: Every journal followed, by (table, journal), the oldest first.
        self.streams: dict[tuple[str, str], TableRoom] = {}
        #: What each table's name shows: its newest journal that can be followed.
        self.tables: dict[str, TableRoom] = {}
        self._by_name: dict[str, list[TableRoom]] = {}

    def table(self, name: str, journal: str | None = None) -> TableRoom:
        """The table `name` as shown (`journal` None), or its journal `journal`
        (made when it is new)."""
        if journal is None:
            shown = self.tables.get(name)
            if shown is not None:
                return shown
            journal = ""
        t = self.streams.get((name, journal))
        if t is None:
            t = self.streams[(name, journal)] = TableRoom(name, journal)
            streams = self._by_name.setdefault(name, [])
            for empty in [s for s in streams if s.mark == 0]:
                # a table heard only by its status so far: its journal now speaks
                streams.remove(empty)
                del self.streams[(name, empty.journal)]
                t.online = empty.online
            streams.append(t)
            self._show(name)
        return t

    def _show(self, name: str) -> None:
        streams = self._by_name[name]
        followed = [t for t in streams if t.error is None]
        playing = [t for t in followed if t.matches]
        shown = (playing or followed or streams)[-1]
        old = self.tables.get(name)
        if old is not None and old is not shown:
            shown.online = old.online if shown.online is None else shown.online
        self.tables[name] = shown

    def apply(self, entry: Entry) -> None:
        t = self.table(entry.table, entry.journal)
        had = (t.error, bool(t.matches))
        t.apply(entry)
        if (t.error, bool(t.matches)) != had or self.tables.get(entry.table) is not t:
            self._show(entry.table)

    def adopt(self, name: str, journal: str) -> None:
        """The table's old journal ("") is its journal `journal` (see
        `EntryStore.adopt`)."""
        t = self.streams.pop((name, ""), None)
        if t is not None:
            t.journal = journal
            self.streams[(name, journal)] = t

    def set_online(self, name: str, online: bool) -> None:
        for t in self._by_name.get(name) or [self.table(name)]:
            t.online = online

    def every_table(self) -> list[TableRoom]:
        """Every journal of every table (the standings and members' pages count them all)."""
        return list(self.streams.values())

    def standings(self, by: str = "partnership") -> list[Standing]:
        return standings(self.streams.values(), by)
