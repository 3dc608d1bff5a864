"""A guard for amqtt's broker (0.12): it walks its subscriptions dict while
it waits (`for topic in self._subscriptions: await ...` when a persistent
session connects again, `_run_broadcast` while it keeps a message for an
offline session), so a client subscribing at that moment makes Python raise
"dictionary changed size during iteration": the connection being served is
dropped and asyncio writes the traceback into the hub's log. This happens
whenever the hub or a table reconnects while tables subscribe (after any
restart of the broker).

`guard(broker)` gives the broker a subscriptions dict whose iterations walk
a copy of its keys, so what is added meanwhile waits for the next walk.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class SnapshotDict(dict[Any, Any]):
    """A dict whose iterations walk a copy: it may change while they wait."""

    def __iter__(self) -> Iterator[Any]:
        return iter(list(super().keys()))

    def keys(self) -> Any:  # a view of a copy (a dict's own view type)
        return dict.fromkeys(list(super().keys())).keys()

    def items(self) -> Any:  # a view of a copy (a dict's own view type)
        return dict(super().items()).items()

    def values(self) -> Any:  # a view of a copy (a dict's own view type)
        return dict(super().items()).values()


def guard(broker: Any) -> None:
    """Make `broker` (an `amqtt.broker.Broker`) walk copies of its subscriptions."""
    subs = getattr(broker, "_subscriptions", None)
    if isinstance(subs, dict) and not isinstance(subs, SnapshotDict):
        broker._subscriptions = SnapshotDict(subs)
