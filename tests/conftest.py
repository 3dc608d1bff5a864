"""Suite-wide guards."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest


def _live_non_daemon() -> set[threading.Thread]:
    return {t for t in threading.enumerate()
            if t.is_alive() and not t.daemon and t is not threading.main_thread()}


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """A test must not leave a non-daemon thread running: one would keep the
    test process from exiting (and CI would wait for it until it times out)."""
    before = _live_non_daemon()
    yield
    leaked = _live_non_daemon() - before
    deadline = time.monotonic() + 2.0
    while leaked and time.monotonic() < deadline:
        time.sleep(0.02)
        leaked = {t for t in leaked if t.is_alive()}
    if leaked:
        names = ", ".join(sorted(t.name for t in leaked))
        pytest.fail(f"the test left threads running: {names}")
