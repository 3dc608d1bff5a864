"""The doctor on the SPI buses: it finds a reader module that does not let go
of MISO (on the emulator's board where one module keeps driving it, and not
on a clean board), it leaves every spidev setting as it found it, and it
gives the readers' power budget for the supply it is told."""

from __future__ import annotations

import pytest

from table.config import loads
from table.doctor import Doctor, DoctorParts
from table.power import budget, ldo_max_readers
from tests.table.test_doctor import board_factory, by_status, fake_root

#: Seat 1 on SPI0 CE0, seat 2 on a GPIO chip select (read through spidev0.0
#: with SPI_NO_CS), two seats on the hub.
GPIO_CS_TABLE = ("[leds]\nstatus = false\n"
                 "[[seats]]\nreader = { type = \"spi\", bus = 0, device = 0 }\n"
                 "[[seats]]\nreader = { type = \"spi\", bus = 0, cs_pin = 24 }\n"
                 "[[seats]]\nreader = { type = \"hub\", channel = 0 }\n"
                 "[[seats]]\nreader = { type = \"hub\", channel = 1 }\n")

FIVE = {(0, 0): 0x92, (0, 1): 0x92, (1, 0): 0x91, (1, 1): 0x92, (1, 2): 0x92}


@pytest.fixture(autouse=True)
def _put_sys_modules_back():
    yield
    from hw_mocks import fake_rpi

    fake_rpi.uninstall()


def holding_board(hold=(), level=0, extra_cs=None):
    """The emulator's board (readers as the default configuration wires them,
    RST on GPIO 25), with the readers at `hold` keeping MISO driven."""
    from hw_mocks import fake_rpi
    from hw_mocks.spi_miso import MisoHoldingBoard

    board = MisoHoldingBoard()
    chips = {}
    for bus, ce in FIVE:
        chips[(bus, ce)] = board.add_reader(bus=bus, ce=ce, rst_pin=25)
    if extra_cs is not None:
        chips[("cs", extra_cs)] = board.add_reader(bus=0, cs_pin=extra_cs, rst_pin=25)
    for key in hold:
        board.hold_miso(chips[key], level)
    board.clock.advance(0.1)
    fake_rpi.install(board)
    return board, chips


def spi_open(bus, device):
    from hw_mocks.fake_rpi import SpiDev

    return SpiDev(bus, device)


def doctor(config, board, tmp_path, spi=spi_open, supply="buck"):
    parts = DoctorParts(pin_factory=board_factory(board), spi_open=spi)
    lines = []
    # the doctor's pauses pass on the chips' clock (a reset chip needs its start-up time)
    findings = Doctor(config, parts, system=fake_root(tmp_path), out=lines.append,
                      sleep=board.clock.advance, live=False, check_nodes=False,
                      supply=supply).run()
    return findings


def test_every_reader_letting_go_of_miso_passes(tmp_path):
    board, _ = holding_board()
    findings = doctor(loads(""), board, tmp_path)
    texts = {(f.status, f.topic, f.text) for f in findings}
    assert ("ok", "SPI0", "every reader on SPI0 lets go of MISO when its chip select goes "
            "high") in texts
    assert ("ok", "SPI1", "every reader on SPI1 lets go of MISO when its chip select goes "
            "high") in texts
    assert by_status(findings, "fail") == [] and by_status(findings, "warn") == []


def test_a_reader_that_keeps_driving_miso_is_named(tmp_path):
    # seat 4 is on SPI1 CE1; its module keeps MISO at its last bit
    board, _ = holding_board(hold=[(1, 1)], level=1)
    findings = doctor(loads(""), board, tmp_path)
    fails = [f for f in by_status(findings, "fail") if "MISO" in f.text]
    assert [(f.topic, f.text) for f in fails] == [
        ("seat 4", "SPI1 CE1: keeps driving MISO after its chip select goes high (SPI1 reads "
                   "FF FF FF FF FF FF FF FF with every chip select high)")]
    assert "74HC125" in fails[0].fix and "Shared MISO" in fails[0].fix
    assert not any(f.topic == "SPI1" and f.status == "ok" for f in findings)
    # SPI0's readers are fine
    assert any(f.topic == "SPI0" and f.status == "ok" for f in findings)


def test_a_module_holding_miso_low_silences_its_neighbours_and_is_still_found(tmp_path):
    """Held low, it turns every other reader of the bus into "no answer"; the
    doctor still names the culprit once it has made it send a 1."""
    board, _ = holding_board(hold=[(0, 1)], level=0)
    findings = doctor(loads(""), board, tmp_path)
    fails = {(f.topic, f.text.split(":")[0]) for f in by_status(findings, "fail")}
    assert ("seat 1", "SPI0 CE0") in fails                    # silenced neighbour
    held = [f for f in by_status(findings, "fail") if "keeps driving MISO" in f.text]
    assert [f.topic for f in held] == ["seat 2"]
    assert "if every reader on this bus reads 0x00, one of them may hold MISO low" in \
        next(f for f in findings if f.topic == "seat 1").fix


def test_alone_on_its_bus_it_is_only_a_warning(tmp_path):
    board, _ = holding_board(hold=[(1, 0)], level=1)
    seats = "".join(f"[[seats]]\nreader = {{ type = \"spi\", bus = {b}, device = {d} }}\n"
                    for b, d in ((0, 0), (0, 1), (1, 0)))
    config = loads("[leds]\nstatus = false\n" + seats
                   + "[[seats]]\nreader = { type = \"hub\", channel = 0 }\n")
    findings = doctor(config, board, tmp_path)
    warn = [f for f in by_status(findings, "warn") if "MISO" in f.text]
    assert [f.topic for f in warn] == ["seat 3"]
    assert warn[0].text.endswith("harmless while it is alone on the bus")


def test_the_doctor_puts_back_every_spidev_setting_it_changed(tmp_path):
    """SPI_NO_CS belongs to the device (the kernel keeps it between opens):
    after the doctor read a reader on a GPIO chip select through spidev0.0,
    the service must find spidev0.0 as it was, or seat 1 reads nothing."""
    board, _ = holding_board(extra_cs=24)
    config = loads(GPIO_CS_TABLE)
    kept: dict[tuple[int, int], dict[str, object]] = {}

    class KernelSpi:
        """spidev as the kernel keeps it: every setting belongs to the device."""

        def __init__(self, bus, device):
            self.dev = spi_open(bus, device)
            self.key = (bus, device)
            kept.setdefault(self.key, {"mode": 3, "max_speed_hz": 8_000_000})

        def __getattr__(self, name):
            if name in ("mode", "max_speed_hz"):
                return kept[self.key][name]
            return getattr(self.dev, name)

        def __setattr__(self, name, value):
            if name in ("mode", "max_speed_hz"):
                kept[self.key][name] = value
                self.dev.mode = value if name == "mode" else self.dev.mode
            elif name in ("dev", "key"):
                object.__setattr__(self, name, value)
            else:
                setattr(self.dev, name, value)

    findings = doctor(config, board, tmp_path, spi=KernelSpi)
    assert by_status(findings, "fail") == []
    assert board.spi_no_cs == set()                       # used, and put back
    assert kept == {(0, 0): {"mode": 3, "max_speed_hz": 8_000_000}}
    # and a flag someone else set is left set
    board.spi_no_cs.add((0, 0))
    doctor(config, board, tmp_path, spi=KernelSpi)
    assert board.spi_no_cs == {(0, 0)}


def test_seat_1_answers_after_the_doctor_ran(tmp_path):
    """Fault found on a real table: the doctor left SPI_NO_CS on spidev0.0 and
    the next run saw seat 1 as "no answer"."""
    board, _ = holding_board(extra_cs=24)
    config = loads(GPIO_CS_TABLE)
    doctor(config, board, tmp_path)
    again = doctor(config, board, tmp_path)
    assert next(f for f in again if f.topic == "seat 1").text == \
        "SPI0 CE0: MFRC522 version 2.0 (VersionReg 0x92)"


# ----- the power budget -----------------------------------------------------------------

def power(findings):
    return [(f.status, f.text) for f in findings if f.topic == "power"]


@pytest.mark.parametrize("supply, status, says", [
    (None, "warn", "5 readers on the Pi draw up to 580 mA at 3.3 V (100 mA antenna + 16 mA "
                   "each): more than the Pi's 3V3 pin can feed (3 readers)"),
    ("pi", "fail", "more than the Pi's 3V3 pin can feed (3 readers)"),
    ("ldo", "fail", "an AMS1117 from 5 V would turn 0.99 W into heat (more than the 0.8 W it "
                    "sheds without a heatsink; 4 readers at most)"),
    ("buck", "ok", "a buck converter rated 900 mA or more; it takes about 450 mA more from "
                   "the Pi's 5 V supply"),
])
def test_five_readers_on_the_pi(tmp_path, supply, status, says):
    board, _ = holding_board()
    got = power(doctor(loads(""), board, tmp_path, supply=supply))
    assert len(got) == 1 and got[0][0] == status and says in got[0][1], got


def test_three_readers_fit_the_pi_pin_and_the_hub_gets_its_own_line(tmp_path):
    board, _ = holding_board()
    seats = "".join(f"[[seats]]\nreader = {{ type = \"spi\", bus = {b}, device = {d} }}\n"
                    for b, d in ((0, 0), (0, 1), (1, 0)))
    hub = "".join(f"[[seats]]\nreader = {{ type = \"hub\", channel = {c} }}\n" for c in (0, 1, 2))
    config = loads("[leds]\nstatus = false\n" + seats + hub)
    got = power(doctor(config, board, tmp_path, supply=None))
    assert got[0] == ("ok", "3 readers on the Pi draw up to 348 mA at 3.3 V (100 mA antenna + "
                            "16 mA each): the Pi's 3V3 pin feeds up to 3")
    assert got[1][0] == "warn" and got[1][1] == (
        "3 readers on the hub draw up to 348 mA at 3.3 V: more than the Pico's 3V3(OUT) can "
        "feed (2 readers)")


def test_the_budget_figures():
    assert budget(7).ldo_w == pytest.approx(1.38)          # the "about 1.4 W" of the docs
    assert budget(1).current_ma == 116
    assert ldo_max_readers() == 4
