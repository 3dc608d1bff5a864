"""A reader hub on a pty pair: the REAL firmware (firmware/*.py) running in a
thread under CPython, with a fake `machine` whose SPI reaches emulated
MFRC522s, and its USB serial being the master side of a pseudo-terminal.
The host driver opens the slave side (`path`) with pyserial, exactly as it
opens /dev/ttyACM0 on the Pi.

    hub = FakeHub(channels=8)
    hub.plug()                       # power on: BOOT, then polling
    hub.place(Ntag213("04..."), 3)   # a card onto channel 3
    hub.unplug()                     # the cable is pulled: the host sees EIO
    hub.inject(b"garbage")           # bytes the firmware never sent
    hub.freeze()                     # the firmware hangs: the host hears nothing

Time runs at real speed (the emulator's clock is paced), so the host's
timeouts behave as they would with a real hub.
"""

from __future__ import annotations

import errno
import os
import select
import threading
import tty
from typing import Any

from hw_mocks.mfrc522 import Picc, VirtualClock
from hw_mocks.mfrc522.pico import PicoBoard, build_hub, load_firmware


class _PtyPort:
    """The firmware's USB serial: the pty's master end, never blocking."""

    def __init__(self, fd: int, lock: threading.Lock) -> None:
        self.fd = fd
        self.lock = lock
        self.dropped = 0

    def read(self) -> bytes:
        try:
            ready, _, _ = select.select([self.fd], [], [], 0)
            return os.read(self.fd, 256) if ready else b""
        except OSError:
            return b""

    def write(self, data: bytes) -> None:
        with self.lock:
            try:
                os.write(self.fd, data)
            except BlockingIOError:
                self.dropped += len(data)  # nobody reads: a real CDC port drops too
            except OSError as exc:
                if exc.errno not in (errno.EIO, errno.EBADF):
                    raise


class FakeHub:
    def __init__(self, channels: int = 8, rate: int = 100) -> None:
        self.board = PicoBoard(channels, clock=VirtualClock(pace=1.0))
        self.firmware = load_firmware()
        self.rate = rate
        self.hub: Any = None
        self.boots = 0
        self._fds: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._running = threading.Event()
        self._lock = threading.Lock()
        self._port: _PtyPort | None = None
        self.path: str | None = None

    # ----- cable ----------------------------------------------------------------

    def plug(self) -> str:
        """Connect the hub: a new pty, the firmware boots. Returns the port path."""
        if self._fds is not None:
            raise RuntimeError("the hub is already plugged in")
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._fds = (master, slave)
        self.path = os.ttyname(slave)
        for chip in self.board.readers:
            chip.plug()  # the readers get power with the hub
        self._port = _PtyPort(master, self._lock)
        self.hub = build_hub(self.board, self._port, self.firmware, poll_rate=self.rate)
        self.boots += 1
        self._stop.clear()
        self._running.set()
        self._thread = threading.Thread(target=self._run, name="fake-hub", daemon=True)
        self._thread.start()
        return self.path

    def _run(self) -> None:
        def keep_going() -> bool:
            self._running.wait()
            return not self._stop.is_set()

        self.hub.run(keep_going=keep_going)

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the host's port reports an error."""
        self._stop.set()
        self._running.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._fds is not None:
            for fd in self._fds:
                os.close(fd)
            self._fds = None
        self.path = None
        for chip in self.board.readers:
            chip.unplug()

    def find_port(self) -> str | None:
        """What a USB id lookup would find: the port while plugged in."""
        return self.path

    # ----- misbehaving ----------------------------------------------------------

    def freeze(self) -> None:
        """The firmware hangs (no line, no heartbeat), the port stays open."""
        self._running.clear()

    def thaw(self) -> None:
        self._running.set()

    def inject(self, data: bytes) -> None:
        """Bytes on the wire that the firmware did not send."""
        if self._port is None or self._fds is None:
            raise RuntimeError("the hub is not plugged in")
        self._port.write(data)

    # ----- cards ----------------------------------------------------------------

    def place(self, card: Picc, channel: int) -> None:
        self.board.place(card, self.board.readers[channel])

    def remove(self, card: Picc) -> None:
        self.board.remove(card)
