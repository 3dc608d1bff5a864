"""The Pico under the real MicroPython (hw_mocks.micropython_pico): its fake
`machine` and `time` are as strict as the Pico's, and what the firmware
does reaches the emulated board in order."""

from __future__ import annotations

import pytest

from hw_mocks.mfrc522.pico import PicoBoard
from hw_mocks.micropython_pico import MicroPythonError, MicroPythonPico


@pytest.fixture
def pico(tmp_path):
    with MicroPythonPico(PicoBoard(channels=2), cwd=tmp_path) as p:
        yield p


def test_it_is_micropython_and_errors_come_back_with_its_traceback(pico):
    assert pico.eval("__import__('sys').implementation.name") == "micropython"
    with pytest.raises(MicroPythonError) as raised:
        pico.exec("Exception.__init__")
    assert raised.value.kind == "AttributeError"
    assert "Traceback" in raised.value.trace
    assert pico.eval("1 + 1") == 2  # and it goes on


@pytest.mark.parametrize("code, kind", [
    ("machine.WDT(timeout=9000)", "ValueError"),  # the RP2040's watchdog: 8.3 s at most
    ("machine.SPI(2)", "ValueError"),
    ("machine.SPI(0, polarity=1)", "ValueError"),
    ("machine.Pin(30)", "ValueError"),
    ("machine.Pin(5, machine.Pin.IN).value(1)", "OSError"),
    ("machine.SPI(0).write_readinto(b'ab', bytearray(1))", "ValueError"),
])
def test_the_fake_machine_refuses_what_the_pico_refuses(pico, code, kind):
    pico.exec("import machine")
    with pytest.raises(MicroPythonError) as raised:
        pico.exec(code)
    assert raised.value.kind == kind


def test_chip_selects_reach_the_board_before_the_transfer_and_select_one_reader(pico):
    board = pico.board
    pico.exec("import machine; cs = machine.Pin(17, machine.Pin.OUT, value=1)\n"
              "spi = machine.SPI(0)")
    assert board.gpio.level(17) == 1
    read_version = "b = bytearray(2)\nspi.write_readinto(bytes([0xEE, 0]), b)"  # VersionReg
    pico.exec("cs(0)\n" + read_version + "\ncs(1)")
    assert pico.eval("b[1]") == board.readers[0].version
    assert board.gpio.level(17) == 1  # the last change is there when the code returns
    pico.exec(read_version)
    assert pico.eval("list(b)") == [0, 0]  # no chip selected: nobody drives MISO


def test_ticks_wrap_as_on_the_pico_and_sleeps_move_the_emulator_clock(pico):
    board = pico.board
    board.clock.advance((1 << 30) / 1000 - 0.005)  # 5 ms before the ticks wrap
    pico.exec("import time; a = time.ticks_ms(); time.sleep_ms(20); b = time.ticks_ms()")
    assert pico.eval("b < a") and pico.eval("time.ticks_diff(b, a)") == 20
    before = board.clock.now()
    pico.exec("time.sleep_us(1500)")
    assert board.clock.now() - before == pytest.approx(0.0015)


def test_a_late_feed_is_a_watchdog_reset(pico):
    pico.exec("import machine, time; w = machine.WDT(timeout=100); w.feed()")
    assert pico.feeds == 1 and not pico.bitten
    with pytest.raises(MicroPythonError) as raised:
        pico.exec("time.sleep_ms(150); w.feed()")
    assert raised.value.kind == "SystemExit" and pico.bitten and pico.feeds == 1
