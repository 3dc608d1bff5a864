"""Buttons, LEDs and buzzer on gpiozero's MockFactory: the real gpiozero
devices run; the pins' recorded states are checked."""

from __future__ import annotations

import queue
import time

import pytest

from table.drivers.gpio import BUZZ_PATTERNS, GpioButtons, GpioIndicators
from table.ports import DEALER, ButtonPressed


class HandClock:
    def __init__(self):
        self.t = 100.0

    def now(self):
        return self.t

    def advance(self, s):
        self.t += s


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def buttons(mock_factory, clock):
    b = GpioButtons(mock_factory, {"ok": 5, "undo": 6, "menu": 13}, clock,
                    hold_s=0.3, bounce_ms=30)
    events = queue.Queue()
    b.start(events.put)
    yield b, events
    b.close()


def drained(q):
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def press(b, clock, name, seconds):
    pin = b.pin(name)
    pin.drive_low()                      # pull-up: pressing connects the pin to ground
    clock.advance(seconds)
    pin.drive_high()


def test_a_short_press_is_posted_on_release(buttons, clock):
    b, events = buttons
    pin = b.pin("ok")
    pin.drive_low()
    assert drained(events) == []         # nothing until the button comes back up
    clock.advance(0.1)
    pin.drive_high()
    assert drained(events) == [ButtonPressed("ok", long=False)]


def test_each_button_has_its_name(buttons, clock):
    b, events = buttons
    for name in ("undo", "menu", "ok"):
        press(b, clock, name, 0.1)
        clock.advance(1)
    assert drained(events) == [ButtonPressed("undo"), ButtonPressed("menu"), ButtonPressed("ok")]


def test_holding_posts_a_long_press_while_still_held_and_nothing_on_release(buttons, clock):
    b, events = buttons
    pin = b.pin("menu")
    pin.drive_low()
    clock.advance(0.5)
    # gpiozero's hold thread fires after hold_time (0.3 s) of real time
    assert events.get(timeout=3) == ButtonPressed("menu", long=True)
    pin.drive_high()
    time.sleep(0.05)
    assert drained(events) == []


def test_a_release_after_the_hold_time_is_long_even_before_the_hold_thread(mock_factory, clock):
    b = GpioButtons(mock_factory, {"ok": 5}, clock, hold_s=5.0, bounce_ms=30)
    events = queue.Queue()
    b.start(events.put)
    press(b, clock, "ok", 6.0)           # table clock says 6 s; the real thread never fired
    assert drained(events) == [ButtonPressed("ok", long=True)]
    b.close()


def test_bounce_is_ignored(buttons, clock):
    b, events = buttons
    pin = b.pin("undo")
    # a glitch shorter than the bounce time is not a press
    pin.drive_low()
    clock.advance(0.005)
    pin.drive_high()
    assert drained(events) == []
    clock.advance(1)
    # a real press whose contact bounces when released
    pin.drive_low()
    clock.advance(0.15)
    pin.drive_high()
    clock.advance(0.004)
    pin.drive_low()
    clock.advance(0.004)
    pin.drive_high()
    assert drained(events) == [ButtonPressed("undo")]
    # after the bounce time a new press counts again
    clock.advance(0.5)
    press(b, clock, "undo", 0.1)
    assert drained(events) == [ButtonPressed("undo")]


def test_the_bounce_time_reaches_gpiozero(buttons):
    b, _ = buttons
    assert b.pin("ok").bounce == pytest.approx(0.03)


def test_stopped_buttons_post_nothing(buttons, clock):
    b, events = buttons
    b.stop()
    press(b, clock, "ok", 0.1)
    assert drained(events) == []


def test_buttons_pulled_down(mock_factory, clock):
    b = GpioButtons(mock_factory, {"ok": 5}, clock, pull_up=False)
    events = queue.Queue()
    b.start(events.put)
    pin = b.pin("ok")
    pin.drive_high()
    clock.advance(0.1)
    pin.drive_low()
    assert drained(events) == [ButtonPressed("ok")]
    b.close()


def test_an_unknown_button_is_refused(mock_factory, clock):
    with pytest.raises(ValueError, match="unknown button 'start'"):
        GpioButtons(mock_factory, {"start": 5}, clock)


def test_a_pin_used_twice_is_refused_and_nothing_left_claimed(mock_factory, clock):
    from gpiozero.exc import GPIOPinInUse

    with pytest.raises(GPIOPinInUse):
        GpioButtons(mock_factory, {"ok": 5, "undo": 5}, clock)
    GpioButtons(mock_factory, {"ok": 5}, clock).close()   # pin 5 was released


# ----- LEDs ------------------------------------------------------------------------------

@pytest.fixture
def indicators(mock_factory):
    ind = GpioIndicators(mock_factory, [4, 27, None, 23], status_pin=26, buzzer_pin=12,
                         time_scale=0.2)
    yield ind
    ind.close()


def states(pin):
    return [s.state for s in pin.states]


def test_seat_leds_on_and_off(indicators, mock_factory):
    indicators.seat_led(1, "on")
    assert mock_factory.pin(27).state and not mock_factory.pin(4).state
    indicators.seat_led(1, "off")
    assert not mock_factory.pin(27).state


def test_active_low_leds(mock_factory):
    ind = GpioIndicators(mock_factory, [4], active_high=False)
    assert mock_factory.pin(4).state            # off = high for an LED to 3.3 V
    ind.seat_led(0, "on")
    assert not mock_factory.pin(4).state
    ind.close()


def test_blinking_toggles_the_pin(indicators, mock_factory):
    indicators.seat_led(3, "fast_blink")             # 0.1 s on, 0.1 s off
    time.sleep(0.45)
    indicators.seat_led(3, "off")
    seen = states(mock_factory.pin(23))
    assert seen[:4] == [False, True, False, True]
    assert not mock_factory.pin(23).state


def test_status_led_blinks(indicators, mock_factory):
    indicators.status_led("blink")
    time.sleep(0.05)
    assert mock_factory.pin(26).state
    indicators.status_led("off")
    assert not mock_factory.pin(26).state


def test_blinking_lights_at_once_and_keeps_its_times(indicators, mock_factory):
    pin = mock_factory.pin(4)
    pin.clear_states()
    indicators.seat_led(0, "fast_blink")             # 0.1 s on, 0.1 s off
    assert pin.state                                 # lit at once, as gpiozero's blink
    time.sleep(0.65)
    indicators.seat_led(0, "on")
    seen = pin.states
    assert [s.state for s in seen[:5]] == [False, True, False, True, False]
    # the k-th edge comes no sooner than k x 0.1 s after the LED lit (late only by
    # the scheduler, and a late edge does not delay the ones after it);
    # MockPin's timestamps are the time since the state before
    since_lit = 0.0
    for k, state in enumerate(seen[2:6], start=1):
        since_lit += state.timestamp
        assert since_lit >= 0.1 * k - 0.001
    assert pin.state


def test_one_thread_blinks_every_led_however_often_they_change(indicators, mock_factory):
    import threading

    before = threading.active_count()
    for _ in range(10):                              # ten refusals and the plays after
        indicators.seat_led(0, "fast_blink")
        indicators.status_led("blink")
        indicators.seat_led(0, "on")
        indicators.status_led("off")
    indicators.seat_led(0, "fast_blink")
    indicators.seat_led(3, "blink")
    assert threading.active_count() <= before + 1
    time.sleep(0.25)
    # both blink, each at its own pace: seat 0 has gone off and on again, seat 3 is still on
    assert [s.state for s in mock_factory.pin(4).states][-3:] == [True, False, True]
    assert mock_factory.pin(23).state
    indicators.close()
    assert threading.active_count() <= before


def test_an_led_switched_off_while_blinking_stays_off(indicators, mock_factory):
    indicators.seat_led(1, "fast_blink")
    time.sleep(0.05)
    indicators.seat_led(1, "off")
    pin = mock_factory.pin(27)
    pin.clear_states()
    time.sleep(0.25)
    assert not pin.state and not [s for s in pin.states if s.state]


def test_seat_without_led_and_dealer_are_quietly_ignored(indicators):
    indicators.seat_led(2, "on")
    indicators.seat_led(DEALER, "blink")


def test_bad_seat_or_pattern_is_refused(indicators):
    with pytest.raises(ValueError, match="there is no seat 4"):
        indicators.seat_led(4, "on")
    with pytest.raises(ValueError, match="unknown LED pattern 'glow'"):
        indicators.seat_led(0, "glow")
    with pytest.raises(ValueError, match="unknown buzzer pattern 'siren'"):
        indicators.buzz("siren")


# ----- buzzer ----------------------------------------------------------------------------

def test_error_pattern_beeps_three_times_on_an_active_buzzer(indicators, mock_factory):
    pin = mock_factory.pin(12)
    pin.clear_states()
    indicators.buzz("error")
    assert indicators.wait_buzzer(3)
    assert states(pin) == [False, True, False, True, False, True, False]


def test_a_new_pattern_cuts_the_old_one_short(indicators, mock_factory):
    pin = mock_factory.pin(12)
    pin.clear_states()
    indicators.buzz("match_end")
    time.sleep(0.01)
    indicators.buzz("ok")
    assert indicators.wait_buzzer(3)
    # match_end's first note, cut, then ok's single beep
    assert states(pin) == [False, True, False, True, False]


def test_one_player_thread_plays_every_pattern(indicators, mock_factory):
    import threading

    pin = mock_factory.pin(12)
    indicators.buzz("ok")
    assert indicators.wait_buzzer(3)
    before = threading.active_count()
    pin.clear_states()
    for _ in range(5):                              # five refusals in a row
        indicators.buzz("error")
    assert threading.active_count() == before
    assert indicators.wait_buzzer(3)
    # the last error pattern whole, the four before it cut short at once
    assert states(pin)[-7:] == [False, True, False, True, False, True, False]
    assert not pin.state
    indicators.close()
    assert threading.active_count() < before
    indicators.buzz("ok")                           # after closing: nothing, no thread
    assert threading.active_count() < before


def test_passive_buzzer_plays_the_tones(mock_factory):
    ind = GpioIndicators(mock_factory, [], buzzer_pin=12, buzzer_kind="passive",
                         time_scale=0.2)
    pin = mock_factory.pin(12)
    tones = []
    original = type(pin)._set_frequency

    def spy(self, value):
        if value is not None:
            tones.append(value)
        original(self, value)

    type(pin)._set_frequency = spy
    try:
        ind.buzz("match_end")
        assert ind.wait_buzzer(3)
    finally:
        type(pin)._set_frequency = original
    assert tones == [f for f, _ in BUZZ_PATTERNS["match_end"] if f]
    assert pin.state == 0                       # silent at the end
    ind.close()


def test_no_buzzer_configured(mock_factory):
    ind = GpioIndicators(mock_factory, [4])
    ind.buzz("error")                           # nothing to sound, nothing fails
    assert ind.wait_buzzer(0)
    ind.close()
