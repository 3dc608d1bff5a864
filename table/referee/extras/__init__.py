"""Game-specific referee ops.

A module here exports `OPS: dict[str, handler]`; a handler takes the
`Referee` and the `Request` and returns the answer object. Ops named like a
generic one (`new_hand`, `settle`, ...) replace it for that game. Every op is
documented with an example in `docs/referee.md`.
"""

from __future__ import annotations

import importlib
from typing import Any

#: game id -> module under table.referee.extras holding its ops (if any).
_MODULES: dict[str, str] = {
    "filko": "filko",
    "filko_hats": "filko",
    "filko5": "filko",
    "filko6": "filko",
    "filcau20": "filcau20",
    "sueca": "sueca",
    "fildinsky": "fildinsky",
}

_CACHE: dict[str, dict[str, Any]] = {}


def extra_ops(game_id: str) -> dict[str, Any]:
    """The extra ops of a game (empty when it has none)."""
    module = _MODULES.get(game_id)
    if module is None:
        return {}
    if module not in _CACHE:
        name = f"{__name__}.{module}"
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            _CACHE[module] = {}
        else:
            _CACHE[module] = dict(mod.OPS)
    return _CACHE[module]
