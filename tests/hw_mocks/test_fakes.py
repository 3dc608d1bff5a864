"""The fakes behind the ports: they implement the Protocols, run the real
libraries (gpiozero's MockFactory pins, luma's dummy device) and refuse
impossible requests clearly."""

from __future__ import annotations

import pytest
from PIL import Image

from hw_mocks.clock import FakeClock
from hw_mocks.display import FakeDisplay
from hw_mocks.readers import FakeCardReaders
from hw_mocks.table import MockTable
from table.ports import (
    DEALER,
    ButtonPressed,
    Buttons,
    CardArrived,
    CardLeft,
    CardReaders,
    Clock,
    Display,
    Indicators,
    PlaceSelectingReaders,
    ReaderBack,
    ReaderOffline,
)


def test_the_mock_table_implements_every_port():
    mock = MockTable(seats=4)
    assert isinstance(mock.ports.readers, CardReaders)
    assert isinstance(mock.ports.display, Display)
    assert isinstance(mock.ports.indicators, Indicators)
    assert isinstance(mock.ports.buttons, Buttons)
    assert isinstance(mock.ports.clock, Clock)
    mock.close()


def test_the_clock_moves_only_forward():
    clock = FakeClock(10)
    assert clock.advance(0.5) == 10.5 and clock.now() == 10.5
    with pytest.raises(ValueError):
        clock.advance(-1)
    with pytest.raises(ValueError):
        clock.set(3)


def test_the_display_is_luma_s_dummy_device():
    d = FakeDisplay((128, 32), keep=2)
    img = Image.new("1", (128, 32))
    img.putpixel((5, 6), 1)
    d.show(img)
    assert d.device.__class__.__name__ == "dummy"
    assert d.image.getpixel((5, 6)) and not d.image.getpixel((6, 6))
    assert d.frames == 1 and len(d.history) == 1
    assert d.ascii().splitlines()[6][5] == "#"
    with pytest.raises(ValueError, match="mode"):
        d.show(Image.new("L", (128, 32)))
    with pytest.raises(ValueError, match="is \\(128, 32\\)"):
        d.show(Image.new("1", (128, 64)))


def test_the_mock_table_s_leds_buttons_and_buzzer_are_the_real_adapters():
    from table.drivers.gpio import GpioButtons as RealButtons
    from table.drivers.gpio import GpioIndicators as RealIndicators

    mock = MockTable(seats=2)
    assert isinstance(mock.indicators, RealIndicators)
    assert type(mock.buttons) is RealButtons
    mock.indicators.buzz("ok")
    assert mock.indicators.buzzes == ["ok"]
    with pytest.raises(ValueError, match="unknown buzzer pattern"):
        mock.indicators.buzz("tune")
    assert mock.indicators.buzzes == ["ok"]    # a refused pattern is not kept
    mock.close()


def test_readers_post_what_happens_on_the_cloth_and_refuse_the_impossible():
    readers = FakeCardReaders(seats=2)
    posted = []
    readers.arrive(0, "04EE0000")          # lies there before anybody listens
    readers.start(posted.append)
    assert posted == [CardArrived(0, "04EE0000")]     # reported at start, as a real reader
    readers.leave(0, "04EE0000")
    posted.clear()
    readers.arrive(0, "04:aa:00:00")
    readers.arrive(DEALER, "04BB0000")
    readers.leave(0, "04AA0000")
    with pytest.raises(ValueError, match="not on reader 1"):
        readers.leave(1, "04BB0000")
    with pytest.raises(ValueError, match="already lies"):
        readers.arrive(DEALER, "04BB0000")
    with pytest.raises(ValueError, match="no reader at place 2 \\(readers: 0, 1, dealer\\)"):
        readers.arrive(2, "04CC0000")
    with pytest.raises(ValueError, match="not a card UID"):
        readers.arrive(0, "hello")
    readers.offline(DEALER, "cable")
    readers.arrive(DEALER, "04DD0000")     # an offline reader sees nothing
    readers.back(DEALER)
    assert posted == [CardArrived(0, "04AA0000"), CardArrived(DEALER, "04BB0000"),
                      CardLeft(0, "04AA0000"), ReaderOffline(DEALER, "cable"),
                      ReaderBack(DEALER)]


def test_stopped_readers_report_the_differences_when_started_again():
    readers = FakeCardReaders(seats=2, dealer_reader=False)
    posted = []
    readers.start(posted.append)
    readers.arrive(0, "04AA0000")
    readers.arrive(1, "04BB0000")
    readers.stop()
    readers.leave(0, "04AA0000")           # taken away while nobody listened
    readers.arrive(0, "04CC0000")
    assert posted == [CardArrived(0, "04AA0000"), CardArrived(1, "04BB0000")]
    posted.clear()
    readers.start(posted.append)
    assert posted == [CardArrived(0, "04CC0000"), CardLeft(0, "04AA0000")]


def test_readers_left_out_of_the_match_are_dark_and_report_no_card():
    readers = FakeCardReaders(seats=4)
    assert isinstance(readers, PlaceSelectingReaders)
    posted = []
    readers.start(posted.append)
    readers.arrive(3, "04AA0000")
    readers.use_places(frozenset({0, 1, DEALER, 7}))  # 7: no such reader, ignored
    assert readers.use_calls == [frozenset({0, 1, DEALER, 7})]
    assert posted == [CardArrived(3, "04AA0000"), CardLeft(3, "04AA0000")]  # no longer read
    posted.clear()
    readers.arrive(2, "04BB0000")          # onto a dark reader: never reported
    readers.leave(3, "04AA0000")
    readers.arrive(3, "04CC0000")
    readers.arrive(1, "04DD0000")          # a reader in use reads as ever
    assert posted == [CardArrived(1, "04DD0000")]
    readers.stop()
    readers.start(posted.append)           # catching up keeps the dark readers dark
    assert posted == [CardArrived(1, "04DD0000")]
    posted.clear()
    readers.use_places(frozenset({0, 1, 2, 3}))  # a bigger game: they read again
    assert posted == [CardArrived(2, "04BB0000"), CardArrived(3, "04CC0000")]


def test_the_mock_table_presses_buttons_through_the_pins():
    mock = MockTable(seats=2, hold_s=0.8)
    posted = []
    mock.buttons.start(posted.append)
    mock.press("menu")
    mock.hold("ok")
    assert posted == [ButtonPressed("menu"), ButtonPressed("ok", long=True)]
    assert mock.clock.now() == pytest.approx(0.1 + 1.3)
    mock.indicators.seat_led(1, "on")
    assert mock.pin_state(27)
    mock.close()
