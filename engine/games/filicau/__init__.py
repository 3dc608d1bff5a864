"""Filicău, the Romanian game (docs/games/filicau.md).

One way, bottom to top: `rules` (the pack and ranking, the match state;
the status table is the engine's `engine.masters`, shared with the other
Romanian-scored games) ← `game` (`Filicau`: trumps from the dealer's cards, the deal,
the match; registered). Its hand is the engine's plain `HandFlow`.
"""

from engine.games.filicau.game import Filicau
from engine.games.filicau.rules import (
    FILICAU_RANKING,
    OVERS,
    FilicauState,
    outcome_class,
)
from engine.masters import parse_status, status_text
from engine.masters import romanian_status_after as status_after

__all__ = ["FILICAU_RANKING", "OVERS", "Filicau", "FilicauState", "outcome_class",
           "parse_status", "status_after", "status_text"]
