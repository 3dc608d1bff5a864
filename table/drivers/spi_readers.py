"""MFRC522 readers wired straight to the Pi's SPI buses: the `CardReaders` port.

Up to five readers on hardware chip enables (SPI0 CE0/CE1, SPI1 CE0-CE2
with `dtoverlay=spi1-3cs`), more on GPIO pins used as chip selects. One
thread polls every reader in turn (about every `cycle_s`) and posts
`CardArrived`/`CardLeft` when a card comes or goes, `ReaderOffline` when a
reader stops answering (it is then re-initialised every `retry_s`) and
`ReaderBack` when it answers again. The controller is never called and
never waited for.

Nothing stops the thread: a reader whose poll fails (an `OSError` from
spidev, a chip that misbehaves, or anything unexpected, which is logged with
its traceback) is re-initialised; after `FAILURES_TO_OFFLINE` failed polls
in a row it is reported offline and tried again every `retry_s`, and
reported back after its first good poll. The other readers are polled all
the while. Should a whole cycle fail, the thread logs it, waits (twice as
long each time, up to `MAX_BACKOFF_S`) and carries on.

Pins are BCM numbers. The numbering is set to BCM before anything else, so
the `mfrc522` package cannot choose BOARD; a BOARD numbering set by someone
else is refused with a clear error. Reset pins are set up explicitly (None:
RST tied to 3.3 V, nothing is driven). `stop()` releases only the pins this
driver set up: never `GPIO.cleanup()` of everything.

Only readers being polled have their antenna on: readers left out with
`use_places`/`poll_only` (seats not in the game: the controller says which
when a match starts or resumes), readers offline (while they are brought
back) and every reader after `stop()` have their field off, so they neither
power cards nor disturb their neighbours. A reader left out is not polled at
all (no SPI traffic); the cards it had reported are reported as left.
(Switching each field on only for its own poll is not done: a card loses
power and its HALT state with the field, and needs up to 5 ms to wake, so
presence by HALT/WUPA and 100 polls a second would both be lost.)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from table.drivers.mfrc522_cards import CardTracker
from table.drivers.mfrc522_pcd import Pcd, ReaderFault, open_package_chip
from table.ports import CardArrived, CardLeft, Clock, Event, Post, ReaderBack, ReaderOffline

log = logging.getLogger(__name__)

BCM = 11
#: Failed polls in a row after which a reader is reported offline.
FAILURES_TO_OFFLINE = 3
#: The longest wait after a poll cycle that failed as a whole.
MAX_BACKOFF_S = 2.0
#: Chip enables per SPI bus with dtparam=spi=on and dtoverlay=spi1-3cs.
CHIP_ENABLES = {0: (0, 1), 1: (0, 1, 2)}


class ReaderSetupError(RuntimeError):
    """The readers cannot be opened as configured; the message says why."""


class SpiWiring(Protocol):
    """How one reader is wired (table.config.SpiReader has these fields)."""

    @property
    def bus(self) -> int: ...

    @property
    def device(self) -> int | None: ...

    @property
    def cs_pin(self) -> int | None: ...

    @property
    def reset_pin(self) -> int | None: ...


@dataclass(frozen=True)
class Wiring:
    bus: int
    device: int | None = None
    cs_pin: int | None = None
    reset_pin: int | None = None


class _MonotonicClock:
    def now(self) -> float:
        return time.monotonic()


@dataclass
class _Reader:
    place: int
    wiring: SpiWiring
    pcd: Pcd
    tracker: CardTracker
    state: str = "new"  # new | online | offline | off
    retry_at: float = 0.0
    detail: str = ""
    faults: int = field(default=0)
    #: ReaderOffline was posted and no ReaderBack since (kept while it is off).
    reported_offline: bool = False
    #: Polls that failed in a row (a good poll starts again from 0).
    failures: int = 0


class SpiReaders:
    """The readers of `places` (seat number or DEALER -> wiring)."""

    def __init__(self, places: Mapping[int, SpiWiring], *, speed_hz: int = 1_000_000,
                 clock: Clock | None = None, sleep: Callable[[float], None] | None = None,
                 cycle_s: float = 0.01, retry_s: float = 1.0, misses_to_leave: int = 3) -> None:
        if not places:
            raise ReaderSetupError("no readers to open")
        self.clock = clock or _MonotonicClock()
        self.sleep = sleep or time.sleep
        self.cycle_s = cycle_s
        self.retry_s = retry_s
        self._gpio = _gpio_in_bcm()
        self._owned_pins: list[int] = []
        self._resets: dict[int, int] = {}
        self._readers: list[_Reader] = []
        #: Every reader's chip: a card leaving one resets all their fields.
        self._pcds: list[Pcd] = []
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._post: Post | None = None
        #: Events made outside a poll (by poll_only), posted by the next poll.
        self._pending: list[Event] = []
        self.cycles = 0
        #: Poll cycles that failed as a whole (the thread carried on).
        self.counters_thread_errors = 0
        try:
            devices = _devices_for(places)
            for place, wiring in places.items():
                self._open(place, wiring, devices[place], speed_hz, misses_to_leave)
        except Exception:
            self._release()
            raise

    # ----- opening --------------------------------------------------------------

    def _claim_output(self, pin: int) -> None:
        if pin not in self._owned_pins:
            self._gpio.setup(pin, self._gpio.OUT, initial=self._gpio.HIGH)
            self._owned_pins.append(pin)

    def _open(self, place: int, wiring: SpiWiring, device: tuple[int, bool], speed_hz: int,
              misses_to_leave: int) -> None:
        if wiring.reset_pin is not None:
            self._claim_output(wiring.reset_pin)
            self._resets[wiring.reset_pin] = self._resets.get(wiring.reset_pin, 0) + 1
        if wiring.cs_pin is not None:
            self._claim_output(wiring.cs_pin)
        ce, shared = device
        try:
            chip = open_package_chip(wiring.bus, ce, speed_hz, self._gpio, wiring.cs_pin, shared)
        except FileNotFoundError:
            raise ReaderSetupError(
                f"/dev/spidev{wiring.bus}.{ce} does not exist: switch SPI on in "
                "/boot/firmware/config.txt (dtparam=spi=on; for SPI1 dtoverlay=spi1-3cs)"
            ) from None
        except OSError as exc:
            raise ReaderSetupError(
                f"SPI{wiring.bus} cannot hold its chip enables off ({exc}): leave one chip "
                "enable of the bus free for the readers with a GPIO chip select") from None
        pcd = Pcd(chip, self.sleep)
        self._pcds.append(pcd)
        self._readers.append(_Reader(place, wiring, pcd,
                                     CardTracker(pcd, misses_to_leave, self._pcds,
                                                 stagger=len(self._readers))))

    # ----- the port -------------------------------------------------------------

    def start(self, post: Post) -> None:
        if self._thread is not None:
            raise RuntimeError("the readers are already started")
        self._post = post
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="spi-readers", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)
        with self._lock:
            for reader in self._readers:
                if reader.state in ("online", "off"):
                    try:
                        reader.pcd.antenna(False)
                    except OSError:
                        pass
                if reader.state == "online":
                    # its field is off now: the next start brings it up again
                    # (what lay on it is still known, so only changes are posted)
                    reader.state = "new"

    def close(self) -> None:
        self.stop()
        self._release()

    def use_places(self, places: frozenset[int]) -> None:
        """The `CardReaders` option (table.ports.PlaceSelectingReaders): `poll_only`."""
        self.poll_only(places)

    def poll_only(self, places: Iterable[int]) -> None:
        """Poll only the readers of `places`; the others' antennas go off (a
        seat not in the game then neither powers cards nor disturbs its
        neighbours) and they get no SPI traffic at all. The cards they had
        reported are reported as left by the next poll; a reader back in use
        is brought up at the next poll (its field on, its cards read again)."""
        wanted = set(places)
        with self._lock:
            for reader in self._readers:
                if reader.place in wanted and reader.state == "off":
                    reader.state = "new"
                elif reader.place not in wanted and reader.state != "off":
                    if reader.state == "online":
                        try:
                            reader.pcd.antenna(False)
                        except OSError:
                            pass
                    reader.state = "off"
                    self._pending += [CardLeft(reader.place, uid.hex().upper())
                                      for uid in reader.tracker.present]
                    reader.tracker.misses.clear()
                    reader.tracker.slots.clear()

    # ----- polling --------------------------------------------------------------

    def _run(self) -> None:
        post = self._post
        assert post is not None
        backoff = 0.0
        while not self._stopping.is_set():
            started = self.clock.now()
            try:
                self.poll_once(post)
            except Exception:  # noqa: BLE001 - the thread must outlive anything
                backoff = min(max(2 * backoff, self.cycle_s, 0.01), MAX_BACKOFF_S)
                self.counters_thread_errors += 1
                log.exception("polling the readers failed; again in %.2f s", backoff)
                if not self._stopping.is_set():
                    self.sleep(backoff)
                continue
            backoff = 0.0
            rest = self.cycle_s - (self.clock.now() - started)
            if rest > 0 and not self._stopping.is_set():
                self.sleep(rest)

    def poll_once(self, post: Post | None = None) -> list[Event]:
        """One pass over every reader; the events it produced. With `post`,
        each reader's events are also posted as soon as that reader has been
        polled (a card is answered without waiting for the rest of the
        round), in the same order as the list."""
        with self._lock:
            events, self._pending = self._pending, []
            if post is not None:
                for event in events:
                    post(event)
            for reader in self._readers:
                mine = self._poll(reader)
                if post is not None:
                    for event in mine:
                        post(event)
                events += mine
            self.cycles += 1
        return events

    def _poll(self, reader: _Reader) -> list[Event]:
        if reader.state == "off":
            return []
        if reader.state in ("new", "offline"):
            if reader.state == "offline" and self.clock.now() < reader.retry_at:
                return []
            return self._bring_up(reader)
        try:
            result = reader.tracker.poll()
        except Exception as exc:  # noqa: BLE001 - one reader never stops the others
            return self._failed(reader, exc)
        reader.failures = 0
        events: list[Event] = []
        if reader.reported_offline:
            reader.reported_offline = False
            events.append(ReaderBack(reader.place))
        return (events + [CardArrived(reader.place, uid.hex().upper()) for uid in result.arrived]
                + [CardLeft(reader.place, uid.hex().upper()) for uid in result.left])

    def _failed(self, reader: _Reader, exc: Exception) -> list[Event]:
        """A poll of `reader` failed: re-initialise it, or after
        FAILURES_TO_OFFLINE failures in a row, report it offline."""
        reader.failures += 1
        reader.faults += 1
        detail = _describe(exc)
        if isinstance(exc, OSError):
            log.info("reader at place %d: %s; re-initialising", reader.place, detail)
        else:
            log.error("reader at place %d failed unexpectedly; re-initialising", reader.place,
                      exc_info=exc)
        if reader.failures >= FAILURES_TO_OFFLINE:
            return self._went_offline(
                reader, f"{detail} ({reader.failures} polls in a row failed)")
        try:
            self._init(reader)
        except Exception as again:  # noqa: BLE001
            return self._went_offline(reader, _describe(again))
        return []

    def _bring_up(self, reader: _Reader) -> list[Event]:
        """Initialise a new reader or one that was away. ReaderBack is
        posted by its first good poll."""
        try:
            self._init(reader)
        except Exception as fault:  # noqa: BLE001 - an OSError from spidev, or worse
            if not isinstance(fault, OSError):
                log.error("reader at place %d failed unexpectedly", reader.place, exc_info=fault)
            return self._went_offline(reader, _describe(fault))
        reader.state = "online"
        return []

    def _went_offline(self, reader: _Reader, detail: str) -> list[Event]:
        """Field off (if it still hears us), tried again in `retry_s`;
        ReaderOffline unless said already (also before it was left out)."""
        try:
            reader.pcd.antenna(False)
        except Exception:  # noqa: BLE001, S110 - it is away anyway
            pass
        reader.state = "offline"
        reader.retry_at = self.clock.now() + self.retry_s
        if reader.reported_offline:
            return []
        reader.reported_offline = True
        reader.detail = detail
        log.warning("reader at place %d is offline: %s", reader.place, detail)
        return [ReaderOffline(reader.place, detail)]

    def _init(self, reader: _Reader) -> None:
        """Soft reset; if the chip still does not answer and its reset pin is
        its own, a hard reset through that pin, then once more."""
        try:
            reader.pcd.init()
            return
        except ReaderFault:
            pin = reader.wiring.reset_pin
            if pin is None or self._resets.get(pin, 0) != 1:
                raise
        self._gpio.output(pin, 0)
        self.sleep(0.001)
        self._gpio.output(pin, 1)
        self.sleep(0.001)
        reader.pcd.init()

    # ----- releasing ------------------------------------------------------------

    def _release(self) -> None:
        for reader in self._readers:
            try:
                reader.pcd.chip.spi.close()
            except OSError:
                pass
        self._readers.clear()
        if self._owned_pins:
            self._gpio.cleanup(sorted(self._owned_pins))
            self._owned_pins.clear()

    @property
    def places(self) -> list[int]:
        return [r.place for r in self._readers]

    def status(self) -> dict[int, str]:
        """Each place's reader: new, online, offline (with why) or off."""
        return {r.place: r.state + (f": {r.detail}" if r.state == "offline" else "")
                for r in self._readers}

    def cards(self) -> dict[int, list[str]]:
        """The UIDs each reader believes lie on it."""
        return {r.place: [u.hex().upper() for u in r.tracker.present] for r in self._readers}


def _describe(exc: BaseException) -> str:
    """What went wrong, in a line: the message, else the exception's name."""
    text = str(exc)
    if isinstance(exc, ReaderFault) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _gpio_in_bcm() -> Any:
    """RPi.GPIO with BCM numbering, set now if nobody set any."""
    import RPi.GPIO as GPIO  # noqa: N814 - the library's own spelling

    mode = GPIO.getmode()
    if mode is None:
        GPIO.setmode(GPIO.BCM)
    elif mode != GPIO.BCM:
        raise ReaderSetupError(
            "GPIO numbering is already set to BOARD by another part of the program; the "
            "readers' pins are BCM numbers (set BCM before importing anything that sets BOARD)")
    GPIO.setwarnings(False)
    return GPIO


def _devices_for(places: Mapping[int, SpiWiring]) -> dict[int, tuple[int, bool]]:
    """The spidev device of each reader and whether its chip enable is shared:
    its own chip enable; for a GPIO chip select, a chip enable of its bus
    that no reader is wired to, else the first one, held off (SPI_NO_CS)
    while the GPIO selects."""
    used: dict[tuple[int, int], int] = {}
    for place, wiring in places.items():
        if wiring.cs_pin is None:
            if wiring.device is None:
                raise ReaderSetupError(f"the reader at place {place} has neither a chip "
                                       "enable (device) nor a GPIO chip select (cs_pin)")
            key = (wiring.bus, wiring.device)
            if key in used:
                raise ReaderSetupError(f"two readers on SPI{wiring.bus} CE{wiring.device} "
                                       f"(places {used[key]} and {place})")
            used[key] = place
    devices: dict[int, tuple[int, bool]] = {}
    for place, wiring in places.items():
        if wiring.cs_pin is None:
            devices[place] = (int(wiring.device or 0), False)
            continue
        enables = CHIP_ENABLES.get(wiring.bus, (0,))
        free = [ce for ce in enables if (wiring.bus, ce) not in used]
        devices[place] = (free[-1], False) if free else (enables[0], True)
    return devices


def open_from_config(places: Mapping[int, SpiWiring], readers: Any, pin_factory: Any = None,
                     *, clock: Clock | None = None,
                     sleep: Callable[[float], None] | None = None) -> SpiReaders:
    """The SPI readers of a `table.config.Config` (`readers` is its
    ReadersConfig). The gpiozero `pin_factory` is not needed: the readers'
    reset and chip select pins go through RPi.GPIO, as the mfrc522 package's do."""
    return SpiReaders(places, speed_hz=int(getattr(readers, "spi_speed_hz", 1_000_000)),
                      clock=clock, sleep=sleep)
