"""A programmable fake of all the table's card readers.

Tests and the simulator say what happens on the cloth (`arrive`, `leave`,
`offline`, `back`); the fake posts the same events a real reader driver
posts, and keeps what lies on each reader so impossible sequences (a card
leaving a reader it never reached) are refused at once with a clear error.
"""

from __future__ import annotations

import threading

from table.ports import DEALER, CardArrived, CardLeft, Post, ReaderBack, ReaderOffline


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
        self.present: dict[int, set[str]] = {p: set() for p in self.places}
        self.offline_places: set[int] = set()
        self._post: Post | None = None
        self._lock = threading.Lock()

    def start(self, post: Post) -> None:
        self._post = post

    def stop(self) -> None:
        self._post = None

    @property
    def started(self) -> bool:
        return self._post is not None

    def _check(self, place: int) -> None:
        if place not in self.present:
            names = ", ".join("dealer" if p == DEALER else str(p) for p in self.places)
            raise ValueError(f"there is no reader at place {place} (readers: {names})")
        if self._post is None:
            raise RuntimeError("the readers are not started: nothing would hear the card")

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
            post = self._post
        assert post is not None
        post(CardArrived(place, uid))

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
            post = self._post
        assert post is not None
        post(CardLeft(place, uid))

    def offline(self, place: int, detail: str = "") -> None:
        """The reader stops answering (cable pulled, chip reset)."""
        with self._lock:
            self._check(place)
            self.offline_places.add(place)
            self.present[place].clear()
            post = self._post
        assert post is not None
        post(ReaderOffline(place, detail))

    def back(self, place: int) -> None:
        with self._lock:
            self._check(place)
            self.offline_places.discard(place)
            post = self._post
        assert post is not None
        post(ReaderBack(place))
