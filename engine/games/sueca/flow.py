"""A hand of Sueca as the table lives it (the `HandFlow` of `engine.flow`).

Steps:

* `show` (dealer, `show_trump`): the dealer taps the turned-up card; its suit
  is trumps (skipped when the trump is given).
* `play` (the seat to play, `play`). Its `choices` are what may be chosen
  instead of a card, each naming the seat it concerns:
  * `redeal:S` (before the first card, if the option allows seat S a claim):
    seat S shows a weak hand and asks for a new deal. With hands known the
    claim is checked at once (refused with `redeal_refused`, nothing changes);
    with hands unknown the step becomes
  * `card` (S, `sueca_show_hand`): seat S taps his ten cards; then the claim is
    granted (the hand is over, the same dealer deals again) or refused (the
    cards stay known and play goes on).
  * `denounce:S` (revoke_mode `denounce_*`): seat S's opponents say S revoked.
* `choose` (the dealer, `sueca_denounce_window`), only with revoke_mode
  `denounce_*`, after the last trick: `accept` the hand, or `denounce:S`.
* `done`.

A choice names the seat it concerns, because the table has one menu for all:
`choose(seat, "redeal:S")` is seat S's claim and `choose(seat, "denounce:S")`
is made by S's opponents, whichever seat's turn it was (`seat` is recorded as
the accuser when it is an opponent of S).

`undo` takes back the last action of any kind, by replaying the others.

The referee drives the same flow with one request per act: `claim_redeal`
(the claim and, hands unknown, the ten cards shown, all at once: a refused
claim changes nothing) and `denounce` (the accuser named, refused when he is
the accused's partner). The referee settles a hand when its last trick is
played: while the denounce window is open, `settled()` is the hand accepted,
and a denounce afterwards still ends the hand with its penalty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.cards import Card
from engine.errors import BadRequest
from engine.flow import FlowEvent, HandFlow, HandResult, Step
from engine.games.sueca.deal import SuecaDeal
from engine.games.sueca.messages import Refusal
from engine.games.sueca.rules import SuecaRules
from engine.match import MatchState
from engine.replay_undo import ReplayUndo


class SuecaFlow(ReplayUndo, HandFlow):
    """See the module docstring."""

    game: SuecaRules
    deal: SuecaDeal | None

    def __init__(self, game: SuecaRules, state: MatchState | None,
                 hands: Sequence[Iterable[Card]] | None = None,
                 trump: str | None = None, *, shown: Sequence[Card] = (),
                 leader: int | None = None) -> None:
        self._args = (game, state, hands, trump)
        self._kwargs: dict[str, Any] = {"shown": tuple(shown), "leader": leader}
        self._actions: list[tuple[str, int | None, Any]] = []
        self.redeal: int | None = None
        self.showing: int | None = None
        self.showing_cards: list[Card] = []
        self.refused: set[int] = set()
        self.accepted = False
        super().__init__(game, state, hands, trump, shown=shown, leader=leader)

    # ----- questions -------------------------------------------------------------

    def pending(self) -> Step:
        if self.redeal is not None:
            return Step("done")
        if self.deal is None:
            return Step("show", self.dealer, "show_trump")
        if self.showing is not None:
            return Step("card", self.showing, "sueca_show_hand")
        deal = self.deal
        if deal.penalty is not None:
            return Step("done")
        accuse = tuple(f"denounce:{s}" for s in range(self.game.players)) \
            if self.game.denounce else ()
        if deal.finished:
            if accuse and not self.accepted:
                return Step("choose", self.dealer, "sueca_denounce_window",
                            ("accept", *accuse))
            return Step("done")
        claims: tuple[str, ...] = ()
        if deal.played == 0:
            claims = tuple(f"redeal:{s}" for s in self._claim_order()
                           if self.game.redeal_limit(s, deal.leader) is not None
                           and s not in self.refused)
        return Step("play", deal.turn, "play", claims + accuse)

    @property
    def finished(self) -> bool:
        return self.pending().kind == "done"

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    def deal_order(self) -> tuple[int, ...]:
        """Ten cards at a time, from the player after the dealer round to the
        dealer, whose packet ends with the turned-up card."""
        n = self.game.players
        size = self.game.hand_size
        dealer = self._dealer()
        return tuple((dealer + 1 + k // size) % n for k in range(n * size))

    def after_deal(self, dealt: Sequence[tuple[int, Card]]) -> list[FlowEvent]:
        """A table that read the deal knows the turned-up card: the last card
        dealt, the dealer's. Show it."""
        if self.pending().kind != "show" or not dealt:
            return []
        seat, last = dealt[-1]
        if seat != self.dealer:
            return []
        return [self.card(self.dealer, last)]

    def legal_cards(self) -> list[Card]:
        """The cards the pending step accepts, when the hands are known."""
        step = self.pending()
        if self.hands is None or step.seat is None:
            return []
        if step.kind == "play" and self.deal is not None:
            return list(self.deal.legal_cards())
        if step.kind == "show":
            return list(self.hands[step.seat])
        return []

    def _settleable(self) -> None:
        """The hand is over, or its last trick is played and only the
        denounce window is open (then it counts as accepted)."""
        if not self.finished and not self.play_over:
            raise BadRequest("the hand is not over")

    def result(self) -> HandResult:
        self._settleable()
        if self.redeal is not None:
            return HandResult((0, 0), (0, 0), {"redeal": self.redeal})
        assert self.deal is not None
        extra: dict[str, Any] = {}
        if self.deal.penalty is not None:
            extra["penalty"] = self.deal.penalty.to_json()
        return HandResult(tuple(self.deal.team_points()), tuple(self.deal.team_tricks()), extra)

    def settled(self) -> MatchState:
        self._settleable()
        if self.redeal is not None:
            return self.game.settle(self.match_state(), None, redeal=True)
        assert self.deal is not None
        return self.game.settle_deal(self.match_state(), self.deal)

    # ----- actions ---------------------------------------------------------------

    def card(self, seat: int, card: Card) -> FlowEvent:
        event = self._card(seat, card)
        self._actions.append(("card", seat, card))
        return event

    def choose(self, seat: int, choice: str) -> FlowEvent:
        event = self._choose(seat, choice)
        self._actions.append(("choose", seat, choice))
        return event

    def claim_redeal(self, seat: int,
                     shown: Callable[[], Sequence[Card]] | None = None) -> FlowEvent:
        """`seat` shows its whole hand before the first lead and asks for a
        new deal, in one act (the referee's `redeal`). With the hands known
        the dealt hand is counted (`shown` must be None); else `shown()` gives
        the seat's `hand_size` different cards, none known to be another
        seat's (called only once the claim itself is allowed, so that a bad
        card code is reported after `redeal_too_late`). A granted claim ends
        the hand (`data`: `redeal`, `points`, `limit`); a refused one raises
        and changes nothing."""
        if self.play_over:
            raise Refusal("hand_over")
        deal = self.deal
        if deal is None or self.showing is not None:
            raise Refusal("not_expected", seat=seat, step=self.pending().kind)
        limit = self.game.redeal_claim_limit(seat, deal.leader, deal.played)
        if self.hands is not None:
            if shown is not None:
                raise BadRequest('the hands are known: do not send "hand"')
            cards = list(self.hands[seat])
        else:
            if shown is None:
                raise BadRequest('"hand" is missing')
            cards = list(shown())
            size = self.game.hand_size
            if len(cards) != size or len(set(cards)) != len(cards):
                raise BadRequest(f'"hand" must be the seat\'s {size} different cards')
            for other in range(self.game.players):
                if other != seat and set(deal.hand_of(other)) & set(cards):
                    raise BadRequest(f"some of those cards are known to be seat {other}'s")
        points = self.game.redeal_points(seat, cards, limit)
        self._grant(seat)
        self._actions.append(("claim_redeal", seat, (lambda: cards) if shown else None))
        return FlowEvent("chosen", seat, data={"choice": f"redeal:{seat}", "redeal": True,
                                               "points": points, "limit": limit})

    def denounce(self, accuser: int, accused: int) -> FlowEvent:
        """`accuser` says `accused` revoked (the referee's `denounce`, and the
        table's `denounce:S`): the hand ends with a penalty, or the denounce
        is refused and nothing changes."""
        if self.redeal is not None or self.accepted:
            raise Refusal("hand_over")
        if self.deal is None or self.showing is not None:
            raise Refusal("not_expected", seat=accuser, step=self.pending().kind)
        penalty = self.deal.denounce(accuser, accused)
        self._actions.append(("denounce", accuser, accused))
        return FlowEvent("chosen", accuser, data={"choice": f"denounce:{accused}",
                                                  "penalty": penalty.to_json()})


    # ----- internals ---------------------------------------------------------------

    def _claim_order(self) -> list[int]:
        assert self.deal is not None
        lead = self.deal.leader
        return [(lead + k) % self.game.players for k in range(self.game.players)]

    def _card(self, seat: int, card: Card) -> FlowEvent:
        step = self.pending()
        if step.kind != "card":
            return super().card(seat, card)
        return self._show_hand_card(seat, card)

    def _show_hand_card(self, seat: int, card: Card) -> FlowEvent:
        deal = self.deal
        assert deal is not None and self.showing is not None
        family = self.game.pack.family
        if seat != self.showing:
            raise Refusal("not_your_turn", seat=seat, turn=self.showing, family=family)
        card = self.game.pack.parse(card.code)
        if card in self.showing_cards:
            raise Refusal("already_played", seat=seat, card=card.code, family=family)
        for other, known in enumerate(deal.known):
            if other != seat and known >> self.game.pack.slots_of(card)[0] & 1:
                raise Refusal("not_in_hand", seat=seat, card=card.code, family=family)
        self.showing_cards.append(card)
        if len(self.showing_cards) < self.game.hand_size:
            return FlowEvent("shown", seat, card)
        limit = self.game.redeal_claim_limit(seat, deal.leader, deal.played)
        points, refused = self.game.redeal_verdict(seat, self.showing_cards, limit)
        granted = refused is None
        if granted:
            self._grant(seat)
        else:
            deal.known[seat] |= self.game.pack.mask(self.showing_cards)
            self.refused.add(seat)
        self.showing = None
        self.showing_cards = []
        return FlowEvent("chosen", seat, card,
                         data={"redeal": granted, "points": points, "limit": limit})

    def _choose(self, seat: int, choice: str) -> FlowEvent:
        step = self.pending()
        if step.kind == "done":
            raise Refusal("hand_over")
        if choice not in step.choices:
            raise Refusal("not_expected", seat=seat, step=step.kind)
        if choice == "accept":
            self.accepted = True
            return FlowEvent("chosen", seat, data={"choice": choice})
        what, _, target = choice.partition(":")
        subject = int(target)
        assert self.deal is not None
        if what == "denounce":
            n = self.game.players
            accuser = seat if self.game.team_of(seat) != self.game.team_of(subject) \
                else (subject + 1) % n
            penalty = self.deal.denounce(accuser, subject)
            return FlowEvent("chosen", seat, data={"choice": choice,
                                                   "penalty": penalty.to_json()})
        return self._claim(subject)

    def _grant(self, seat: int) -> None:
        """A redeal claim of `seat` is granted: the hand ends here."""
        assert self.deal is not None
        self.redeal = seat
        self.deal.end_by_redeal()

    def _claim(self, seat: int) -> FlowEvent:
        assert self.deal is not None
        limit = self.game.redeal_claim_limit(seat, self.deal.leader, self.deal.played)
        if self.hands is None:
            self.showing = seat
            self.showing_cards = []
            return FlowEvent("chosen", seat, data={"choice": f"redeal:{seat}"})
        points = self.game.redeal_points(seat, self.hands[seat], limit)
        self._grant(seat)
        return FlowEvent("chosen", seat, data={"choice": f"redeal:{seat}", "redeal": True,
                                               "points": points, "limit": limit})

