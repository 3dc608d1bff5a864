"""The 20-card Filcău as the registry hands it out: the rules with their hand flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.errors import BadRequest
from engine.games.filcau20.flow import Filcau20Flow
from engine.games.filcau20.rules import Filcau20Rules
from engine.match import MatchState


class Filcau20(Filcau20Rules):
    """The 20-card Filcău (see `engine.games.filcau20.rules`)."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None) -> Filcau20Flow:
        return Filcau20Flow(self, state, hands, trump)

    def flow_with_trump(self, state: MatchState | None,
                        hands: Sequence[Iterable[Card]] | None, trump: str, *,
                        shown: Sequence[Card] = (), leader: int | None = None) -> Filcau20Flow:
        """The hand with trumps given; it always starts from its match state."""
        if state is None or shown:
            raise BadRequest("a 20-card Filcău hand starts from its match state, "
                             "with no cards shown")
        return self.hand_flow(state, hands, trump)
