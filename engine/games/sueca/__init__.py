"""Sueca, the Portuguese and Brazilian game (docs/games/sueca.md).

One way, bottom to top: `messages` (its sentences) ← `deal` (follow suit, the
denounce of a revoke) ← `rules` (pack, options, redeal, scoring, the match)
← `flow` (the hand as the table lives it) ← `game` (`Sueca`, registered).
"""

from engine.games.sueca.deal import Penalty, SuecaDeal
from engine.games.sueca.flow import SuecaFlow
from engine.games.sueca.game import Sueca
from engine.games.sueca.rules import SuecaRules, SuecaState, hand_points

__all__ = ["Penalty", "Sueca", "SuecaDeal", "SuecaFlow", "SuecaRules", "SuecaState",
           "hand_points"]
