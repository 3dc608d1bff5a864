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

    def referee_flow(self, state: MatchState | None, turn_up: Card,
                     hands: Sequence[Iterable[Card]] | None = None,
                     stock: Sequence[Card] | None = None,
                     leader: int | None = None) -> FildinskyFlow:
        """The same flow for the referee: the turned-up card known from the
        start, draws made by request (see `engine.games.fildinsky.flow`),
        and without `state` a hand on its own led by `leader`."""
        return FildinskyFlow(self, state, hands, turn_up=turn_up, stock=stock, leader=leader,
                             draws="request")
