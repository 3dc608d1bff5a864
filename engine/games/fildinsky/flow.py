"""Fildinsky as the table lives it: the steps of `engine.flow.HandFlow`.

* `show` (the dealer): tap the turned-up card; its suit is trumps.
* `play`: the seat to play puts down a card.
* `choose` (prompt `fildinsky_declare`): the winner of the trick just closed
  picks a meld (its name, see `engine.games.fildinsky.melds`), `exchange` (the
  deece exchange) or `pass`. Offered only when something can be done; it
  ends by itself after two melds when no exchange is left.
* `card` (prompt `fildinsky_draw`): the seat to draw taps the card it drew,
  or chooses `unknown`. Asked only when the deal was read (`hands` given) and
  the stock order is not known. Otherwise draws happen without a step: from
  the known stock, as the face-up card at the bottom, or (hands unknown) as
  unknown cards.
* `done`: the hand is over; `result()` gives each player's points.

`undo` takes back the last step together with what it set off (automatic
draws, a skipped meld step).

Draws nobody reports: the table (`draws="auto"`, the default) makes them at
once as unknown cards when it does not know the hands, since no drawn card
can be checked. The referee (`draws="request"`) waits for its `draw`
requests and makes the draws still due when the next leader plays without
them (`FildinskyDeal.draw_unreported`, the one policy for both). The
referee's requests are acts of their own, each one step that `undo` takes
back whole: `play` (the declarer who plays closes his melds), `draw` (the
declarer who draws closes his melds), `declare_all` (the melds after a
trick at once, and the exchange). A refused act changes nothing.

Events: `trump` (the turn-up shown), `played`, `chosen` (`data["choice"]`),
`drawn` (a draw step answered) and `undone`; `data["events"]` lists what the
hand did meanwhile (`TrickScore`, `Declared`, `Exchanged`, `Drawn`, ... from
`engine.games.fildinsky.deal`), for the screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.cards import Card
from engine.errors import BadRequest
from engine.flow import FlowEvent, HandFlow, HandResult, Step
from engine.games.fildinsky.deal import Drawn, FildinskyDeal
from engine.games.fildinsky.messages import Refusal
from engine.games.fildinsky.rules import DEAL_PATTERNS, FildinskyRules
from engine.match import MatchState

UNKNOWN_DRAW = "unknown"
PASS = "pass"
EXCHANGE = "exchange"
#: How draws nobody reports are made: at once (the table) or by request (the referee).
DRAW_MODES = ("auto", "request")


class FildinskyFlow(HandFlow):
    """One Fildinsky hand for the table controller (see the module docstring)."""

    game: FildinskyRules
    deal: FildinskyDeal | None

    def __init__(self, game: FildinskyRules, state: MatchState | None,
                 hands: Sequence[Iterable[Card]] | None = None, trump: str | None = None,
                 *, turn_up: Card | None = None, stock: Sequence[Card] | None = None,
                 leader: int | None = None, draws: str = "auto") -> None:
        if draws not in DRAW_MODES:
            raise ValueError(f"draws must be one of {DRAW_MODES}")
        self.draws = draws
        self.turn_up = turn_up
        self.stock = list(stock) if stock is not None else None
        self.given_trump = trump
        if turn_up is not None and trump is not None and turn_up.suit != trump:
            raise BadRequest(f"the turned-up {turn_up} does not make {trump} trumps")
        super().__init__(game, state, hands, trump if turn_up is None else turn_up.suit,
                         leader=leader)

    # ----- questions -------------------------------------------------------------

    def pending(self) -> Step:
        if self.deal is None:
            return Step("show", self.dealer, "fildinsky_show_turn_up")
        stage, seat = self.deal.pending()
        if stage == "play":
            return Step("play", seat, "play")
        if stage == "meld":
            choices = [k.name for k in self.deal.legal_melds()]
            if self.deal.can_exchange():
                choices.append(EXCHANGE)
            choices.append(PASS)
            return Step("choose", seat, "fildinsky_declare", tuple(choices))
        if stage == "draw":
            return Step("card", seat, "fildinsky_draw", (UNKNOWN_DRAW,))
        return Step("done")

    def result(self) -> HandResult:
        if self.deal is None or not self.deal.finished:
            raise BadRequest("the hand is not over")
        d = self.deal
        return HandResult(tuple(d.points), tuple(d.won),
                          {"brisques": tuple(d.brisques), "melds": tuple(d.meld_points),
                           "bonus": tuple(d.bonus_points)})

    def settled(self) -> MatchState:
        if self.deal is None or not self.deal.finished:
            raise BadRequest("the hand is not over")
        return self.game.settle(self.match_state(), self.deal.points)

    def known_cards(self) -> dict[int, list[Card]]:
        if self.deal is None:
            return {}
        return {s: self.deal.hand_of(s) for s in (0, 1) if self.deal.hand_of(s)}

    # ----- dealing at the table ----------------------------------------------------

    def deal_order(self) -> tuple[int, ...]:
        """Batches (option `deal_pattern`, 3-2-3 by default), the non-dealer
        first each round: the seat receiving each of the 16 cards dealt."""
        order: list[int] = []
        dealer = self._dealer()
        for batch in DEAL_PATTERNS[self.game.options["deal_pattern"]]:
            order += [1 - dealer] * batch + [dealer] * batch
        return tuple(order)

    def after_deal(self, dealt: Sequence[tuple[int, Card]]) -> list[FlowEvent]:
        """Nothing: the turned-up card is not in a hand; the dealer shows it
        at the `show` step."""
        return []

    # ----- actions ---------------------------------------------------------------

    def card(self, seat: int, card: Card) -> FlowEvent:
        """A card read at `seat`: the turned-up card, a play, or a drawn card."""
        step = self.pending()
        if step.kind == "show":
            return self._show(seat, card)
        deal = self.deal
        assert deal is not None
        if step.kind == "play":
            return self._act(lambda: deal.play(seat, card), "played", seat, card)
        if step.kind == "card":
            return self._act(lambda: deal.draw(seat, card), "drawn", seat, card)
        if step.kind == "done":
            raise Refusal("hand_over")
        raise Refusal("not_expected", seat=seat, step=step.kind)

    def choose(self, seat: int, choice: str) -> FlowEvent:
        """A button choice: a meld, `exchange` or `pass`; or `unknown` for a draw."""
        step = self.pending()
        deal = self.deal
        if deal is None or step.kind not in ("choose", "card"):
            if step.kind == "done":
                raise Refusal("hand_over")
            raise Refusal("not_expected", seat=seat, step=step.kind)
        if choice not in step.choices:
            if step.seat != seat:
                raise Refusal("not_your_turn", seat=seat, turn=step.seat,
                                  family=self.game.pack.family)
            raise BadRequest(f'"{choice}" is not one of: {", ".join(step.choices)}')
        if step.kind == "card":
            return self._act(lambda: deal.draw(seat, None), "drawn", seat, None)
        if choice == PASS:
            return self._act(lambda: deal.close_melds(seat), "chosen", seat, None, choice)
        if choice == EXCHANGE:
            return self._act(lambda: deal.exchange(seat), "chosen", seat, None, choice)
        return self._act(lambda: deal.declare(seat, choice), "chosen", seat, None, choice)

    # ----- the referee's requests (`draws="request"`) ----------------------------

    def play(self, seat: int, card: Card) -> FlowEvent:
        """`seat` plays `card`. By request, the declarer who plays declares
        nothing more and the next leader's play makes the draws nobody
        reported (`FildinskyDeal.move_on`)."""
        if self.draws != "request":
            return super().play(seat, card)
        deal = self._dealt()

        def act() -> Any:
            deal.move_on(seat, playing=True)
            return deal.play(seat, card)

        return self._act(act, "played", seat, card, request="play")

    def draw(self, seat: int, card: Card | None = None) -> FlowEvent:
        """`seat` draws from the stock (`card` when seen, else unknown); the
        declarer who draws declares nothing more. The event's `card` is the
        card drawn when known."""
        deal = self._dealt()
        drawn: list[Drawn] = []

        def act() -> None:
            deal.move_on(seat)
            drawn.append(deal.draw(seat, card))

        event = self._act(act, "drawn", seat, card, request="draw")
        return FlowEvent("drawn", seat, drawn[0].card, data=event.data)

    def declare_all(self, seat: int, names: Sequence[str], exchange: bool = False) -> FlowEvent:
        """The winner of the last trick declares all of this trick's melds at
        once (and may make the exchange)."""
        deal = self._dealt()
        return self._act(lambda: deal.declare_all(seat, names, exchange), "chosen", seat,
                         None, request="meld")

    def _dealt(self) -> FildinskyDeal:
        if self.deal is None:
            raise Refusal("not_expected", seat=self.dealer, step="show")
        if self.deal.finished:
            raise Refusal("hand_over")
        return self.deal

    # ----- undo --------------------------------------------------------------------

    def undo(self) -> FlowEvent:
        """Take back the last step of this hand and what it set off. A
        request is taken back whole; the event then says which (`action`:
        `play`, `draw` or `meld`) with the seat and card it named."""
        if not self._log:
            raise Refusal("nothing_to_undo")
        kind, data = self._log.pop()
        if kind == "show":
            c = self.shown.pop()
            self.deal = None
            self.turn_up = None
            self.trump = self.given_trump
            return FlowEvent("undone", self.dealer, c, data={"action": "show"})
        assert self.deal is not None
        before, request = data
        first = None
        while self.deal.actions_done > before:
            first = self.deal.undo()
        assert first is not None
        if request is not None:
            name, seat, card = request
            return FlowEvent("undone", seat, card, data={"action": name})
        return FlowEvent("undone", first.seat, first.card, data={"action": first.action})

    # ----- internals -------------------------------------------------------------

    def _act(self, action: Any, kind: str, seat: int, card: Card | None,
             choice: str | None = None, request: str | None = None) -> FlowEvent:
        """Run one act on the deal: all of it or, when refused, none of it.
        `request` names a referee request (logged so that `undo` names it)."""
        deal = self.deal
        assert deal is not None
        before, n_events = deal.actions_done, len(deal.events)
        try:
            result = action()
            if self.hands is None and self.draws == "auto":
                deal.draw_unreported()
        except Exception:
            deal.undo_to(before)
            raise
        if deal.actions_done > before:
            self._log.append(("deal", (before, (request, seat, card) if request else None)))
        data: dict[str, Any] = {"events": list(deal.events[n_events:])}
        if choice is not None:
            data["choice"] = choice
        outcome = result if kind == "played" else None
        return FlowEvent(kind, seat, card, outcome, data)

    def _show(self, seat: int, card: Card) -> FlowEvent:
        if seat != self.dealer:
            raise Refusal("not_your_turn", seat=seat, turn=self.dealer,
                              family=self.game.pack.family)
        card = self.game.pack.parse(card.code)
        if self.given_trump is not None and card.suit != self.given_trump:
            raise BadRequest(f"trumps are {self.given_trump}: the turned-up card must be "
                             f"of that suit, not {card}")
        self.turn_up = card
        self.trump = card.suit
        try:
            self._start_play()
        except BadRequest:
            self.turn_up = None
            self.trump = self.given_trump
            raise
        self.shown.append(card)
        self._log.append(("show", True))
        return FlowEvent("trump", seat, card, data={"trump": card.suit, "used": 1})

    def _start_play(self) -> None:
        if self.turn_up is None:
            return
        if self.state is None:
            # A hand on its own: the given leader leads, no match score counts.
            self.deal = self.game.new_deal(self.turn_up.suit, self.first_leader(), self.hands,
                                           turn_up=self.turn_up, stock=self.stock)
            return
        self.deal = self.game.new_hand(self.state, self.turn_up, self.hands, self.stock)
