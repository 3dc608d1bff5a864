"""A match from the journal, written in the referee protocol (JSON Lines).

Each hand becomes a `new_hand` request (game, options, the match state before
the hand, the cards shown for trumps or the trump, the hands when the table
knew them) followed by one `play` request per card played, in order, as the
hand stands after every undo (taken-back plays and thrown-away hands are not
written). `cardtable referee` answers these lines with the same trick winners,
hand points and match states as the table had (docs/controller.md).

Steps that are not plays (a choice made with the buttons, a tapped card that
is not played) have no generic referee op and are not written: for games with
such steps the export holds the plays, and the referee's match state may
differ where those steps change it (docs/controller.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from table.controller.session import Hand, Selection, Session
from table.journal import Journal, JournalError
from table.ports import JournalEntry


@dataclass(frozen=True)
class MatchInfo:
    """A match found in the journal."""

    id: int
    game: str
    knowledge: str
    hands: int
    ended: str | None


def matches(journal: Journal) -> list[MatchInfo]:
    """Every match in the journal, oldest first."""
    out: dict[int, dict[str, Any]] = {}
    current: int | None = None
    for e in journal.entries():
        if e.kind == "start":
            current = e.seq
            out[e.seq] = {"game": e.data["game"], "knowledge": e.data["knowledge"],
                          "hands": 0, "ended": None}
        elif e.kind == "next" and current is not None:
            out[current]["hands"] += 1
        elif e.kind == "end" and current is not None:
            out[current]["ended"] = str(e.data.get("reason", ""))
            current = None
    return [MatchInfo(k, v["game"], v["knowledge"], v["hands"], v["ended"])
            for k, v in out.items()]


def hand_requests(hand: Hand, selection: Selection) -> list[dict[str, Any]]:
    """The referee requests of one hand as it stands."""
    flow = hand.flow
    if flow is None or flow.deal is None:
        return []
    req: dict[str, Any] = {"op": "new_hand", "game": selection.game,
                           "options": dict(selection.options),
                           "state": hand.state.to_json()}
    trump = flow.trump
    if flow.shown and trump is not None:
        try:
            _, used = hand.game.trump_from_shown(flow.shown)
            req["shown"] = [c.code for c in flow.shown[:used]]
        except ValueError:
            req["trump"] = trump
    elif trump is not None:
        req["trump"] = trump
    if flow.hands is not None:
        req["hands"] = [[c.code for c in h] for h in flow.hands]
    out = [req]
    for a in hand.actions:
        if a.event.kind == "played" and a.card is not None:
            out.append({"op": "play", "seat": a.seat, "card": a.card.code})
    return out


def export_match(journal: Journal, match_id: int | None = None) -> Iterator[dict[str, Any]]:
    """The referee requests of a match (default: the last one in the journal)."""
    found = matches(journal)
    if not found:
        raise JournalError(f"the journal {journal.path} has no match yet")
    if match_id is None:
        match_id = found[-1].id
    if match_id not in {m.id for m in found}:
        ids = ", ".join(str(m.id) for m in found)
        raise JournalError(f"there is no match {match_id} in the journal (matches: {ids})")
    start = journal.get(match_id)
    session = Session(Selection.from_json(start.data))
    session.apply(start)
    entries: Iterator[JournalEntry] = journal.entries(match_id)
    for e in entries:
        if e.kind in ("start", "select"):
            break
        match = session.match
        if match is None:
            break
        if e.kind in ("next", "end") and match.hand is not None:
            yield from hand_requests(match.hand, match.selection)
        session.apply(e)
        if e.kind == "end":
            return
    match = session.match
    if match is not None and match.hand is not None:
        yield from hand_requests(match.hand, match.selection)
