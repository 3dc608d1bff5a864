"""The players' history: past matches and their hands, read from the journal.

`matches(journal)` reads every match the journal holds (oldest first) as a
`MatchRecord`: when it started, the game, the seats and teams, each finished
hand (`HandRecord`: its dealer, points per team, the standing after it) and
how it ended. Seats are numbered for people, 1 to n; teams are named by
their seats ("1+3"). `cardtable history` prints them (table.commands.history).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.game import Game
from engine.match import Standing
from table.journal import Journal, JournalError


@dataclass(frozen=True)
class HandRecord:
    number: int
    dealer: int | None
    points: tuple[int, ...]
    standing: str


@dataclass
class MatchRecord:
    id: int
    started: float | None
    game: str
    title: str
    knowledge: str
    options: dict[str, Any]
    sides: list[str]
    hands: list[HandRecord] = field(default_factory=list)
    ended: str | None = None
    result: str = ""


def sides(game: Game) -> list[str]:
    """The teams named by their seats ("1+3", "2+4"), or each seat alone."""
    groups: dict[int, list[str]] = {}
    try:
        for s in range(game.players):
            groups.setdefault(game.team_of(s), []).append(str(s + 1))
    except EngineError:
        return [str(s + 1) for s in range(game.players)]
    return ["+".join(groups[t]) for t in sorted(groups)]


def standing_text(names: list[str], standing: Standing) -> str:
    parts: list[str] = []
    if standing.has_status and standing.masters is None:
        parts.append("even")
    elif standing.has_status and standing.masters is not None and len(names) == 2:
        parts.append(f"{names[standing.masters]} masters")
    if standing.score:
        parts.append("score " + ":".join(str(x) for x in standing.score))
    return ", ".join(parts)


def result_text(names: list[str], state: Any, ended: str | None) -> str:
    """How the match stands or ended, in a few words."""
    data = state.to_json()
    if data.get("over"):
        w = data.get("winner")
        if isinstance(w, int) and 0 <= w < len(names):
            return f"{names[w]} won"
        return "a draw"
    now = standing_text(names, state.standing())
    if ended is None:
        return "playing" + (f" ({now})" if now else "")
    why = {"players": "ended by the players", "reset": "reset by the admin"}.get(
        ended, f"ended ({ended})" if ended else "ended")
    return why + (f" ({now})" if now else "")


def matches(journal: Journal) -> list[MatchRecord]:
    """Every match in the journal, oldest first (see the module docstring)."""
    from engine.games import get_game

    out: list[MatchRecord] = []
    current: MatchRecord | None = None
    game: Game | None = None
    state: Any = None
    for e in journal.entries():
        if e.kind == "start":
            try:
                game = get_game(e.data["game"], e.data.get("options") or {})
                state = game.state_from_json(e.data["state"])
            except (EngineError, KeyError, TypeError, ValueError) as exc:
                raise JournalError(f"journal entry {e.seq} (start) cannot be read: "
                                   f"{exc}") from None
            current = MatchRecord(e.seq, journal.written_at(e.seq), game.id, game.title,
                                  str(e.data.get("knowledge", "")),
                                  dict(e.data.get("options") or {}), sides(game))
            current.result = result_text(current.sides, state, None)
            out.append(current)
        elif e.kind == "next" and current is not None and game is not None:
            before = state
            try:
                state = game.state_from_json(e.data["state"])
            except (EngineError, KeyError, TypeError, ValueError) as exc:
                raise JournalError(f"journal entry {e.seq} (next) cannot be read: "
                                   f"{exc}") from None
            current.hands.append(HandRecord(
                int(e.data.get("hand", len(current.hands) + 2)) - 1,
                getattr(before, "dealer", None),
                tuple(int(p) for p in e.data.get("points", ())),
                standing_text(current.sides, state.standing())))
            current.result = result_text(current.sides, state, None)
        elif e.kind == "end" and current is not None:
            current.ended = str(e.data.get("reason", ""))
            current.result = result_text(current.sides, state, current.ended)
            current = game = None
    return out


