"""One hand as a table lives it: the steps before play, the play, the result.

The table controller drives every game through this one interface: it asks
`pending()` what the hand waits for, feeds it cards read at a seat (`card`) and
choices made with the buttons (`choose`), and takes back the last action with
`undo`. Games with calls, bindings, draws or melds subclass `HandFlow`; the
base class covers games whose only step before play is showing the cards that
fix trumps (Filicău, Filkó).

Step kinds:

* `show`: `seat` taps the cards that fix trumps, one at a time, until they do.
* `play`: `seat` plays a card to the trick.
* `choose`: `seat` picks one of `choices` (a call, a binding, cut or knock...).
* `card`: `seat` taps a card that is not played (a called card, a meld card...).
* `done`: the hand is over; `result()` tells the points, `settled()` the match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.cards import Card
from engine.deal import Deal, DealRules, PlayOutcome
from engine.errors import BadRequest, IllegalPlay
from engine.match import MatchState


class FlowRules(DealRules, Protocol):
    """What a hand flow asks of its game (`engine.game.Game` provides it all)."""

    def trump_from_shown(self, shown: Sequence[Card]) -> tuple[str, int]: ...
    def check_shown(self, dealer: int, shown: Iterable[Card],
                    hands: Sequence[Sequence[Card]] | None) -> None: ...
    def first_leader(self, state: MatchState) -> int: ...
    def dealer_before(self, leader: int) -> int | None: ...
    def new_deal(self, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None,
                 known: Mapping[int, Iterable[Card]] | None = None) -> Deal: ...
    def settle_deal(self, state: MatchState, deal: Deal) -> MatchState: ...


@dataclass(frozen=True)
class Step:
    """What the hand waits for. `prompt` is a message key for the screen."""

    kind: str
    seat: int | None = None
    prompt: str = ""
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class FlowEvent:
    """What one action did. `kind`: `shown`, `trump`, `played`, `chosen`,
    `undone`; `outcome` is set for plays; `data` carries the rest."""

    kind: str
    seat: int | None = None
    card: Card | None = None
    outcome: PlayOutcome | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object: `event` (the kind), `seat` and `card`
        (a code) when set, what a play did (`revoke`, `trick`, `hand_over`),
        then `data` with cards written as their codes."""
        out: dict[str, Any] = {"event": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.card is not None:
            out["card"] = self.card.code
        if self.outcome is not None:
            out.update(self.outcome.to_json())
            if self.outcome.hand_over:
                out["hand_over"] = True
        for key, value in self.data.items():
            out.setdefault(key, _json_value(value))
        return out


def _json_value(value: Any) -> Any:
    """`value` with every card as its code and every tuple as a list."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class HandResult:
    """Card points and tricks per team at the end of a hand."""

    points: tuple[int, ...]
    tricks: tuple[int, ...]
    extra: dict[str, Any] = field(default_factory=dict)


class HandFlow:
    """The base flow: (show trump cards at the dealer's place) then play.

    `hands` are every seat's cards when the table knows them (scanned or read
    while dealing); `None` plays with hands unknown. `trump` may be given when
    it is already known (for instance read while dealing), with the `shown`
    cards that fixed it.
    """

    def __init__(self, game: FlowRules, state: MatchState | None,
                 hands: Sequence[Iterable[Card]] | None = None,
                 trump: str | None = None, *, shown: Sequence[Card] = (),
                 leader: int | None = None) -> None:
        self.game = game
        #: The match state before this hand; None for a hand played on its
        #: own, known only by its `leader` (the referee's `new_hand` without
        #: `state`): it needs `trump` and settles nothing.
        self.state = state
        self.hands = [list(h) for h in hands] if hands is not None else None
        if state is None and (leader is None or trump is None):
            raise BadRequest("a hand without its match state needs its leader and trumps")
        self.leader = leader
        #: The dealer: the match state's, or for a hand on its own the seat the
        #: rules fix (`dealer_before` the leader), else None.
        self.dealer: int | None = state.dealer if state is not None \
            else game.dealer_before(leader) if leader is not None else None
        #: The cards the dealer showed to fix trumps. Given with `trump` (the
        #: referee's `new_hand` says both at once), they are public from the start.
        self.shown: list[Card] = list(shown)
        self.trump = trump
        self.deal: Deal | None = None
        self._log: list[tuple[str, Any]] = []
        if trump is not None:
            self._start_play()
            if self.dealer is not None:
                game.check_shown(self.dealer, self.shown, self.hands)

    # ----- questions -------------------------------------------------------------

    def pending(self) -> Step:
        if self.deal is None:
            return Step("show", self.dealer, "show_trump")
        if self.deal.finished:
            return Step("done")
        return Step("play", self.deal.turn, "play")

    @property
    def finished(self) -> bool:
        return self.deal is not None and self.deal.finished

    def result(self) -> HandResult:
        if self.deal is None or not self.deal.finished:
            raise BadRequest("the hand is not over")
        return HandResult(tuple(self.deal.team_points()), tuple(self.deal.team_tricks()))

    def settled(self) -> MatchState:
        """The match state after this hand."""
        if self.deal is None or not self.deal.finished:
            raise BadRequest("the hand is not over")
        return self.game.settle_deal(self.match_state(), self.deal)

    def match_state(self) -> MatchState:
        """The match state before this hand (refused for a hand on its own)."""
        if self.state is None:
            raise BadRequest("this hand was started without its match state: "
                             "it settles nothing")
        return self.state

    def first_leader(self) -> int:
        """Who leads trick 1: the given leader of a hand on its own, else the
        game's rule for this match state."""
        if self.leader is not None:
            return self.leader
        return self.game.first_leader(self.match_state())

    @property
    def play_over(self) -> bool:
        """Is the trick play over (the last trick played, or the hand ended
        before it)? Then no card is played and no play taken back any more
        (the referee's `play` and `undo` answer `hand_over`)."""
        return self.deal is not None and self.deal.finished

    def known_cards(self) -> dict[int, list[Card]]:
        """Cards known to be in a seat's hand while hands are unknown: the
        cards shown to fix trumps are the dealer's (when the flow knows him)."""
        if not self.shown or self.dealer is None:
            return {}
        return {self.dealer: list(self.shown)}

    # ----- actions ---------------------------------------------------------------

    def card(self, seat: int, card: Card) -> FlowEvent:
        """A card read at `seat`: shown for trumps, or played."""
        step = self.pending()
        if step.kind == "show":
            return self._show(seat, card)
        if step.kind == "play":
            assert self.deal is not None
            outcome = self.deal.play(seat, card)
            self._log.append(("play", None))
            return FlowEvent("played", seat, card, outcome)
        if step.kind == "done":
            raise IllegalPlay("hand_over")
        raise IllegalPlay("not_expected", seat=seat, step=step.kind)

    def play(self, seat: int, card: Card) -> FlowEvent:
        """`seat` plays `card` to the trick (the referee's `play`): unlike a
        card read at a seat, never taken for another step. Refused with
        `hand_over` once the play is over (even while a choice after it is
        pending), and before play by `_not_playing`."""
        step = self.pending()
        if self.play_over or step.kind == "done":
            raise IllegalPlay("hand_over")
        if step.kind != "play":
            self._not_playing(seat, step)
        return self.card(seat, card)

    def undo_play(self) -> FlowEvent:
        """Take back the last action while the play goes on (the referee's
        `undo`): refused with `hand_over` once the play is over."""
        if self.play_over:
            raise IllegalPlay("hand_over")
        return self.undo()

    def _not_playing(self, seat: int, step: Step) -> None:
        """Refuse a play while the hand waits for `step`, another step."""
        raise IllegalPlay("not_expected", seat=seat, step=step.kind)

    def choose(self, seat: int, choice: str) -> FlowEvent:
        raise IllegalPlay("not_expected", seat=seat, step=self.pending().kind)

    def undo(self) -> FlowEvent:
        """Take back the last action of this hand."""
        if not self._log:
            raise IllegalPlay("nothing_to_undo")
        kind, data = self._log.pop()
        if kind == "play":
            assert self.deal is not None
            taken = self.deal.undo()
            return FlowEvent("undone", taken.seat, taken.card, data={"action": "play"})
        if kind == "show":
            c = self.shown.pop()
            if self.deal is not None and data:
                self.deal = None
                self.trump = None
            return FlowEvent("undone", self.dealer, c, data={"action": "show"})
        return self._undo_other(kind, data)

    def _undo_other(self, kind: str, data: Any) -> FlowEvent:
        raise BadRequest(f"cannot undo {kind}")

    def chooser(self, choice: str) -> int | None:
        """The seat that makes `choice` of the pending step at the table, where
        the buttons are shared: by default the step's seat. Games whose
        choices name the seat that makes them (a claim) override it."""
        return self.pending().seat

    @property
    def can_undo(self) -> bool:
        """Is there an action of this hand that `undo` would take back?"""
        return bool(self._log)

    # ----- dealing at the table (the table's `dealt` knowledge mode) ------------------

    def deal_order(self) -> tuple[int, ...]:
        """The seat that receives each card, in the order the dealer deals them.

        A `dealt` table reads every card over the dealer's reader while dealing
        and gives the i-th card to `deal_order()[i]`. Default: one card at a
        time, starting with the player after the dealer, `hand_size` each.
        Games dealing in packets override it."""
        n = self.game.players
        dealer = self._dealer()
        return tuple((dealer + 1 + i) % n for i in range(n * self.game.hand_size))

    def after_deal(self, dealt: Sequence[tuple[int, Card]]) -> list[FlowEvent]:
        """Apply what a `dealt` table knows once every card is dealt:
        `dealt` is `(seat, card)` in dealing order. Default: while the hand
        waits for the dealer to show cards for trumps, show the dealer's cards
        in the order he received them (Filicău). Games whose shown cards are
        something else override it (or leave the show step to the players)."""
        events: list[FlowEvent] = []
        for seat, c in dealt:
            step = self.pending()
            if step.kind != "show" or step.seat != self.dealer:
                break
            if seat == self.dealer:
                events.append(self.card(self.dealer, c))
        return events

    # ----- internals -------------------------------------------------------------

    def _dealer(self) -> int:
        """The dealer, for the steps of a hand dealt at a table (which always
        has its match state)."""
        if self.dealer is None:
            raise BadRequest("this hand was started without its dealer")
        return self.dealer

    def _show(self, seat: int, card: Card) -> FlowEvent:
        if seat != self.dealer:
            raise IllegalPlay("not_your_turn", seat=seat, turn=self.dealer,
                              family=self.game.pack.family)
        card = self.game.pack.parse(card.code)
        if card in self.shown:
            raise IllegalPlay("already_played", seat=seat, card=card.code,
                              family=self.game.pack.family)
        self.game.check_shown(seat, [card], self.hands)
        self.shown.append(card)
        try:
            trump, used = self.game.trump_from_shown(self.shown)
        except BadRequest:
            self._log.append(("show", False))
            return FlowEvent("shown", seat, card)
        self.trump = trump
        self._start_play()
        self._log.append(("show", True))
        return FlowEvent("trump", seat, card, data={"trump": trump, "used": used})

    def _start_play(self) -> None:
        leader = self.first_leader()
        known = None if self.hands is not None else self.known_cards()
        self.deal = self.game.new_deal(self.trump, leader, self.hands, known)
