"""Filkó, the Hungarian game: for four (`filko`), with Hats (`filko_hats`), for
six (`filko6`) and for five (`filko5`) (docs/games/filko*.md).

One way, bottom to top: `common` (packs, rankings, the cut, the deal in
packets, its sentences) ← `match` (masters, Servant, Hats: the match states)
← `rules` (what the cut games share) ← `flow` (the cut and the play as the
table lives them) ← `game` (`Filko`, `Filko6`, `FilkoHats`, registered).
Five players: `common` ← `five_deal` (the call, the secret partner) ←
`five_match` ← `five_rules` ← `five_flow` ← `five` (`Filko5`, registered).
"""

from engine.games.filko.five import Filko5
from engine.games.filko.five_deal import Filko5Deal
from engine.games.filko.five_flow import Filko5Flow
from engine.games.filko.five_match import Filko5State
from engine.games.filko.flow import FilkoFlow
from engine.games.filko.game import Filko, Filko6, FilkoCutGame, FilkoHats, HungarianFilko
from engine.games.filko.match import FilkoState, HatsState

__all__ = ["Filko", "Filko5", "Filko5Deal", "Filko5Flow", "Filko5State", "Filko6",
           "FilkoCutGame", "FilkoFlow", "FilkoHats", "FilkoState", "HatsState",
           "HungarianFilko"]
