"""The table's durable state (the game chosen, the match, the hand in play)
and every change to it.

Each change is an operation of `Session`; the operation checks it, applies
it and appends one journal entry, in that order, before returning. If the
journal cannot be written the change is rolled back and the error raised, so
nothing is shown that is not in the journal (on disk; a card's entry is
synced just after its verdict is shown: `Controller.handle`). `Session.restore` rebuilds the same
state from the journal by applying the entries again (from the last
checkpoint: the start of the match or of the hand in play).

The hand is driven only through the engine's `Game` and `HandFlow`; nothing
here knows a particular game. Entry kinds and their fields are listed in
docs/controller.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import get_game
from engine.cards import Card
from engine.errors import EngineError, IllegalPlay, UnknownCard
from engine.flow import FlowEvent, HandFlow, HandResult, Step
from engine.games.base import Game, MatchState
from table.controller.messages import TableRefusal
from table.journal import JournalError
from table.ports import JournalEntry, Store
from table.settings import KNOWLEDGE_MODES, LANGUAGES

Record = Callable[[str, Mapping[str, Any]], int]

#: Journal kinds that are checkpoints: replay may start from the newest one.
CHECKPOINTS = ("start", "next")


@dataclass(frozen=True)
class Selection:
    """What the next match will be: game, its options, how hands are known."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    knowledge: str = "open"
    language: str = "en"

    def make_game(self) -> Game:
        return get_game(self.game, dict(self.options))

    def check(self) -> Selection:
        """Validated (unknown game or option raise the engine's errors); the
        options are completed with their defaults."""
        if self.knowledge not in KNOWLEDGE_MODES:
            raise ValueError(f"knowledge must be one of {', '.join(KNOWLEDGE_MODES)}, "
                             f"not {self.knowledge!r}")
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, "
                             f"not {self.language!r}")
        game = self.make_game()
        return Selection(self.game, dict(game.options), self.knowledge, self.language)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": dict(self.options), "knowledge": self.knowledge,
                "language": self.language}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Selection:
        return cls(str(obj["game"]), dict(obj.get("options") or {}), str(obj["knowledge"]),
                   str(obj.get("language", "en")))


@dataclass(frozen=True)
class Player:
    """A club member sitting at a seat (by their badge): `member` is the
    badge's `table.registry.member_id`, `name` as the table knows them."""

    member: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"member": self.member, "name": self.name}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Player:
        return cls(str(obj["member"]), str(obj["name"]))


def players_to_json(players: Mapping[int, Player]) -> dict[str, dict[str, str]]:
    return {str(s): p.to_json() for s, p in sorted(players.items())}


def in_play(players: Mapping[int, Player], game: Game) -> dict[int, Player]:
    """The members at the seats a match of `game` uses."""
    return {s: p for s, p in players.items() if s < game.players}


def players_from_json(obj: Any) -> dict[int, Player]:
    if not obj:
        return {}
    if not isinstance(obj, Mapping):
        raise ValueError(f"players must be an object, not {obj!r}")
    return {int(s): Player.from_json(p) for s, p in obj.items()}


@dataclass(frozen=True)
class Read:
    """A card read while learning the hands: who gets it, its sticker, the card."""

    seat: int
    uid: str
    card: Card


@dataclass(frozen=True)
class Action:
    """A player's action the hand accepted: a card (`card`) or a choice (`choose`)."""

    kind: str
    seat: int
    event: FlowEvent
    card: Card | None = None
    uid: str | None = None
    place: int | None = None
    choice: str | None = None


@dataclass(frozen=True)
class HandSummary:
    """A finished hand: its number, points and tricks per team, the state after."""

    number: int
    result: HandResult
    before: MatchState
    after: MatchState


class Hand:
    """The hand in play: learning the hands (scan / dealt), then its `HandFlow`."""

    def __init__(self, game: Game, number: int, state: MatchState, knowledge: str) -> None:
        self.game = game
        self.number = number
        self.state = state
        self.knowledge = knowledge
        self.reads: list[Read] = []
        self.flow: HandFlow | None = None
        self.auto: list[FlowEvent] = []
        self.actions: list[Action] = []
        self.order: tuple[int, ...] = ()
        if knowledge == "open":
            self.flow = game.hand_flow(state, None)
        elif knowledge == "dealt":
            self.order = tuple(game.hand_flow(state, None).deal_order())

    @property
    def dealer(self) -> int:
        return self.state.dealer

    @property
    def phase(self) -> str:
        """`scan`, `dealt` (learning the hands) or `flow` (the hand's steps)."""
        return "flow" if self.flow is not None else self.knowledge

    def step(self) -> Step | None:
        return self.flow.pending() if self.flow is not None else None

    @property
    def done(self) -> bool:
        return self.flow is not None and self.flow.pending().kind == "done"

    def cards_of(self, seat: int) -> list[Card]:
        """The cards read for `seat` so far (scan / dealt)."""
        return [r.card for r in self.reads if r.seat == seat]

    def next_dealt_seat(self) -> int | None:
        if len(self.reads) >= len(self.order):
            return None
        return self.order[len(self.reads)]

    def copies_read(self, c: Card) -> list[Read]:
        return [r for r in self.reads if r.card == c]

    def played_uids(self) -> set[str]:
        return {a.uid for a in self.actions
                if a.uid is not None and a.event.kind == "played"}

    def on_the_table(self, uid: str, c: Card) -> bool:
        """Was this sticker played in this hand, and is its card still out of
        play? (A game may bring a played card back, as Fildinsky's exchange
        puts a won Seven under the stock: then the sticker counts again.)"""
        stickers = {a.uid for a in self.actions if a.event.kind == "played" and a.card == c}
        if uid not in stickers:
            return False
        deal = self.flow.deal if self.flow is not None else None
        if deal is None:
            return True
        out = sum(1 for slot in deal.pack.slots_of(c) if deal.played >> slot & 1)
        return len(stickers) <= out

    def used_uids(self) -> set[str]:
        """Stickers used by steps that are not plays (shown, tapped cards)."""
        return {a.uid for a in self.actions
                if a.uid is not None and a.event.kind != "played"}

    def read_uids(self) -> set[str]:
        return {r.uid for r in self.reads}

    def can_undo(self) -> bool:
        if self.actions:
            return True
        return bool(self.reads)


class Match:
    """A match: the game, the state before the hand in play, the hand."""

    def __init__(self, match_id: int, selection: Selection, game: Game, seed: int,
                 state: MatchState, hand_number: int = 1,
                 players: Mapping[int, Player] | None = None) -> None:
        self.id = match_id
        #: The members seated by their badges when the match started (seat -> player).
        self.players: dict[int, Player] = dict(players or {})
        self.selection = selection
        self.game = game
        self.seed = seed
        self.state = state
        self.hand: Hand | None = None
        self.last: HandSummary | None = None
        #: every finished hand so far: (its number, its points per team)
        self.finished: list[tuple[int, tuple[int, ...]]] = []
        if not state.over:
            self.hand = Hand(game, hand_number, state, selection.knowledge)

    @property
    def over(self) -> bool:
        return self.hand is None


class Session:
    """The table's durable state; see the module docstring."""

    def __init__(self, selection: Selection, store: Store | None = None) -> None:
        self.selection = selection
        self.match: Match | None = None
        #: Members seated by their badges for the next match (seat -> player).
        self.players: dict[int, Player] = {}
        self.store = store
        self._replaying = False
        #: Sequence number of the last entry written or replayed.
        self.seq = 0

    # ----- journaling ----------------------------------------------------------------

    def _record(self, kind: str, data: Mapping[str, Any]) -> None:
        if self._replaying or self.store is None:
            return
        self.seq = self.store.append(kind, data)

    # ----- the game for the next match -------------------------------------------------

    def select(self, selection: Selection) -> None:
        if self.match is not None:
            raise IllegalPlay("not_expected", step="match")
        selection = selection.check()
        self._record("select", selection.to_json())
        self.selection = selection

    # ----- members at the seats ----------------------------------------------------------

    def sit(self, seat: int, player: Player | None) -> Player | None:
        """Sit a member at `seat` (None: the seat is free again) for the next
        match; a member sitting elsewhere moves. Returns who sat there before."""
        if self.match is not None:
            raise IllegalPlay("not_expected", seat=seat, step="match")
        if seat < 0:
            raise IllegalPlay("not_expected", seat=seat, step="seat")
        before = self.players.get(seat)
        data: dict[str, Any] = {"seat": seat, "member": None}
        if player is not None:
            data = {"seat": seat, **player.to_json()}
        self._record("seat", data)
        self._seat(seat, player)
        return before

    def _seat(self, seat: int, player: Player | None) -> None:
        for s, p in list(self.players.items()):
            if player is not None and p.member == player.member:
                del self.players[s]
        if player is None:
            self.players.pop(seat, None)
        else:
            self.players[seat] = player

    # ----- the match ---------------------------------------------------------------------

    def start_match(self, seed: int) -> Match:
        if self.match is not None:
            raise IllegalPlay("not_expected", step="match")
        sel = self.selection.check()
        game = sel.make_game()
        state = game.new_match(random.Random(seed))
        state = game.state_from_json(state.to_json())
        data = {**sel.to_json(), "seed": seed, "state": state.to_json()}
        if self.players:
            # every member seated (the match plays with those at its seats)
            data["players"] = players_to_json(self.players)
        players = in_play(self.players, game)
        self._record("start", data)
        self.selection = sel
        self.match = Match(self.seq if self.store is not None else 0, sel, game, seed, state,
                           players=players)
        return self.match

    def hand(self) -> Hand:
        if self.match is None or self.match.hand is None:
            raise IllegalPlay("no_hand")
        return self.match.hand

    def scan(self, seat: int, uid: str, card: Card) -> Read:
        """`seat` tapped one of its cards (knowledge `scan`)."""
        hand = self.hand()
        if hand.phase != "scan":
            raise IllegalPlay("not_expected", seat=seat, step=hand.phase)
        game = hand.game
        _check_card(game, card)
        if not 0 <= seat < game.players:
            raise IllegalPlay("not_expected", seat=seat, step="scan")
        if len(hand.cards_of(seat)) >= game.hand_size:
            raise TableRefusal("table_hand_full", seat=seat, count=game.hand_size)
        _check_copies(hand, card, seat)
        read = Read(seat, uid, card)
        self._record("scan", {"seat": seat, "uid": uid, "card": card.code})
        hand.reads.append(read)
        if all(len(hand.cards_of(s)) >= game.hand_size for s in range(game.players)):
            hand.flow = game.hand_flow(hand.state, [hand.cards_of(s)
                                                    for s in range(game.players)])
        return read

    def deal_card(self, uid: str, card: Card) -> Read:
        """The dealer passed the next card over his reader (knowledge `dealt`)."""
        hand = self.hand()
        if hand.phase != "dealt":
            raise IllegalPlay("not_expected", seat=hand.dealer, step=hand.phase)
        _check_card(hand.game, card)
        seat = hand.next_dealt_seat()
        assert seat is not None
        _check_copies(hand, card, seat)
        read = Read(seat, uid, card)
        self._record("deal", {"uid": uid, "card": card.code})
        hand.reads.append(read)
        if hand.next_dealt_seat() is None:
            game = hand.game
            flow = game.hand_flow(hand.state, [hand.cards_of(s) for s in range(game.players)])
            hand.auto = flow.after_deal([(r.seat, r.card) for r in hand.reads])
            hand.flow = flow
        return read

    def card(self, seat: int, card: Card, uid: str | None = None,
             place: int | None = None) -> Action:
        """A card for the hand's pending step (shown, played, tapped) at `seat`."""
        hand = self.hand()
        flow = hand.flow
        if flow is None:
            raise IllegalPlay("not_expected", seat=seat, step=hand.phase)
        event = flow.card(seat, card)
        action = Action("card", seat, event, card, uid, place)
        self._record_or_undo(flow, "card", {"seat": seat, "card": card.code, "uid": uid,
                                            "place": place})
        hand.actions.append(action)
        return action

    def choose(self, seat: int, choice: str) -> Action:
        hand = self.hand()
        flow = hand.flow
        if flow is None:
            raise IllegalPlay("not_expected", seat=seat, step=hand.phase)
        event = flow.choose(seat, choice)
        action = Action("choose", seat, event, choice=choice)
        self._record_or_undo(flow, "choose", {"seat": seat, "choice": choice})
        hand.actions.append(action)
        return action

    def _record_or_undo(self, flow: HandFlow, kind: str, data: Mapping[str, Any]) -> None:
        try:
            self._record(kind, data)
        except BaseException:
            flow.undo()
            raise

    def undo(self) -> Action | Read:
        """Take back the last accepted action of the hand (a play, a choice, a
        shown card; or the last card read while learning the hands)."""
        hand = self.hand()
        if hand.actions:
            assert hand.flow is not None
            taken: Action | Read = hand.actions[-1]
            self._record("undo", {})
            hand.flow.undo()
            hand.actions.pop()
            return taken
        if not hand.reads:
            raise IllegalPlay("nothing_to_undo")
        self._record("undo", {})
        if hand.knowledge != "open":
            hand.flow = None
            hand.auto = []
        return hand.reads.pop()

    def abort(self) -> None:
        """Throw the hand away; the same dealer deals it again."""
        hand = self.hand()
        assert self.match is not None
        self._record("abort", {"match": self.match.id, "hand": hand.number})
        self.match.hand = Hand(hand.game, hand.number, hand.state, hand.knowledge)

    def next_hand(self) -> HandSummary:
        """Settle the finished hand and start the next (unless the match is over)."""
        hand = self.hand()
        match = self.match
        assert match is not None and hand.flow is not None
        if not hand.done:
            raise IllegalPlay("not_expected", step=hand.flow.pending().kind)
        result = hand.flow.result()
        settled = hand.flow.settled()
        after = match.game.state_from_json(settled.to_json())
        self._record("next", {"match": match.id, "hand": hand.number + 1,
                              "state": after.to_json(), "points": list(result.points)})
        self._settle(match, HandSummary(hand.number, result, hand.state, after))
        return match.last  # type: ignore[return-value]  # just settled: set

    def _settle(self, match: Match, summary: HandSummary) -> None:
        match.last = summary
        match.finished.append((summary.number, tuple(summary.result.points)))
        match.state = summary.after
        match.hand = None if summary.after.over else Hand(
            match.game, summary.number + 1, summary.after, match.selection.knowledge)

    def end_match(self, reason: str) -> None:
        """Close the match (it is over, the players stopped it, or an admin reset it)."""
        if self.match is None:
            raise IllegalPlay("no_hand")
        self._record("end", {"match": self.match.id, "reason": reason})
        self.match = None

    # ----- replay ------------------------------------------------------------------------

    def restore(self, store: Store) -> int:
        """Rebuild the state from `store` (a `table.journal.Journal`): from its
        newest checkpoint when it can find one. Returns the entries applied."""
        start_after = 0
        finder = getattr(store, "last", None)
        self._replaying = True
        try:
            if finder is not None:
                cp = finder(CHECKPOINTS)
                if cp is not None:
                    self._restore_checkpoint(store, cp)
                    start_after = cp.seq
            n = 0
            for entry in store.entries(start_after):
                self.apply(entry)
                n += 1
        finally:
            self._replaying = False
        return n

    def _restore_checkpoint(self, store: Store, cp: JournalEntry) -> None:
        if cp.kind == "start":
            self.apply(cp)
            return
        start = store.get(int(cp.data["match"]))  # type: ignore[attr-defined]  # a Journal's
        self.apply(start)
        self.seq = cp.seq
        match = self.match
        assert match is not None
        try:
            state = match.game.state_from_json(cp.data["state"])
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"journal entry {cp.seq} cannot be replayed: {exc}") from None
        match.state = state
        match.last = None
        # the hands finished before the checkpoint, from their journal entries
        match.finished = [
            (int(e.data["hand"]) - 1, tuple(int(p) for p in e.data.get("points", ())))
            for e in store.entries(start.seq) if e.kind == "next" and e.seq <= cp.seq]
        number = int(cp.data["hand"])
        match.hand = None if state.over else Hand(match.game, number, state,
                                                  match.selection.knowledge)

    def apply(self, entry: JournalEntry) -> None:
        """Apply one journal entry (replay). `JournalError` names an entry that
        does not fit the state (a damaged journal, or one from another version)."""
        was = self._replaying
        self._replaying = True
        try:
            self._apply(entry.kind, entry.data, entry.seq)
        except JournalError:
            raise
        except (EngineError, KeyError, TypeError, ValueError, AssertionError) as exc:
            raise JournalError(f"journal entry {entry.seq} ({entry.kind}) cannot be replayed: "
                               f"{exc}") from None
        finally:
            self._replaying = was
        self.seq = entry.seq

    def _apply(self, kind: str, d: Mapping[str, Any], seq: int) -> None:
        if kind == "select":
            self.selection = Selection.from_json(d)
        elif kind == "start":
            self.selection = Selection.from_json(d)
            game = self.selection.make_game()
            state = game.state_from_json(d["state"])
            seated = players_from_json(d.get("players"))
            self.match = Match(seq, self.selection, game, int(d["seed"]), state,
                               players=in_play(seated, game))
            self.players = seated
        elif kind == "seat":
            member = d.get("member")
            self.sit(int(d["seat"]), None if member is None else Player.from_json(d))
        elif kind == "scan":
            game = self.hand().game
            self.scan(int(d["seat"]), str(d["uid"]), game.pack.parse(d["card"]))
        elif kind == "deal":
            game = self.hand().game
            self.deal_card(str(d["uid"]), game.pack.parse(d["card"]))
        elif kind == "card":
            game = self.hand().game
            self.card(int(d["seat"]), game.pack.parse(d["card"]), d.get("uid"), d.get("place"))
        elif kind == "choose":
            self.choose(int(d["seat"]), str(d["choice"]))
        elif kind == "undo":
            self.undo()
        elif kind == "abort":
            self.abort()
        elif kind == "next":
            summary = self.next_hand()
            if summary.after.to_json() != d["state"]:
                raise JournalError(f"journal entry {seq} (next) says the match state became "
                                   f"{d['state']}, but replaying the hand gives "
                                   f"{summary.after.to_json()}")
        elif kind == "end":
            self.end_match(str(d.get("reason", "")))
        else:
            raise JournalError(f"unknown journal entry kind {kind!r}")


def _check_card(game: Game, card: Card) -> None:
    if card not in game.pack:
        raise UnknownCard(card.code, game.pack.name)


def _check_copies(hand: Hand, card: Card, seat: int) -> None:
    """A card read more often than the pack holds it (two packs mixed up)."""
    copies = hand.game.pack.copies
    earlier = hand.copies_read(card)
    if len(earlier) >= copies:
        raise TableRefusal("table_already_read", seat=seat, card=card.code,
                           owner=earlier[0].seat, family=hand.game.pack.family)


def snapshot(session: Session) -> tuple[Any, ...]:
    """Everything that defines the session's state, comparable with `==`
    (an uninterrupted run and a resumed one must give equal snapshots)."""
    match = session.match
    sel = json.dumps(session.selection.to_json(), sort_keys=True)
    if match is None:
        return (sel, None)
    hand = match.hand
    hand_part: tuple[Any, ...] = ()
    if hand is not None:
        flow = hand.flow
        flow_part: tuple[Any, ...] = ()
        if flow is not None:
            deal = flow.deal
            flow_part = (flow.pending(), tuple(flow.shown), flow.trump,
                         deal.snapshot() if deal is not None else None)
        hand_part = (hand.number, hand.phase, tuple(hand.reads),
                     tuple((a.kind, a.seat, a.card, a.uid, a.choice, a.event.kind)
                           for a in hand.actions), flow_part)
    return (sel, match.id, json.dumps(match.state.to_json(), sort_keys=True), hand_part)
