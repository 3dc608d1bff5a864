"""The four- and six-player Filkó hand as the table lives it, and what one seat
may see of a hand.

Steps: the cutter shows the cards of the cut, bottom card first, until one is
not a permanent trump (`show`); the hand is played (`play`); if a team has
just become master for the first time, the masters choose the Servant
(`choose`, choices are seat numbers); then `done`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.deal import Deal, Trick
from engine.errors import BadRequest
from engine.flow import FlowEvent, HandFlow, Step
from engine.games.filko.common import packet_layout
from engine.games.filko.messages import Refusal
from engine.games.filko.rules import FilkoCutRules
from engine.match import MatchState


@dataclass(frozen=True)
class SeatView:
    """What `seat` may know of the hand now (`seat=None`: what everybody
    knows, for the table's own screen). `hand` and `legal` are the seat's own
    cards and legal plays (empty when the table does not know the hands).
    `teams[s]` is seat `s`'s team, or None where this viewer cannot know it;
    `team_points` is None until every seat's team is known to the viewer."""

    seat: int | None
    step: Step
    dealer: int
    trump: str | None
    shown: tuple[Card, ...]
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    seat_points: tuple[int, ...]
    teams: tuple[int | None, ...]
    team_points: tuple[int, int] | None
    old_man: int | None = None
    called: Card | None = None


def trick_so_far(deal: Deal) -> tuple[tuple[int, Card], ...]:
    return tuple(((deal.leader + i) % deal.n, c) for i, c in enumerate(deal.current_trick))


def public_play(deal: Deal | None, n: int) -> dict[str, Any]:
    """The parts of a view everybody sees: the trick, the tricks, points by seat."""
    if deal is None:
        return {"trick": (), "tricks": (), "seat_points": (0,) * n}
    return {"trick": trick_so_far(deal), "tricks": tuple(deal.tricks),
            "seat_points": tuple(deal.points)}


def own_cards(flow: HandFlow, seat: int | None) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(the seat's cards still held, its legal plays now) when the hands are known."""
    if seat is None or flow.hands is None:
        return (), ()
    deal = flow.deal
    if deal is None:
        return tuple(flow.hands[seat]), ()
    legal: tuple[Card, ...] = ()
    if not deal.finished and deal.turn == seat:
        legal = tuple(deal.legal_cards(seat))
    return tuple(deal.hand_of(seat)), legal


def parse_seat_choice(choice: object, choices: Sequence[str]) -> int:
    if not isinstance(choice, str | int) or isinstance(choice, bool) or str(choice) not in choices:
        raise Refusal("filko_not_a_choice", choice=str(choice), choices=", ".join(choices))
    return int(choice)


class FilkoFlow(HandFlow):
    """A hand of `filko`, `filko_hats` or `filko6` (see the module docstring)."""

    game: FilkoCutRules
    #: Always started from a match state, so always with a dealer.
    state: MatchState
    dealer: int

    def __init__(self, game: FilkoCutRules, state: MatchState,
                 hands: Sequence[Iterable[Card]] | None = None,
                 trump: str | None = None) -> None:
        self.servant: int | None = None
        if trump is not None and trump not in game.pack.suits:
            raise BadRequest(f"trump must be a suit letter: {' '.join(game.pack.suits)}")
        super().__init__(game, state, hands, trump)

    # ----- questions -------------------------------------------------------------

    @property
    def cutter(self) -> int:
        return self.game.cutter(self.dealer)

    def servant_choices(self) -> tuple[int, ...]:
        """The seats the masters may choose from now (empty: no choice to make)."""
        if self.deal is None or not self.deal.finished:
            return ()
        return self.game.servant_choices(self.state, self.deal.team_points())

    def pending(self) -> Step:
        if self.deal is None:
            return Step("show", self.cutter, "filko_show_cut")
        if not self.deal.finished:
            return Step("play", self.deal.turn, "play")
        choices = self.servant_choices()
        if choices and self.servant is None:
            n = self.game.players
            masters = 1 - self.game.team_of(choices[0])
            chooser = next(s for s in ((self.dealer + 1 + i) % n for i in range(n))
                           if self.game.team_of(s) == masters)
            return Step("choose", chooser, "filko_choose_servant", tuple(str(s) for s in choices))
        return Step("done")

    @property
    def finished(self) -> bool:
        return self.pending().kind == "done"

    def settled(self) -> MatchState:
        step = self.pending()
        if step.kind == "choose":
            raise BadRequest("the masters must choose the Servant first")
        if step.kind != "done":
            raise BadRequest("the hand is not over")
        assert self.deal is not None
        return self.game.settle(self.state, self.deal.team_points(), self.deal.team_tricks(),
                                servant=self.servant)

    def known_cards(self) -> dict[int, list[Card]]:
        """The cards of the cut belong to the seats they are dealt to: the
        dealer's last packet, then the packet before it (§2.B.1, §2.B.2)."""
        out: dict[int, list[Card]] = {}
        for c, seat in zip(self.shown, self.game.cut_recipients(self.dealer), strict=False):
            out.setdefault(seat, []).append(c)
        return out

    def view(self, seat: int | None = None) -> SeatView:
        """What `seat` (None: everybody) may know. Teams are fixed by seat here."""
        n = self.game.players
        hand, legal = own_cards(self, seat)
        team_points = None
        if self.deal is not None:
            tp = self.deal.team_points()
            team_points = (tp[0], tp[1])
        return SeatView(seat, self.pending(), self.dealer, self.trump, tuple(self.shown), hand,
                        legal, teams=tuple(self.game.team_of(s) for s in range(n)),
                        team_points=team_points, **public_play(self.deal, n))

    # ----- dealing at the table ---------------------------------------------------

    def deal_order(self) -> tuple[int, ...]:
        """Packets of 4+4 (3+2 for six players) from the player after the dealer."""
        return tuple(packet_layout(self.game.players, self.dealer, self.game.packets))

    def after_deal(self, dealt: Sequence[tuple[int, Card]]) -> list[FlowEvent]:
        """A table that read the deal knows the cut: the cards looked at are
        the last ones dealt, the very last first. Show them for the cutter
        until trumps are fixed."""
        events: list[FlowEvent] = []
        for _seat, c in reversed(dealt):
            step = self.pending()
            if step.kind != "show":
                break
            events.append(self.card(self.cutter, c))
        return events

    # ----- actions ---------------------------------------------------------------

    def choose(self, seat: int, choice: str) -> FlowEvent:
        step = self.pending()
        if step.kind != "choose":
            raise Refusal("not_expected", seat=seat, step=step.kind)
        if self.game.team_of(seat) != self.game.team_of(step.seat or 0):
            raise Refusal("not_your_turn", seat=seat, turn=step.seat,
                              family=self.game.pack.family)
        if str(choice) in {str(s) for s in range(self.game.players)} - set(step.choices):
            raise Refusal("filko_bad_servant", choice=str(choice),
                              choices=", ".join(step.choices), servant=int(choice),
                              seats=[int(c) for c in step.choices])
        self.servant = parse_seat_choice(choice, step.choices)
        self._log.append(("servant", seat))
        return FlowEvent("chosen", seat, data={"servant": self.servant})

    def _undo_other(self, kind: str, data: Any) -> FlowEvent:
        if kind == "servant":
            taken = self.servant
            self.servant = None
            return FlowEvent("undone", data, data={"action": "servant", "servant": taken})
        return super()._undo_other(kind, data)

    def _show(self, seat: int, card: Card) -> FlowEvent:
        family = self.game.pack.family
        if seat != self.cutter:
            raise Refusal("not_your_turn", seat=seat, turn=self.cutter, family=family)
        card = self.game.pack.parse(card.code)
        if card in self.shown:
            raise Refusal("already_played", seat=seat, card=card.code, family=family)
        owner = self.game.cut_recipients(self.dealer)[len(self.shown)]
        if self.hands is not None and card not in self.hands[owner]:
            raise Refusal("filko_not_cut_card", seat=seat, card=card.code, owner=owner,
                              family=family)
        self.shown.append(card)
        try:
            trump, used = self.game.trump_from_shown(self.shown)
        except BadRequest:
            self._log.append(("show", False))
            return FlowEvent("shown", seat, card, data={"to": owner})
        self.trump = trump
        self._start_play()
        self._log.append(("show", True))
        return FlowEvent("trump", seat, card, data={"trump": trump, "used": used, "to": owner})
