"""A whole fake table: every port of `table.ports.Ports` built from the fakes.

    mock = MockTable(seats=4)
    controller = Controller.open(settings, mock.ports, state_dir)   # see table.controller
    mock.readers.arrive(0, "04A1B2C3")      # a card comes onto seat 0's reader
    mock.clock.advance(0.2)                 # time passes (debounce)
    mock.press("ok")                        # press and release OK (gpiozero mock pin)
    mock.display.image                      # the frame on the OLED (luma dummy device)
    mock.indicators.seat_patterns[0]        # "on", "blink", ... (and the mock pins' states)

The buttons, LEDs and buzzer are the real adapters of `table.drivers.gpio`
on gpiozero's MockFactory (see `hw_mocks.gpio`); the readers, the display
and the clock are fakes implementing the same ports as the real ones, held
to the same contract tests (tests/contract/).
"""

from __future__ import annotations

from typing import Any

from hw_mocks.clock import FakeClock
from hw_mocks.display import FakeDisplay
from hw_mocks.gpio import GpioButtons, GpioPins, RecordingIndicators, mock_factory
from hw_mocks.readers import FakeCardReaders
from table.ports import Ports


class MockTable:
    """Fake readers, display, LEDs, buzzer, buttons and clock, wired as a `Ports`."""

    def __init__(self, seats: int = 6, dealer_reader: bool = True,
                 screen: tuple[int, int] = (128, 64), hold_s: float = 1.0,
                 pins: GpioPins | None = None, keep_frames: int = 0,
                 bounce_ms: int = 30, display: FakeDisplay | None = None) -> None:
        """`display`: a FakeDisplay of the size `screen` already made (one that
        shows the first frame while the rest loads); a new one by default."""
        if display is not None and (display.size != screen or keep_frames):
            raise ValueError(f"the display given is {display.size}, the screen {screen}"
                             if display.size != screen else
                             "keep_frames is for a display made here")
        pins = pins or GpioPins()
        if seats > len(pins.seat_leds):
            raise ValueError(f"{seats} seats but only {len(pins.seat_leds)} seat LED pins")
        self.clock = FakeClock()
        self.factory: Any = mock_factory()
        self.readers = FakeCardReaders(seats, dealer_reader)
        self.display = display if display is not None else FakeDisplay(screen,
                                                                         keep=keep_frames)
        self.indicators = RecordingIndicators(self.factory, pins.seat_leds[:seats],
                                              pins.status_led, pins.buzzer)
        try:
            self.buttons = GpioButtons(self.factory, pins.button_pins(), self.clock,
                                       hold_s=hold_s, bounce_ms=bounce_ms)
        except Exception:
            self.indicators.close()
            raise
        self.hold_s = hold_s
        self._released_at: dict[str, float] = {}
        self.ports = Ports(readers=self.readers, display=self.display,
                           indicators=self.indicators, buttons=self.buttons, clock=self.clock)

    def press(self, name: str, seconds: float = 0.1) -> None:
        """Press a button for `seconds` of table time and release it (through
        its gpiozero mock pin). `seconds >= hold_s` makes a long press.

        A finger needs a moment between two presses: a press that would
        start within the bounce time after the last release of the same
        button (which the buttons' driver rightly takes for contact bounce)
        starts just after it instead."""
        pin = self.buttons.pin(name)
        pressed, released = (pin.drive_low, pin.drive_high) if self.buttons.pull_up \
            else (pin.drive_high, pin.drive_low)
        last = self._released_at.get(name)
        if last is not None:
            since = self.clock.now() - last
            if since < self.buttons.bounce_s:
                self.clock.advance(self.buttons.bounce_s - since + 0.001)
        pressed()
        self.clock.advance(seconds)
        released()
        self._released_at[name] = self.clock.now()

    def hold(self, name: str) -> None:
        """A long press: held half a second longer than the hold time."""
        self.press(name, self.hold_s + 0.5)

    def pin_state(self, pin: int) -> bool:
        """Whether a mock GPIO pin is high now (LEDs and buzzer)."""
        return bool(self.factory.pin(pin).state)

    def close(self) -> None:
        self.buttons.close()
        self.indicators.close()
