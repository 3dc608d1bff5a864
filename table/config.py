"""The table's configuration: one TOML file, checked completely.

`load(path)` reads the file (default `/etc/cardtable/config.toml`, or the file
named by `CARDTABLE_CONFIG`), fills every key it does not set with the
documented default (see `examples/config.toml` and docs/hardware.md) and
returns a `Config`: `.table` is the game side (`TableSettings`), the rest
wires the hardware. Every mistake is collected, each with its key path and
the problem, and raised together as one `ConfigError`, whose text is exactly
what `cardtable config check` prints and what `cardtable run` prints when it
refuses to start.

Seats are listed in the file in the order they sit around the table,
clockwise seen from above; `table.direction` says which way play goes, and
`Config.seats` gives them in the order of play (seat 0 first), as the engine
numbers them.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from table.choices import CONFIG_ENV, CONFIG_PATH, config_file  # read early by the first frame too
from table.choices import DISPLAY_DEFAULTS as _D
from table.fields import (
    Check,
    Custom,
    Derived,
    Flag,
    OneOf,
    Pin,
    Seconds,
    Text,
    Whole,
    check_of,
    like,
    pin_problem,
    setting,
    whole_problem,
)
from table.fields import kind as _kind
from table.fields import show as _show
from table.settings import TableSettings

if TYPE_CHECKING:
    # loaded when a [club] section is there (JSON, URLs and regular expressions
    # the table without a club does not wait for)
    from table.club.config import ClubConfig

DEFAULT_PATH = Path(CONFIG_PATH)
ENV_VAR = CONFIG_ENV
DEFAULT_STATE_DIR = "/var/lib/cardtable"

DIRECTIONS: tuple[str, ...] = ("anticlockwise", "clockwise")
DISPLAY_DRIVERS: tuple[str, ...] = ("ssd1306", "sh1106", "none")
DISPLAY_SIZES: dict[str, tuple[tuple[int, int], ...]] = {
    "ssd1306": ((128, 64), (128, 32)),
    "sh1106": ((128, 64), (128, 32), (128, 128)),
    "none": ((128, 64), (128, 32), (128, 128)),
}
#: The SPI clock rates luma accepts for a display.
DISPLAY_SPI_SPEEDS: tuple[int, ...] = tuple(
    int(mhz * 1_000_000) for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32))
PIN_FACTORIES: tuple[str, ...] = ("auto", "lgpio", "rpigpio", "pigpio", "native", "mock")
BUZZER_KINDS: tuple[str, ...] = ("active", "passive")

#: Pins a bus takes for itself once it is switched on in config.txt.
BUS_PINS: dict[str, tuple[int, ...]] = {
    "spi0": (7, 8, 9, 10, 11),
    "spi1": (16, 17, 18, 19, 20, 21),
    "i2c1": (2, 3),
}
#: Chip selects per SPI bus (SPI1 with the spi1-3cs overlay has three).
SPI_DEVICES: dict[int, int] = {0: 2, 1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2}
HUB_CHANNELS = 8
#: MicroPython's USB id on a Raspberry Pi Pico: the reader hub's firmware
#: keeps it (see firmware/PROTOCOL.md and systemd/99-cardtable-hub.rules).
HUB_USB_ID = "2e8a:0005"


# ----- the result ----------------------------------------------------------------

@dataclass(frozen=True)
class SpiReader:
    """An MFRC522 on a Pi SPI bus: hardware chip select `device`, or a GPIO
    chip select `cs_pin` (then `device` is None). `reset_pin` None: RST is
    tied to 3.3 V."""

    bus: int
    device: int | None
    cs_pin: int | None
    reset_pin: int | None
    type: Literal["spi"] = "spi"

    def describe(self) -> str:
        cs = f"CE{self.device}" if self.device is not None else f"GPIO{self.cs_pin} as CS"
        return f"SPI{self.bus} {cs}"


@dataclass(frozen=True)
class HubReader:
    """A reader on the USB reader hub, by its channel (0..7)."""

    channel: int
    type: Literal["hub"] = "hub"

    def describe(self) -> str:
        return f"hub channel {self.channel}"


Reader = SpiReader | HubReader


@dataclass(frozen=True)
class SeatConfig:
    """One seat. `position` is its place in the file (clockwise around the
    table); its index in `Config.seats` is its number in the order of play."""

    name: str
    position: int
    reader: Reader
    led: int | None


# Each section's keys are declared once, as fields with their default and their
# check (table.fields); the checker below reads them from these declarations.

@dataclass(frozen=True)
class ReadersConfig:
    """[readers]: the SPI readers' bus speed and their shared reset line."""

    spi_speed_hz: int = setting(1_000_000, Whole(100_000, 10_000_000))
    #: Claimed by each SPI reader that uses it, so a hub-only table claims nothing.
    reset_pin: int | None = setting(25, Pin(optional=True))


def _usb_id_problem(value: Any) -> str | None:
    ok = isinstance(value, str) and len(value) == 9 and value[4] == ":" and all(
        c in "0123456789abcdefABCDEF" for c in value[:4] + value[5:])
    if ok:
        return None
    return f'must be "vvvv:pppp" (hexadecimal USB vendor:product), not {_show(value)}'


@dataclass(frozen=True)
class HubConfig:
    """[hub]: the reader hub's serial port, its speed and its USB id."""

    port: str = setting("/dev/cardtable-hub", Text())
    baud: int = setting(115200, OneOf((9600, 19200, 38400, 57600, 115200, 230400, 460800,
                                       921600)))
    usb_id: str = setting(HUB_USB_ID, Custom(_usb_id_problem, str.lower))


@dataclass(frozen=True)
class DisplayConfig:
    """[display]: the OLED's chip, bus, size, rotation and contrast."""

    driver: str = setting(_D["driver"], OneOf(DISPLAY_DRIVERS))
    interface: str = setting(_D["interface"], OneOf(("i2c", "spi")))
    width: int = setting(_D["width"], Whole(8, 256))
    height: int = setting(_D["height"], Whole(8, 256))
    rotate: int = setting(_D["rotate"], OneOf((0, 1, 2, 3)))
    contrast: int = setting(_D["contrast"], Whole(0, 255))
    i2c_port: int = setting(_D["i2c_port"], Whole(0, 22))
    i2c_address: int = setting(_D["i2c_address"], Whole(0x03, 0x77))
    spi_port: int = setting(0, Whole(0, 6))
    #: 0..(chip selects of `spi_port`) - 1 (SPI_DEVICES); the checker narrows the range.
    spi_device: int = setting(0, Whole(0, max(SPI_DEVICES.values()) - 1))
    spi_speed_hz: int = setting(8_000_000, OneOf(DISPLAY_SPI_SPEEDS))
    dc_pin: int = setting(24, Pin(optional=False))
    reset_pin: int | None = setting(None, Pin(optional=True))

    @property
    def size(self) -> tuple[int, int]:
        """The picture's size as the screens draw it, after rotation."""
        if self.rotate % 2:
            return (self.height, self.width)
        return (self.width, self.height)


@dataclass(frozen=True)
class ButtonsConfig:
    """[buttons]: the OK, UNDO and MENU pins, long press, bounce and pull."""

    ok: int = setting(5, Pin(optional=False))
    undo: int = setting(6, Pin(optional=False))
    menu: int = setting(13, Pin(optional=False))
    hold_s: float = setting(1.0, Seconds(0.2, 10))
    bounce_ms: int = setting(30, Whole(0, 500))
    pull_up: bool = setting(True, Flag())


@dataclass(frozen=True)
class LedsConfig:
    """[leds]: the status LED and which level lights the LEDs."""

    status: int | None = setting(26, Pin(optional=True))
    active_high: bool = setting(True, Flag())


@dataclass(frozen=True)
class BuzzerConfig:
    """[buzzer]: its pin, its kind and which level sounds it."""

    pin: int | None = setting(12, Pin(optional=True))
    kind: str = setting("active", OneOf(BUZZER_KINDS))
    active_high: bool = setting(True, Flag())


@dataclass(frozen=True)
class GpioConfig:
    """[gpio]: which gpiozero pin factory drives the pins."""

    pin_factory: str = setting("auto", OneOf(PIN_FACTORIES))


#: [voice] language: "table" speaks the table's language (its screen's).
VOICE_LANGUAGES: tuple[str, ...] = ("table", "en", "ro", "hu")


def _alsa_device_problem(value: Any) -> str | None:
    problem = Text(80).problem(value)
    if problem is None and any(c.isspace() for c in value):
        return (f"must be an ALSA device name without spaces, like \"default\" or "
                f"\"plughw:1,0\" (see `aplay -L`), not {_show(value)}")
    return problem


@dataclass(frozen=True)
class VoiceConfig:
    """[voice]: the table speaks through espeak-ng (docs/setup.md)."""

    enabled: bool = setting(False, Flag())
    language: str = setting("table", OneOf(VOICE_LANGUAGES))
    device: str = setting("default", Custom(_alsa_device_problem))
    rate: int = setting(160, Whole(80, 450))
    volume: int = setting(100, Whole(0, 200))
    cards: bool = setting(True, Flag())


def _reference_seats(reset_pin: int | None = 25) -> tuple[SeatConfig, ...]:
    """The wiring of docs/hardware.md for four seats."""
    wiring = ((0, 0, 4), (0, 1, 27), (1, 0, 22), (1, 1, 23))
    return tuple(
        SeatConfig(str(i + 1), i, SpiReader(bus, dev, None, reset_pin), led)
        for i, (bus, dev, led) in enumerate(wiring))


@dataclass(frozen=True)
class Config:
    """A whole, checked configuration (see the module docstring)."""

    table: TableSettings = field(default_factory=lambda: TableSettings(
        seat_names=("1", "4", "3", "2")))
    #: [table] direction: which way play goes around the table
    direction: str = setting("anticlockwise", OneOf(DIRECTIONS))
    seats: tuple[SeatConfig, ...] = field(default_factory=lambda: _in_play_order(
        _reference_seats(), "anticlockwise"))
    dealer: Reader | None = field(default_factory=lambda: SpiReader(1, 2, None, 25))
    readers: ReadersConfig = field(default_factory=ReadersConfig)
    hub: HubConfig = field(default_factory=HubConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    state_dir: Path = Path(DEFAULT_STATE_DIR)
    source: Path | None = None
    #: The `[club]` section (table.club.config), None without one.
    club: ClubConfig | None = None

    def readers_by_place(self) -> dict[int, Reader]:
        """Every reader by its place: seat number in order of play, or
        `table.ports.DEALER` (-1) for the dealer's."""
        out: dict[int, Reader] = {i: s.reader for i, s in enumerate(self.seats)}
        if self.dealer is not None:
            out[-1] = self.dealer
        return out

    def uses_hub(self) -> bool:
        return any(isinstance(r, HubReader) for r in self.readers_by_place().values())


def _in_play_order(seats: Sequence[SeatConfig], direction: str) -> tuple[SeatConfig, ...]:
    """Seats listed clockwise, put in the order of play starting at the first."""
    if direction == "clockwise" or len(seats) < 2:
        return tuple(seats)
    return (seats[0], *reversed(seats[1:]))


# ----- errors --------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    """One mistake: the key path and what is wrong with it."""

    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.key}: {self.message}"


class ConfigError(ValueError):
    """Every mistake in a configuration file, with its key path and problem."""

    def __init__(self, path: Path | str | None, problems: Sequence[Problem]) -> None:
        self.path = Path(path) if path is not None else None
        self.problems = list(problems)
        super().__init__(format_problems(self.path, self.problems))


def format_problems(path: Path | None, problems: Sequence[Problem]) -> str:
    where = str(path) if path is not None else "configuration"
    n = len(problems)
    head = f"{where}: {n} mistake{'s' if n != 1 else ''}"
    if any(p.key.startswith("seats[") for p in problems):
        head += " ([[seats]] are counted from 1 in the order of the file)"
    return "\n".join([head + ":", *(f"  {p}" for p in problems)])


# ----- locating the file -----------------------------------------------------------

def resolve_path(path: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None) -> tuple[Path, bool]:
    """The file to read and whether it was asked for explicitly: `path` (from
    --config), else $CARDTABLE_CONFIG, else /etc/cardtable/config.toml."""
    file, explicit = config_file(path, env)
    return (Path(file), True) if explicit else (DEFAULT_PATH, False)


def load(path: str | os.PathLike[str] | None = None,
         env: Mapping[str, str] | None = None, *, command: str = "config check") -> Config:
    """Read and check a configuration file (see module docstring).

    A file asked for (by `path` or $CARDTABLE_CONFIG) must exist; when the
    default file is absent the built-in defaults are used. Raises
    `ConfigError` listing every mistake. A file (or its folder) this user may
    not open is reported as a mistake too, with the command to run instead
    as the service's user: `command` is what the person typed after
    `cardtable` ("config check", "run", "doctor").
    """
    file, explicit = resolve_path(path, env)
    if not explicit and not _probe(file, command):
        return loads("")
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(file, [Problem("(file)", "no such file")]) from None
    except IsADirectoryError:
        raise ConfigError(file, [Problem("(file)", "is a folder, not a file")]) from None
    except OSError as exc:
        raise ConfigError(file, [_unreadable(exc, command)]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(file, [Problem("(file)", f"is not UTF-8 text ({exc.reason})")]) from None
    return loads(text, source=file)


def _probe(file: Path, command: str) -> bool:
    """Whether the (default) file is there; a folder this user may not look
    into is a mistake, not an absent file."""
    try:
        return file.exists()
    except OSError as exc:
        raise ConfigError(file, [_unreadable(exc, command)]) from None


def _unreadable(exc: OSError, command: str) -> Problem:
    reason = exc.strerror or type(exc).__name__
    if exc.filename:
        reason = f"{reason}: {exc.filename}"
    if isinstance(exc, PermissionError):
        return Problem("(file)", f"cannot be read by this user ({reason}); run as the "
                                 f"cardtable user: sudo -u cardtable cardtable {command}")
    return Problem("(file)", f"cannot be read ({reason})")


def exists(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
           *, command: str = "config check") -> bool:
    """Whether the configuration file `load` would read is there. Raises
    `ConfigError` when this user may not even look (a folder of mode 0750)."""
    file, _ = resolve_path(path, env)
    return _probe(file, command)


def loads(text: str, source: Path | str | None = None) -> Config:
    """Check configuration text; `source` only names it in messages."""
    src = Path(source) if source is not None else None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(src, [Problem("(syntax)", f"not valid TOML: {exc}")]) from None
    except RecursionError:
        raise ConfigError(src, [Problem("(syntax)", "nested too deeply for a configuration "
                                                    "file (lists or tables inside each other "
                                                    "hundreds of times)")]) from None
    except Exception as exc:  # noqa: BLE001 - whatever else the parser cannot take
        raise ConfigError(src, [Problem("(syntax)", f"not valid TOML: {type(exc).__name__}: "
                                                    f"{exc}")]) from None
    checker = _Checker()
    config = checker.config(data, src)
    if checker.problems:
        raise ConfigError(src, checker.problems)
    return config


# ----- checking ---------------------------------------------------------------------

_MISSING: Any = object()


class _Section:
    """A TOML table being read: remembers which keys were used so the rest
    can be reported as unknown."""

    def __init__(self, checker: _Checker, data: Mapping[str, Any], path: str) -> None:
        self.checker = checker
        self.data = data
        self.path = path
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def raw(self, name: str) -> Any:
        self.used.add(name)
        return self.data.get(name, _MISSING)

    def problem(self, name: str, message: str) -> None:
        self.checker.add(self.key(name), message)

    def get(self, name: str, default: Any, check: Callable[[Any], str | None],
            ) -> Any:
        """The value of `name`, or `default` if absent or wrong (a wrong one
        is reported: `check` returns the problem or None)."""
        value = self.raw(name)
        if value is _MISSING:
            return default
        problem = check(value)
        if problem is not None:
            self.problem(name, problem)
            return default
        return value

    def integer(self, name: str, default: int, lo: int, hi: int) -> int:
        value: int = self.get(name, default, lambda v: whole_problem(v, lo, hi))
        return value

    def text(self, name: str, default: str, *, max_len: int = 200) -> str:
        value: str = self.get(name, default, Text(max_len).problem)
        return value

    def setting(self, cls: type, name: str, default: Any = _MISSING) -> Any:
        """The key `name` read as the field of the same name of the dataclass
        `cls` declares it (table.fields): its check, its default (or
        `default`), its conversion. A field declared without a check is held
        to the type of its default."""
        f = _field(cls, name)
        if default is _MISSING:
            default = _default(f)
        check: Check | None = check_of(f)
        value = self.get(name, _MISSING, check.problem if check is not None else like(default))
        if value is _MISSING:
            return default
        if check is not None:
            return check.convert(value)
        return float(value) if isinstance(default, float) else value

    def settings(self, cls: type, *names: str) -> dict[str, Any]:
        return {name: self.setting(cls, name) for name in names}

    def pin(self, name: str, default: int | None, owner: str | None = None,
            *, optional: bool = True, share: str | None = None) -> int | None:
        """A BCM pin; `false` means not wired where `optional`. The pin is
        claimed for `owner` (the key path) so that double use is found."""
        value = self.raw(name)
        if value is _MISSING:
            pin = default
        elif value is False and optional:
            return None
        else:
            problem = pin_problem(value, optional)
            if problem is not None:
                self.problem(name, problem)
                return default
            pin = value
        if pin is not None:
            self.checker.claim(pin, owner or self.key(name), share=share,
                               explicit=value is not _MISSING)
        return pin

    def declared_pin(self, cls: type, name: str) -> int | None:
        """`pin` for a pin field of `cls` (its default, whether it may be false)."""
        f = _field(cls, name)
        check = check_of(f)
        optional = check.optional if isinstance(check, Pin) else True
        return self.pin(name, _default(f), optional=optional)

    def section(self, name: str) -> _Section:
        value = self.raw(name)
        if value is _MISSING:
            value = {}
        elif not isinstance(value, dict):
            self.problem(name, f"must be a table, not {_kind(value)} {_show(value)}")
            value = {}
        return _Section(self.checker, value, self.key(name))

    def finish(self) -> None:
        """Report every key nobody asked for."""
        for name in self.data:
            if name in self.used:
                continue
            known = sorted(self.used)
            close = _close_match(name, known)
            hint = f' (did you mean "{close[0]}"?)' if close else (
                f"; the keys here are: {', '.join(known)}" if known else "")
            self.checker.add(self.key(name), "unknown key" + hint)


def _close_match(name: str, known: Sequence[str]) -> list[str]:
    """The known name closest to a mistyped one (difflib loads only for a mistake)."""
    import difflib

    return difflib.get_close_matches(name, known, n=1)


def _default(f: dataclasses.Field[Any]) -> Any:
    if callable(f.default_factory):
        return f.default_factory()
    return f.default


def _field(cls: type, name: str) -> dataclasses.Field[Any]:
    for f in dataclasses.fields(cls):
        if f.name == name:
            return f
    raise KeyError(f"{cls.__name__} has no field {name!r}")


@dataclass
class _Claim:
    """A pin's user (its key path), what it may share the pin with, and whether
    the file sets the pin (else it is a default)."""

    owner: str
    share: str | None
    explicit: bool


class _Checker:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.pins: dict[int, list[_Claim]] = {}
        self.buses: dict[str, str] = {}
        self.used_readers: dict[tuple[Any, ...], str] = {}

    def add(self, key: str, message: str) -> None:
        self.problems.append(Problem(key, message))

    def claim(self, pin: int, owner: str, *, share: str | None = None,
              explicit: bool = True) -> None:
        claims = self.pins.setdefault(pin, [])
        if not any(c.owner == owner for c in claims):
            claims.append(_Claim(owner, share, explicit))

    def use_bus(self, bus: str, owner: str) -> None:
        self.buses.setdefault(bus, owner)

    # ----- the whole file --------------------------------------------------------

    def config(self, data: dict[str, Any], source: Path | None) -> Config:
        top = _Section(self, data, "")
        state_dir = top.get("state_dir", DEFAULT_STATE_DIR, _state_dir_problem)
        table = top.section("table")
        direction = table.setting(Config, "direction")
        readers = self.readers(top.section("readers"))
        seats_listed, dealer = self.seats_and_dealer(top, readers)
        seats = _in_play_order(seats_listed, direction)
        hub = self.hub(top.section("hub"))
        display = self.display(top.section("display"))
        buttons = self.buttons(top.section("buttons"))
        leds = self.leds(top.section("leds"))
        buzzer = self.buzzer(top.section("buzzer"))
        gpio_sec = top.section("gpio")
        gpio = GpioConfig(**gpio_sec.settings(GpioConfig, "pin_factory"))
        gpio_sec.finish()
        voice_sec = top.section("voice")
        voice = VoiceConfig(**voice_sec.settings(VoiceConfig, *(
            f.name for f in dataclasses.fields(VoiceConfig))))
        voice_sec.finish()
        settings = self.table(table, seats, dealer, display)
        top.used.add("club")
        club = None
        if data.get("club") is not None:
            from table.club.config import check_club

            club = check_club(data["club"], self.add)
        top.finish()
        self.check_pins()
        # Report in the order of the file's sections.
        order = {name: i for i, name in enumerate(data)}
        self.problems.sort(key=lambda p: order.get(p.key.split(".")[0].split("[")[0], -1))
        if self.problems:
            return Config()
        return Config(table=settings, direction=direction, seats=seats, dealer=dealer,
                      readers=readers, hub=hub, display=display, buttons=buttons, leds=leds,
                      buzzer=buzzer, gpio=gpio, voice=voice, state_dir=Path(state_dir),
                      source=source, club=club)

    # ----- [table] ---------------------------------------------------------------

    def table(self, sec: _Section, seats: Sequence[SeatConfig], dealer: Reader | None,
              display: DisplayConfig) -> TableSettings:
        n_problems = len(self.problems)
        game = sec.setting(TableSettings, "game")
        game_ok = len(self.problems) == n_problems
        options = self.options(sec, game, self.n_seats or len(seats)) if game_ok else {}
        sec.used.add("options")
        handled: dict[str, Any] = {
            "game": game, "options": options, "seat_names": tuple(s.name for s in seats),
            "screen": display.size, "has_dealer_reader": dealer is not None}
        # Every other field is read as TableSettings declares it (table.fields);
        # a Derived one set here is a mistake, reported by its check.
        for f in dataclasses.fields(TableSettings):
            if f.name in handled:
                if isinstance(check_of(f), Derived) and f.name in sec.data:
                    sec.setting(TableSettings, f.name)
                continue
            value = sec.setting(TableSettings, f.name)
            handled[f.name] = tuple(value) if isinstance(value, list) else value
        if handled["knowledge"] == "dealt" and dealer is None and "knowledge" in sec.data:
            sec.problem("knowledge", '"dealt" needs a dealer\'s reader: add [dealer] '
                                     'with its reader, or choose "scan" or "open"')
        sec.finish()
        return TableSettings(**handled)

    def options(self, sec: _Section, game: str, n_seats: int) -> dict[str, Any]:
        from engine.errors import UnknownGame, UnknownOption
        from engine.games import game_class

        raw = sec.raw("options")
        try:
            cls = game_class(game)
        except UnknownGame:
            return {}
        if cls.players > n_seats:
            self.add("seats", f"{game} needs {cls.players} seats; {n_seats} are configured")
        if raw is _MISSING:
            raw = {}
        if not isinstance(raw, dict):
            sec.problem("options", f"must be a table, not {_kind(raw)} {_show(raw)}")
            raw = {}
        specs = {s.name: s for s in cls.option_specs}
        out: dict[str, Any] = {s.name: s.default for s in cls.option_specs}
        for name, value in raw.items():
            key = sec.key(f"options.{name}")
            spec = specs.get(name)
            if spec is None:
                names = ", ".join(specs) or "none"
                close = _close_match(name, list(specs))
                hint = f' (did you mean "{close[0]}"?)' if close else ""
                self.add(key, f"{game} has no such option{hint}; its options are: {names}")
                continue
            try:
                out[name] = spec.check(game, value)
            except UnknownOption:
                self.add(key, f"must be {spec.allowed()}, not {_show(value)}")
        return out

    # ----- seats and readers --------------------------------------------------------

    def readers(self, sec: _Section) -> ReadersConfig:
        # The reset pin is claimed by each SPI reader that uses it, so a
        # hub-only table claims nothing.
        values = sec.settings(ReadersConfig, "spi_speed_hz", "reset_pin")
        self.reset_explicit = "reset_pin" in sec.data
        sec.finish()
        return ReadersConfig(**values)

    def seats_and_dealer(self, top: _Section, readers: ReadersConfig
                         ) -> tuple[tuple[SeatConfig, ...], Reader | None]:
        raw_seats = top.raw("seats")
        raw_dealer = top.raw("dealer")
        used_readers = self.used_readers
        if raw_seats is _MISSING:
            seats = _reference_seats(readers.reset_pin)
            for s in seats:
                key = f"seats[{s.position + 1}]"
                self.claim_reader(s.reader, key + ".reader", used_readers, explicit=False)
                if readers.reset_pin is not None:
                    self.claim(readers.reset_pin, "readers.reset_pin", share="reader reset",
                               explicit=self.reset_explicit)
                if s.led is not None:
                    self.claim(s.led, key + ".led", explicit=False)
        else:
            seats = self.seat_list(raw_seats, readers, used_readers)
        dealer: Reader | None = None
        if raw_dealer is _MISSING:
            if raw_seats is _MISSING:
                dealer = SpiReader(1, 2, None, readers.reset_pin)
                self.claim_reader(dealer, "dealer.reader", used_readers, explicit=False)
        elif not isinstance(raw_dealer, dict):
            top.problem("dealer", f"must be a table, not {_kind(raw_dealer)}")
        else:
            sec = _Section(self, raw_dealer, "dealer")
            dealer = self.reader(sec, readers, used_readers)
            sec.finish()
        return seats, dealer

    def seat_list(self, raw: Any, readers: ReadersConfig,
                  used_readers: dict[tuple[Any, ...], str]) -> tuple[SeatConfig, ...]:
        if not isinstance(raw, list) or not all(isinstance(s, dict) for s in raw):
            self.add("seats", "must be a list of [[seats]] tables")
            return _reference_seats()
        self.n_seats = len(raw)
        if not 2 <= len(raw) <= 8:
            self.add("seats", f"a table has 2 to 8 seats, not {len(raw)}")
        seats = []
        names: dict[str, str] = {}
        for i, item in enumerate(raw):
            sec = _Section(self, item, f"seats[{i + 1}]")
            name = sec.text("name", str(i + 1), max_len=12)
            if name in names:
                sec.problem("name", f'"{name}" is also the name of {names[name]}')
            names.setdefault(name, sec.path)
            reader = self.reader(sec, readers, used_readers)
            led = sec.pin("led", None)
            sec.finish()
            if reader is not None:
                seats.append(SeatConfig(name, i, reader, led))
        return tuple(seats)

    def reader(self, sec: _Section, readers: ReadersConfig,
               used_readers: dict[tuple[Any, ...], str]) -> Reader | None:
        raw = sec.raw("reader")
        key = sec.key("reader")
        if raw is _MISSING:
            sec.problem("reader", 'missing: say where its reader is, e.g. '
                                  'reader = { type = "spi", bus = 0, device = 0 }')
            return None
        if not isinstance(raw, dict):
            sec.problem("reader", f"must be a table like {{ type = \"spi\", bus = 0, "
                                  f"device = 0 }}, not {_kind(raw)} {_show(raw)}")
            return None
        r = _Section(self, raw, key)
        kind = r.raw("type")
        reader: Reader | None = None
        n_problems = len(self.problems)
        if kind is _MISSING:
            r.problem("type", 'missing: "spi" (wired to the Pi) or "hub" (on the USB hub)')
            r.used.update(raw)
        elif kind == "spi":
            bus = r.integer("bus", 0, 0, 6)
            has_dev, has_cs = "device" in raw, "cs_pin" in raw
            device: int | None = None
            cs: int | None = None
            if has_dev and has_cs:
                r.problem("cs_pin", "give either device (a CE line of the bus) or cs_pin "
                                    "(a GPIO as chip select), not both")
            elif has_cs:
                cs = r.pin("cs_pin", None, optional=False)
            else:
                device = r.integer("device", 0, 0, SPI_DEVICES[bus] - 1)
            if "reset_pin" in raw:
                reset = r.pin("reset_pin", readers.reset_pin, share="reader reset")
            else:
                reset = readers.reset_pin
                if reset is not None:
                    self.claim(reset, "readers.reset_pin", share="reader reset",
                               explicit=self.reset_explicit)
            r.used.update({"device", "cs_pin", "reset_pin"})
            reader = SpiReader(bus, device, cs, reset)
        elif kind == "hub":
            reader = HubReader(r.integer("channel", 0, 0, HUB_CHANNELS - 1))
        else:
            r.problem("type", f'must be "spi" or "hub", not {_show(kind)}')
        r.finish()
        if reader is not None and len(self.problems) == n_problems:
            self.claim_reader(reader, key, used_readers, explicit=True)
        return reader

    def claim_reader(self, reader: Reader, key: str,
                     used: dict[tuple[Any, ...], str], *, explicit: bool) -> None:
        if isinstance(reader, HubReader):
            ident: tuple[Any, ...] = ("hub", reader.channel)
        else:
            self.use_bus(f"spi{reader.bus}", key)
            if reader.cs_pin is not None:
                ident = ("cs", reader.cs_pin)
            else:
                ident = ("spi", reader.bus, reader.device)
        if ident in used:
            self.add(key, f"{reader.describe()} is also the reader of {used[ident]}")
        else:
            used[ident] = key

    # ----- the rest of the hardware ----------------------------------------------

    def hub(self, sec: _Section) -> HubConfig:
        values = sec.settings(HubConfig, "port", "baud", "usb_id")
        sec.finish()
        return HubConfig(**values)

    def display(self, sec: _Section) -> DisplayConfig:
        d = DisplayConfig()
        driver, interface, width, height = (sec.setting(DisplayConfig, k) for k in (
            "driver", "interface", "width", "height"))
        if (width, height) not in DISPLAY_SIZES[driver] and {"width", "height"} & set(sec.data):
            sizes = ", ".join(f"{w}x{h}" for w, h in DISPLAY_SIZES[driver])
            sec.problem("height" if "height" in sec.data else "width",
                        f"{driver} screens are {sizes}, not {width}x{height}")
            width, height = d.width, d.height
        rotate, contrast, i2c_port, address, spi_port, speed = (
            sec.setting(DisplayConfig, k) for k in (
                "rotate", "contrast", "i2c_port", "i2c_address", "spi_port", "spi_speed_hz"))
        # the chip selects of the bus chosen
        spi_device = sec.integer("spi_device", d.spi_device, 0, SPI_DEVICES.get(spi_port, 1) - 1)
        on_spi = driver != "none" and interface == "spi"
        # the pins count (are claimed) only when the display is on SPI
        if on_spi:
            dc = sec.declared_pin(DisplayConfig, "dc_pin") or d.dc_pin
            reset = sec.declared_pin(DisplayConfig, "reset_pin")
        else:
            dc, reset = (sec.setting(DisplayConfig, k) for k in ("dc_pin", "reset_pin"))
        if driver != "none":
            if interface == "i2c":
                if i2c_port == 1:
                    self.use_bus("i2c1", "display")
            else:
                self.use_bus(f"spi{spi_port}", "display")
                ident = ("spi", spi_port, spi_device)
                if ident in self.used_readers:
                    sec.problem("spi_device", f"SPI{spi_port} CE{spi_device} is also the "
                                              f"reader of {self.used_readers[ident]}")
        sec.finish()
        return DisplayConfig(driver=driver, interface=interface, width=width, height=height,
                             rotate=rotate, contrast=contrast, i2c_port=i2c_port,
                             i2c_address=address, spi_port=spi_port, spi_device=spi_device,
                             spi_speed_hz=speed, dc_pin=dc, reset_pin=reset)

    def buttons(self, sec: _Section) -> ButtonsConfig:
        b = ButtonsConfig()
        pins: dict[str, Any] = {name: sec.declared_pin(ButtonsConfig, name) or getattr(b, name)
                for name in ("ok", "undo", "menu")}
        values = sec.settings(ButtonsConfig, "hold_s", "bounce_ms", "pull_up")
        sec.finish()
        return ButtonsConfig(**pins, **values)

    def leds(self, sec: _Section) -> LedsConfig:
        status = sec.declared_pin(LedsConfig, "status")
        values = sec.settings(LedsConfig, "active_high")
        sec.finish()
        return LedsConfig(status=status, **values)

    def buzzer(self, sec: _Section) -> BuzzerConfig:
        pin = sec.declared_pin(BuzzerConfig, "pin")
        values = sec.settings(BuzzerConfig, "kind", "active_high")
        sec.finish()
        return BuzzerConfig(pin=pin, **values)

    # ----- pins against pins and buses ----------------------------------------------

    reset_explicit: bool = False
    n_seats: int = 0

    def check_pins(self) -> None:
        bus_of = {pin: bus for bus, pins in BUS_PINS.items() for pin in pins}
        for pin, claims in sorted(self.pins.items()):
            bus = bus_of.get(pin)
            if bus is not None and bus in self.buses:
                for c in claims:
                    self.add(c.owner, f"GPIO {pin} belongs to {bus.upper()}, which "
                                      f"{self.buses[bus]} uses; choose another pin")
                continue
            shared = {c.share for c in claims}
            if len(claims) > 1 and not (len(shared) == 1 and None not in shared):
                # Report on the keys the file set; the defaults they clash with are named.
                others = claims
                blamed = [c for c in claims if c.explicit] or claims[-1:]
                for c in blamed:
                    rest = ", ".join(o.owner + ("" if o.explicit else " (default)")
                                     for o in others if o is not c)
                    self.add(c.owner, f"GPIO {pin} is also used by {rest}")


def _state_dir_problem(value: Any) -> str | None:
    if not isinstance(value, str):
        return f"must be a folder path in quotes, not {_kind(value)} {_show(value)}"
    if not value.startswith("/"):
        return f'must be an absolute path (starting with "/"), not "{value}"'
    return None


def iter_pins(config: Config) -> Iterator[tuple[str, int]]:
    """Every GPIO the configuration drives, with what it is for."""
    for i, seat in enumerate(config.seats):
        if seat.led is not None:
            yield f"LED of seat {seat.name}", seat.led
        if isinstance(seat.reader, SpiReader) and seat.reader.cs_pin is not None:
            yield f"chip select of seat {seat.name}'s reader", seat.reader.cs_pin
        del i
    for name in ("ok", "undo", "menu"):
        yield f"{name.upper()} button", getattr(config.buttons, name)
    if config.leds.status is not None:
        yield "status LED", config.leds.status
    if config.buzzer.pin is not None:
        yield "buzzer", config.buzzer.pin


# ----- writing a configuration back ---------------------------------------------------

def _toml_value(value: Any) -> str:
    if value is None:
        return "false"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str | Path):
        return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def _reader_table(reader: Reader) -> dict[str, Any]:
    if isinstance(reader, HubReader):
        return {"type": "hub", "channel": reader.channel}
    out: dict[str, Any] = {"type": "spi", "bus": reader.bus}
    if reader.cs_pin is not None:
        out["cs_pin"] = reader.cs_pin
    else:
        out["device"] = reader.device
    out["reset_pin"] = reader.reset_pin
    return out


def dump(config: Config) -> str:
    """The configuration as TOML with every key written out (defaults
    filled); `loads(dump(c))` gives `c` back."""
    lines = [f"state_dir = {_toml_value(config.state_dir)}", "", "[table]"]
    t = config.table
    lines.append(f"direction = {_toml_value(config.direction)}")
    for f in dataclasses.fields(TableSettings):
        if f.name in ("options", "seat_names", "screen", "has_dealer_reader"):
            continue
        value = getattr(t, f.name)
        value = list(value) if isinstance(value, tuple) else value
        lines.append(f"{f.name} = {_toml_value(value)}")
    lines += ["", "[table.options]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in t.options.items()]
    lines += ["", "[readers]", f"spi_speed_hz = {config.readers.spi_speed_hz}",
              f"reset_pin = {_toml_value(config.readers.reset_pin)}"]
    for seat in sorted(config.seats, key=lambda s: s.position):
        lines += ["", "[[seats]]", f"name = {_toml_value(seat.name)}",
                  f"reader = {_toml_value(_reader_table(seat.reader))}",
                  f"led = {_toml_value(seat.led)}"]
    if config.dealer is not None:
        lines += ["", "[dealer]", f"reader = {_toml_value(_reader_table(config.dealer))}"]
    for name in ("hub", "display", "buttons", "leds", "buzzer", "gpio", "voice"):
        section = getattr(config, name)
        lines += ["", f"[{name}]"]
        for f in dataclasses.fields(section):
            value = getattr(section, f.name)
            text = f"0x{value:02X}" if f.name == "i2c_address" else _toml_value(value)
            lines.append(f"{f.name} = {text}")
    if config.club is not None:
        from table.club.config import club_toml

        lines += ["", *club_toml(config.club)]
    return "\n".join(lines) + "\n"


def summary(config: Config) -> str:
    """A few lines a person can check against the table in front of them."""
    t = config.table
    order = ", ".join(s.name for s in config.seats)
    lines = [f"game {t.game}, knowledge {t.knowledge}, language {t.language}",
             f"{len(config.seats)} seats, play goes {config.direction}: {order}"]
    for seat in config.seats:
        led = f"LED GPIO{seat.led}" if seat.led is not None else "no LED"
        lines.append(f"  seat {seat.name}: reader {seat.reader.describe()}, {led}")
    lines.append("  dealer: " + (f"reader {config.dealer.describe()}" if config.dealer
                                 else "no reader"))
    d = config.display
    if d.driver == "none":
        lines.append("display: none")
    elif d.interface == "i2c":
        lines.append(f"display: {d.driver} {d.width}x{d.height} on I2C-{d.i2c_port} "
                     f"at 0x{d.i2c_address:02X}, rotate {d.rotate}")
    else:
        lines.append(f"display: {d.driver} {d.width}x{d.height} on SPI{d.spi_port} "
                     f"CE{d.spi_device}, DC GPIO{d.dc_pin}, rotate {d.rotate}")
    b = config.buttons
    lines.append(f"buttons: OK GPIO{b.ok}, UNDO GPIO{b.undo}, MENU GPIO{b.menu}, "
                 f"hold {b.hold_s:g} s")
    status = f"GPIO{config.leds.status}" if config.leds.status is not None else "none"
    buzzer = (f"{config.buzzer.kind} on GPIO{config.buzzer.pin}"
              if config.buzzer.pin is not None else "none")
    lines.append(f"status LED: {status}; buzzer: {buzzer}")
    if config.uses_hub():
        lines.append(f"reader hub: {config.hub.port} (USB id {config.hub.usb_id})")
    v = config.voice
    if v.enabled:
        lang = "the table's language" if v.language == "table" else v.language
        lines.append(f"voice: on, {lang}, ALSA device {v.device}, rate {v.rate}, "
                     f"volume {v.volume}")
    else:
        lines.append("voice: off")
    lines.append(f"state kept in {config.state_dir}")
    return "\n".join(lines)
