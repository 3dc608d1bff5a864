"""Sueca as the registry hands it out: the rules with their hand flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.games.sueca.flow import SuecaFlow
from engine.games.sueca.rules import SuecaRules
from engine.match import MatchState


class Sueca(SuecaRules):
    """Sueca (see `engine.games.sueca.rules`)."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None) -> SuecaFlow:
        return SuecaFlow(self, state, hands, trump)

    def flow_with_trump(self, state: MatchState | None,
                        hands: Sequence[Iterable[Card]] | None, trump: str, *,
                        shown: Sequence[Card] = (), leader: int | None = None) -> SuecaFlow:
        return SuecaFlow(self, state, hands, trump, shown=shown, leader=leader)
