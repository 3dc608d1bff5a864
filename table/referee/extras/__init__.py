"""Game-specific referee ops.

A module here exports `OPS: dict[str, handler]`; a handler takes the
`Referee` and the `Request` and returns the answer object. Ops named like a
generic one (`new_hand`, `settle`, ...) replace it for that game. Every op is
documented with an example in `docs/referee.md`.

A module may also export `EXPORT(hand) -> list[request]`: how `cardtable
export` writes a hand the table recorded (`table.export.RecordedHand`) with
these ops, so that the referee replays it to the same results.

There is no list of games here: a game's module is named like its package in
the engine (`engine.games.filko` -> `filko`, for every Filkó game), found
through the engine's registry; a game without a module uses the generic ops.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.errors import UnknownGame
from engine.registry import game_class


def _module_of(game_id: str) -> str | None:
    """The name of the game's package under `engine.games` (None: not a game)."""
    try:
        module = game_class(game_id).__module__
    except UnknownGame:
        return None
    parts = module.split(".")
    if len(parts) < 3 or parts[:2] != ["engine", "games"]:
        return None
    return parts[2]

_CACHE: dict[str, dict[str, Any]] = {}
_EXPORTS: dict[str, Any] = {}


def _load(game_id: str) -> str | None:
    """Import the game's module (once); its key in the caches, or None."""
    module = _module_of(game_id)
    if module is None:
        return None
    if module not in _CACHE:
        name = f"{__name__}.{module}"
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            _CACHE[module] = {}
            _EXPORTS[module] = None
        else:
            _CACHE[module] = dict(mod.OPS)
            _EXPORTS[module] = getattr(mod, "EXPORT", None)
    return module


def extra_ops(game_id: str) -> dict[str, Any]:
    """The extra ops of a game (empty when it has none)."""
    module = _load(game_id)
    return _CACHE[module] if module is not None else {}


def export_hook(game_id: str) -> Any:
    """The game's `EXPORT` hook (None: the generic export fits the game)."""
    module = _load(game_id)
    return _EXPORTS[module] if module is not None else None
