"""Each implementation of a port, built the way the table builds it, behind
one small harness the contract tests drive: the fakes of `hw_mocks` (what
the simulator and the controller's tests run on) and the real adapters of
`table.drivers` on the libraries' own test back-ends (gpiozero's
MockFactory, luma's SSD1306/SH1106 classes writing into a model of the
panel's RAM, the register-level MFRC522 emulator under the real `mfrc522`
package, the real hub firmware on a pty pair)."""

from __future__ import annotations

import queue
import time
from typing import Any

from hw_mocks.clock import FakeClock
from hw_mocks.display import FakeDisplay
from hw_mocks.gpio import GpioPins
from hw_mocks.readers import FakeCardReaders
from hw_mocks.table import MockTable
from table.config import DisplayConfig, loads
from table.drivers import build_ports, close_ports, make_pin_factory
from table.drivers.display import NoDisplay, open_display
from table.ports import DEALER
from tests.drivers.oled_panel import CapturePanel

#: The built table's configuration: the reference wiring, buttons held 0.3 s.
CONFIG = loads("[buttons]\nhold_s = 0.3\n")
HOLD_S = 0.3


# ----- display ------------------------------------------------------------------------

class DisplayHarness:
    """`port` and `shown()`: what the panel shows now, as rows of 0/1."""

    def __init__(self, kind: str, size: tuple[int, int] = (128, 64)) -> None:
        self.kind = kind
        if kind == "fake":
            self.port: Any = FakeDisplay(size)
            self._shown = lambda: _rows(self.port.image, size)
        elif kind == "none":
            self.port = open_display(DisplayConfig(driver="none", width=size[0],
                                                   height=size[1]))
            self._shown = lambda: _rows(self.port.image, size)
        else:
            self.panel = CapturePanel(kind, *size)
            self.port = open_display(DisplayConfig(driver=kind, width=size[0], height=size[1]),
                                     serial=self.panel)
            offset = 2 if kind == "sh1106" else 0
            self._shown = lambda: self.panel.pixels(offset)

    def shown(self) -> list[list[int]]:
        return self._shown()

    def close(self) -> None:
        close = getattr(self.port, "close", None)
        if close is not None:
            close()


def _rows(image: Any, size: tuple[int, int]) -> list[list[int]]:
    if image is None:
        return [[0] * size[0] for _ in range(size[1])]
    px = image.load()
    return [[1 if px[x, y] else 0 for x in range(size[0])] for y in range(size[1])]


# ----- LEDs, buzzer, buttons ------------------------------------------------------------

class GpioHarness:
    """The indicators and buttons of the fake table (`MockTable`) or of a table
    built from its configuration (`build_ports` on gpiozero's MockFactory),
    with the pins behind them and the clock the buttons measure with."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.seats = 4
        if kind == "mock table":
            self.mock = MockTable(seats=4, hold_s=HOLD_S)
            self.factory = self.mock.factory
            self.clock: Any = self.mock.clock
            ports = self.mock.ports
            pins = GpioPins()
            self.seat_pins = list(pins.seat_leds[:4])
            self.status_pin, self.buzzer_pin = pins.status_led, pins.buzzer
            self.button_pins = pins.button_pins()
        else:
            self.factory = make_pin_factory("mock")
            self.clock = FakeClock()
            ports = build_ports(CONFIG, pin_factory=self.factory,
                                readers=FakeCardReaders(4), clock=self.clock,
                                display=NoDisplay(CONFIG.display.size))
            self.ports = ports
            self.seat_pins = [s.led for s in CONFIG.seats]
            self.status_pin, self.buzzer_pin = CONFIG.leds.status, CONFIG.buzzer.pin
            b = CONFIG.buttons
            self.button_pins = {"ok": b.ok, "undo": b.undo, "menu": b.menu}
        self.indicators = ports.indicators
        self.buttons = ports.buttons
        self.events: queue.Queue[Any] = queue.Queue()

    def pin(self, number: int) -> Any:
        return self.factory.pin(number)

    def seat_pin(self, seat: int) -> Any:
        return self.pin(self.seat_pins[seat])

    def lit(self) -> list[bool]:
        return [bool(self.seat_pin(s).state) for s in range(self.seats)]

    def press(self, name: str, seconds: float = 0.1) -> None:
        """A finger on the button for `seconds` of table time (the button
        connects its pin to ground: the pull-up wiring of the docs)."""
        pin = self.pin(self.button_pins[name])
        pin.drive_low()
        self.clock.advance(seconds)
        pin.drive_high()
        self.clock.advance(0.5)          # the finger goes away before the next press

    def posted(self) -> list[Any]:
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        if self.kind == "mock table":
            self.mock.close()
        else:
            close_ports(self.ports)
        self.factory.reset()


# ----- card readers ------------------------------------------------------------------------

#: Places of the readers under test: three seats and the dealer's reader.
PLACES = (0, 1, 2, DEALER)
UIDS = ("04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04C0FFEE000001")


class ReadersHarness:
    """Cards put on and taken off the readers of `PLACES`, readers unplugged
    and plugged back; `events` receives what the port posts."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.events: queue.Queue[Any] = queue.Queue()
        self._cards: dict[str, Any] = {}
        if kind == "fake":
            self.port: Any = FakeCardReaders(seats=3, dealer_reader=True)
        elif kind == "spi":
            from hw_mocks import fake_rpi
            from hw_mocks.mfrc522 import Board, VirtualClock
            from table.drivers.spi_readers import SpiReaders, Wiring

            self.board = Board(clock=VirtualClock(pace=1.0))
            wiring = dict(zip(PLACES, [Wiring(0, 0, None, 25), Wiring(0, 1, None, 25),
                                       Wiring(1, 0, None, 25), Wiring(1, 2, None, 25)],
                              strict=True))
            self.chips = {place: self.board.add_reader(w.bus, w.device, rst_pin=w.reset_pin)
                          for place, w in wiring.items()}
            fake_rpi.install(self.board)
            self.port = SpiReaders(wiring, clock=self.board.clock, sleep=self.board.clock.sleep,
                                   retry_s=0.2)
        elif kind == "hub":
            from hw_mocks.fake_hub import FakeHub
            from table.drivers.hub_readers import HubReaders

            self.hub = FakeHub(channels=len(PLACES))
            self.hub.plug()
            self.channels = {place: i for i, place in enumerate(PLACES)}
            self.port = HubReaders(self.channels, find_port=self.hub.find_port, retry_s=0.1,
                                   silence_s=1.5, poll_rate=100)
        else:
            raise ValueError(kind)

    @property
    def synchronous(self) -> bool:
        """The fake posts on the caller's thread; the drivers from their own."""
        return self.kind == "fake"

    def start(self) -> None:
        self.port.start(self.events.put)

    def _card(self, uid: str) -> Any:
        from hw_mocks.mfrc522 import Ntag213

        return self._cards.setdefault(uid, Ntag213(uid))

    def put(self, place: int, uid: str) -> None:
        if self.kind == "fake":
            self.port.arrive(place, uid)
        elif self.kind == "spi":
            self.board.place(self._card(uid), self.chips[place])
        else:
            self.hub.place(self._card(uid), self.channels[place])

    def take(self, place: int, uid: str) -> None:
        if self.kind == "fake":
            self.port.leave(place, uid)
        elif self.kind == "spi":
            self.board.remove(self._card(uid))
        else:
            self.hub.remove(self._card(uid))

    def unplug(self, place: int) -> None:
        if self.kind == "fake":
            self.port.offline(place, "unplugged")
        elif self.kind == "spi":
            self.chips[place].unplug()
        else:
            self.hub.board.readers[self.channels[place]].unplug()

    def plug(self, place: int) -> None:
        if self.kind == "fake":
            self.port.back(place)
        elif self.kind == "spi":
            self.chips[place].plug()
        else:
            self.hub.board.readers[self.channels[place]].plug()

    def expect(self, count: int, timeout: float = 6.0) -> list[Any]:
        """The next `count` events (fewer if they do not come in time)."""
        got: list[Any] = []
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            try:
                got.append(self.events.get(timeout=0.02))
            except queue.Empty:
                pass
        return got

    def quiet(self, seconds: float = 0.4) -> list[Any]:
        """Whatever is posted within `seconds` (expected: nothing)."""
        return self.expect(1_000, seconds if not self.synchronous else 0.0)

    def close(self) -> None:
        if self.kind == "fake":
            self.port.stop()
        elif self.kind == "spi":
            from hw_mocks import fake_rpi

            self.port.close()
            fake_rpi.uninstall()
        else:
            self.port.stop()
            self.hub.unplug()
