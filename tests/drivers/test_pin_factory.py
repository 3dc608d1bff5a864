"""Which GPIO library the table uses: lgpio, said in the log, and a loud
error (not a silent switch to RPi.GPIO) when lgpio does not start.

lgpio itself is not installed on a PC; a stand-in `lgpio` module fails the
way the real one does under a unit without a writable working directory
(it cannot make its notify FIFO), while a fake RPi.GPIO stands ready, so a
silent fallback would be caught."""

from __future__ import annotations

import sys
import types

import pytest

from table.config import loads
from table.drivers import HardwareError, build_ports, describe_pin_factory, make_pin_factory


@pytest.fixture
def lgpio_without_a_working_dir(monkeypatch, tmp_path):
    """An `lgpio` whose import fails as the real one's does when it cannot
    create its notify FIFO (.lgd-nfy*) in its working directory."""
    (tmp_path / "lgpio.py").write_text(
        "raise OSError(30, 'Read-only file system', './.lgd-nfy0')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    # RPi.GPIO would "work": the old default order would fall back to it silently
    from hw_mocks import fake_rpi
    from hw_mocks.mfrc522 import Board

    fake_rpi.install(Board())
    yield
    fake_rpi.uninstall()
    sys.modules.pop("gpiozero.pins.lgpio", None)


def test_auto_is_lgpio_and_its_failure_is_an_error_not_a_fallback(lgpio_without_a_working_dir):
    with pytest.raises(HardwareError) as caught:
        make_pin_factory("auto")
    message = str(caught.value)
    assert message.startswith("GPIO: lgpio does not start (")
    assert ".lgd-nfy0" in message                     # lgpio's own reason, kept
    assert "$LG_WD" in message and "/run/cardtable" in message
    assert 'pin_factory = "rpigpio"' in message       # how to choose RPi.GPIO on purpose


def test_without_lgpio_installed_auto_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "lgpio", None)   # import lgpio -> ImportError
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    with pytest.raises(HardwareError, match=r"lgpio is not installed .*"
                       r"pip install 'cardtable\[pi\]'"):
        make_pin_factory("auto")
    sys.modules.pop("gpiozero.pins.lgpio", None)


def test_the_chosen_library_is_announced(mock_factory):
    from hw_mocks.readers import FakeCardReaders
    from table.drivers import close_ports
    from table.drivers.display import open_display
    from tests.drivers.oled_panel import CapturePanel

    config = loads("")
    said: list[str] = []
    ports = build_ports(config, pin_factory=mock_factory, readers=FakeCardReaders(4, True),
                        display=open_display(config.display, serial=CapturePanel("ssd1306")),
                        announce=said.append)
    close_ports(ports)
    assert said == [f"GPIO through {describe_pin_factory(mock_factory)}"]
    assert said[0].startswith("GPIO through MockFactory")


def test_describe_names_the_library_and_chip():
    class LGPIOFactory:                                # gpiozero's class name
        chip = 4

        @property
        def board_info(self):
            return types.SimpleNamespace(model="5B")

    assert describe_pin_factory(LGPIOFactory()) == "lgpio on /dev/gpiochip4, board 5B"

    class RPiGPIOFactory:
        @property
        def board_info(self):
            raise RuntimeError("unknown board")

    assert describe_pin_factory(RPiGPIOFactory()) == "rpigpio"


def test_cardtable_run_writes_the_chosen_library_to_the_log(tmp_path, capsys):
    """`cardtable run --hardware pi` says which GPIO library it uses as soon
    as it is loaded (here gpiozero's mock pins; an I2C display, opened first
    for the first frame, is left out: a PC has no /dev/i2c-1), before the
    card readers, which then fail on a PC without SPI and end the run with
    their own message."""
    from table.cli import main

    config = tmp_path / "config.toml"
    config.write_text('[gpio]\npin_factory = "mock"\n[display]\ndriver = "none"\n')
    status = main(["run", "--hardware", "pi", "--config", str(config),
                   "--state", str(tmp_path / "state")])
    err = capsys.readouterr().err
    # gpiozero's mock pins say they are on a Pi 3B
    assert err.startswith("cardtable run: GPIO through MockFactory, board 3B\n")
    assert status == 1 and "cannot start the hardware: " in err
