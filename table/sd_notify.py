"""systemd's service notification protocol, with the standard library only.

The service (systemd/cardtable.service, `Type=notify`, `WatchdogSec=`)
expects `READY=1` once the table is ready and `WATCHDOG=1` at least every
`WatchdogSec`; systemd passes the socket in `$NOTIFY_SOCKET` (a path, or
`@name` in the abstract namespace) and the watchdog period in
`$WATCHDOG_USEC`. Outside systemd every call does nothing and returns False.

`cardtable run --hardware pi` calls `supervise(controller.wait_idle, stop)`
once the controller has started, instead of just waiting for `stop`: it
sends READY=1, then WATCHDOG=1 only while the controller thread still
answers (`wait_idle` passes a marker through the controller's queue), so a
controller that hangs stops feeding the watchdog and systemd restarts the
service; on `stop` it sends STOPPING=1.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Mapping


def notify(state: str, env: Mapping[str, str] | None = None) -> bool:
    """Send `state` (e.g. "READY=1\\nSTATUS=ready") to systemd. Returns
    whether there was a socket to send to. A socket that has gone away is
    not an error for the table."""
    env = os.environ if env is None else env
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    elif not address.startswith("/"):
        return False            # systemd only ever passes these two forms
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError:
        return False
    return True


def ready(status: str = "", env: Mapping[str, str] | None = None) -> bool:
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""), env)


def status(text: str, env: Mapping[str, str] | None = None) -> bool:
    return notify(f"STATUS={text}", env)


def stopping(env: Mapping[str, str] | None = None) -> bool:
    return notify("STOPPING=1", env)


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """The watchdog period in seconds, if systemd set one for this process."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None
    return int(usec) / 1_000_000


class Watchdog:
    """Sends `WATCHDOG=1` at most every half period, however often `kick()`
    is called (so the controller can call it on every turn of its loop)."""

    def __init__(self, interval: float | None, now: Callable[[], float] = time.monotonic,
                 env: Mapping[str, str] | None = None) -> None:
        self.interval = interval
        self._now = now
        self._env = env
        self._last: float | None = None
        self.sent = 0

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None,
                         now: Callable[[], float] = time.monotonic) -> Watchdog:
        return cls(watchdog_interval(env), now, env)

    @property
    def enabled(self) -> bool:
        return self.interval is not None

    @property
    def period(self) -> float:
        """How long the controller may wait between kicks (half the interval)."""
        return self.interval / 2 if self.interval is not None else 60.0

    def kick(self) -> bool:
        if self.interval is None:
            return False
        t = self._now()
        if self._last is not None and t - self._last < self.interval / 2:
            return False
        self._last = t
        if notify("WATCHDOG=1", self._env):
            self.sent += 1
            return True
        return False


def supervise(alive: Callable[[float], bool], stop: threading.Event, *, status: str = "",
              env: Mapping[str, str] | None = None,
              now: Callable[[], float] = time.monotonic) -> int:
    """Ready, then feed the watchdog while `alive(timeout)` is true, until
    `stop` is set (see the module docstring). Returns how many times the
    watchdog was fed. Outside systemd it only waits for `stop`."""
    ready(status, env)
    dog = Watchdog.from_environment(env, now)
    if not dog.enabled:
        stop.wait()
        stopping(env)
        return 0
    period = dog.period / 2          # check twice per half interval: never late
    answering = True
    while not stop.wait(period):
        if alive(period):
            if not answering:
                notify(f"STATUS={status}" if status else "STATUS=running", env)
            answering = True
            dog.kick()
        elif answering:
            answering = False
            notify("STATUS=the controller does not answer", env)
    stopping(env)
    return dog.sent
