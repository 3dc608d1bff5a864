"""A fresh gpiozero MockFactory (PWM-capable pins) for each driver test."""

from __future__ import annotations

import pytest


@pytest.fixture
def mock_factory():
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
