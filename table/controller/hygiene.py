"""Read hygiene: from raw reader events to reads the table acts on.

* **Debounce**: a card counts once it has lain on a reader for `debounce_s`
  without leaving (a card swept past a reader never counts).
* **Presence**: which readers see a card right now, so that a card seen by
  two readers at once (crosstalk) can be given to the one that expects it.

The rest of the hygiene (the same card read twice is one play; a card lying
on the table that another reader picks up is ignored) needs the hand, and is
decided by the model (`TableModel.classify`) with `is_crosstalk` below.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class SteadyRead:
    """A card that has lain steadily on the reader at `place` since `since`."""

    due: float
    since: float
    place: int
    uid: str


class Debouncer:
    """Turns arrivals and departures into steady reads (see module docstring)."""

    def __init__(self, debounce_s: float) -> None:
        if debounce_s < 0:
            raise ValueError("the debounce time cannot be negative")
        self.debounce_s = debounce_s
        self._pending: list[SteadyRead] = []
        #: uid -> {place: arrival time} for every card lying on a reader now.
        self._present: dict[str, dict[int, float]] = {}

    def arrived(self, place: int, uid: str, now: float) -> None:
        self._present.setdefault(uid, {})[place] = now
        heapq.heappush(self._pending, SteadyRead(now + self.debounce_s, now, place, uid))

    def left(self, place: int, uid: str) -> None:
        at = self._present.get(uid)
        if at is not None:
            at.pop(place, None)
            if not at:
                del self._present[uid]

    def forget_place(self, place: int) -> None:
        """A reader went offline: nothing lies on it any more."""
        for uid in [u for u, at in self._present.items() if place in at]:
            self.left(place, uid)

    def due(self, now: float) -> list[SteadyRead]:
        """The reads that have become steady by `now`, oldest first."""
        out = []
        while self._pending and self._pending[0].due <= now:
            r = heapq.heappop(self._pending)
            # Still there, and the same stay (not a later arrival at the same place)?
            if self._present.get(r.uid, {}).get(r.place) == r.since:
                out.append(r)
        return out

    def next_due(self) -> float | None:
        return self._pending[0].due if self._pending else None

    def present_at(self, uid: str) -> set[int]:
        """The places whose reader sees `uid` now."""
        return set(self._present.get(uid, ()))

    def earlier_elsewhere(self, place: int, uid: str) -> bool:
        """Does another reader see `uid` now, since before it reached `place`?"""
        at = self._present.get(uid, {})
        mine = at.get(place)
        return any(p != place and (mine is None or t < mine) for p, t in at.items())


def is_crosstalk(place: int, uid: str, expected: Collection[int], present: Collection[int],
                 owner: int | None) -> bool:
    """A read at `place` that belongs elsewhere: the reader is not one the
    table waits for, and the card either lies on a reader that it does wait
    for, or is known to be in the hand of another seat (`owner`)."""
    if place in expected:
        return False
    if any(p in expected for p in present if p != place):
        return True
    return owner is not None and owner != place
