"""Fildinsky as the registry hands it out: the rules with their hand flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.games.fildinsky.flow import FildinskyFlow
from engine.games.fildinsky.rules import FildinskyRules
from engine.match import MatchState


class Fildinsky(FildinskyRules):
    """Fildinsky, the Polish Bézique (see `engine.games.fildinsky.rules`)."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None, *, turn_up: Card | None = None,
                  stock: Sequence[Card] | None = None) -> FildinskyFlow:
        return FildinskyFlow(self, state, hands, trump, turn_up=turn_up, stock=stock)
