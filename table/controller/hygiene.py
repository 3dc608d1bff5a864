"""Read hygiene: from raw reader events to reads the table acts on.

* **At once**: a card that arrives where it makes sense (an enrolled sticker
  that no other reader sees, at a reader the table waits for, or at the seat
  known to hold it) is acted on as soon as it is read (`takes_at_once`).
  Its read is then **checked** `debounce_s` later: a card that no longer lies
  on that reader was swept past it, not put down, and the table takes it
  back (`Settled.lapsed`). A card that flickered out and back in meanwhile
  still lies there and stands.
* **Debounce**: any other read (an unknown sticker, a reader the table does
  not wait for, a card two readers see) counts once the card has lain on the
  reader for `debounce_s` without leaving (a card swept past never counts),
  so that every reader that can see it has seen it before it is judged.
* **Presence**: which readers see a card right now, so that a card seen by
  two readers at once (crosstalk) can be given to the one that expects it.

The rest of the hygiene (the same card read twice is one play; a card lying
on the table that another reader picks up is ignored) needs the hand, and is
decided by the model (`TableModel.take_card`) with `is_crosstalk` below.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class SteadyRead:
    """A card that has lain on the reader at `place` since `since`; its
    debounce time is up at `due`."""

    due: float
    since: float
    place: int
    uid: str


@dataclass
class Settled:
    """What `Debouncer.settle` found when the debounce times were up.

    `steady`: reads to act on now (the card lay there the whole time);
    `kept`: reads taken at once whose card still lies on the reader;
    `lapsed`: reads taken at once whose card has left the reader since."""

    steady: list[SteadyRead] = field(default_factory=list)
    kept: list[SteadyRead] = field(default_factory=list)
    lapsed: list[SteadyRead] = field(default_factory=list)


class Debouncer:
    """Turns arrivals and departures into reads (see module docstring)."""

    def __init__(self, debounce_s: float) -> None:
        if debounce_s < 0:
            raise ValueError("the debounce time cannot be negative")
        self.debounce_s = debounce_s
        self._pending: list[SteadyRead] = []
        #: uid -> {place: arrival time} for every card lying on a reader now.
        self._present: dict[str, dict[int, float]] = {}
        #: (place, uid, since) of the stays whose read was taken at once, until
        #: they are settled; then, while the card still lies there, in `_kept`.
        self._taken: set[tuple[int, str, float]] = set()
        self._kept: set[tuple[int, str, float]] = set()

    def arrived(self, place: int, uid: str, now: float) -> None:
        self._present.setdefault(uid, {})[place] = now
        # a card that left and came back at the same instant is the same stay
        # (a stay is named by its arrival time): one read to settle, not two
        if any(r.since == now and r.place == place and r.uid == uid for r in self._pending):
            return
        heapq.heappush(self._pending, SteadyRead(now + self.debounce_s, now, place, uid))

    def take(self, place: int, uid: str) -> float:
        """The read of the card lying at `place` now is acted on at once; it
        will be checked (kept or lapsed) instead of made steady. Returns the
        time of its arrival (which names the stay)."""
        since = self._present[uid][place]
        self._taken.add((place, uid, since))
        return since

    def retry(self, uid: str, now: float, *, besides: int) -> None:
        """A read of `uid` taken at once at `besides` was taken back: the
        reads taken at once where the card lies now (they were judged while
        that one stood, as a card slid from one seat to the next) count again,
        as steady reads at the end of their debounce time (or now)."""
        for place, since in self._present.get(uid, {}).items():
            key = (place, uid, since)
            if place == besides:
                continue
            if key in self._taken:
                self._taken.discard(key)      # its pending read is now an ordinary one
            elif key in self._kept:
                self._kept.discard(key)
                heapq.heappush(self._pending, SteadyRead(now, since, place, uid))

    def left(self, place: int, uid: str) -> None:
        at = self._present.get(uid)
        if at is not None:
            since = at.pop(place, None)
            if since is not None:
                self._kept.discard((place, uid, since))
            if not at:
                del self._present[uid]

    def forget_place(self, place: int) -> None:
        """A reader went offline: nothing lies on it any more."""
        for uid in [u for u, at in self._present.items() if place in at]:
            self.left(place, uid)

    def settle(self, now: float) -> Settled:
        """The reads whose debounce time is up by `now`, oldest first."""
        out = Settled()
        while self._pending and self._pending[0].due <= now:
            r = heapq.heappop(self._pending)
            at = self._present.get(r.uid, {})
            key = (r.place, r.uid, r.since)
            if key in self._taken:
                self._taken.discard(key)
                # any stay counts: a card that flickered out and back still lies there
                if r.place in at:
                    out.kept.append(r)
                    self._kept.add((r.place, r.uid, at[r.place]))
                else:
                    out.lapsed.append(r)
            elif at.get(r.place) == r.since:
                # still there, and the same stay (not a later arrival at the same place)
                out.steady.append(r)
        return out

    def due(self, now: float) -> list[SteadyRead]:
        """The reads that have become steady by `now`, oldest first (reads
        taken at once are checked and dropped: see `settle`)."""
        return self.settle(now).steady

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


def takes_at_once(place: int, enrolled: bool, expected: Collection[int],
                  present: Collection[int], owner: int | None) -> bool:
    """May a read at `place` be acted on as soon as it comes? Only an
    enrolled sticker (a misread or unknown UID waits), and only where the
    answer cannot change when more readers see the card:

    * at a reader the table waits for (`expected`) that no other such reader
      sees it at (crosstalk elsewhere loses to this reader anyway);
    * at the seat known to hold the card (`owner`: no crosstalk), when no
      other reader sees it.

    Anywhere else (a card between two seats, a reader the table does not wait
    for) the read waits for its debounce time, so that every reader that can
    see the card has seen it before it is judged."""
    if not enrolled:
        return False
    others = [p for p in present if p != place]
    if place in expected:
        return not any(p in expected for p in others)
    return owner is not None and owner == place and not others


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
