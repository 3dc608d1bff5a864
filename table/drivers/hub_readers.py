"""The USB reader hub (firmware/): the `CardReaders` port over pyserial.

One thread finds the hub (the udev link, else the first serial port with the
hub's USB id), reads its lines (firmware/PROTOCOL.md) and posts card and
reader events; the controller is never called and never waited for. When the
hub is unplugged or falls silent its readers are reported offline, and the
thread reconnects every `retry_s`; on every (re)connection it asks the hub
for all the cards it holds and turns only the differences into events, so
the game loses nothing.

Bad input never stops the reading: lines that are not ASCII, malformed,
with a wrong checksum, replayed (an old sequence number), endless (longer
than 200 characters) or beyond 400 a second (a flooding hub) are dropped and
counted in `counters`; lost lines (a sequence gap) and dropped floods make
the driver ask the hub for its cards again.

Nothing else stops the reading thread either: should anything unforeseen
go wrong, it logs it with its traceback, lets go of the port (the readers
are reported offline), waits a little longer each time and connects again
(the readers are reported back with the hub's first lines).

After every (re)connection nothing the hub says about cards or readers is
believed until it has answered this connection's `VER`: MicroPython's USB
serial may first hand over stale lines written while no host listened (an
`ON` or `OFF` from before would make a card arrive or leave that did not).
Those lines are dropped and counted (`stale`); the `CARDS` answer that
follows the `VER` answer brings the state up to date. A hub that has not
answered within `sync_s` (it was still booting) is asked again.

`use_places` (table.ports.PlaceSelectingReaders) tells the hub which
channels to poll (`USE`): the others' antennas go off. It is sent again on
every (re)connection and after the hub boots, and nothing is reported from
a place out of use whatever the hub says (an older hub firmware without
`USE` keeps polling them).
"""

from __future__ import annotations

import collections
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from table.drivers.hub_protocol import (
    BadLine,
    Line,
    LineSplitter,
    SequenceCheck,
    channel_mask,
    encode_command,
    parse_line,
)
from table.ports import CardArrived, CardLeft, Clock, Post, ReaderBack, ReaderOffline

log = logging.getLogger(__name__)

HUB_USB_ID = "2e8a:0005"
DEFAULT_PORT = "/dev/cardtable-hub"
#: The Pico's chip select pin of each channel (firmware/hubconfig.py CS_PINS).
HUB_CS_PINS = (17, 20, 21, 26, 27, 28, 14, 15)


@dataclass(frozen=True)
class HubProbe:
    """What the hub answered when asked (`HubReaders.probe`): the port, its
    `VER` answer (name, version, protocol; empty when it never answered),
    and per place whether its channel's reader answers (None: the hub sent
    no `CARDS` line) and the cards lying on it. `error` says why the hub
    could not be asked at all."""

    port: str | None
    version: tuple[str, ...]
    answers: dict[int, bool | None]
    cards: dict[int, tuple[str, ...]]
    error: str = ""


class _MonotonicClock:
    def now(self) -> float:
        return time.monotonic()


def find_hub_port(port: str | None = DEFAULT_PORT, usb_id: str = HUB_USB_ID) -> str | None:
    """`port` if it exists (the udev rule's link), else the first serial
    port whose USB vendor:product id is `usb_id`."""
    if port and os.path.exists(port):
        return port
    from serial.tools import list_ports

    vid, pid = (int(part, 16) for part in usb_id.split(":"))
    for info in sorted(list_ports.comports(), key=lambda i: i.device):
        if info.vid == vid and info.pid == pid:
            return str(info.device)
    return None


def open_serial(path: str, baud: int = 115200, timeout: float = 0.05) -> Any:
    import serial

    return serial.Serial(path, baud, timeout=timeout, write_timeout=0.5)


class HubReaders:
    """The readers on the hub: `channels` maps each place (seat number or
    DEALER) to its hub channel (0..7)."""

    def __init__(self, channels: Mapping[int, int], *, port: str | None = DEFAULT_PORT,
                 usb_id: str = HUB_USB_ID, baud: int = 115200, clock: Clock | None = None,
                 find_port: Callable[[], str | None] | None = None,
                 open_port: Callable[[str], Any] | None = None, poll_rate: int | None = None,
                 silence_s: float = 3.0, retry_s: float = 1.0,
                 max_lines_per_s: int = 400, sync_s: float = 1.0) -> None:
        if not channels:
            raise ValueError("no hub channels to read")
        bad = [c for c in channels.values() if not 0 <= c <= 7]
        if bad or len(set(channels.values())) != len(channels):
            raise ValueError(f"hub channels must be distinct numbers 0..7: {dict(channels)}")
        self.places = {channel: place for place, channel in channels.items()}
        self.clock = clock or _MonotonicClock()
        self.find_port = find_port or (lambda: find_hub_port(port, usb_id))
        self.open_port = open_port or (lambda path: open_serial(path, baud))
        self.poll_rate = poll_rate
        self.silence_s = silence_s
        self.retry_s = retry_s
        self.max_lines_per_s = max_lines_per_s
        self.sync_s = sync_s
        #: False from a (re)connection until the hub answers its VER.
        self.synced = False
        self._sync_at = 0.0
        self.counters: collections.Counter[str] = collections.Counter()
        self.hub_version: tuple[str, ...] = ()
        #: The hub's whole answer to VER: name, version, protocol version.
        self.hub_info: tuple[str, ...] = ()
        self.online: dict[int, bool | None] = dict.fromkeys(channels, None)
        self.cards: dict[int, set[str]] = {place: set() for place in channels}
        self._splitter = LineSplitter()
        self._seq = SequenceCheck()
        self._serial: Any = None
        self._post: Post = lambda event: None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._last_alive = 0.0
        self._window = (0.0, 0)
        self._flooded = False
        self._last_resync = -1e9
        #: The places whose readers read (None: all, until `use_places`).
        self.in_use: frozenset[int] | None = None
        self._use_request: frozenset[int] | None = None
        self._use_lock = threading.Lock()

    # ----- the port -------------------------------------------------------------

    def start(self, post: Post) -> None:
        if self._thread is not None:
            raise RuntimeError("the hub readers are already started")
        self._post = post
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="hub-readers", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)
        self._close()

    def close(self) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        return self._serial is not None

    def use_places(self, places: frozenset[int]) -> None:
        """Only the readers of `places` read (see the module docstring). Taken
        up by the reading thread (at once if it is not running: at the next
        connection), which reports the cards of the places left out as left."""
        with self._use_lock:
            self._use_request = frozenset(places)

    def probe(self, timeout_s: float = 3.0) -> HubProbe:
        """Ask the hub, without starting the readers' thread, for its version
        (`VER`) and for what every channel holds (`CARDS`), waiting at most
        `timeout_s` for the answers; then let go of the port (`cardtable
        doctor`). Posts nothing."""
        if self._thread is not None:
            raise RuntimeError("the hub readers are running: probe the hub before starting them")
        offline: list[str] = []
        self._post = lambda event: offline.append(getattr(event, "detail", ""))
        self.hub_version = ()
        self.hub_info = ()
        cards_before = self.counters["cards_lines"]
        port: str | None = None
        try:
            port = self.find_port()
            if not self.connect():
                return HubProbe(port, (), dict.fromkeys(self.online), {},
                                error=next((d for d in offline if d), "it cannot be opened"))
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline and self._serial is not None and not (
                    self.hub_info and self.counters["cards_lines"] > cards_before):
                self.read_once()
            answered = self.counters["cards_lines"] > cards_before
            return HubProbe(
                port, self.hub_info,
                {place: (self.online[place] if answered else None) for place in self.online},
                {place: tuple(sorted(uids)) for place, uids in self.cards.items()},
                error="" if self._serial is not None or self.hub_info else
                next((d for d in offline if d), "the hub went away"))
        finally:
            self._close()
            self._post = lambda event: None

    # ----- the thread -----------------------------------------------------------

    def _run(self) -> None:
        backoff = 0.0
        while not self._stopping.is_set():
            try:
                if self._serial is None and not self.connect():
                    self._stopping.wait(self.retry_s)
                    continue
                self.read_once()
                backoff = 0.0
            except Exception as exc:  # noqa: BLE001 - the thread must outlive anything
                # nothing expected gets here: say it with its traceback, let go of the
                # port (its readers go offline) and connect again after a pause
                backoff = min(max(2 * backoff, self.retry_s / 4), 4 * self.retry_s)
                self.counters["thread_errors"] += 1
                log.exception("reading the hub failed; connecting again in %.2f s", backoff)
                self._lost(f"the hub's reading failed ({type(exc).__name__}: {exc})")
                self._stopping.wait(backoff)

    def connect(self) -> bool:
        """Find and open the hub, ask for its version and cards."""
        try:
            path = self.find_port()
            if path is None:
                self._all_offline("the hub is not plugged in (no serial port with its USB id)")
                return False
            self._serial = self.open_port(path)
        except (OSError, ValueError) as exc:  # serial.SerialException is an OSError
            self._all_offline(f"the hub cannot be opened: {exc}")
            return False
        self.counters["connects"] += 1
        self._splitter.reset()
        self._seq.reset()
        self._last_alive = self.clock.now()
        log.info("reader hub on %s", path)
        self.synced = False
        self._ask_state()
        self._take_use_request()
        self._configure()
        self._resync(force=True)
        return True

    def _ask_state(self) -> None:
        """VER: the line that proves what follows is fresh (module docstring)."""
        self._sync_at = self.clock.now() + self.sync_s
        self._send("VER")

    def _configure(self) -> None:
        """Tell the hub its poll rate and its channels in use (where given)."""
        if self.poll_rate:
            self._send("RATE", self.poll_rate)
        self._send_use()

    def _send_use(self) -> None:
        if self.in_use is not None:
            in_use = self.in_use
            self._send("USE", channel_mask(c for c, p in self.places.items() if p in in_use))

    def _take_use_request(self) -> bool:
        """Apply the last `use_places` (on the reading thread): the cards of
        the places left out are reported as left. True if there was one."""
        with self._use_lock:
            request, self._use_request = self._use_request, None
        if request is None:
            return False
        self.in_use = frozenset(p for p in self.places.values() if p in request)
        for place, cards in self.cards.items():
            if place not in self.in_use:
                for uid in sorted(cards):
                    self._card(place, uid, False, force=True)
        return True

    def read_once(self) -> None:
        """Read what the hub sent (waits at most the port's timeout)."""
        ser = self._serial
        if ser is None:
            return
        if self._take_use_request():
            self._send_use()
        try:
            data = ser.read(max(1, min(int(ser.in_waiting), 4096)))
        except (OSError, ValueError, TypeError) as exc:
            self._lost(f"the hub was unplugged ({exc})")
            return
        if data:
            self.feed(data)
        now = self.clock.now()
        if now - self._last_alive > self.silence_s:
            self._lost(f"the hub said nothing for {self.silence_s:g} s")
        elif not self.synced and now >= self._sync_at:
            self.counters["sync_retries"] += 1
            self._ask_state()
            self._resync(force=True)
        elif self._flooded and self._window_count(now) < self.max_lines_per_s // 2:
            self._flooded = False
            self._resync()

    def _lost(self, detail: str) -> None:
        self.counters["disconnects"] += 1
        log.warning("reader hub lost: %s", detail)
        self._close()
        self._all_offline(detail)

    def _close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except OSError:
                pass

    def _send(self, kind: str, *fields: object) -> None:
        if self._serial is None:
            return
        try:
            self._serial.write(encode_command(kind, *fields))
        except (OSError, ValueError) as exc:  # SerialTimeoutException is an OSError too
            self.counters["write_errors"] += 1
            log.info("cannot write to the hub: %s", exc)

    def _resync(self, force: bool = False) -> None:
        now = self.clock.now()
        if force or now - self._last_resync >= 0.5:
            self._last_resync = now
            self.counters["resyncs"] += 1
            self._send("CARDS")

    # ----- lines ----------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the hub: every complete line is checked and handled."""
        before = self._splitter.overlong
        lines = self._splitter.feed(data)
        self.counters["overlong"] += self._splitter.overlong - before
        for raw in lines:
            try:
                line = parse_line(raw)
            except BadLine as bad:
                self.counters[bad.reason] += 1
                continue
            self._line(line)

    def _window_count(self, now: float) -> int:
        start, count = self._window
        return count if now - start < 1.0 else 0

    def _line(self, line: Line) -> None:
        now = self.clock.now()
        start, count = self._window
        if now - start >= 1.0:
            start, count = now, 0
        self._window = (start, count + 1)
        if count >= self.max_lines_per_s:
            self.counters["flooded"] += 1
            self._flooded = True
            return
        if not self.synced:
            if line.kind not in ("VER", "BOOT"):
                # maybe written before this connection: not even its number counts
                self._last_alive = now
                self.counters["stale"] += 1
                return
            if line.kind == "VER":
                self._seq.reset()  # the first line known to be fresh
        verdict = self._seq.check(line)
        if verdict == "replay":
            self.counters["replayed"] += 1
            return
        self._last_alive = now
        self.counters["lines"] += 1
        if verdict == "gap":
            self.counters["gaps"] += 1
            self._resync()
        handler = getattr(self, f"_on_{line.kind.lower()}")
        handler(line.fields)

    def _place(self, channel_text: str) -> int | None:
        return self.places.get(int(channel_text))

    def _on_boot(self, fields: tuple[str, ...]) -> None:
        self.counters["boots"] += 1
        self.hub_version = fields[:2]
        log.info("reader hub booted: %s", ",".join(fields))
        if not self.synced:  # stale, or a hub booting as we connected: ask again
            self._ask_state()
            self._resync(force=True)
        self._configure()  # a hub that reset forgot its rate and its channels in use

    def _on_ver(self, fields: tuple[str, ...]) -> None:
        self.hub_version = fields[:2]
        self.hub_info = fields
        self.synced = True

    def _on_ok(self, fields: tuple[str, ...]) -> None:
        pass

    def _on_on(self, fields: tuple[str, ...]) -> None:
        place = self._place(fields[0])
        if place is not None:
            self._reader_online(place, True, "")
            self._card(place, fields[1], True)

    def _on_off(self, fields: tuple[str, ...]) -> None:
        place = self._place(fields[0])
        if place is not None:
            self._card(place, fields[1], False)

    def _on_back(self, fields: tuple[str, ...]) -> None:
        place = self._place(fields[0])
        if place is not None:
            self._reader_online(place, True, "")

    def _on_err(self, fields: tuple[str, ...]) -> None:
        self.counters["hub_errors"] += 1
        if fields[0] != "-" and fields[1] == "OFFLINE":
            place = self._place(fields[0])
            if place is not None:
                detail = fields[2] if len(fields) > 2 else ""
                self._reader_online(place, False, f"the reader does not answer ({detail})")
        else:
            log.info("reader hub: %s", ",".join(fields))

    def _on_hb(self, fields: tuple[str, ...]) -> None:
        mask = int(fields[1], 16)
        for channel, place in self.places.items():
            self._reader_online(place, bool(mask >> channel & 1), "the reader does not answer")

    def _on_cards(self, fields: tuple[str, ...]) -> None:
        self.counters["cards_lines"] += 1
        for channel, place in self.places.items():
            held = fields[channel] if channel < len(fields) else "!"
            if held == "!":
                self._reader_online(place, False, "the reader does not answer")
                continue
            self._reader_online(place, True, "")
            now_there = set(held.split("+")) if held else set()
            for uid in sorted(now_there - self.cards[place]):
                self._card(place, uid, True)
            for uid in sorted(self.cards[place] - now_there):
                self._card(place, uid, False)

    # ----- events ---------------------------------------------------------------

    def _used(self, place: int) -> bool:
        return self.in_use is None or place in self.in_use

    def _card(self, place: int, uid: str, here: bool, force: bool = False) -> None:
        if not (force or self._used(place)):
            return
        cards = self.cards[place]
        if here and uid not in cards:
            cards.add(uid)
            self._post(CardArrived(place, uid))
        elif not here and uid in cards:
            cards.discard(uid)
            self._post(CardLeft(place, uid))

    def _reader_online(self, place: int, online: bool, detail: str) -> None:
        if not self._used(place):
            return  # not looked at: what was last said stands
        was = self.online[place]
        if online == was:
            return
        self.online[place] = online
        if online and was is False:
            self._post(ReaderBack(place))
        elif not online:
            self._post(ReaderOffline(place, detail))

    def _all_offline(self, detail: str) -> None:
        for place in self.online:
            self._reader_online(place, False, detail)


def open_from_config(places: Mapping[int, Any], hub: Any) -> HubReaders:
    """The hub's readers of a `table.config.Config`: `places` maps each place
    to its HubReader (with `channel`), `hub` is the HubConfig."""
    return HubReaders({place: int(r.channel) for place, r in places.items()},
                      port=getattr(hub, "port", DEFAULT_PORT),
                      usb_id=getattr(hub, "usb_id", HUB_USB_ID),
                      baud=int(getattr(hub, "baud", 115200)))
