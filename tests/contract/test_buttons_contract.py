"""The Buttons port's contract, held by the fake table's buttons
(`MockTable`) and by those `build_ports` wires from the configuration, both
on gpiozero's MockFactory, pressed through their pins.

What the controller relies on: a short press is one `ButtonPressed` when the
button comes back up; a press held past the hold time (on the table's
clock) is one long press, posted while the button is still held when it
stays down in real time; contact bounce is not a press; nothing is posted
unless started."""

from __future__ import annotations

import time

import pytest

from table.ports import ButtonPressed
from tests.contract.harness import HOLD_S, GpioHarness


@pytest.fixture(params=["mock table", "build_ports"])
def table(request):
    h = GpioHarness(request.param)
    h.buttons.start(h.events.put)
    yield h
    h.close()


def test_a_short_press_is_posted_when_the_button_comes_up(table):
    pin = table.pin(table.button_pins["ok"])
    pin.drive_low()
    assert table.posted() == []
    table.clock.advance(0.1)
    pin.drive_high()
    assert table.posted() == [ButtonPressed("ok")]


def test_each_button_has_its_name(table):
    for name in ("undo", "menu", "ok", "ok"):
        table.press(name)
    assert table.posted() == [ButtonPressed("undo"), ButtonPressed("menu"),
                              ButtonPressed("ok"), ButtonPressed("ok")]


def test_a_press_held_past_the_hold_time_is_one_long_press(table):
    table.press("undo", HOLD_S + 0.2)
    table.press("undo", HOLD_S - 0.1)
    assert table.posted() == [ButtonPressed("undo", long=True), ButtonPressed("undo")]


def test_a_button_held_down_is_long_before_it_is_released(table):
    pin = table.pin(table.button_pins["menu"])
    pin.drive_low()
    table.clock.advance(HOLD_S + 0.2)
    deadline = time.monotonic() + 3
    posted = []
    while not posted and time.monotonic() < deadline:
        time.sleep(0.02)
        posted = table.posted()
    assert posted == [ButtonPressed("menu", long=True)]
    pin.drive_high()
    assert table.posted() == []            # nothing more when it comes up


def test_contact_bounce_is_not_a_press(table):
    pin = table.pin(table.button_pins["ok"])
    pin.drive_low()                         # a glitch of 5 ms
    table.clock.advance(0.005)
    pin.drive_high()
    table.clock.advance(1)
    pin.drive_low()                         # a press whose contact bounces when let go
    table.clock.advance(0.15)
    pin.drive_high()
    table.clock.advance(0.004)
    pin.drive_low()
    table.clock.advance(0.004)
    pin.drive_high()
    assert table.posted() == [ButtonPressed("ok")]


def test_nothing_is_posted_unless_started(table):
    table.buttons.stop()
    table.press("ok")
    table.press("menu", HOLD_S + 0.2)
    assert table.posted() == []
    table.buttons.start(table.events.put)
    table.press("ok")
    assert table.posted() == [ButtonPressed("ok")]
