"""A hand of five-player Filkó as the table lives it.

Steps of a fresh hand (no masters):

1. `card` (hands unknown only): the Old Man taps his Over of acorns (or,
   with `old_man_card` = `top_trump`, the top permanent trump) on his reader,
   so the table knows who he is. With the hands known the table already does.
2. `choose` by the Old Man: the trump suit (`choices` are suit letters).
3. `choose` by the Old Man: the called card (`choices` are card codes), in the
   Old Man game and the called form of Rich and Poor.
4. `play` until the hand is over, then `done`.

While there are masters the teams, the trump and the leader carry over from
the match state, so the hand starts at `play`. `view(seat)` tells what a seat
may know; it never shows the secret partner before the partner card is played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.cards import Card
from engine.errors import BadRequest
from engine.flow import FlowEvent, HandFlow, HandResult, Step
from engine.games.filko.common import packet_layout
from engine.games.filko.five_deal import Filko5Deal
from engine.games.filko.five_match import Filko5State
from engine.games.filko.five_rules import Filko5Rules
from engine.games.filko.flow import SeatView, own_cards, public_play
from engine.games.filko.messages import Refusal
from engine.match import MatchState


class Filko5Flow(HandFlow):
    """See the module docstring."""

    game: Filko5Rules
    deal: Filko5Deal | None
    #: Always started from a match state, so always with a dealer.
    state: MatchState
    dealer: int

    def __init__(self, game: Filko5Rules, state: MatchState,
                 hands: Sequence[Iterable[Card]] | None = None,
                 trump: str | None = None, old_man: int | None = None) -> None:
        super().__init__(game, state, hands, None)
        self.old_man: int | None = None
        self.named: str | None = None
        self.called: Card | None = None
        if isinstance(state, Filko5State) and state.masters is not None:
            self.old_man = state.old_man
            self.named = state.trump
            if trump is not None and trump != self.named:
                raise BadRequest(f"while there are masters the trump stays {self.named}")
            if old_man is not None and old_man != self.old_man:
                raise BadRequest(f"while there are masters the Old Man stays seat {self.old_man}")
            self.trump = self.named
            self._start_play()
            return
        if self.hands is not None:
            self.old_man = game.holder_of(game.old_man_card, self.hands)
            if old_man is not None and old_man != self.old_man:
                raise BadRequest(f"seat {self.old_man} holds the {game.old_man_card}, so he is "
                                 "the Old Man")
        elif old_man is not None:
            self.old_man = old_man
        if trump is not None:
            if self.old_man is None:
                raise BadRequest("the Old Man must be known before trumps are named")
            if trump not in game.pack.suits:
                raise BadRequest(f"trump must be a suit letter: {' '.join(game.pack.suits)}")
            self.named = trump
            if not game.uses_call:
                self.trump = trump
                self._start_play()

    # ----- questions -------------------------------------------------------------

    @property
    def fixed(self) -> bool:
        """Teams, trump and leader carried over from masters."""
        return getattr(self.state, "masters", None) is not None

    def pending(self) -> Step:
        if self.deal is None:
            if self.old_man is None:
                return Step("card", None, "filko5_show_old_man", (self.game.old_man_card.code,))
            if self.named is None:
                return Step("choose", self.old_man, "filko5_name_trump", self.trump_choices())
            return Step("choose", self.old_man, "filko5_call_card",
                        tuple(c.code for c in self.call_choices(self.named)))
        if not self.deal.finished:
            return Step("play", self.deal.turn, "play")
        return Step("done")

    def _old_man_hand(self) -> list[Card] | None:
        if self.hands is None or self.old_man is None:
            return None
        return self.hands[self.old_man]

    def call_choices(self, suit: str) -> list[Card]:
        return self.game.callable_cards(suit, self._old_man_hand())

    def trump_choices(self) -> tuple[str, ...]:
        if not self.game.uses_call:
            return tuple(self.game.pack.suits)
        return tuple(s for s in self.game.pack.suits if self.call_choices(s))

    def known_cards(self) -> dict[int, list[Card]]:
        if self.old_man is None or self.fixed:
            return {}
        return {self.old_man: [self.game.old_man_card]}

    def teams(self) -> tuple[int, ...] | None:
        """Every seat's team (0 = the Old Man's side) once that is public."""
        return self.deal.teams() if self.deal is not None else None

    def result(self) -> HandResult:
        base = super().result()
        assert self.deal is not None
        return HandResult(base.points, base.tricks, {
            "teams": list(self.teams() or ()), "old_man": self.old_man, "trump": self.trump,
            "called": self.called.code if self.called is not None else None})

    def settled(self) -> MatchState:
        if self.deal is None or not self.deal.finished:
            raise BadRequest("the hand is not over")
        return self.game.settle_deal(self.state, self.deal)

    def view(self, seat: int | None = None) -> SeatView:
        """What `seat` may know (None: what everybody knows)."""
        n = self.game.players
        hand, legal = own_cards(self, seat)
        if self.deal is not None:
            teams = self.deal.teams_seen_by(seat)
            team_points = self.deal.team_points_seen_by(seat)
        else:
            teams = tuple(0 if s == self.old_man else None for s in range(n))
            team_points = None
        return SeatView(seat, self.pending(), self.dealer, self.trump, (), hand, legal,
                        teams=teams, team_points=team_points, old_man=self.old_man,
                        called=self.called, **public_play(self.deal, n))

    # ----- dealing at the table ---------------------------------------------------

    def deal_order(self) -> tuple[int, ...]:
        """Two packets of 3 each from the player after the dealer."""
        return tuple(packet_layout(self.game.players, self.dealer, self.game.packets))

    def after_deal(self, dealt: Sequence[tuple[int, Card]]) -> list[FlowEvent]:
        """Nothing to show: with the hands read, the Old Man is known already."""
        return []

    # ----- actions ---------------------------------------------------------------

    def card(self, seat: int, card: Card) -> FlowEvent:
        step = self.pending()
        if step.kind != "card":
            return super().card(seat, card)
        card = self.game.pack.parse(card.code)
        if card != self.game.old_man_card:
            raise Refusal("filko_not_a_choice", choice=card.code, choices=step.choices[0])
        self.old_man = seat
        self._log.append(("old_man", seat))
        return FlowEvent("shown", seat, card, data={"old_man": seat})

    def _not_playing(self, seat: int, step: Step) -> None:
        """No card is played before the Old Man has called."""
        raise Refusal("filko5_call_first", seat=step.seat)

    def choose(self, seat: int, choice: str) -> FlowEvent:
        step = self.pending()
        if step.kind != "choose":
            raise Refusal("not_expected", seat=seat, step=step.kind)
        if seat != step.seat:
            raise Refusal("not_your_turn", seat=seat, turn=step.seat,
                              family=self.game.pack.family)
        if step.prompt == "filko5_name_trump":
            if choice not in step.choices:
                raise Refusal("filko_not_a_choice", choice=str(choice),
                                  choices=", ".join(step.choices))
            self.named = choice
            self._log.append(("trump", seat))
            if not self.game.uses_call:
                self.trump = choice
                self._start_play()
            return FlowEvent("chosen", seat, data={"trump": choice})
        return self._call(seat, choice, step.choices)

    def _call(self, seat: int, choice: str, choices: Sequence[str]) -> FlowEvent:
        if choice not in choices:
            hand = self._old_man_hand()
            if hand is not None and choice in {c.code for c in hand} and choice in {
                    c.code for c in self.game.callable_cards(str(self.named), None)}:
                raise Refusal("filko5_call_own", seat=seat, card=choice,
                                  family=self.game.pack.family)
            raise Refusal("filko_not_a_choice", choice=str(choice),
                              choices=", ".join(choices))
        self.called = self.game.pack.parse(choice)
        self.trump = self.named
        self._start_play()
        self._log.append(("call", seat))
        return FlowEvent("chosen", seat, self.called, data={"called": choice,
                                                            "trump": self.trump})

    def call(self, seat: int, card: Card | None = None, trump: str | None = None
             ) -> list[FlowEvent]:
        """The Old Man's whole call at once: a card (its suit is trumps), or
        under Rich and Poor by Overs just the trump suit."""
        events: list[FlowEvent] = []
        if self.game.uses_call:
            if card is None or trump is not None:
                raise BadRequest('the Old Man calls a card: give "card" (its suit is trumps)')
            events.append(self.choose(seat, card.suit))
            try:
                events.append(self.choose(seat, card.code))
            except Exception:
                self.undo()
                raise
            return events
        if trump is None or card is not None:
            raise BadRequest('under Rich and Poor by Overs the Old Man names trumps: give '
                             '"trump", a suit letter')
        return [self.choose(seat, trump)]

    def undo_play(self) -> FlowEvent:
        """The referee's `undo`: a call made with `call` (the trump and the
        called card at once) is taken back whole."""
        event = super().undo_play()
        if event.data.get("action") == "call" and self._log and self._log[-1][0] == "trump":
            self.undo()
        return event

    def _undo_other(self, kind: str, data: Any) -> FlowEvent:
        if kind == "old_man":
            self.old_man = None
            return FlowEvent("undone", data, data={"action": "old_man"})
        if kind == "trump":
            named, self.named = self.named, None
            self.deal = None
            self.trump = None
            return FlowEvent("undone", data, data={"action": "trump", "trump": named})
        if kind == "call":
            called, self.called = self.called, None
            self.deal = None
            self.trump = None
            return FlowEvent("undone", data, called, data={"action": "call"})
        return super()._undo_other(kind, data)

    def _start_play(self) -> None:
        assert self.old_man is not None and self.trump is not None
        game = self.game
        leader = game.leader_for(self.old_man, self.dealer)
        known = None if self.hands is not None else self.known_cards()
        state_teams = getattr(self.state, "teams", None) if self.fixed else None
        chain = () if state_teams is not None else game.partner_chain(self.called)
        forbid = (self.hands is None and game.uses_call
                  and not game.options["old_man_may_call_own_card"])
        self.deal = game.new_deal(self.trump, leader, self.hands, known, old_man=self.old_man,
                                  chain=chain, teams=state_teams, forbid_own_call=forbid)


