"""Seat LEDs, status LED, buzzer and buttons of the fake table.

They are the table's REAL adapters (`table.drivers.gpio.GpioIndicators` and
`GpioButtons`) on gpiozero's `MockFactory` (with PWM-capable mock pins): from
the adapter down everything is the code that runs on the Pi, so the fake
table's buttons and LEDs behave exactly as the real ones (a long press is
posted while the button is still held, bounce is filtered on the table's
clock, the buzzer plays the real patterns). The simulator and tests read the
mock pins (`pin.state`, `pin.states`), the patterns asked for
(`seat_patterns`, `status_pattern`) and every buzzer pattern sounded
(`buzzes`, kept by the thin `RecordingIndicators` wrapper only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from table.drivers.gpio import GpioButtons, GpioIndicators
from table.ports import BuzzPattern

__all__ = ["GpioButtons", "GpioPins", "RecordingIndicators", "mock_factory"]


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
    """A fresh gpiozero `MockFactory` whose pins all support PWM (the same
    factory `[gpio] pin_factory = "mock"` gives the real table)."""
    from table.drivers import make_pin_factory

    return make_pin_factory("mock")


class RecordingIndicators(GpioIndicators):
    """The real `Indicators` adapter that also keeps every buzzer pattern
    asked for, oldest first (`buzzes`): on a Pi that list would only grow."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.buzzes: list[BuzzPattern] = []

    def buzz(self, pattern: BuzzPattern) -> None:
        super().buzz(pattern)            # refuses an unknown pattern before it is kept
        self.buzzes.append(pattern)
