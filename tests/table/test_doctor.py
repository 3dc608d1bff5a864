"""`cardtable doctor` on the fakes: a fake /dev and /sys tree, gpiozero's
MockFactory, the OLED on a capture panel, the fake card readers (cards put
down when the doctor asks), and a reader chip answering its VersionReg."""

from __future__ import annotations

import pytest

from hw_mocks.readers import FakeCardReaders
from table.cli import main
from table.config import loads
from table.doctor import Doctor, DoctorParts, Node, System, pattern_frames, summary
from table.drivers.display import open_display
from table.drivers.gpio import GpioIndicators
from table.ports import DEALER
from tests.drivers.oled_panel import CapturePanel

DEFAULT_NODES = ["dev/spidev0.0", "dev/spidev0.1", "dev/spidev1.0", "dev/spidev1.1",
                 "dev/spidev1.2", "dev/i2c-1", "dev/gpiochip0"]


@pytest.fixture(autouse=True)
def _put_sys_modules_back():
    """The emulator's fake RPi.GPIO and spidev leave with each test."""
    yield
    from hw_mocks import fake_rpi

    fake_rpi.uninstall()


@pytest.fixture
def mock_factory():
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


def fake_root(tmp_path, nodes=DEFAULT_NODES, usb=()):
    for n in nodes:
        p = tmp_path / n
        p.parent.mkdir(parents=True, exist_ok=True)
        p.touch()
    for i, usb_id in enumerate(usb):
        d = tmp_path / "sys/bus/usb/devices" / f"1-{i}"
        d.mkdir(parents=True)
        vid, pid = usb_id.split(":")
        (d / "idVendor").write_text(vid + "\n")
        (d / "idProduct").write_text(pid + "\n")
    return System(tmp_path)


def board_with_readers(versions, rst_pin=25):
    """The MFRC522 emulator's board, its fake spidev installed, one reader per
    entry: (bus, device) or ("cs", pin) -> its VersionReg, or "dead" for a
    reader that does not answer (MISO stuck at 0x00)."""
    from hw_mocks import fake_rpi
    from hw_mocks.mfrc522 import Board

    board = Board()
    for key, version in versions.items():
        if key[0] == "cs":
            chip = board.add_reader(bus=0, cs_pin=key[1], rst_pin=rst_pin)
        else:
            chip = board.add_reader(bus=key[0], ce=key[1], rst_pin=rst_pin)
        if version == "dead":
            chip.unplug()
        else:
            chip.version = version
            chip.regs[0x37] = version
    board.clock.advance(0.1)              # the chips have long started
    fake_rpi.install(board)
    return board


def board_factory(board):
    """gpiozero's MockFactory whose pins also drive the emulated board's GPIO
    lines, so RST and GPIO chip selects set through gpiozero reach the chips."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    class BoardPin(MockPWMPin):
        def _bcm(self):
            return int(self.info.name.replace("GPIO", ""))

        def _change_state(self, value):
            changed = super()._change_state(value)
            if self._function == "output":
                board.gpio.drive(self._bcm(), True, int(value))
            return changed

        def _set_function(self, value):
            super()._set_function(value)
            if value != "output":             # an output is driven by the state set next
                board.gpio.release(self._bcm())

    return MockFactory(pin_class=BoardPin)


def spi_open(bus, device):
    from hw_mocks.fake_rpi import SpiDev

    return SpiDev(bus, device)


ALL_GENUINE = {(0, 0): 0x92, (0, 1): 0x92, (1, 0): 0x91, (1, 1): 0x92, (1, 2): 0x92}


def parts_for(config, factory, readers=None, panel=None, versions=ALL_GENUINE):
    panel = panel or CapturePanel("ssd1306")
    board_with_readers(versions)
    return DoctorParts(
        pin_factory=factory,
        display=open_display(config.display, serial=panel),
        indicators=GpioIndicators(factory, [s.led for s in config.seats], config.leds.status,
                                  config.buzzer.pin, time_scale=0.02),
        readers=readers,
        spi_open=spi_open)


class Table:
    """Puts cards down when the doctor asks for them (as a person would)."""

    def __init__(self, readers, plan):
        self.readers = readers
        self.plan = plan                   # asked place -> places where the card shows
        self.lines = []
        self.asked = None
        self.n = 0

    def out(self, line):
        self.lines.append(line)
        if "Put one card on" in line:
            self.asked = self.n
            self.uid = f"04A1B2C3D4E5{self.n:02X}"
            self.shown = self.plan[self.n] if self.n < len(self.plan) else []
            for place in self.shown:
                self.readers.arrive(place, self.uid)
            self.n += 1
        elif "take the card away" in line:
            for place in self.shown:
                self.readers.leave(place, self.uid)


def run_doctor(config, parts, system, plan=None, **kw):
    table = Table(parts.readers, plan or []) if parts.readers is not None else None
    doctor = Doctor(config, parts, system=system, sleep=kw.pop("sleep", lambda s: None),
                    out=table.out if table else (lambda line: None),
                    wait_s=kw.pop("wait_s", 2.0), settle_s=0.05,
                    supply=kw.pop("supply", "buck"), **kw)
    findings = doctor.run()
    return findings, table


def by_status(findings, status):
    return [f for f in findings if f.status == status]


def test_a_healthy_table_passes_everything(tmp_path, mock_factory):
    config = loads("")
    readers = FakeCardReaders(4, dealer_reader=True)
    panel = CapturePanel("ssd1306")
    parts = parts_for(config, mock_factory, readers, panel)
    # each card shows on exactly the place asked for: seats 0..3, then the dealer;
    # the five readers are fed by a buck converter (the Pi's 3V3 pin feeds three)
    findings, table = run_doctor(config, parts, fake_root(tmp_path),
                                 plan=[[0], [1], [2], [3], [DEALER]], supply="buck")
    assert by_status(findings, "fail") == [] and by_status(findings, "warn") == []
    assert summary(findings).startswith("All checks passed")
    texts = [f"{f.topic}: {f.text}" for f in findings]
    assert "seat 1: SPI0 CE0: MFRC522 version 2.0 (VersionReg 0x92)" in texts
    assert "seat 3: SPI1 CE0: MFRC522 version 1.0 (VersionReg 0x91)" in texts
    assert "seat 4: reads UID 04A1B2C3D4E501, and no other reader saw it" in texts
    assert "the dealer's reader: reads UID 04A1B2C3D4E504, and no other reader saw it" in texts
    # every seat LED lit once and went out again, the status LED blinked
    for pin in (4, 27, 22, 23):
        assert [s.state for s in mock_factory.pin(pin).states] == [False, True, False]
    assert any(s.state for s in mock_factory.pin(26).states)
    assert any(s.state for s in mock_factory.pin(12).states)     # the buzzer sounded
    # the display went through the test frames and now shows the seat names
    frames = pattern_frames((128, 64), config)
    names = frames[2].load()
    assert panel.pixels() == [[1 if names[x, y] else 0 for x in range(128)] for y in range(64)]
    checker = frames[1].load()
    assert checker[0, 0] and not checker[8, 0] and not checker[0, 8] and checker[8, 8]
    assert not readers.started


def test_crosstalk_is_shown_with_both_seats(tmp_path, mock_factory):
    config = loads("")
    readers = FakeCardReaders(4, dealer_reader=True)
    parts = parts_for(config, mock_factory, readers)
    findings, _ = run_doctor(config, parts, fake_root(tmp_path),
                             plan=[[0, 1], [1], [2], [3], [DEALER]])
    warns = by_status(findings, "warn")
    assert len(warns) == 1
    assert warns[0].topic == "seat 1"
    assert warns[0].text == ("reads UID 04A1B2C3D4E500, but seat 4 saw the same card "
                             "(crosstalk)")
    assert "further apart" in warns[0].fix


def test_swapped_readers_and_a_dead_seat(tmp_path, mock_factory):
    config = loads("")
    readers = FakeCardReaders(4, dealer_reader=True)
    parts = parts_for(config, mock_factory, readers)
    findings, _ = run_doctor(config, parts, fake_root(tmp_path), wait_s=0.2,
                             plan=[[0], [2], [1], [], [DEALER]])
    fails = {f.topic: f for f in by_status(findings, "fail")}
    assert fails["seat 4"].text == ("the card put here (UID 04A1B2C3D4E501) was read by "
                                    "seat 3 instead")
    assert "swapped" in fails["seat 4"].fix
    assert fails["seat 2"].text == "read nothing in 0.2 s"
    assert "1. seat 4: the card put here" in summary(findings)


def test_missing_buses_say_which_config_txt_line(tmp_path, mock_factory):
    config = loads("")
    parts = parts_for(config, mock_factory, versions={(0, 0): 0x92, (0, 1): 0x92})
    system = fake_root(tmp_path, ["dev/spidev0.0", "dev/spidev0.1", "dev/gpiochip0"])
    findings, _ = run_doctor(config, parts, system, live=False)
    fails = {f.topic: f for f in by_status(findings, "fail")}
    assert fails["SPI1"].text == ("SPI1 is off: /dev/spidev1.0, /dev/spidev1.1, "
                                  "/dev/spidev1.2 missing (seat 3, seat 4, the dealer's reader)")
    assert fails["SPI1"].fix == "add dtoverlay=spi1-3cs to /boot/firmware/config.txt and reboot"
    assert fails["I2C-1"].fix == "add dtparam=i2c_arm=on to /boot/firmware/config.txt and reboot"
    assert "SPI0" not in fails


def test_a_node_this_user_may_not_open(tmp_path, mock_factory):
    class NoAccess(System):
        def node(self, path):
            node = super().node(path)
            if path == "/dev/spidev0.0":
                return Node(path, True, False, False, "spi")
            return node

        def user(self):
            return "pi"

    config = loads("")
    root = fake_root(tmp_path)
    parts = parts_for(config, mock_factory)
    findings, _ = run_doctor(config, parts, NoAccess(root.root), live=False)
    (fail,) = by_status(findings, "fail")
    assert fail.text == "/dev/spidev0.0 exists but pi may not open it (group spi)"
    assert fail.fix.startswith("sudo usermod -aG spi pi")


def test_system_reads_real_nodes_and_usb_ids(tmp_path):
    system = fake_root(tmp_path, ["dev/i2c-1"], usb=["2E8A:0005", "1d6b:0002"])
    node = system.node("/dev/i2c-1")
    assert node.exists and node.readable and node.group
    assert not system.node("/dev/i2c-0").exists
    assert system.usb_ids() == {"2e8a:0005", "1d6b:0002"}


HUB_TABLE = "".join(f'[[seats]]\nreader = {{ type = "hub", channel = {i} }}\n' for i in range(4))


def test_hub_plugged_in_but_not_named_points_to_the_udev_rule(tmp_path, mock_factory):
    config = loads(HUB_TABLE)
    parts = parts_for(config, mock_factory)
    system = fake_root(tmp_path, ["dev/i2c-1", "dev/gpiochip0"], usb=["2e8a:0005"])
    findings, _ = run_doctor(config, parts, system, live=False)
    (fail,) = by_status(findings, "fail")
    assert fail.text == "the hub (2e8a:0005) is plugged in but /dev/cardtable-hub is missing"
    assert "99-cardtable-hub.rules" in fail.fix


def test_hub_not_plugged_in(tmp_path, mock_factory):
    config = loads(HUB_TABLE)
    parts = parts_for(config, mock_factory)
    system = fake_root(tmp_path, ["dev/i2c-1", "dev/gpiochip0"])
    findings, _ = run_doctor(config, parts, system, live=False)
    (fail,) = by_status(findings, "fail")
    assert fail.text == "no reader hub (2e8a:0005) is plugged in"


def test_hub_present(tmp_path, mock_factory):
    config = loads(HUB_TABLE)
    parts = parts_for(config, mock_factory)
    system = fake_root(tmp_path, ["dev/i2c-1", "dev/gpiochip0", "dev/cardtable-hub"])
    findings, _ = run_doctor(config, parts, system, live=False)
    assert by_status(findings, "fail") == []
    assert any(f.text == "/dev/cardtable-hub is there and can be opened" for f in findings)


def test_version_register_problems(tmp_path):
    config = loads("")
    versions = {(0, 0): "dead", (0, 1): 0x12, (1, 0): 0x91, (1, 1): 0x5A, (1, 2): 0x88}
    board = board_with_readers(versions)
    factory = board_factory(board)
    parts = DoctorParts(pin_factory=factory, spi_open=spi_open)
    findings, _ = run_doctor(config, parts, fake_root(tmp_path), live=False)
    got = {f.topic: (f.status, f.text) for f in findings if f.topic.startswith(("seat", "the"))}
    assert got["seat 1"] == ("fail", "SPI0 CE0: no answer (VersionReg reads 0x00)")
    assert got["seat 2"][0] == "warn" and "counterfeit" in got["seat 2"][1]
    assert got["seat 3"] == ("ok", "SPI1 CE0: MFRC522 version 1.0 (VersionReg 0x91)")
    assert got["seat 4"] == ("warn", "SPI1 CE1: unknown chip (VersionReg 0x5A)")
    assert got["the dealer's reader"] == ("ok", "SPI1 CE2: FM17522 (a compatible clone) "
                                             "(VersionReg 0x88)")
    # the shared RST line was held high for the check and released afterwards
    assert ("drive", 25) not in board.gpio.calls
    assert factory.pin(25).function == "input"
    factory.reset()


def test_readers_held_in_reset_do_not_answer(tmp_path):
    """If the doctor did not raise RST, the chips would stay powered down."""
    versions = {(0, 0): 0x92}
    board = board_with_readers(versions)
    board.gpio.drive(25, True, 0)                 # something holds RST low
    from hw_mocks.fake_rpi import SpiDev

    assert SpiDev(0, 0).xfer2([0x80 | (0x37 << 1), 0])[1] == 0x00
    factory = board_factory(board)
    config = loads(HUB_TABLE.replace('{ type = "hub", channel = 0 }',
                                     '{ type = "spi", bus = 0, device = 0 }'))
    # the doctor raises RST and waits for the chip to start (time on the board's clock)
    findings, _ = run_doctor(config, DoctorParts(pin_factory=factory, spi_open=spi_open),
                             fake_root(tmp_path), live=False, sleep=board.clock.advance)
    assert "seat 1: SPI0 CE0: MFRC522 version 2.0 (VersionReg 0x92)" in [
        f"{f.topic}: {f.text}" for f in findings]
    factory.reset()


def test_reader_on_a_gpio_chip_select(tmp_path):
    config = loads(HUB_TABLE.replace('{ type = "hub", channel = 3 }',
                                     '{ type = "spi", bus = 0, cs_pin = 24 }'))
    board = board_with_readers({(0, 0): 0x91, ("cs", 24): 0x92})   # another chip on CE0
    mock_factory = board_factory(board)
    parts = DoctorParts(pin_factory=mock_factory, spi_open=spi_open)
    findings, _ = run_doctor(config, parts, fake_root(tmp_path), live=False)
    got = [f for f in findings if "GPIO24 as CS" in f.text]
    assert [(f.status, f.text) for f in got] == [
        ("ok", "SPI0 GPIO24 as CS: MFRC522 version 2.0 (VersionReg 0x92)")]
    assert mock_factory.pin(24).function == "input"      # released again
    mock_factory.reset()


def test_a_display_that_does_not_answer(tmp_path, mock_factory):
    config = loads("")
    panel = CapturePanel("ssd1306")
    parts = parts_for(config, mock_factory, panel=panel)
    panel.fail_next = 100
    findings, _ = run_doctor(config, parts, fake_root(tmp_path), live=False)
    (fail,) = by_status(findings, "fail")
    assert fail.topic == "display" and "Remote I/O error" in fail.text
    assert "i2cdetect -y 1" in fail.fix


def test_parts_that_could_not_be_opened(tmp_path, mock_factory):
    config = loads("")
    parts = DoctorParts(pin_factory=mock_factory, errors={
        "display": "DeviceNotFoundError: I2C device not found: /dev/i2c-1",
        "readers": "the card readers: this version has no driver for readers wired to the "
                   "Pi's SPI (update cardtable)"})
    findings, _ = run_doctor(config, parts, fake_root(tmp_path), live=True)
    fails = {f.topic: f for f in by_status(findings, "fail")}
    assert fails["display"].text == ("cannot be opened: DeviceNotFoundError: I2C device not "
                                     "found: /dev/i2c-1")
    assert "dtparam=i2c_arm=on" in fails["display"].fix
    assert fails["read test"].text.startswith("the readers could not be opened: the card")


def test_cli_on_the_fakes(capsys):
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "config.toml"
    assert main(["doctor", "--hardware", "mock", "--no-live", "--quick", "--supply", "buck",
                 "--config", str(example)]) == 0
    out = capsys.readouterr().out
    assert "OK    LEDs/buzzer: test pattern played: seat LEDs 1, 4, 3, 2" in out
    assert out.rstrip().endswith("All checks passed: the table is ready "
                                 "(sudo systemctl start cardtable).")


def test_cli_refuses_a_bad_configuration(tmp_path, capsys):
    bad = tmp_path / "c.toml"
    bad.write_text("[buttons]\nok = 99\n")
    assert main(["doctor", "--hardware", "mock", "--config", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "buttons.ok: must be a GPIO number (BCM) 2..27, not 99" in err
