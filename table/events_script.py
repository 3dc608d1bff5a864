"""Timed events files, and the player that runs them on the fake table.

One event a line (docs/events.md):

    # a comment; blank lines are ignored
    tap 1 Kh            seat 1: the King of hearts lies on its reader long enough, then leaves
    arrive dealer 9b    a card comes onto a reader (a seat 0..n-1, or `dealer`)
    leave dealer 9b     ... and goes away
    tap 0 04A1B2C3D4    a card given by its sticker's UID instead of its code
    tap 2 Kh#2          the second copy of a card (double pack)
    press ok            a short press of ok, undo or menu
    hold undo           a long press
    pause 0.5           half a second of table time passes
    offline 3           the reader of seat 3 stops answering ...
    back 3              ... and is back

The whole file is read and checked before anything runs; a mistake names its
line. The player drives the real controller on the fakes of `hw_mocks`
(`Player.tap`, `press`, ... are also what tests and the simulator use).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.errors import UnknownCard
from engine.packs import Pack
from table.ports import DEALER
from table.registry import CardRegistry, is_uid, normalise_uid

if TYPE_CHECKING:
    from table.backends import FakeTable
    from table.controller import Controller

VERBS = ("tap", "arrive", "leave", "press", "hold", "pause", "offline", "back")
BUTTONS = ("ok", "undo", "menu")
MAX_PAUSE = 24 * 3600.0


class EventsError(ValueError):
    """Mistakes in an events file, each with its line; nothing was run."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.problems = problems
        n = len(problems)
        super().__init__(f"{source}: {n} mistake{'s' if n != 1 else ''}:\n"
                         + "\n".join(f"  {p}" for p in problems))


@dataclass(frozen=True)
class ScriptEvent:
    """One line: `verb`, the reader's `place` (a seat, or -1 for the dealer's),
    the card as written (`card`: a code such as "Kh", "Kh#2", or a UID),
    the button, the seconds of a pause, the detail of `offline`."""

    line: int
    verb: str
    place: int | None = None
    card: str = ""
    button: str = ""
    seconds: float = 0.0
    detail: str = ""


@dataclass(frozen=True)
class Limits:
    """What the lines are checked against: the table's `seats` (readers), its
    dealer's reader, and (when known) the game's number of `players` and its
    `pack`: a card goes only onto the reader of a seat in the game, and a card
    code must be a card of the game's pack (with a copy it has)."""

    seats: int = 6
    dealer: bool = True
    players: int | None = None
    pack: Pack | None = None
    game: str = ""


def parse(text: str, source: str = "<events>", seats: int = 6, *,
          limits: Limits | None = None) -> list[ScriptEvent]:
    """Read a whole events file; `EventsError` lists every mistake."""
    limits = limits or Limits(seats)
    out: list[ScriptEvent] = []
    problems: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        # an inline comment starts at " #"; a "#" inside a word is a card's copy (Kh#2)
        line = line.replace("\t", " ").split(" #", 1)[0].strip()
        try:
            out.append(_parse_line(lineno, line.split(), limits))
        except ValueError as exc:
            problems.append(f"line {lineno}: {exc}")
    if problems:
        raise EventsError(source, problems)
    return out


def _place(word: str, limits: Limits, card: bool = False) -> int:
    """A reader's place: a seat of the table (for a card: of the game), or the dealer's."""
    seats = limits.seats
    if card and limits.players is not None:
        seats = min(seats, limits.players)
    dealer = " or dealer" if limits.dealer else ""
    if word.lower() in ("dealer", "d"):
        if not limits.dealer:
            raise ValueError("this table has no dealer's reader: write a seat "
                             f"0..{seats - 1}")
        return DEALER
    if not word.isdigit():
        raise ValueError(f"{word!r} is not a seat: write 0..{seats - 1}{dealer}")
    seat = int(word)
    if seat >= limits.seats:
        raise ValueError(f"there is no seat {seat}: seats are 0..{limits.seats - 1}{dealer}")
    if seat >= seats:
        raise ValueError(f"seat {seat} is not in the game: {limits.game} is played by "
                         f"seats 0..{seats - 1}{dealer}")
    return seat


def _card_word(word: str, limits: Limits) -> str:
    if is_uid(word):
        return normalise_uid(word)
    code, _, copy = word.partition("#")
    try:
        c = Card.parse(code)
    except UnknownCard:
        raise ValueError(f"{word!r} is neither a card (like Kh, 10h, Oa) nor a UID "
                         "(hexadecimal, like 04A1B2C3)") from None
    if copy and copy not in ("1", "2"):
        raise ValueError(f"{word!r}: the copy after # is 1 or 2")
    pack = limits.pack
    if pack is not None:
        if c not in pack:
            raise ValueError(f"{code!r} is not a card of the {pack.name} pack that "
                             f"{limits.game} is played with")
        if copy == "2" and pack.copies < 2:
            raise ValueError(f"{word!r}: the {pack.name} pack has one copy of each card")
    return word


def _parse_line(lineno: int, words: list[str], limits: Limits) -> ScriptEvent:
    verb = words[0].lower()
    args = words[1:]
    if verb not in VERBS:
        raise ValueError(f"unknown event {words[0]!r}; events: {', '.join(VERBS)}")
    if verb in ("tap", "arrive", "leave"):
        if len(args) != 2:
            raise ValueError(f"{verb} takes a seat and a card: {verb} 1 Kh")
        problems = []
        place = card = None
        for check in (lambda: _place(args[0], limits, card=True),
                      lambda: _card_word(args[1], limits)):
            try:
                value = check()
            except ValueError as exc:
                problems.append(str(exc))
            else:
                if isinstance(value, int):
                    place = value
                else:
                    card = value
        if problems:
            raise ValueError("; ".join(problems))
        assert place is not None and card is not None
        return ScriptEvent(lineno, verb, place, card)
    if verb in ("press", "hold"):
        if len(args) != 1 or args[0].lower() not in BUTTONS:
            raise ValueError(f"{verb} takes a button: {', '.join(BUTTONS)}")
        return ScriptEvent(lineno, verb, button=args[0].lower())
    if verb == "pause":
        if len(args) != 1:
            raise ValueError("pause takes seconds: pause 0.5")
        try:
            seconds = float(args[0])
        except ValueError:
            raise ValueError(f"{args[0]!r} is not a number of seconds") from None
        if not 0 <= seconds <= MAX_PAUSE:
            raise ValueError(f"a pause is 0 to {MAX_PAUSE:.0f} seconds, not {args[0]}")
        return ScriptEvent(lineno, verb, seconds=seconds)
    if not args:
        raise ValueError(f"{verb} takes a seat: {verb} 2")
    if verb == "back" and len(args) != 1:
        raise ValueError("back takes a seat: back 2")
    return ScriptEvent(lineno, verb, _place(args[0], limits), detail=" ".join(args[1:]))


def load(path: str | Path, seats: int = 6, *, limits: Limits | None = None
         ) -> list[ScriptEvent]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise EventsError(str(path), [f"cannot read it: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError:
        raise EventsError(str(path), ["it is not UTF-8 text"]) from None
    return parse(text, str(path), seats, limits=limits)


class Player:
    """Drives a controller on a table of fakes (a `table.backends.FakeTable`,
    such as `hw_mocks.table.MockTable`), event by event, in table time.

    `virtual_packs=True` (the default for `cardtable run --hardware mock`)
    enrolls a made-up pack of the game's type when a card code has no
    enrolled sticker yet.
    """

    def __init__(self, controller: Controller, mock: FakeTable, registry: CardRegistry, *,
                 virtual_packs: bool = True, pace: float = 0.0,
                 on_event: Callable[[ScriptEvent], None] | None = None) -> None:
        self.ctl = controller
        self.mock = mock
        self.registry = registry
        self.virtual_packs = virtual_packs
        self.pace = pace
        self.on_event = on_event
        self.dwell = controller.settings.debounce_ms / 1000.0 + 0.05
        if not mock.readers.started:
            mock.readers.start(controller.post)
        mock.buttons.start(controller.post)

    # ----- the moves ------------------------------------------------------------------

    def pump(self) -> None:
        self.ctl.pump()

    def pause(self, seconds: float) -> None:
        self.mock.clock.advance(seconds)
        self.pump()

    def arrive(self, place: int, uid: str) -> None:
        self.mock.readers.arrive(place, uid)
        self.pump()

    def leave(self, place: int, uid: str) -> None:
        self.mock.readers.leave(place, uid)
        self.pump()

    def tap(self, place: int, uid: str) -> None:
        """The card lies on the reader a little longer than the debounce time."""
        self.arrive(place, uid)
        self.pause(self.dwell)
        self.leave(place, uid)

    def press(self, button: str) -> None:
        self.mock.press(button)
        self.pump()

    def hold(self, button: str) -> None:
        self.mock.hold(button)
        self.pump()

    def offline(self, place: int, detail: str = "") -> None:
        self.mock.readers.offline(place, detail)
        self.pump()

    def back(self, place: int) -> None:
        self.mock.readers.back(place)
        self.pump()

    # ----- scripts --------------------------------------------------------------------

    def family(self) -> tuple[str, str]:
        """The current game's pack (family, pack type)."""
        match = self.ctl.session.match
        game = match.game if match is not None else self.ctl.session.selection.make_game()
        return game.pack.family, game.pack.name

    def uid(self, written: str) -> str:
        """The UID of a card as written in a script (a UID, or a code with its copy)."""
        if is_uid(written):
            return normalise_uid(written)
        code, _, copy = written.partition("#")
        c = Card.parse(code)
        family, pack_type = self.family()
        uid = self.registry.uid_for(c, family, int(copy or 1))
        if uid is None and self.virtual_packs:
            self.registry.enroll_virtual(pack_type)
            uid = self.registry.uid_for(c, family, int(copy or 1))
        if uid is None:
            raise ValueError(f"no sticker is enrolled for {written} in a {family} pack; "
                             "enroll a pack first (docs/table.md)")
        return uid

    def run(self, events: Iterable[ScriptEvent]) -> int:
        """Play the events in order; returns how many were played."""
        n = 0
        for ev in events:
            try:
                self.play(ev)
            except ValueError as exc:
                raise EventsError("events", [f"line {ev.line}: {exc}"]) from None
            n += 1
            if self.on_event is not None:
                self.on_event(ev)
            if self.pace:
                time.sleep(self.pace)
        return n

    def play(self, ev: ScriptEvent) -> None:
        v = ev.verb
        if v in ("tap", "arrive", "leave"):
            assert ev.place is not None
            uid = self.uid(ev.card)
            getattr(self, v)(ev.place, uid)
        elif v == "press":
            self.press(ev.button)
        elif v == "hold":
            self.hold(ev.button)
        elif v == "pause":
            self.pause(ev.seconds)
        elif v == "offline":
            assert ev.place is not None
            self.offline(ev.place, ev.detail)
        elif v == "back":
            assert ev.place is not None
            self.back(ev.place)


def describe(ev: ScriptEvent) -> str:
    place = "dealer" if ev.place == DEALER else str(ev.place)
    parts: list[Any] = [ev.verb]
    if ev.place is not None:
        parts.append(place)
    parts.extend(x for x in (ev.card, ev.button) if x)
    if ev.verb == "pause":
        parts.append(f"{ev.seconds:g}")
    return " ".join(str(p) for p in parts)
