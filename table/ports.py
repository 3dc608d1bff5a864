"""The ports the controller talks through: typing Protocols and the events
drivers post.

Drivers never call the controller: they post events to its queue (`Post`).
Real adapters live in `table.drivers`, fakes in `hw_mocks`; both implement
these Protocols, and one contract test suite runs against each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from PIL.Image import Image

#: The place of the dealer's own reader, where one is configured.
DEALER = -1


# ----- events ------------------------------------------------------------------

@dataclass(frozen=True)
class CardArrived:
    """A card came into a reader's field. `seat` is the reader's place (a seat
    in order of play, or `DEALER`); `uid` is upper-case hex, e.g. "04A1B2C3D4E5F6"."""

    seat: int
    uid: str


@dataclass(frozen=True)
class CardLeft:
    seat: int
    uid: str


@dataclass(frozen=True)
class ReaderOffline:
    seat: int
    detail: str = ""


@dataclass(frozen=True)
class ReaderBack:
    seat: int


ButtonName = Literal["ok", "undo", "menu"]


@dataclass(frozen=True)
class ButtonPressed:
    button: ButtonName
    long: bool = False


@dataclass(frozen=True)
class Tick:
    """Posted by the clock so that debounce and timeouts advance."""

    now: float


Event = CardArrived | CardLeft | ReaderOffline | ReaderBack | ButtonPressed | Tick
Post = Callable[[Event], None]


# ----- ports -------------------------------------------------------------------

@runtime_checkable
class CardReaders(Protocol):
    """All the table's readers. `start` begins posting card and reader events.

    Optional: `use_places` (see `PlaceSelectingReaders`), which the
    controller calls, where the readers have it, when a match starts or resumes."""

    def start(self, post: Post) -> None: ...

    def stop(self) -> None: ...


@runtime_checkable
class PlaceSelectingReaders(CardReaders, Protocol):
    """Readers that can leave out the places a match does not use."""

    def use_places(self, places: frozenset[int]) -> None:
        """Only the readers of `places` (the seats in play, and DEALER when the
        table has the dealer's reader) read from now on; the others get their
        antenna off (no crosstalk, no card powered) and are not polled, so no
        card is reported from them. Cards reported on a reader that goes out of
        use are reported as left; cards on a reader that comes back into use
        are reported when read. A place without a reader is ignored."""


@runtime_checkable
class Display(Protocol):
    """A monochrome screen. `show` takes a mode "1" image of exactly `size`."""

    @property
    def size(self) -> tuple[int, int]: ...

    def show(self, image: Image) -> None: ...


LedPattern = Literal["off", "on", "blink", "fast_blink"]
BuzzPattern = Literal["error", "ok", "turn", "match_end"]


@runtime_checkable
class Indicators(Protocol):
    """One LED per seat, a status LED and a buzzer."""

    def seat_led(self, seat: int, pattern: LedPattern) -> None: ...

    def status_led(self, pattern: LedPattern) -> None: ...

    def buzz(self, pattern: BuzzPattern) -> None: ...


@runtime_checkable
class Buttons(Protocol):
    """OK, UNDO and MENU; press and long-press are posted as `ButtonPressed`."""

    def start(self, post: Post) -> None: ...

    def stop(self) -> None: ...


@runtime_checkable
class Clock(Protocol):
    """Monotonic seconds. Tests use a fake that they advance by hand."""

    def now(self) -> float: ...


@dataclass(frozen=True)
class JournalEntry:
    """One accepted event as the store keeps it: `seq` counts from 1."""

    seq: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Store(Protocol):
    """Durable storage of accepted events (`table.journal.Journal` on SQLite).

    `append` returns only once the entry is safe on disk, with one exception:
    for a card, `table.journal.Journal` writes the entry without waiting for
    the disk, the verdict is shown, and the entry is synced before the next
    event is handled (the card lies on its reader and is read again after a
    power cut: docs/controller.md). The controller replays the entries on
    start."""

    def append(self, kind: str, data: Mapping[str, Any]) -> int: ...

    def entries(self, after: int = 0) -> Iterator[JournalEntry]: ...

    def close(self) -> None: ...


@dataclass
class Ports:
    """Everything the controller talks through, real or fake."""

    readers: CardReaders
    display: Display
    indicators: Indicators
    buttons: Buttons
    clock: Clock
