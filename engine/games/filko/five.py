"""Five-player Filkó as the registry hands it out: the rules with their hand flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.errors import BadRequest
from engine.games.filko.five_flow import Filko5Flow
from engine.games.filko.five_rules import Filko5Rules
from engine.match import MatchState


class Filko5(Filko5Rules):
    """Five-player Filkó (see `engine.games.filko.five_rules`)."""

    def hand_flow(self, state: MatchState, hands: Sequence[Iterable[Card]] | None = None,
                  trump: str | None = None, old_man: int | None = None) -> Filko5Flow:
        return Filko5Flow(self, state, hands, trump, old_man)

    def flow_with_trump(self, state: MatchState | None,
                        hands: Sequence[Iterable[Card]] | None, trump: str, *,
                        shown: Sequence[Card] = (), leader: int | None = None) -> Filko5Flow:
        """The hand with trumps given: only while there are masters (else
        the Old Man calls, a step of the flow); from its match state."""
        if state is None or shown:
            raise BadRequest("a five-player Filkó hand starts from its match state, "
                             "with no cards shown")
        return self.hand_flow(state, hands, trump)
