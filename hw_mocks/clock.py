"""A clock that moves only when a test (or the simulator) moves it."""

from __future__ import annotations

import threading


class FakeClock:
    """Implements `table.ports.Clock`: monotonic seconds, advanced by hand.

    Tests drive debounce and timeouts with `advance` and never sleep.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        """Move time forward by `seconds` (never back) and return the new time."""
        if seconds < 0:
            raise ValueError(f"a clock only moves forward, not by {seconds} s")
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, when: float) -> None:
        """Jump to `when`, which must not be earlier than now."""
        with self._lock:
            if when < self._now:
                raise ValueError(f"a clock only moves forward: {when} < {self._now}")
            self._now = float(when)
