"""The 20-card Romanian Filcău, with binding and fris (docs/games/filcau20.md).

One way, bottom to top: `messages` (its sentences) ← `binding` (calls and
bindings) ← `deal` (the play, the fris trick) ← `rules` (pack, options, the
ladder, the match) ← `flow` (knock, binding, cut, fris: the hand as the table
lives it) ← `game` (`Filcau20`, registered).
"""

from engine.games.filcau20.deal import Filcau20Deal, FrisTrick
from engine.games.filcau20.flow import Filcau20Flow
from engine.games.filcau20.game import Filcau20
from engine.games.filcau20.rules import Filcau20Rules, Filcau20State

__all__ = ["Filcau20", "Filcau20Deal", "Filcau20Flow", "Filcau20Rules", "Filcau20State",
           "FrisTrick"]
