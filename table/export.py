"""A match from the journal, written in the referee protocol (JSON Lines).

Each hand is rebuilt from the journal as the table recorded it (a
`RecordedHand`: the match state before it, its `HandFlow`, and every action it
kept, each with the step it answered; taken-back actions and thrown-away hands
are not there) and turned into referee requests that `cardtable referee`
answers with the same trick winners, hand points and match states as the
table had (docs/controller.md).

How a hand becomes requests is the game's business: a game whose hand has
steps that are not plays (a cut, a call, a binding, a fris, a draw, a meld, a
Servant's choice) exports `EXPORT(hand: RecordedHand) -> list[request]` from
its referee extras module (`table.referee.extras.export_hook`), written with
its own referee ops. Any other game gets the generic requests: a `new_hand`
(game, options, the match state before the hand, the cards shown for trumps
or the trump, the hands when the table knew them) and a `play` per card
played. A hand of such a game with other steps is written with its plays only
and flagged (`ExportedHand.note`); `cardtable export` says so on standard
error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.flow import HandFlow, Step
from engine.games.base import Game, MatchState
from table.controller.session import Action, Hand, Selection, Session
from table.journal import Journal, JournalError
from table.ports import JournalEntry
from table.referee.extras import export_hook


@dataclass(frozen=True)
class RecordedAction:
    """An action the hand kept, with the step it answered."""

    step: Step
    action: Action

    @property
    def seat(self) -> int:
        return self.action.seat

    @property
    def kind(self) -> str:
        """`card` (a card read) or `choose` (a button choice)."""
        return self.action.kind

    @property
    def prompt(self) -> str:
        return self.step.prompt

    @property
    def played(self) -> bool:
        """Is this a card played to a trick?"""
        return self.action.event.kind == "played" and self.action.card is not None

    @property
    def code(self) -> str:
        """The card's code (a card action)."""
        assert self.action.card is not None
        return self.action.card.code

    @property
    def choice(self) -> str:
        """The choice made (a choose action)."""
        return str(self.action.choice)


@dataclass(frozen=True)
class RecordedHand:
    """One hand as the table recorded it: what a game's `EXPORT` hook reads.

    `flow` is the hand's `HandFlow` as it stands (finished, or where the
    table stopped); `actions` are the actions it kept, in order. Cards the
    table took in by itself (the shown cards of a `dealt` table) are not
    actions: they are in `flow` (`flow.shown`, `flow.trump`)."""

    number: int
    game: Game
    options: dict[str, Any]
    state: MatchState
    knowledge: str
    flow: HandFlow
    actions: tuple[RecordedAction, ...]

    @property
    def game_id(self) -> str:
        return self.game.id

    def hands(self) -> list[list[str]] | None:
        """Every seat's cards when the table knew them (scan / dealt)."""
        if self.flow.hands is None:
            return None
        return [[c.code for c in h] for h in self.flow.hands]

    def new_hand(self, **fields: Any) -> dict[str, Any]:
        """A `new_hand` request for this hand: game, options, the match state
        before it, then `fields`, then `hands` when the table knew them."""
        req: dict[str, Any] = {"op": "new_hand", "game": self.game_id,
                               "options": dict(self.options), "state": self.state.to_json()}
        req.update(fields)
        hands = self.hands()
        if hands is not None:
            req["hands"] = hands
        return req

    def op(self, name: str, **fields: Any) -> dict[str, Any]:
        """A request of one of the game's own ops on the hand in play."""
        return {"op": name, "game": self.game_id, **fields}


#: A game's export hook: a recorded hand -> the referee requests that replay it.
ExportHook = Callable[[RecordedHand], list[dict[str, Any]]]


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


def recorded(hand: Hand, selection: Selection, steps: Sequence[Step]) -> RecordedHand | None:
    """The hand as a `RecordedHand` (None while the table is still learning
    its cards). `steps[i]` is the step `hand.actions[i]` answered."""
    if hand.flow is None:
        return None
    if len(steps) != len(hand.actions):
        raise JournalError(f"hand {hand.number}: {len(hand.actions)} actions but "
                           f"{len(steps)} steps were followed")
    return RecordedHand(hand.number, hand.game, dict(selection.options), hand.state,
                        hand.knowledge, hand.flow,
                        tuple(RecordedAction(s, a) for s, a in zip(steps, hand.actions,
                                                                    strict=True)))


def hand_requests(hand: Hand, selection: Selection,
                  steps: Sequence[Step] | None = None) -> ExportedHand:
    """The referee requests of one hand as it stands."""
    hook = export_hook(selection.game)
    if hook is not None:
        if steps is None:
            raise ValueError("a game with its own export needs the steps the actions answered")
        rec = recorded(hand, selection, steps)
        return ExportedHand(hand.number, hook(rec) if rec is not None else [])
    return generic_requests(hand, selection)


def generic_requests(hand: Hand, selection: Selection) -> ExportedHand:
    """`new_hand` and the plays: exact for a game whose only step before play
    is showing the cards that fix trumps."""
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


class _StepTracker:
    """Follows the journal's replay and remembers, for each action the hand
    in play keeps, the step it answered (an undo drops it again)."""

    def __init__(self) -> None:
        self.hand: Hand | None = None
        self.steps: list[Step] = []

    def apply(self, session: Session, entry: JournalEntry) -> None:
        hand = _hand_of(session)
        before = hand.step() if hand is not None and entry.kind in ("card", "choose") else None
        session.apply(entry)
        hand = _hand_of(session)
        if hand is not self.hand:
            self.hand = hand
            self.steps = []
        if hand is None:
            return
        if before is not None and len(hand.actions) == len(self.steps) + 1:
            self.steps.append(before)
        del self.steps[len(hand.actions):]


def _hand_of(session: Session) -> Hand | None:
    match = session.match
    return match.hand if match is not None else None


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
    tracker = _StepTracker()
    tracker.apply(session, start)
    entries: Iterator[JournalEntry] = journal.entries(match_id)
    for e in entries:
        if e.kind in ("start", "select"):
            break
        match = session.match
        if match is None:
            break
        if e.kind in ("next", "end") and match.hand is not None:
            yield hand_requests(match.hand, match.selection, tracker.steps)
        tracker.apply(session, e)
        if e.kind == "end":
            return
    match = session.match
    if match is not None and match.hand is not None:
        yield hand_requests(match.hand, match.selection, tracker.steps)


def export_match(journal: Journal, match_id: int | None = None) -> Iterator[dict[str, Any]]:
    """The referee requests of a match, every hand's one after the other."""
    for hand in export_hands(journal, match_id):
        yield from hand.requests
