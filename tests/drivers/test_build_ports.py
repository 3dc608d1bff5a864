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
