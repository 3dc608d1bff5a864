"""The 20-card Filcău as the registry hands it out: the rules with their hand flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.games.filcau20.flow import Filcau20Flow
from engine.games.filcau20.rules import Filcau20Rules
from engine.match import MatchState


class Filcau20(Filcau20Rules):
    """The 20-card Filcău (see `engine.games.filcau20.rules`)."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None) -> Filcau20Flow:
        return Filcau20Flow(self, state, hands, trump)
