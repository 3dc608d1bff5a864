"""The registry of games, looked up by id (python-chess style variants).

Every game lives in its own package under `engine/games/`; `GAMES` names the
class that implements each id. A game's package is imported the first time
its id is asked for. Nothing registers itself by being imported: this table
is the registry of the games that ship. A program may add a game of its own
with `register` (a test's toy game, say); `game_ids` lists only the shipped
games.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from engine.errors import UnknownGame
from engine.game import Game
from engine.messages import Catalogue

__all__ = ["GAMES", "all_messages", "catalogue", "game_class", "game_ids", "get_game", "register"]

#: Where each game id is implemented (`module:Class`), in the spec's order.
GAMES: Mapping[str, str] = {
    "filicau": "engine.games.filicau.game:Filicau",
    "filko": "engine.games.filko.game:Filko",
    "filko_hats": "engine.games.filko.game:FilkoHats",
    "filko5": "engine.games.filko.five:Filko5",
    "filko6": "engine.games.filko.game:Filko6",
    "filcau20": "engine.games.filcau20.game:Filcau20",
    "sueca": "engine.games.sueca.game:Sueca",
    "fildinsky": "engine.games.fildinsky.game:Fildinsky",
}

_loaded: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make `cls` available under `cls.id` (for a game that
    does not ship; a shipped game's id is in `GAMES`)."""
    if not cls.id:
        raise ValueError(f"{cls.__name__} has no id")
    if cls.id in GAMES:
        raise ValueError(f"{cls.id!r} is a game that ships with the engine")
    _loaded[cls.id] = cls
    return cls


def game_class(game_id: object) -> type[Game]:
    """The class of the game called `game_id` (raises `UnknownGame`)."""
    if not isinstance(game_id, str):
        raise UnknownGame(game_id)
    cls = _loaded.get(game_id)
    if cls is None and game_id not in GAMES:
        raise UnknownGame(game_id)
    if cls is None:
        module, _, name = GAMES[game_id].partition(":")
        found = getattr(importlib.import_module(module), name)
        if not (isinstance(found, type) and issubclass(found, Game) and found.id == game_id):
            raise TypeError(f"{GAMES[game_id]} is not the game {game_id!r}")
        cls = _loaded[game_id] = found
    return cls


def get_game(game_id: object, options: Mapping[str, Any] | None = None) -> Game:
    """A game with validated options: `get_game("filicau")`."""
    return game_class(game_id)(options)


def game_ids() -> list[str]:
    """The ids of every game, in the spec's order."""
    return list(GAMES)


def catalogue(game_id: object) -> Catalogue:
    """The sentences of the game called `game_id`: the engine's own codes and
    the game's (`Game.messages`)."""
    return game_class(game_id).messages


def all_messages() -> Catalogue:
    """Every shipped game's catalogue joined: every code the engine can give."""
    out = Catalogue({})
    for gid in GAMES:
        out = out | catalogue(gid)
    return out
