"""A match from the journal, written in the referee protocol (JSON Lines).

Each hand becomes a `new_hand` request (game, options, the match state before
the hand, the cards shown for trumps or the trump, the hands when the table
knew them) followed by one `play` request per card played, in order, as the
hand stands after every undo (taken-back plays and thrown-away hands are not
written). `cardtable referee` answers these lines with the same trick winners,
hand points and match states as the table had (docs/controller.md).

Steps that are not plays (a choice made with the buttons, a card tapped that
is not played: a call, a bid, a draw) have no generic referee op: a hand with
such steps is written with its plays only and flagged (`ExportedHand.note`),
since the game's own referee ops are needed to replay it; `cardtable export`
says so on standard error (docs/controller.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from table.controller.session import Hand, Selection, Session
from table.journal import Journal, JournalError
from table.ports import JournalEntry


@dataclass(frozen=True)
class ExportedHand:
    """One hand's requests; `note` (when not empty) says why the generic
    protocol cannot replay it exactly."""

    number: int
    requests: list[dict[str, Any]]
    note: str = ""


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


def hand_requests(hand: Hand, selection: Selection) -> ExportedHand:
    """The referee requests of one hand as it stands."""
    flow = hand.flow
    other = [a.choice or (a.card.code if a.card else a.event.kind) for a in hand.actions
             if a.event.kind not in ("played", "shown", "trump")]
    if flow is None or flow.deal is None:
        note = ""
        if other:
            note = (f"hand {hand.number} had no play ({', '.join(other[:4])}): "
                    f"{selection.game}'s own referee ops replay it")
        return ExportedHand(hand.number, [], note)
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
    note = ""
    if other:
        note = (f"hand {hand.number} had steps the generic referee protocol does not carry "
                f"({', '.join(other[:4])}{', ...' if len(other) > 4 else ''}): only its "
                f"plays are written; {selection.game}'s own referee ops replay it")
    return ExportedHand(hand.number, out, note)


def export_hands(journal: Journal, match_id: int | None = None) -> Iterator[ExportedHand]:
    """The hands of a match (default: the last one in the journal), in order."""
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
            yield hand_requests(match.hand, match.selection)
        session.apply(e)
        if e.kind == "end":
            return
    match = session.match
    if match is not None and match.hand is not None:
        yield hand_requests(match.hand, match.selection)


def export_match(journal: Journal, match_id: int | None = None) -> Iterator[dict[str, Any]]:
    """The referee requests of a match, every hand's one after the other."""
    for hand in export_hands(journal, match_id):
        yield from hand.requests
