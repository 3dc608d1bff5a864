"""Filicău, the Romanian game (docs/games/filicau.md).

One way, bottom to top: `rules` (the pack and ranking, the status table, the
match state) ← `game` (`Filicau`: trumps from the dealer's cards, the deal,
the match; registered). Its hand is the engine's plain `HandFlow`.
"""

from engine.games.filicau.game import Filicau
from engine.games.filicau.rules import (
    FILICAU_RANKING,
    OVERS,
    FilicauState,
    outcome_class,
    parse_status,
    status_after,
    status_text,
)

__all__ = ["FILICAU_RANKING", "OVERS", "Filicau", "FilicauState", "outcome_class",
           "parse_status", "status_after", "status_text"]
