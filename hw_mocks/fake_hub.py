"""A reader hub on a pty pair: the REAL firmware (firmware/*.py) running in a
thread under CPython (or, with `interpreter="micropython"`, in the real
MicroPython), with a fake `machine` whose SPI reaches emulated MFRC522s, and
its USB serial being the master side of a pseudo-terminal.
The host driver opens the slave side (`path`) with pyserial, exactly as it
opens /dev/ttyACM0 on the Pi.

    hub = FakeHub(channels=8)
    hub.plug()                       # power on: BOOT, then polling
    hub.place(Ntag213("04..."), 3)   # a card onto channel 3
    hub.unplug()                     # the cable is pulled: the host sees EIO
    hub.inject(b"garbage")           # bytes the firmware never sent
    hub.freeze()                     # the firmware hangs: the host hears nothing

Time runs at real speed (the emulator's clock is paced, and caught up with
the wall clock at every poll cycle), so the host's timeouts behave as they
would with a real hub.

Like MicroPython's USB serial, the port keeps the last `REPLAY_BYTES` bytes
written while no host has it open and hands them over when one opens it
(after pyserial's open has flushed its input): stale lines, cut mid-line.
"""

from __future__ import annotations

import errno
import os
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hw_mocks.mfrc522 import Picc, VirtualClock
from hw_mocks.mfrc522.pico import PicoBoard, build_hub, load_firmware
from hw_mocks.micropython_pico import MicroPythonError, MicroPythonPico

#: What MicroPython's USB serial keeps of what was written with no host there.
REPLAY_BYTES = 256
REPLAY_AFTER_S = 0.05



#: Wall time the old USB port stays up after a `machine.reset()` (see `_run_micropython`).
RESET_GRACE_S = 0.5

class _PtyPort:
    """The firmware's USB serial: the pty's master end, never blocking."""

    def __init__(self, fd: int, lock: threading.Lock) -> None:
        self.fd = fd
        self.lock = lock
        self.dropped = 0
        self.unheard = b""  # the last bytes written while no host had the port open
        self.host_since: float | None = None
        self._poll = select.poll()
        self._poll.register(fd, select.POLLOUT)

    def host_present(self) -> bool:
        """Whether the host has the port open (a pty master hangs up without)."""
        return not any(event & select.POLLHUP for _, event in self._poll.poll(0))

    def read(self) -> bytes:
        with self.lock:
            self._replay()
        try:
            ready, _, _ = select.select([self.fd], [], [], 0)
            return os.read(self.fd, 256) if ready else b""
        except OSError:
            return b""

    def _replay(self) -> bool:
        """With the lock held: keep `unheard` while no host, hand it over once
        one has had the port open for `REPLAY_AFTER_S` (pyserial flushes its
        input while opening). True when the host is there."""
        if not self.host_present():
            self.host_since = None
            return False
        if self.host_since is None:
            self.host_since = time.monotonic()
            time.sleep(REPLAY_AFTER_S)  # the host is still opening the port
        data, self.unheard = self.unheard, b""
        if data:
            self._write(data)
        return True

    def write(self, data: bytes) -> None:
        with self.lock:
            if not self._replay():
                self.unheard = (self.unheard + data)[-REPLAY_BYTES:]
                return
            self._write(data)

    def _write(self, data: bytes) -> None:
        try:
            os.write(self.fd, data)
        except BlockingIOError:
            self.dropped += len(data)  # nobody reads: a real CDC port drops too
        except OSError as exc:
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise


class FakeHub:
    """`interpreter="micropython"` runs the firmware in the real MicroPython
    (hw_mocks.micropython_pico: `import main` as a Pico boots, hubconfig's
    8 channels and poll rate, the watchdog, `machine.reset()`); its USB
    serial is relayed to the pty at every poll cycle. `hub` (the firmware's
    Hub object) is then None: it lives in the other process; `pico` is the
    MicroPython process and `flash` the folder that is the Pico's flash."""

    def __init__(self, channels: int = 8, rate: int = 100, interpreter: str = "cpython",
                 flash: Path | None = None) -> None:
        if interpreter not in ("cpython", "micropython"):
            raise ValueError(f"no interpreter {interpreter!r}: cpython or micropython")
        self.board = PicoBoard(channels, clock=VirtualClock(pace=1.0))
        self.firmware = load_firmware()
        self.rate = rate
        self.interpreter = interpreter
        self._flash_dir = None if flash else tempfile.TemporaryDirectory(prefix="pico-flash-")
        self.flash = flash or Path(self._flash_dir.name)  # type: ignore[union-attr]  # set when no flash
        self.pico: MicroPythonPico | None = None
        self.ended: str = ""  # how the MicroPython firmware's last run ended
        self.hub: Any = None
        self.boots = 0
        self._fds: tuple[int, ...] | None = None
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
        path = self._new_pty()
        for chip in self.board.readers:
            chip.plug()  # the readers get power with the hub
        self.boots += 1
        self._stop.clear()
        self._running.set()
        if self.interpreter == "micropython":
            self.pico = MicroPythonPico(self.board, cwd=self.flash)
            target = self._run_micropython
        else:
            self.hub = build_hub(self.board, self._port, self.firmware, poll_rate=self.rate)
            target = self._run
        self._thread = threading.Thread(target=target, name="fake-hub", daemon=True)
        self._thread.start()
        return path

    def _new_pty(self) -> str:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self.path = os.ttyname(slave)
        os.close(slave)  # only the host opens it: the hub sees whether it is there
        self._fds = (master,)
        self._port = _PtyPort(master, self._lock)
        return self.path

    def _keep_going(self) -> Callable[[], bool]:
        clock = self.board.clock
        started = (time.monotonic(), clock.now())

        def keep_going() -> bool:
            self._running.wait()
            # the Pico's clock never falls behind the wall clock (on a busy
            # machine the emulated bus work takes longer than it would)
            lag = (time.monotonic() - started[0]) - (clock.now() - started[1])
            if lag > 0:
                clock.advance(lag)
            return not self._stop.is_set()

        return keep_going

    def _run(self) -> None:
        self.hub.run(keep_going=self._keep_going())

    def _run_micropython(self) -> None:
        """Boot after boot: a `machine.reset()` restarts MicroPython on the
        same flash, and the USB port goes away and comes back (a new pty)."""
        while True:
            self._boot_micropython()
            if self.ended != "machine.reset()" or self._stop.is_set():
                return
            # The firmware sleeps 100 ms before the reset so that its last
            # line (OK,UPDATE) leaves the USB buffer; on a real host the kernel
            # takes it from the USB bus at once. Here it waits in the pty until
            # the host process reads it, and closing the pty throws it away: so
            # the port stays up a while in wall time (a busy machine may not
            # run the host's reader within the firmware's 100 ms).
            self._stop.wait(RESET_GRACE_S)
            with self._lock:
                if self._fds is not None:
                    for fd in self._fds:
                        os.close(fd)
                self._fds = None
            self._new_pty()
            self.boots += 1
            self.pico = MicroPythonPico(self.board, cwd=self.flash)

    def _boot_micropython(self) -> None:
        pico, port, keep_going = self.pico, self._port, self._keep_going()
        assert pico is not None and port is not None

        def relay() -> None:
            out = pico.usb_read(timeout=0)
            if out:
                port.write(out)
            data = port.read()
            if data:
                pico.usb_write(data)

        def on_feed(_: MicroPythonPico) -> bool:
            relay()
            return keep_going()

        pico.on_feed = on_feed
        try:
            pico.exec("import main")
            self.ended = "returned"  # update mode: the REPL is free
        except MicroPythonError as exc:
            self.ended = exc.kind if not pico.resets else f"machine.{pico.resets[-1]}()"
        relay()  # what it wrote last (OK,UPDATE before a reset)
        while self.ended == "returned" and not self._stop.wait(0.01):
            relay()  # at the REPL, the USB serial still works
        pico.close()

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the host's port reports an error."""
        self._stop.set()
        self._running.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self.pico is not None:
            self.pico.close()
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
