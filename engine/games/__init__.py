"""The registry of games, looked up by id (python-chess style variants).

Each game lives in its own module, imported the first time its id is asked
for; `register` is the class decorator a game module applies.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from engine.errors import UnknownGame
from engine.games.base import DealtHands, Game, MatchState

__all__ = ["DealtHands", "Game", "MatchState", "game_class", "game_ids", "get_game", "register"]

#: Where each game id is implemented. A module that is not there yet makes the
#: id unknown rather than breaking the registry.
_MODULES: dict[str, str] = {
    "filicau": "engine.games.filicau",
    "filko": "engine.games.filko",
    "filko_hats": "engine.games.filko",
    "filko5": "engine.games.filko5",
    "filko6": "engine.games.filko",
    "filcau20": "engine.games.filcau20",
    "sueca": "engine.games.sueca",
    "fildinsky": "engine.games.fildinsky",
}

_REGISTRY: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make `cls` available under `cls.id`."""
    if not cls.id:
        raise ValueError(f"{cls.__name__} has no id")
    _REGISTRY[cls.id] = cls
    return cls


def game_class(game_id: object) -> type[Game]:
    if not isinstance(game_id, str):
        raise UnknownGame(game_id)
    if game_id not in _REGISTRY:
        module = _MODULES.get(game_id)
        if module is None:
            raise UnknownGame(game_id)
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            raise UnknownGame(game_id) from None
    try:
        return _REGISTRY[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


def get_game(game_id: object, options: Mapping[str, Any] | None = None) -> Game:
    """A game with validated options: `get_game("filicau")`."""
    return game_class(game_id)(options)


def game_ids() -> list[str]:
    """The ids of every game that is implemented, in the spec's order."""
    out = []
    for gid in _MODULES:
        try:
            game_class(gid)
        except UnknownGame:
            continue
        out.append(gid)
    return out
