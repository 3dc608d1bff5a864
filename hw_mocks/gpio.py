"""Seat LEDs, status LED, buzzer and buttons as real gpiozero devices.

The classes take a gpiozero pin factory; the fake table gives them a
`MockFactory` (with PWM-capable mock pins), so everything from here down is
gpiozero's own code, and the simulator reads LED and buzzer states straight
off the mock pins (`pin.state`, `pin.states`). A button press or long press is
measured with the table's clock, so tests decide how long a button is held
without sleeping.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from table.ports import DEALER, ButtonName, ButtonPressed, BuzzPattern, Clock, LedPattern, Post

#: (on seconds, off seconds) of each blinking LED pattern.
LED_TIMINGS: dict[str, tuple[float, float]] = {"blink": (0.5, 0.5), "fast_blink": (0.1, 0.1)}
#: (on seconds, off seconds, beeps) of each buzzer pattern.
BUZZ_TIMINGS: dict[str, tuple[float, float, int]] = {
    "error": (0.08, 0.06, 3),
    "ok": (0.05, 0.05, 1),
    "turn": (0.02, 0.02, 1),
    "match_end": (0.3, 0.1, 2),
}


@dataclass(frozen=True)
class GpioPins:
    """BCM pin numbers of the fake table (any free pins do on a mock factory)."""

    seat_leds: tuple[int, ...] = (4, 27, 22, 23, 16, 20)
    status_led: int = 26
    buzzer: int = 12
    buttons: Mapping[str, int] | None = None

    def button_pins(self) -> dict[str, int]:
        return dict(self.buttons) if self.buttons else {"ok": 5, "undo": 6, "menu": 13}


def mock_factory() -> Any:
    """A fresh gpiozero `MockFactory` whose pins all support PWM."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


class GpioIndicators:
    """Implements `table.ports.Indicators` with gpiozero `LED`, `PWMLED`, `Buzzer`."""

    def __init__(self, pin_factory: Any, seat_pins: Sequence[int], status_pin: int | None,
                 buzzer_pin: int | None) -> None:
        from gpiozero import LED, PWMLED, Buzzer

        self.factory = pin_factory
        self.seat_leds = [LED(p, pin_factory=pin_factory) for p in seat_pins]
        self.status = PWMLED(status_pin, pin_factory=pin_factory) if status_pin is not None \
            else None
        self.buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory) if buzzer_pin is not None \
            else None
        #: The pattern last asked of each seat's LED, and of the status LED.
        self.seat_patterns: dict[int, LedPattern] = {s: "off" for s in range(len(seat_pins))}
        self.status_pattern: LedPattern = "off"
        #: Every buzzer pattern asked for, oldest first.
        self.buzzes: list[BuzzPattern] = []
        self._lock = threading.Lock()

    def seat_led(self, seat: int, pattern: LedPattern) -> None:
        if seat == DEALER:
            return
        if not 0 <= seat < len(self.seat_leds):
            raise ValueError(f"there is no LED for seat {seat}")
        with self._lock:
            self.seat_patterns[seat] = pattern
            _drive(self.seat_leds[seat], pattern)

    def status_led(self, pattern: LedPattern) -> None:
        with self._lock:
            self.status_pattern = pattern
            if self.status is not None:
                _drive(self.status, pattern)

    def buzz(self, pattern: BuzzPattern) -> None:
        if pattern not in BUZZ_TIMINGS:
            raise ValueError(f"unknown buzzer pattern {pattern!r}")
        with self._lock:
            self.buzzes.append(pattern)
            if self.buzzer is not None:
                on, off, n = BUZZ_TIMINGS[pattern]
                self.buzzer.beep(on, off, n, background=True)

    def is_lit(self, seat: int) -> bool:
        """Whether the seat's LED pin is high right now."""
        return bool(self.seat_leds[seat].is_lit)

    def close(self) -> None:
        for dev in [*self.seat_leds, self.status, self.buzzer]:
            if dev is not None:
                dev.close()


def _drive(led: Any, pattern: str) -> None:
    if pattern == "off":
        led.off()
    elif pattern == "on":
        led.on()
    elif pattern in LED_TIMINGS:
        on, off = LED_TIMINGS[pattern]
        led.blink(on_time=on, off_time=off, background=True)
    else:
        raise ValueError(f"unknown LED pattern {pattern!r}")


class GpioButtons:
    """Implements `table.ports.Buttons` with gpiozero `Button`s.

    A press shorter than `hold_s` (measured with `clock`) is posted as
    `ButtonPressed(name)` when the button is released; a longer one as
    `ButtonPressed(name, long=True)`.
    """

    def __init__(self, pin_factory: Any, pins: Mapping[str, int], clock: Clock,
                 hold_s: float = 1.0, pull_up: bool = True) -> None:
        from gpiozero import Button

        self.factory = pin_factory
        self.clock = clock
        self.hold_s = hold_s
        self.pull_up = pull_up
        self.buttons: dict[str, Any] = {}
        self._pressed_at: dict[str, float] = {}
        self._post: Post | None = None
        for name, pin in pins.items():
            if name not in ("ok", "undo", "menu"):
                raise ValueError(f"unknown button {name!r}: the buttons are ok, undo, menu")
            b = Button(pin, pull_up=pull_up, pin_factory=pin_factory)
            b.when_pressed = self._pressed_handler(name)
            b.when_released = self._released_handler(name)
            self.buttons[name] = b

    def _pressed_handler(self, name: str) -> Any:
        def pressed() -> None:
            self._pressed_at[name] = self.clock.now()
        return pressed

    def _released_handler(self, name: str) -> Any:
        def released() -> None:
            t0 = self._pressed_at.pop(name, None)
            if t0 is None or self._post is None:
                return
            held = self.clock.now() - t0
            button: ButtonName = name  # type: ignore[assignment]
            self._post(ButtonPressed(button, long=held >= self.hold_s))
        return released

    def start(self, post: Post) -> None:
        self._post = post

    def stop(self) -> None:
        self._post = None

    def pin(self, name: str) -> Any:
        """The mock pin behind a button (drive it low to press, high to release)."""
        return self.buttons[name].pin

    def close(self) -> None:
        self.stop()
        # Each Button has a hold thread that looks for a stop only every 0.1 s;
        # wake them all at once, so closing does not wait for each in turn.
        for b in self.buttons.values():
            thread = getattr(b, "_hold_thread", None)
            if thread is not None:
                thread.stopping.set()
                thread.holding.set()
        for b in self.buttons.values():
            b.close()
