"""A programmable fake of all the table's card readers.

Tests and the simulator say what happens on the cloth (`arrive`, `leave`,
`offline`, `back`); the fake posts the same events a real reader driver
posts, and keeps what lies on each reader so impossible sequences (a card
leaving a reader it never reached) are refused at once with a clear error.

Like the real drivers (tests/contract/ holds them all to one contract), the
readers report only while started: a card that comes or goes while they are
stopped is reported when they start, as the difference between what lies on
each reader and what was last reported.

`use_places` (table.ports.PlaceSelectingReaders) is recorded in `use_calls`;
a reader left out is dark, as with its antenna off: cards still come and go
on it (`present`) but none is reported until it is in use again, and the
cards reported on it when it goes dark are reported as left.
"""

from __future__ import annotations

import threading

from table.ports import DEALER, CardArrived, CardLeft, Event, Post, ReaderBack, ReaderOffline


def normalise_uid(uid: str) -> str:
    """Upper-case hex without separators; a clear error for anything else."""
    text = uid.replace(":", "").replace(" ", "").upper()
    if not text or len(text) % 2 or any(c not in "0123456789ABCDEF" for c in text):
        raise ValueError(f"{uid!r} is not a card UID (hexadecimal bytes, e.g. 04A1B2C3)")
    return text


class FakeCardReaders:
    """Implements `table.ports.CardReaders` for `seats` seats (and the dealer's reader)."""

    def __init__(self, seats: int = 6, dealer_reader: bool = True) -> None:
        if seats < 1:
            raise ValueError("a table has at least one seat")
        self.places = list(range(seats)) + ([DEALER] if dealer_reader else [])
        #: What lies on each reader now (on an offline reader: nothing it can see).
        self.present: dict[int, set[str]] = {p: set() for p in self.places}
        self.offline_places: set[int] = set()
        self._reported: dict[int, set[str]] = {p: set() for p in self.places}
        #: The places whose readers read (all, until `use_places` says otherwise).
        self.in_use: frozenset[int] = frozenset(self.places)
        #: Every `use_places` call, as given.
        self.use_calls: list[frozenset[int]] = []
        self._post: Post | None = None
        self._lock = threading.Lock()

    def start(self, post: Post) -> None:
        """Start reporting: first the cards that came or went while stopped."""
        with self._lock:
            self._post = post
            events = self._catch_up()
        for event in events:
            post(event)

    def _seen(self, place: int) -> set[str]:
        """What the reader at `place` reads: nothing while it is dark."""
        return self.present[place] if place in self.in_use else set()

    def _catch_up(self) -> list[Event]:
        """The differences between what is read and what was reported (lock held)."""
        events: list[Event] = []
        for place in self.places:
            now, told = self._seen(place), self._reported[place]
            events += [CardArrived(place, uid) for uid in sorted(now - told)]
            events += [CardLeft(place, uid) for uid in sorted(told - now)]
            self._reported[place] = set(now)
        return events

    def use_places(self, places: frozenset[int]) -> None:
        """Only the readers of `places` read; the others go dark (see the
        module docstring). Places without a reader are ignored."""
        with self._lock:
            self.use_calls.append(frozenset(places))
            self.in_use = frozenset(p for p in self.places if p in places)
            post = self._post
            events = self._catch_up() if post is not None else []
        for event in events:
            assert post is not None
            post(event)

    def stop(self) -> None:
        with self._lock:
            self._post = None

    @property
    def started(self) -> bool:
        return self._post is not None

    def _check(self, place: int) -> None:
        if place not in self.present:
            names = ", ".join("dealer" if p == DEALER else str(p) for p in self.places)
            raise ValueError(f"there is no reader at place {place} (readers: {names})")

    def _send(self, event: Event) -> None:
        """Post `event` if started (called with the lock held; posts after)."""
        post = self._post
        if post is None:
            return
        if isinstance(event, CardArrived):
            self._reported[event.seat].add(event.uid)
        elif isinstance(event, CardLeft):
            self._reported[event.seat].discard(event.uid)
        self._lock.release()
        try:
            post(event)
        finally:
            self._lock.acquire()

    def arrive(self, place: int, uid: str) -> None:
        """A card comes into the field of the reader at `place`."""
        uid = normalise_uid(uid)
        with self._lock:
            self._check(place)
            if place in self.offline_places:
                return
            if uid in self.present[place]:
                raise ValueError(f"card {uid} already lies on reader {place} "
                                 "(it has to leave before it can arrive again)")
            self.present[place].add(uid)
            if place in self.in_use:
                self._send(CardArrived(place, uid))

    def leave(self, place: int, uid: str) -> None:
        """The card goes out of the field of the reader at `place`."""
        uid = normalise_uid(uid)
        with self._lock:
            self._check(place)
            if uid not in self.present[place]:
                if place in self.offline_places:
                    return
                raise ValueError(f"card {uid} is not on reader {place} (it never arrived there, "
                                 "or has left already)")
            self.present[place].discard(uid)
            if place in self.in_use:
                self._send(CardLeft(place, uid))

    def offline(self, place: int, detail: str = "") -> None:
        """The reader stops answering (cable pulled, chip reset)."""
        with self._lock:
            self._check(place)
            self.offline_places.add(place)
            self.present[place].clear()
            self._reported[place].clear()
            self._send(ReaderOffline(place, detail))

    def back(self, place: int) -> None:
        with self._lock:
            self._check(place)
            self.offline_places.discard(place)
            self._send(ReaderBack(place))
