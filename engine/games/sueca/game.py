"""Sueca as the registry hands it out: the rules with their hand flow."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.cards import Card
from engine.errors import BadRequest, EngineError
from engine.games.sueca.deal import SuecaDeal
from engine.games.sueca.flow import SuecaFlow
from engine.games.sueca.rules import SuecaRules
from engine.match import MatchState


class Sueca(SuecaRules):
    """Sueca (see `engine.games.sueca.rules`)."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None) -> SuecaFlow:
        return SuecaFlow(self, state, hands, trump)

    def claim_redeal(self, deal: SuecaDeal, seat: int,
                     shown: Callable[[], Sequence[Card]] | None = None) -> int:
        """`seat` shows its whole hand before the first lead and asks for a
        new deal (the referee's `redeal`, one request). With the hands known
        the deal's cards are counted (`shown` must be None); else `shown()`
        gives the seat's `hand_size` different cards, none known to be another
        seat's (called only after the claim itself is allowed, so that a bad
        card code is reported after `redeal_too_late`). A granted claim ends
        the hand and returns its hand points; a refused one raises and
        changes nothing."""
        if deal.finished:
            raise EngineError("hand_over")
        limit = self.redeal_claim_limit(seat, deal.leader, deal.played)
        if deal.hands is not None:
            if shown is not None:
                raise BadRequest('the hands are known: do not send "hand"')
            cards = deal.hand_of(seat)
        else:
            if shown is None:
                raise BadRequest('"hand" is missing')
            cards = list(shown())
            if len(cards) != self.hand_size or len(set(cards)) != len(cards):
                raise BadRequest(f'"hand" must be the seat\'s {self.hand_size} different cards')
            for other in range(self.players):
                if other != seat and set(deal.hand_of(other)) & set(cards):
                    raise BadRequest(f"some of those cards are known to be seat {other}'s")
        points = self.redeal_points(seat, cards, limit)
        deal.end_by_redeal()
        return points
