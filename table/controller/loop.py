"""The controller: one thread owns the state machine and everything it touches.

Drivers (readers, buttons, the clock) only `post` events to its queue. For
each event the controller thread runs the read hygiene (a card arriving where
it makes sense is read at once, others once steady: `hygiene`), fires the machine's
trigger (the model appends the journal entry while doing so), and then shows
the effect: the frame (only when it changed), the LEDs (only those that
changed), the buzzer. So nothing is shown that is not in the journal; a
card's entry is written before its verdict is shown and synced to disk just
after it (the card, lying on its reader, is read again after a power cut:
`handle`).

Tests and the events player run the same code without a thread: `post`
events, then `pump()` handles everything queued, synchronously.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from table.controller import machine
from table.controller.hygiene import Debouncer
from table.controller.model import Notice, TableModel
from table.controller.present import Presenter
from table.controller.session import Action, Read, Selection, Session
from table.journal import Journal, JournalError
from table.ports import (
    DEALER,
    ButtonPressed,
    CardArrived,
    CardLeft,
    Event,
    LedPattern,
    PlaceSelectingReaders,
    Ports,
    ReaderBack,
    ReaderOffline,
    Tick,
)
from table.registry import CardRegistry, RegistryError
from table.screens.render import learn_glyphs, prepare_glyphs, render
from table.screens.view import ErrorView, View
from table.settings import TableSettings

log = logging.getLogger("cardtable.controller")

JOURNAL_FILE = "journal.sqlite"
REGISTRY_FILE = "registry.sqlite"

_STOP = object()


class Controller:
    """The table controller (see the module docstring).

    `strict=True` (tests) lets an unexpected error inside the machine escape;
    otherwise it is logged and shown, and the table goes on.
    """

    def __init__(self, settings: TableSettings, ports: Ports, journal: Journal | None,
                 registry: CardRegistry, *, seed_source: Callable[[], int] | None = None,
                 strict: bool = False) -> None:
        self.settings = settings
        self.ports = ports
        self.clock = ports.clock
        self.journal = journal
        self.registry = registry
        self.strict = strict
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.debouncer = Debouncer(settings.debounce_ms / 1000.0)
        #: (place, uid, arrival) -> the play or read a card read at once added
        self._taken: dict[tuple[int, str, float], Action | Read] = {}
        selection = Selection(settings.game, dict(settings.options), settings.knowledge,
                              settings.language)
        self.session = Session(selection, journal)
        self.model = TableModel(settings, self.session, registry, self.clock, self.debouncer,
                                seed_source)
        self.machine = machine.build(self.model)
        self.presenter = Presenter(self.model)
        self.seats = _seat_count(ports)
        self.frame: Any = None
        self.view: View | None = None
        self.failed: str | None = None
        self._leds: dict[int, LedPattern] = {}
        self._status: LedPattern | None = None
        self._readers_for: Any = None  # the match whose places the readers were given
        self._thread: threading.Thread | None = None
        self._running = False
        #: Called after each frame is handed to the display (the benchmark's probe).
        self.on_frame: Callable[[Any], None] | None = None
        #: Called with the newest journal sequence number after each event that
        #: appended entries (the club publisher, table.club.publisher).
        self.journal_listeners: list[Callable[[int], None]] = []
        self._told = 0
        #: (language, game) whose alphabet the glyph caches were given to learn
        self._prepared: tuple[str, str] | None = None
        self._preparing: Iterator[None] | None = None

    # ----- construction ---------------------------------------------------------------------

    @classmethod
    def open(cls, settings: TableSettings, ports: Ports, state_dir: str | Path,
             **kw: Any) -> Controller:
        """A controller keeping its journal and card registry in `state_dir`
        (created if missing), resumed from the journal."""
        state = Path(state_dir)
        try:
            state.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot use the state folder {state}: "
                               f"{exc.strerror or exc}") from None
        # both stores are compared with their marks before anything is written
        Journal.verify(state / JOURNAL_FILE)
        CardRegistry.verify(state / REGISTRY_FILE)
        journal = Journal.open_checked(state / JOURNAL_FILE)
        try:
            registry = CardRegistry.open_checked(state / REGISTRY_FILE)
        except BaseException:
            journal.close()
            raise
        ctl = cls(settings, ports, journal, registry, **kw)
        try:
            ctl.resume()
        except BaseException:
            journal.close()
            registry.close()
            raise
        return ctl

    def resume(self) -> int:
        """Replay the journal (if any) and go to the state it calls for.
        Returns the number of entries replayed."""
        n = self.session.restore(self.journal) if self.journal is not None else 0
        self.model.step()  # type: ignore[attr-defined]  # a trigger the machine adds
        self.refresh()
        return n

    @property
    def state(self) -> str:
        return str(self.model.state)

    @property
    def notices(self) -> Any:
        return self.model.notices

    def on_notice(self, listener: Callable[[Notice], None]) -> None:
        self.model.listeners.append(listener)

    # ----- events ---------------------------------------------------------------------------

    def post(self, event: Event) -> None:
        """Thread-safe: what drivers call."""
        self.queue.put(event)

    def pump(self) -> int:
        """Handle every event queued now (and reads that became steady), on
        this thread. Returns the number of events handled."""
        n = 0
        while True:
            try:
                ev = self.queue.get_nowait()
            except queue.Empty:
                break
            if ev is _STOP:
                continue
            if isinstance(ev, _Marker):
                ev.done.set()
                continue
            self.handle(ev)
            n += 1
        self.handle(Tick(self.clock.now()))
        return n

    def handle(self, event: Event) -> None:
        """One event, start to finish (hygiene, trigger, journal, effects).

        A card put down is answered before its journal entry reaches the
        disk: the entry is written, the verdict shown, then the entry synced
        (`Journal.defer_sync`), all before the next event. A power cut in
        between loses the entry but not the card, which lies on its reader
        and is read again when the table is back (docs/controller.md). Every
        other event is on disk before its effect is shown."""
        if self.failed is not None:
            return
        journal = self.journal
        if journal is not None and isinstance(event, CardArrived):
            journal.defer_sync()
            try:
                self._handle_shown(event)
            finally:
                try:
                    journal.sync()
                except JournalError as exc:
                    self._fail(f"journal: {exc}")
                    if self.strict:
                        raise
        else:
            self._handle_shown(event)
        if self.failed is None and self.journal_listeners and self.session.seq != self._told:
            self._told = self.session.seq
            for listener in self.journal_listeners:
                listener(self._told)

    def _handle_shown(self, event: Event) -> None:
        """The event handled and its effect shown (or the error it met)."""
        try:
            self._handle(event)
        except JournalError as exc:
            self._fail(f"journal: {exc}")
            if self.strict:
                raise
        except RegistryError as exc:
            # the card registry could not be written (or read): said on the screen
            # and in the log; the registry in memory still matches the file
            if self.strict:
                raise
            log.error("card registry: %s", exc)
            self.model.overlay = None
            self._show_error(str(exc))
            return
        except Exception as exc:
            if self.strict:
                raise
            log.exception("controller error on %r", event)
            self.model.overlay = None
            self._show_error(f"{type(exc).__name__}: {exc}")
            return
        self.refresh()

    def post_refresh(self) -> None:
        """Thread-safe: show the screen again soon (something outside the
        machine changed, as the club connection)."""
        self.queue.put(Tick(self.clock.now()))

    def _handle(self, event: Event) -> None:
        now = self.clock.now()
        self._steady(now)
        if isinstance(event, CardArrived):
            self.debouncer.arrived(event.seat, event.uid, now)
            if self.model.is_read_at_once(event.seat, event.uid):
                self._read_at_once(event.seat, event.uid)
            self._steady(now)
        elif isinstance(event, CardLeft):
            self.debouncer.left(event.seat, event.uid)
        elif isinstance(event, ButtonPressed):
            # A button press takes a message off the screen; OK does only that.
            shown, self.model.overlay = self.model.overlay, None
            if shown is not None and event.button == "ok":
                return
            name = event.button + ("_long" if event.long and event.button == "undo" else "")
            self.fire(name)
        elif isinstance(event, ReaderOffline):
            self.fire("reader_offline", event.seat, event.detail)
        elif isinstance(event, ReaderBack):
            self.fire("reader_back", event.seat)
        elif isinstance(event, Tick):
            pass
        else:
            raise TypeError(f"not an event: {event!r}")
        self.model.expire(now)

    def _steady(self, now: float) -> None:
        while True:
            settled = self.debouncer.settle(now)
            if not (settled.steady or settled.kept or settled.lapsed):
                return
            for r in settled.kept:
                self._taken.pop((r.place, r.uid, r.since), None)
            for r in settled.lapsed:
                taken = self._taken.pop((r.place, r.uid, r.since), None)
                if taken is not None and self.model.withdraw(taken):
                    # the card was slid on: where it lies now, it is read again
                    self.debouncer.retry(r.uid, now, besides=r.place)
            for r in settled.steady:
                self.fire("read", r.place, r.uid)

    def _read_at_once(self, place: int, uid: str) -> None:
        """Act on a read as soon as it comes (`hygiene.takes_at_once`); what
        it added to the hand is remembered until its debounce time is up, to be
        taken back if the card has left by then."""
        since = self.debouncer.take(place, uid)
        before = self.model.last_action()
        self.fire("read", place, uid)
        after = self.model.last_action()
        if after is not None and after is not before and after.uid == uid:
            self._taken[(place, uid, since)] = after

    def fire(self, trigger: str, *args: Any) -> bool:
        """Fire a machine trigger; False when the current state does not take it."""
        try:
            return bool(getattr(self.model, trigger)(*args))
        except machine.TriggerRefused:
            self.model.notify("ignored", f"{trigger} in {self.state}")
            return False

    # ----- effects --------------------------------------------------------------------------

    def refresh(self) -> None:
        """Show the current state: frame, LEDs, buzzer (only what changed);
        a match that started or resumed also sets the readers in use."""
        if self.failed is not None:
            return
        self._use_readers()
        view = self.presenter.view()
        if view != self.view:
            self.view = view
            self._show(render(view, self.ports.display.size))
        want = self.model.led_patterns(self.seats)
        ind = self.ports.indicators
        for seat, pattern in want.items():
            if self._leds.get(seat) != pattern:
                ind.seat_led(seat, pattern)
                self._leds[seat] = pattern
        status = self.model.status_pattern()
        if status != self._status:
            ind.status_led(status)
            self._status = status
        buzzes, self.model.buzzes = self.model.buzzes, []
        for b in buzzes:
            ind.buzz(b)

    def _use_readers(self) -> None:
        """When a match starts or resumes, only the readers of its seats (and
        the dealer's) read; the others' antennas go off (no crosstalk)."""
        match = self.session.match
        readers = self.ports.readers
        if match is None or match is self._readers_for or not isinstance(
                readers, PlaceSelectingReaders):
            return
        self._readers_for = match
        places = set(range(match.game.players))
        if self.settings.has_dealer_reader:
            places.add(DEALER)
        readers.use_places(frozenset(places))

    def _show(self, frame: Any) -> None:
        self.frame = frame
        self.ports.display.show(frame)
        if self.on_frame is not None:
            self.on_frame(frame)

    def _show_error(self, text: str) -> None:
        view = ErrorView("cardtable", text)
        self.view = view
        self._show(render(view, self.ports.display.size))
        self.ports.indicators.buzz("error")

    def _fail(self, text: str) -> None:
        """The journal cannot be written: stop taking events (nothing more
        may be shown that would not survive a restart)."""
        log.error("stopping: %s", text)
        self._show_error(text)
        self.ports.indicators.status_led("fast_blink")
        self.failed = text

    # ----- the thread -------------------------------------------------------------------------

    def start(self) -> None:
        """Start the drivers and the controller thread."""
        self.ports.readers.start(self.post)
        self.ports.buttons.start(self.post)
        self._running = True
        self._thread = threading.Thread(target=self._run, name="cardtable-controller",
                                        daemon=True)
        self._thread.start()

    def _wait(self) -> float:
        now = self.clock.now()
        deadlines = [d for d in (self.debouncer.next_due(),
                                 self.model.overlay.until if self.model.overlay else None)
                     if d is not None]
        if not deadlines:
            return 0.5
        return min(0.5, max(0.005, min(deadlines) - now))

    def idle(self) -> bool:
        """One small piece of the work kept for idle time; whether more waits.

        The thread calls it while its queue is empty (an event waits for at
        most the piece under way): the screens' glyphs are learned one at a
        time (`table.screens.glyphs`), so that a text shown for the first
        time (a refusal's sentence naming a seat and a card) is composed from
        them instead of drawn by FreeType. First, and again when the language
        or the game changes, the glyphs and kerning pairs of every text the
        screens of this language and game may show are queued
        (`Presenter.texts`), then the glyphs met in texts drawn whole. A
        piece costs about 1.5 ms on a PC, 20 ms on a Pi Zero 2 W; a
        language's glyphs and pairs in both fonts 0.35 s here, about 4.5 s
        there, once."""
        want = (self.model.lang, self.session.selection.game)
        if want != self._prepared:
            self._prepared = want
            self._preparing = prepare_glyphs(self.ports.display.size, self.presenter.texts())
        if self._preparing is not None:
            if next(self._preparing, StopIteration) is not StopIteration:
                return True
            self._preparing = None
        return learn_glyphs(1)

    def _run(self) -> None:
        while self._running:
            while self.queue.empty() and self.idle():
                pass
            try:
                ev = self.queue.get(timeout=self._wait())
            except queue.Empty:
                ev = Tick(self.clock.now())
            if ev is _STOP:
                break
            if isinstance(ev, _Marker):
                ev.done.set()
                continue
            self.handle(ev)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the drivers and the thread (the journal stays as it is)."""
        self.ports.readers.stop()
        self.ports.buttons.stop()
        self._running = False
        self.queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def close(self) -> None:
        self.stop()
        if self.journal is not None:
            self.journal.close()
        self.registry.close()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until the thread has handled everything posted so far."""
        done = threading.Event()
        self.queue.put(_Marker(done))
        return done.wait(timeout)


class _Marker:
    def __init__(self, done: threading.Event) -> None:
        self.done = done


def _seat_count(ports: Ports) -> int:
    leds = getattr(ports.indicators, "seat_leds", None)
    if leds is not None:
        return len(leds)
    return 6


def monotonic_clock() -> Any:
    """A `Clock` on `time.monotonic` (for real tables)."""

    class _Monotonic:
        def now(self) -> float:
            return time.monotonic()

    return _Monotonic()
