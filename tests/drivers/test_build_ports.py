"""build_ports: the configuration wired to the real adapters (on gpiozero's
MockFactory, a capture display and the fake readers)."""

from __future__ import annotations

import queue

import pytest

from hw_mocks.readers import FakeCardReaders
from table.config import DisplayConfig, loads
from table.drivers import HardwareError, build_ports, close_ports, make_pin_factory
from table.drivers.display import OledDisplay, open_display
from table.ports import ButtonPressed, CardArrived, Ports
from tests.drivers.oled_panel import CapturePanel


class HandClock:
    t = 0.0

    def now(self):
        return self.t


def test_ports_follow_the_configuration(mock_factory):
    config = loads('[buttons]\nok = 16\n[leds]\nstatus = false\n'
                   "[[seats]]\nreader = { type = \"hub\", channel = 0 }\nled = 4\n"
                   "[[seats]]\nreader = { type = \"hub\", channel = 1 }\nled = 27\n"
                   "[[seats]]\nreader = { type = \"hub\", channel = 2 }\nled = 22\n"
                   "[[seats]]\nreader = { type = \"hub\", channel = 3 }\nled = 23\n")
    panel = CapturePanel("ssd1306")
    readers = FakeCardReaders(4, dealer_reader=False)
    clock = HandClock()
    ports = build_ports(config, pin_factory=mock_factory, readers=readers, clock=clock,
                        display=open_display(config.display, serial=panel))
    assert isinstance(ports, Ports) and ports.clock is clock
    # Play goes anticlockwise: seat 1 in order of play is the 4th listed (LED on GPIO 23).
    ports.indicators.seat_led(1, "on")
    assert mock_factory.pin(23).state
    assert not any(mock_factory.pin(p).state for p in (4, 27, 22))
    events = queue.Queue()
    ports.buttons.start(events.put)
    ports.readers.start(events.put)
    ok = mock_factory.pin(16)
    ok.drive_low()
    clock.t += 0.1
    ok.drive_high()
    readers.arrive(2, "04A1B2C3")
    assert events.get_nowait() == ButtonPressed("ok")
    assert events.get_nowait() == CardArrived(2, "04A1B2C3")
    close_ports(ports)
    assert panel.calls[-1] == ("cleanup", b"")


def test_the_display_is_opened_from_the_configuration(mock_factory):
    class Bus:
        writes = []

        def write_i2c_block_data(self, addr, mode, data):
            self.writes.append(addr)

    d = open_display(DisplayConfig(i2c_address=0x3D), mock_factory, i2c_bus=Bus())
    assert isinstance(d, OledDisplay) and set(Bus.writes) == {0x3D}


def test_a_missing_display_bus_says_what_to_do(mock_factory):
    config = loads("[display]\ni2c_port = 22\n")
    with pytest.raises(HardwareError) as info:
        build_ports(config, pin_factory=mock_factory, readers=FakeCardReaders(4))
    assert info.value.part == "the display"
    assert "dtparam=i2c_arm=on" in str(info.value)


def test_a_failure_releases_what_was_opened(mock_factory, monkeypatch):
    import table.drivers.reader_wiring as wiring

    def broken(config, pin_factory):
        raise OSError(2, "No such file or directory: '/dev/spidev0.0'")

    monkeypatch.setattr(wiring, "open_spi_group", broken)
    config = loads("")
    panel = CapturePanel("ssd1306")
    with pytest.raises(HardwareError) as info:
        build_ports(config, pin_factory=mock_factory,
                    display=open_display(config.display, serial=panel))
    assert info.value.part == "the card readers"
    assert "/dev/spidev0.0" in str(info.value) and "dtparam=spi=on" in str(info.value)
    # LEDs and buttons were closed again: their pins can be claimed anew.
    from gpiozero import LED, Button

    LED(4, pin_factory=mock_factory).close()
    Button(5, pin_factory=mock_factory).close()
    assert panel.calls[-1] == ("cleanup", b"")


def test_pin_factory_by_name():
    from gpiozero.pins.mock import MockFactory

    assert isinstance(make_pin_factory("mock"), MockFactory)
    with pytest.raises(HardwareError, match="pigpio pin factory does not start"):
        make_pin_factory("pigpio")


def test_import_table_drivers_imports_no_hardware_library():
    import subprocess
    import sys

    code = ("import sys, table.drivers, table.drivers.display, table.drivers.gpio, "
            "table.config, table.doctor\n"
            "bad = [m for m in ('gpiozero', 'luma', 'spidev', 'RPi', 'smbus2', 'serial', "
            "'mfrc522', 'PIL') if m in sys.modules]\n"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_a_configured_table_reads_a_card_through_the_real_spi_driver(mock_factory):
    """Config -> the readers' places -> the readers' SPI driver -> the mfrc522
    package -> the emulated chips: a card on the 4th seat listed is seat 1 in
    order of play; the dealer's reader posts DEALER."""
    from hw_mocks import fake_rpi
    from hw_mocks.mfrc522 import Board, Ntag213, VirtualClock
    from table.drivers.reader_wiring import spi_places
    from table.drivers.spi_readers import SpiReaders

    board = Board(VirtualClock(pace=1.0))
    chips = {(bus, ce): board.add_reader(bus=bus, ce=ce, rst_pin=25)
             for bus, ce in ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2))}
    fake_rpi.install(board)
    config = loads("")
    places = spi_places(config)
    assert places[1].device == 1 and places[1].bus == 1 and places[-1].device == 2
    # the emulator keeps its own time: the driver gets the board's clock
    readers = SpiReaders(places, speed_hz=config.readers.spi_speed_hz, clock=board.clock,
                         sleep=board.clock.sleep)
    ports = build_ports(config, pin_factory=mock_factory, readers=readers,
                        display=open_display(config.display, serial=CapturePanel("ssd1306")))
    events = queue.Queue()
    ports.readers.start(events.put)
    try:
        board.place(Ntag213("04A1B2C3D4E5F6"), chips[(1, 1)])   # seat "4", SPI1 CE1
        event = events.get(timeout=5)
        while not isinstance(event, CardArrived):
            event = events.get(timeout=5)
        assert event == CardArrived(1, "04A1B2C3D4E5F6")
        board.place(Ntag213("04A1B2C3D4E5F7"), chips[(1, 2)])   # the dealer's reader
        event = events.get(timeout=5)
        while not isinstance(event, CardArrived):
            event = events.get(timeout=5)
        assert event == CardArrived(-1, "04A1B2C3D4E5F7")
    finally:
        close_ports(ports)
        fake_rpi.uninstall()


def test_readers_are_handed_their_places_in_order_of_play(monkeypatch, mock_factory):
    import types

    import table.drivers.reader_wiring as wiring

    calls = {}

    def fake_module(name, what):
        def open_from_config(places, section, **kw):
            calls[name] = (places, section)
            return FakeCardReaders(1, dealer_reader=False)
        return types.SimpleNamespace(open_from_config=open_from_config)

    monkeypatch.setattr(wiring, "_driver", fake_module)
    config = loads('[table]\ndirection = "clockwise"\n'
                   '[[seats]]\nreader = { type = "spi", bus = 0, device = 0 }\n'
                   '[[seats]]\nreader = { type = "hub", channel = 5 }\n'
                   '[[seats]]\nreader = { type = "spi", bus = 1, cs_pin = 24 }\n'
                   '[[seats]]\nreader = { type = "hub", channel = 2 }\n'
                   '[dealer]\nreader = { type = "hub", channel = 7 }\n')
    from table.drivers import open_readers

    combined = open_readers(config, mock_factory)
    spi_places, readers_section = calls["table.drivers.spi_readers"]
    assert sorted(spi_places) == [0, 2] and spi_places[2].cs_pin == 24
    assert readers_section is config.readers
    hub_places, hub_section = calls["table.drivers.hub_readers"]
    assert {p: r.channel for p, r in hub_places.items()} == {1: 5, 3: 2, -1: 7}
    assert hub_section.port == "/dev/cardtable-hub"
    assert len(combined.groups) == 2


def test_combined_readers_hand_the_places_in_use_to_every_group_that_can_take_them():
    from table.drivers import CombinedReaders
    from table.ports import DEALER, CardLeft, PlaceSelectingReaders

    class Plain:  # readers without the option
        def start(self, post):
            pass

        def stop(self):
            pass

    seats, more = FakeCardReaders(2, dealer_reader=False), FakeCardReaders(3)
    combined = CombinedReaders([seats, Plain(), more])
    assert isinstance(combined, PlaceSelectingReaders)
    posted = []
    combined.start(posted.append)
    seats.arrive(1, "04AA0000")
    combined.use_places(frozenset({0, DEALER}))
    assert seats.use_calls == more.use_calls == [frozenset({0, DEALER})]
    assert posted == [CardArrived(1, "04AA0000"), CardLeft(1, "04AA0000")]
    assert seats.in_use == {0} and more.in_use == {0, DEALER}  # each keeps what it has


def test_a_missing_reader_driver_is_a_clear_error(monkeypatch, mock_factory):
    import importlib

    real = importlib.import_module

    def no_hub(name, *a, **kw):
        if name == "table.drivers.hub_readers":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, *a, **kw)

    monkeypatch.setattr(importlib, "import_module", no_hub)
    config = loads("".join(f'[[seats]]\nreader = {{ type = "hub", channel = {i} }}\n'
                           for i in range(4)))
    from table.drivers import open_readers

    with pytest.raises(HardwareError, match="no driver for the USB reader hub"):
        open_readers(config, mock_factory)
