"""A virtual clock for the emulated readers.

Time moves only when something makes it move: an SPI transfer (by its length
at the bus speed) or a `sleep`. Tests and the benchmark therefore see exactly
the time the bus would take, without waiting for it.
"""

from __future__ import annotations

import threading
import time


class VirtualClock:
    """Monotonic seconds that advance by hand.

    `pace` > 0 makes `sleep` also sleep for real (`dt * pace` seconds), which
    lets a driver thread run against the emulator without spinning a core.
    """

    def __init__(self, start: float = 0.0, pace: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self.pace = pace

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, dt: float) -> float:
        if dt < 0:
            raise ValueError(f"time cannot go back ({dt} s)")
        with self._lock:
            self._now += dt
            return self._now

    def sleep(self, dt: float) -> None:
        """Let `dt` seconds pass (and really wait `dt * pace` seconds)."""
        if dt <= 0:
            return
        self.advance(dt)
        if self.pace > 0:
            time.sleep(dt * self.pace)
