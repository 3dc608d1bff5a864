"""Undo by replaying, for hand flows whose steps change a lot of state.

Such a flow records every accepted action; `undo` builds a fresh flow from
the same arguments and replays every action but the last, then takes over its
state. Slower than undoing in place, but it can never restore a state a
little differently from the one that was there.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalPlay
from engine.flow import FlowEvent


class ReplayUndo:
    """Mixin for a `HandFlow`: set `_args` and `_kwargs` (the constructor's
    arguments) and `_actions` in `__init__`, and append `(method, seat, what)`
    to `_actions` for every accepted action: `("card", seat, card)`,
    `("choose", seat, choice)`, or another method of the flow called as
    `method(seat, what)` (Sueca's `claim_redeal` and `denounce`)."""

    _args: tuple[Any, ...]
    _kwargs: dict[str, Any]
    _actions: list[tuple[str, Any, Any]]

    def undo(self) -> FlowEvent:
        """Take back the last action of the hand, whatever its kind."""
        if not self._actions:
            raise IllegalPlay("nothing_to_undo")
        kind, seat, what = self._actions[-1]
        fresh: Any = type(self)(*self._args, **self._kwargs)
        for k, s, w in self._actions[:-1]:
            getattr(fresh, k)(s, w)
        self.__dict__.update(fresh.__dict__)
        if kind == "card":
            return FlowEvent("undone", seat, what, data={"action": "card"})
        if kind == "choose":
            return FlowEvent("undone", seat, data={"action": "choose", "choice": what})
        return FlowEvent("undone", seat, data={"action": kind})
