"""The real adapters behind the table's ports, wired from the configuration.

`build_ports(config)` opens the display, LEDs, buzzer, buttons and card
readers a `table.config.Config` describes and returns them as
`table.ports.Ports`; `cardtable run --hardware pi` and `cardtable doctor`
call it. Every hardware library is imported inside a function, so
`import table.drivers` works on any machine.

A part that cannot be opened raises `HardwareError` naming the part, the
reason and what to do (the message a person reads when the service fails).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from table.config import Config
    from table.ports import Ports, Post

__all__ = ["CombinedReaders", "HardwareError", "MonotonicClock", "build_ports", "close_ports",
           "describe_pin_factory", "make_pin_factory", "open_readers"]


class HardwareError(RuntimeError):
    """A part of the table could not be opened: `part`, then what to do."""

    def __init__(self, part: str, reason: str, hint: str = "") -> None:
        self.part = part
        self.reason = reason
        self.hint = hint or "run `cardtable doctor` to check the wiring and the permissions"
        super().__init__(f"{part}: {reason} ({self.hint})")


class MonotonicClock:
    """The `Clock` port on `time.monotonic`."""

    def now(self) -> float:
        return time.monotonic()


class CombinedReaders:
    """Several groups of readers (wired straight to the Pi, on the hub) as
    one `CardReaders` port."""

    def __init__(self, groups: Iterable[Any]) -> None:
        self.groups = list(groups)

    def start(self, post: Post) -> None:
        started = []
        try:
            for g in self.groups:
                g.start(post)
                started.append(g)
        except Exception:
            for g in reversed(started):
                g.stop()
            raise

    def stop(self) -> None:
        for g in reversed(self.groups):
            g.stop()

    def use_places(self, places: frozenset[int]) -> None:
        """`table.ports.PlaceSelectingReaders`: each group that can leaves out
        its readers outside `places` (a group ignores places it has not)."""
        for g in self.groups:
            use = getattr(g, "use_places", None)
            if use is not None:
                use(places)

    def close(self) -> None:
        for g in reversed(self.groups):
            close = getattr(g, "close", None)
            if close is not None:
                close()


PIN_FACTORY_CLASSES: dict[str, str] = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "pigpio": "gpiozero.pins.pigpio:PiGPIOFactory",
    "native": "gpiozero.pins.native:NativeFactory",
}


def make_pin_factory(name: str) -> Any:
    """gpiozero's pin factory by the name `[gpio] pin_factory` gives.

    "auto" is lgpio, which runs on every Pi model (the only choice on a Pi 5).
    If lgpio is missing or does not start, that is an error saying why, not a
    silent fallback to RPi.GPIO: under the service RPi.GPIO cannot watch the
    buttons (its edge detection needs /sys/class/gpio, read-only there), and
    a Pi 5 has no working fallback at all. Name "rpigpio" to use it anyway.

    gpiozero is first imported here, without `importlib.metadata`
    (`table.drivers.lazy_metadata`)."""
    from table.drivers.lazy_metadata import import_quietly

    if name == "mock":
        mock = import_quietly("gpiozero.pins.mock")
        return mock.MockFactory(pin_class=mock.MockPWMPin)
    chosen = "lgpio" if name == "auto" else name
    module, cls = PIN_FACTORY_CLASSES[chosen].split(":")
    try:
        return getattr(import_quietly(module), cls)()
    except Exception as exc:  # noqa: BLE001 - import or start-up failure of the library
        if name == "auto":
            missing = isinstance(exc, ImportError) and exc.name in ("lgpio", "gpiozero")
            raise HardwareError(
                "GPIO", f"lgpio {'is not installed' if missing else 'does not start'} "
                f"({type(exc).__name__}: {exc})",
                "lgpio needs a writable working directory or $LG_WD (the service gives it "
                "/run/cardtable: reinstall systemd/cardtable.service with install.sh); "
                "install the pi extra: pip install 'cardtable[pi]'; to use RPi.GPIO "
                'instead on a Pi 3/4/Zero 2 W, set [gpio] pin_factory = "rpigpio"') from exc
        raise HardwareError("GPIO", f"the {name} pin factory does not start ({exc})",
                            'set [gpio] pin_factory = "auto", or install its library') from exc


def describe_pin_factory(factory: Any) -> str:
    """What `make_pin_factory` gave, for the log: the library, the GPIO chip
    (lgpio) and the board gpiozero detected."""
    names = {v.split(":")[1]: k for k, v in PIN_FACTORY_CLASSES.items()}
    kind = type(factory).__name__
    text = names.get(kind, kind)
    chip = getattr(factory, "chip", None)
    if isinstance(chip, int):
        text += f" on /dev/gpiochip{chip}"
    try:
        model = factory.board_info.model
    except Exception:  # noqa: BLE001 - a board gpiozero does not know still works
        model = None
    if model:
        text += f", board {model}"
    return text


def open_readers(config: Config, pin_factory: Any) -> Any:
    """The card readers of every seat and of the dealer, from the readers'
    drivers (`table.drivers.spi_readers`, `table.drivers.hub_readers`)."""
    from table.drivers.reader_wiring import open_hub_group, open_spi_group

    groups = []
    try:
        spi = open_spi_group(config, pin_factory)
        if spi is not None:
            groups.append(spi)
        hub = open_hub_group(config)
        if hub is not None:
            groups.append(hub)
    except Exception:
        CombinedReaders(groups).close()
        raise
    return CombinedReaders(groups)


def _opening(part: str, hint: str, action: Callable[[], Any]) -> Any:
    try:
        return action()
    except HardwareError:
        raise
    except Exception as exc:  # noqa: BLE001 - turned into a message a person can act on
        raise HardwareError(part, f"{type(exc).__name__}: {exc}", hint) from exc


def build_ports(config: Config, *, pin_factory: Any = None, readers: Any = None,
                display: Any = None, clock: Any = None,
                announce: Callable[[str], None] | None = None,
                first_frame: Callable[[Any], None] | None = None) -> Ports:
    """The table's real ports, as `config` wires them (see module docstring).

    `pin_factory`, `readers`, `display` and `clock` replace the configured
    ones (tests use gpiozero's MockFactory, fake readers and a display on a
    capture interface). `announce` is told which pin library was chosen
    (`cardtable run` writes it to the log). `first_frame` is called with the
    display as soon as it is open: an I2C display (or none) is opened before
    the GPIO library is loaded, so the table's first frame does not wait for it.
    What was opened is closed again if a later part fails.
    """
    from table.drivers.display import open_display
    from table.ports import Ports

    clock = clock if clock is not None else MonotonicClock()
    opened: list[Any] = []
    d = config.display
    factory = pin_factory
    announced = False

    def gpio() -> Any:
        nonlocal factory, announced
        if factory is None:
            factory = make_pin_factory(config.gpio.pin_factory)
        if announce is not None and not announced:
            announce(f"GPIO through {describe_pin_factory(factory)}")
            announced = True
        return factory

    try:
        if d.driver != "none" and d.interface != "i2c":
            gpio()   # an SPI display's D/C and RES lines are GPIO pins
        display = display if display is not None else _opening(
            "the display",
            "I2C: enable it in /boot/firmware/config.txt (dtparam=i2c_arm=on) and check the "
            "address with `i2cdetect -y 1`; SPI: dtparam=spi=on" if d.interface == "i2c"
            else "SPI: enable it in /boot/firmware/config.txt (dtparam=spi=on)",
            lambda: open_display(d, factory))
        opened.append(display)
        if first_frame is not None:
            first_frame(display)
        from table.drivers.gpio import GpioButtons, GpioIndicators

        factory = gpio()
        indicators = _opening(
            "the LEDs and buzzer", "check [leds], [buzzer] and the seats' led pins",
            lambda: GpioIndicators(
                factory, [s.led for s in config.seats], config.leds.status, config.buzzer.pin,
                buzzer_kind=config.buzzer.kind, active_high=config.leds.active_high,
                buzzer_active_high=config.buzzer.active_high))
        opened.append(indicators)
        b = config.buttons
        buttons = _opening(
            "the buttons", "check [buttons]",
            lambda: GpioButtons(factory, {"ok": b.ok, "undo": b.undo, "menu": b.menu}, clock,
                                hold_s=b.hold_s, bounce_ms=b.bounce_ms, pull_up=b.pull_up))
        opened.append(buttons)
        if readers is None:
            readers = _opening("the card readers",
                               "SPI: dtparam=spi=on and dtoverlay=spi1-3cs in config.txt; "
                               "hub: is it plugged in?",
                               lambda: open_readers(config, factory))
            opened.append(readers)
    except Exception:
        for part in reversed(opened):
            close = getattr(part, "close", None)
            if close is not None:
                close()
        raise
    return Ports(readers=readers, display=display, indicators=indicators, buttons=buttons,
                 clock=clock)


def close_ports(ports: Ports) -> None:
    """Stop and release everything `build_ports` opened."""
    ports.buttons.stop()
    ports.readers.stop()
    for part in (ports.readers, ports.buttons, ports.indicators, ports.display):
        close = getattr(part, "close", None)
        if close is not None:
            close()
