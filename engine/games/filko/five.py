"""Five-player Filkó as the registry hands it out: the rules with their hand flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.games.filko.five_flow import Filko5Flow
from engine.games.filko.five_rules import Filko5Rules
from engine.match import MatchState


class Filko5(Filko5Rules):
    """Five-player Filkó (see `engine.games.filko.five_rules`)."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None, old_man: int | None = None) -> Filko5Flow:
        return Filko5Flow(self, state, hands, trump, old_man)
