"""Fildinsky, the Polish Bézique for two (docs/games/fildinsky.md).

One way, bottom to top: `messages` (its sentences) ← `melds` (the
combinations and their points) ← `legal` (following once the stock is empty,
revokes proven) ← `deal` (the play, melds, draws, the stock) ← `rules` (pack,
options, the deal, the match) ← `flow` (the hand as the table lives it) ←
`game` (`Fildinsky`, registered).
"""

from engine.games.fildinsky.deal import FildinskyDeal
from engine.games.fildinsky.flow import FildinskyFlow
from engine.games.fildinsky.game import Fildinsky
from engine.games.fildinsky.rules import DEAL_PATTERNS, FildinskyRules, FildinskyState

__all__ = ["DEAL_PATTERNS", "Fildinsky", "FildinskyDeal", "FildinskyFlow", "FildinskyRules",
           "FildinskyState"]
