"""The Indicators port's contract, held by the fake table's LEDs and buzzer
(`MockTable`) and by those `build_ports` wires from the configuration, both
on gpiozero's MockFactory: the pins are what is checked.

What the controller relies on: each seat's pattern lights that seat's LED
and no other; `fast_blink` really blinks (a refused card, a stopped table);
the dealer's place has no LED; the four buzzer patterns sound (the error
three times); a wrong request is refused with a ValueError and changes
nothing."""

from __future__ import annotations

import time

import pytest

from table.ports import DEALER
from tests.contract.harness import GpioHarness


@pytest.fixture(params=["mock table", "build_ports"])
def table(request):
    h = GpioHarness(request.param)
    yield h
    h.close()


def test_each_seat_lights_its_own_led_and_no_other(table):
    ind = table.indicators
    for seat in range(table.seats):
        ind.seat_led(seat, "on")
        assert table.lit() == [s == seat for s in range(table.seats)]
        assert ind.seat_patterns[seat] == "on"
        ind.seat_led(seat, "off")
        assert table.lit() == [False] * table.seats
        assert ind.seat_patterns[seat] == "off"


def test_fast_blink_blinks_the_seat_and_the_status_led(table):
    ind = table.indicators
    ind.seat_led(2, "fast_blink")
    ind.status_led("fast_blink")
    time.sleep(0.45)                        # gpiozero's blink thread runs in real time
    for pin in (table.seat_pin(2), table.pin(table.status_pin)):
        changes = [s.state for s in pin.states]
        assert changes.count(True) >= 2 and changes.count(False) >= 2
    assert ind.seat_patterns[2] == "fast_blink" and ind.status_pattern == "fast_blink"
    ind.seat_led(2, "off")
    ind.status_led("on")
    assert not table.seat_pin(2).state and table.pin(table.status_pin).state
    assert table.lit() == [False] * table.seats


def test_the_dealer_s_place_has_no_led(table):
    table.indicators.seat_led(DEALER, "on")
    assert table.lit() == [False] * table.seats
    assert not table.pin(table.status_pin).state


def test_wrong_requests_are_refused_and_change_nothing(table):
    ind = table.indicators
    ind.seat_led(0, "on")
    with pytest.raises(ValueError, match="no seat 4"):
        ind.seat_led(table.seats, "on")
    with pytest.raises(ValueError, match="unknown LED pattern"):
        ind.seat_led(1, "disco")
    with pytest.raises(ValueError, match="unknown LED pattern"):
        ind.status_led("disco")
    with pytest.raises(ValueError, match="unknown buzzer pattern"):
        ind.buzz("tune")
    assert table.lit() == [True, False, False, False]
    assert not table.pin(table.status_pin).state
    assert not any(s.state for s in table.pin(table.buzzer_pin).states)


@pytest.mark.parametrize("pattern, beeps", [("ok", 1), ("turn", 1), ("error", 3),
                                            ("match_end", 3)])
def test_each_buzzer_pattern_sounds_and_ends_silent(table, pattern, beeps):
    ind = table.indicators
    ind.time_scale = 0.2
    pin = table.pin(table.buzzer_pin)
    pin.clear_states()
    ind.buzz(pattern)
    assert ind.wait_buzzer(3.0)
    states = [s.state for s in pin.states]
    rises = sum(1 for a, b in zip(states, states[1:], strict=False) if b and not a)
    assert rises == beeps
    assert not pin.state
