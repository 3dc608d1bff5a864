"""The room as the hub sees it: each table's matches, rebuilt from its
entries with the engine.

Every entry goes through the table's own replay (`table.controller.session.
Session.apply`, the code that resumes a table from its journal), so the hub
trusts the rules, not the numbers a table sends: a `next` entry whose match
state the replay does not give is refused, and the table is shown as
"cannot be followed" from there on. Finished hands are kept with their
tricks (a hand in play is never shown, only its trick count); standings are
summed per partnership (the seats of a team at a table).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.games.base import Game
from table.club.topics import Entry
from table.controller.session import Selection, Session
from table.journal import JournalError
from table.ports import JournalEntry


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


def team_names(game: Game) -> tuple[str, ...]:
    """"1+3", "2+4": the seats (from 1) of each fixed team; every seat alone
    when the game has no fixed teams."""
    groups: dict[int, list[str]] = {}
    try:
        for s in range(game.players):
            groups.setdefault(game.team_of(s), []).append(str(s + 1))
    except EngineError:
        return tuple(str(s + 1) for s in range(game.players))
    return tuple("+".join(groups[t]) for t in sorted(groups))


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

    def __init__(self, name: str) -> None:
        self.name = name
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
        match = self.session.match
        if entry.kind == "start" and match is not None:
            self.matches.append(MatchRecord(match.id, match.game.id, match.game.title,
                                            team_names(match.game)))
            self.matches[-1].status = status_text(self.matches[-1].teams,
                                                  match.state.to_json())
        elif entry.kind == "next" and match is not None and match.last is not None \
                and self.matches:
            rec = self.matches[-1]
            state = match.last.after.to_json()
            rec.status = status_text(rec.teams, state)
            rec.hands.append(HandRecord(match.last.number, tuple(match.last.result.points),
                                        _tricks(before), rec.status))
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


def _plays(hand: Any) -> tuple[list[tuple[int, str]], list[Any]]:
    plays = [(a.seat, a.card.code) for a in hand.actions
             if a.event.kind == "played" and a.card is not None]
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


@dataclass
class Standing:
    """A partnership's line in the standings."""

    name: str
    matches: int = 0
    won: int = 0
    hands: int = 0
    hands_won: int = 0
    points: int = 0

    def key(self) -> tuple[int, int, int, str]:
        return (-self.won, -self.hands_won, -self.points, self.name)


def standings(tables: Iterable[TableRoom]) -> list[Standing]:
    """Every partnership's results, best first: matches won, hands won
    (most card points in the hand), card points."""
    rows: dict[str, Standing] = {}
    for t in tables:
        for m in t.matches:
            names = [f"{t.name} {n}" for n in m.teams]
            for name in names:
                rows.setdefault(name, Standing(name))
            done = m.winner is not None or m.ended is not None
            for i, name in enumerate(names):
                if done:
                    rows[name].matches += 1
                if m.winner == i:
                    rows[name].won += 1
            for h in m.hands:
                if len(h.points) != len(names):
                    continue
                best = max(h.points)
                for i, name in enumerate(names):
                    rows[name].hands += 1
                    rows[name].points += h.points[i]
                    if h.points[i] == best and h.points.count(best) == 1:
                        rows[name].hands_won += 1
    return sorted(rows.values(), key=Standing.key)


class Room:
    """Every table of the room (see the module docstring)."""

    def __init__(self) -> None:
        self.tables: dict[str, TableRoom] = {}

    def table(self, name: str) -> TableRoom:
        t = self.tables.get(name)
        if t is None:
            t = self.tables[name] = TableRoom(name)
        return t

    def apply(self, entry: Entry) -> None:
        self.table(entry.table).apply(entry)

    def standings(self) -> list[Standing]:
        return standings(self.tables.values())
