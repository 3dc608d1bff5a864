"""Undo by replaying, for hand flows whose steps change a lot of state.

Such a flow records every accepted action; `undo` builds a fresh flow from
the same arguments and replays every action but the last, then takes over its
state (the hand's deal stays the same object). Slower than undoing in place,
but it can never restore a state a little differently from the one that was
there.
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
        old_deal, new_deal = getattr(self, "deal", None), fresh.deal
        if old_deal is not None and type(new_deal) is type(old_deal):
            # The same deal object, its state restored: whoever holds the
            # hand's deal (the referee's session, a review) sees the undo.
            old_deal.__dict__.clear()
            old_deal.__dict__.update(new_deal.__dict__)
            fresh.deal = old_deal
        self.__dict__.update(fresh.__dict__)
        if kind == "card":
            return FlowEvent("undone", seat, what, data={"action": "card"})
        if kind == "choose":
            return FlowEvent("undone", seat, data={"action": "choose", "choice": what})
        return FlowEvent("undone", seat, data={"action": kind})
