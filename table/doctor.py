"""`cardtable doctor`: checks a built table and tells a person what to fix.

In order: the configuration and the readers' power budget; the device
nodes (SPI, I2C, GPIO, the reader hub) and whether this user may open them;
each directly wired reader's VersionReg (0x91/0x92 for a genuine MFRC522)
and whether each lets go of MISO when deselected (every chip select high);
the reader hub's version and,
for each channel a seat uses, whether its reader answers the hub (the hub's
`VER` and `CARDS` answers); the LEDs, buzzer and display
test patterns (a person watches and listens); and a live read test, seat by
seat, that also shows a card seen by two seats at once (crosstalk). Every
finding is printed as it comes, then a summary of what to do.

Everything the doctor touches is passed in (`DoctorParts`, `System`,
`sleep`, the SPI opener), so tests run it on gpiozero's MockFactory, the
luma capture display, fake readers and a fake /dev tree.
"""

from __future__ import annotations

import grp
import os
import queue
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from table.config import Config, HubReader, SpiReader
from table.ports import DEALER, CardArrived, CardLeft, ReaderBack, ReaderOffline
from table.power import (
    LDO_MAX_W,
    PI_3V3_MAX_READERS,
    PICO_3V3_MAX_READERS,
    READER_CORE_MA,
    READER_TVDD_MA,
    Supply,
    budget,
    ldo_max_readers,
)

Status = Literal["ok", "warn", "fail", "info"]
CONFIG_TXT = "/boot/firmware/config.txt"

VERSION_REG = 0x37
#: ModeReg: bit 0 is CRCPreset's low bit, 1 for ISO 14443A (0x6363) after reset
#: and as every driver sets it.
MODE_REG = 0x11
#: How the doctor sets an SPI device for its reads (put back afterwards).
SPI_SETTINGS: dict[str, Any] = {"mode": 0, "max_speed_hz": 1_000_000}
#: Bytes read with every chip select high; the last TAIL_BYTES are judged (the
#: first may still carry the charge of a line a reader just let go).
IDLE_READ_BYTES = 8
TAIL_BYTES = 4

#: MFRC522 VersionReg (0x37) values.
VERSIONS: dict[int, tuple[Status, str]] = {
    0x91: ("ok", "MFRC522 version 1.0"),
    0x92: ("ok", "MFRC522 version 2.0"),
    0x88: ("ok", "FM17522 (a compatible clone)"),
    0x12: ("warn", "a counterfeit MFRC522 (0x12): it usually works but reads less far"),
    0xB2: ("ok", "FM17550 (a compatible clone)"),
}


@dataclass(frozen=True)
class Finding:
    status: Status
    topic: str
    text: str
    fix: str = ""


@dataclass
class Node:
    path: str
    exists: bool
    readable: bool = False
    writable: bool = False
    group: str = ""


class System:
    """The machine as the doctor sees it. `root` prefixes every path (tests
    build a fake /dev and /sys under a temporary folder)."""

    def __init__(self, root: str | os.PathLike[str] = "/") -> None:
        self.root = Path(root)

    def _p(self, path: str) -> Path:
        return self.root / path.lstrip("/")

    def node(self, path: str) -> Node:
        p = self._p(path)
        try:
            st = p.stat()
        except OSError:
            return Node(path, False)
        try:
            group = grp.getgrgid(st.st_gid).gr_name
        except KeyError:
            group = str(st.st_gid)
        return Node(path, True, os.access(p, os.R_OK), os.access(p, os.W_OK), group)

    def usb_ids(self) -> set[str]:
        """"vvvv:pppp" of every USB device plugged in."""
        out = set()
        for dev in self._p("/sys/bus/usb/devices").glob("*"):
            try:
                vid = (dev / "idVendor").read_text().strip().lower()
                pid = (dev / "idProduct").read_text().strip().lower()
            except OSError:
                continue
            out.add(f"{vid}:{pid}")
        return out

    def user(self) -> str:
        import pwd

        try:
            return pwd.getpwuid(os.getuid()).pw_name
        except KeyError:
            return str(os.getuid())


@dataclass
class DoctorParts:
    """The hardware the doctor exercises; any part may be missing (None),
    with `errors[part]` saying why it could not be opened."""

    pin_factory: Any = None
    display: Any = None
    indicators: Any = None
    readers: Any = None
    spi_open: Callable[[int, int], Any] | None = None
    #: Opens the readers when they are needed (after the version registers
    #: are read, so the doctor and the readers' driver never hold the same pins).
    open_readers: Callable[[], Any] | None = None
    #: The hub's readers' driver (`HubReaders`, not started), to ask the hub
    #: for its version and its channels (None: no hub to ask).
    open_hub: Callable[[], Any] | None = None
    errors: dict[str, str] = field(default_factory=dict)
    #: Called last by `close()` (the mock's fake hub is unplugged).
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for part in (self.readers, self.indicators, self.display):
            close = getattr(part, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001, S110 - closing after a failed check
                    pass
        for close in self.closers:
            close()


def open_parts(config: Config, pin_factory: Any = None) -> DoctorParts:
    """Open each part of the real table on its own, so one that fails does
    not stop the others being checked."""
    from table.drivers import HardwareError, make_pin_factory, open_readers
    from table.drivers.display import open_display
    from table.drivers.gpio import GpioIndicators

    parts = DoctorParts(spi_open=_spidev_open)
    try:
        parts.pin_factory = pin_factory or make_pin_factory(config.gpio.pin_factory)
    except HardwareError as exc:
        parts.errors["gpio"] = exc.reason
        return parts
    try:
        parts.display = open_display(config.display, parts.pin_factory)
    except Exception as exc:  # noqa: BLE001 - reported as a finding
        parts.errors["display"] = f"{type(exc).__name__}: {exc}"
    try:
        parts.indicators = GpioIndicators(
            parts.pin_factory, [s.led for s in config.seats], config.leds.status,
            config.buzzer.pin, buzzer_kind=config.buzzer.kind,
            active_high=config.leds.active_high, buzzer_active_high=config.buzzer.active_high)
    except Exception as exc:  # noqa: BLE001
        parts.errors["indicators"] = f"{type(exc).__name__}: {exc}"
    factory = parts.pin_factory
    parts.open_readers = lambda: open_readers(config, factory)
    if config.uses_hub():
        parts.open_hub = lambda: _hub_driver(config)
    return parts


def _hub_driver(config: Config) -> Any:
    from table.drivers.hub_readers import open_from_config
    from table.drivers.reader_wiring import hub_places

    return open_from_config(hub_places(config), config.hub)


def _spidev_open(bus: int, device: int) -> Any:
    from table.drivers.probe import spidev_open

    return spidev_open(bus, device)


def place_name(config: Config, place: int) -> str:
    return "the dealer's reader" if place == DEALER else f"seat {config.seats[place].name}"


class Doctor:
    """Runs the checks (see module docstring); `run()` returns the findings."""

    def __init__(self, config: Config, parts: DoctorParts, *, system: System | None = None,
                 out: Callable[[str], None] = print, sleep: Callable[[float], None] = time.sleep,
                 live: bool = True, wait_s: float = 20.0, settle_s: float = 0.8,
                 check_nodes: bool = True, pace: float = 1.0, hub_wait_s: float = 3.0,
                 supply: Supply | None = None) -> None:
        self.config = config
        self.parts = parts
        self.system = system or System()
        self.out = out
        self.sleep: Callable[[float], None] = lambda seconds: sleep(seconds * pace)
        self.live = live
        self.wait_s = wait_s
        self.settle_s = settle_s
        self.check_nodes = check_nodes
        self.hub_wait_s = hub_wait_s
        self.supply = supply
        self.findings: list[Finding] = []

    def add(self, status: Status, topic: str, text: str, fix: str = "") -> None:
        f = Finding(status, topic, text, fix)
        self.findings.append(f)
        self.out(format_finding(f))

    def run(self) -> list[Finding]:
        c = self.config
        where = str(c.source) if c.source else "built-in defaults (no configuration file)"
        self.add("ok", "config", f"{where}: {len(c.seats)} seats "
                 f"({', '.join(s.name for s in c.seats)}, play {c.direction}), "
                 f"dealer's reader: {'yes' if c.dealer else 'no'}")
        self.power()
        if self.check_nodes:
            self.nodes()
        else:
            self.add("info", "devices", "device nodes not checked (mock hardware)")
        self.reader_versions()
        self.hub_channels()
        self.ensure_readers()
        self.patterns()
        if self.live:
            self.live_reads()
        else:
            self.add("info", "read test", "live read test skipped (run `cardtable doctor "
                     "--live` at the table to put a card on every seat)")
        return self.findings

    # ----- power ----------------------------------------------------------------------

    def power(self) -> None:
        """The readers' power budget (table.power) for the configured readers
        and, if given (`--supply`), how they are fed."""
        places = self.config.readers_by_place().values()
        on_pi = sum(isinstance(r, SpiReader) for r in places)
        on_hub = sum(isinstance(r, HubReader) for r in places)
        if on_pi:
            b = budget(on_pi)
            head = (f"{on_pi} reader{'s' if on_pi != 1 else ''} on the Pi draw up to "
                    f"{b.current_ma} mA at 3.3 V ({READER_TVDD_MA} mA antenna + "
                    f"{READER_CORE_MA} mA each)")
            buck = (f"feed the readers from a 3.3 V buck converter rated {b.buck_rating_ma} mA "
                    "or more, on the Pi's 5 V (pin 2 or 4), its GND joined to the Pi's; see "
                    "Power in docs/hardware.md")
            supply = self.supply
            if supply == "buck":
                self.add("ok", "power", f"{head}: a buck converter rated {b.buck_rating_ma} mA "
                         f"or more; it takes about {b.buck_input_ma} mA more from the Pi's "
                         "5 V supply")
            elif supply == "ldo":
                if b.fits("ldo"):
                    self.add("ok", "power", f"{head}: the AMS1117 turns {b.ldo_w:.2f} W into "
                             f"heat (up to {LDO_MAX_W} W is fine without a heatsink)")
                else:
                    self.add("fail", "power", f"{head}: an AMS1117 from 5 V would turn "
                             f"{b.ldo_w:.2f} W into heat (more than the {LDO_MAX_W} W it sheds "
                             f"without a heatsink; {ldo_max_readers()} readers at most)", buck)
            elif b.fits("pi"):
                self.add("ok", "power", f"{head}: the Pi's 3V3 pin feeds up to "
                         f"{PI_3V3_MAX_READERS}")
            else:
                self.add("fail" if supply == "pi" else "warn", "power",
                         f"{head}: more than the Pi's 3V3 pin can feed "
                         f"({PI_3V3_MAX_READERS} readers)",
                         buck + ("" if supply else "; then run the doctor with --supply buck"))
        if on_hub:
            b = budget(on_hub)
            head = (f"{on_hub} reader{'s' if on_hub != 1 else ''} on the hub draw up to "
                    f"{b.current_ma} mA at 3.3 V")
            if on_hub <= PICO_3V3_MAX_READERS:
                self.add("ok", "power", f"{head}: the Pico's 3V3(OUT) feeds up to "
                         f"{PICO_3V3_MAX_READERS}")
            else:
                self.add("warn", "power", f"{head}: more than the Pico's 3V3(OUT) can feed "
                         f"({PICO_3V3_MAX_READERS} readers)",
                         f"feed the hub's readers from a 3.3 V buck converter rated "
                         f"{b.buck_rating_ma} mA or more, its GND joined to the Pico's; see "
                         "Power in docs/hardware.md")

    # ----- device nodes -------------------------------------------------------------

    def _node(self, topic: str, path: str, missing_fix: str, group_hint: str) -> bool:
        node = self.system.node(path)
        if not node.exists:
            self.add("fail", topic, f"{path} is missing", missing_fix)
            return False
        if not (node.readable and node.writable):
            group = node.group or group_hint
            user = self.system.user()
            self.add("fail", topic, f"{path} exists but {user} may not open it "
                     f"(group {group})",
                     f"sudo usermod -aG {group} {user}, then log out and in again "
                     "(the service's user gets it from systemd/install.sh)")
            return False
        self.add("ok", topic, f"{path} is there and can be opened")
        return True

    def spi_nodes(self) -> dict[int, dict[int, str]]:
        """Per SPI bus, the device numbers needed and who needs each."""
        out: dict[int, dict[int, str]] = {}
        for place, r in self.config.readers_by_place().items():
            if isinstance(r, SpiReader):
                dev = r.device if r.device is not None else 0
                out.setdefault(r.bus, {}).setdefault(dev, place_name(self.config, place))
        d = self.config.display
        if d.driver != "none" and d.interface == "spi":
            out.setdefault(d.spi_port, {}).setdefault(d.spi_device, "the display")
        return {bus: dict(sorted(devs.items())) for bus, devs in sorted(out.items())}

    def nodes(self) -> None:
        for bus, devs in self.spi_nodes().items():
            enable = ("dtparam=spi=on" if bus == 0 else
                      "dtoverlay=spi1-3cs" if bus == 1 else f"dtoverlay=spi{bus}-2cs")
            paths = {dev: f"/dev/spidev{bus}.{dev}" for dev in devs}
            if not any(self.system.node(p).exists for p in paths.values()):
                self.add("fail", f"SPI{bus}", f"SPI{bus} is off: {', '.join(paths.values())} "
                         f"missing ({', '.join(devs.values())})",
                         f"add {enable} to {CONFIG_TXT} and reboot")
                continue
            for dev, path in paths.items():
                self._node(f"SPI{bus}", path, f"{devs[dev]} needs it: SPI{bus} has fewer chip "
                           f"selects; use {enable} in {CONFIG_TXT}", "spi")
        d = self.config.display
        if d.driver != "none" and d.interface == "i2c":
            self._node(f"I2C-{d.i2c_port}", f"/dev/i2c-{d.i2c_port}",
                       f"add dtparam=i2c_arm=on to {CONFIG_TXT} and reboot", "i2c")
        self._node("GPIO", "/dev/gpiochip0",
                   "this does not look like a Raspberry Pi (no /dev/gpiochip0)", "gpio")
        if self.config.uses_hub():
            hub = self.config.hub
            if not self.system.node(hub.port).exists:
                plugged = hub.usb_id in self.system.usb_ids()
                if plugged:
                    self.add("fail", "hub", f"the hub ({hub.usb_id}) is plugged in but "
                             f"{hub.port} is missing",
                             "install the udev rule: sudo systemd/install.sh (or copy "
                             "systemd/99-cardtable-hub.rules to /etc/udev/rules.d and run "
                             "sudo udevadm trigger)")
                else:
                    self.add("fail", "hub", f"no reader hub ({hub.usb_id}) is plugged in",
                             "plug the hub into a USB port of the Pi (a data cable, not a "
                             "charging-only one)")
            else:
                self._node("hub", hub.port, "", "dialout")

    # ----- readers' version register ----------------------------------------------------

    def reader_versions(self) -> None:
        """Each directly wired reader's VersionReg, then whether every one of
        them lets go of MISO when deselected (`miso_release`)."""
        places = self.config.readers_by_place()
        spi = {p: r for p, r in places.items() if isinstance(r, SpiReader)}
        if not spi:
            return
        if self.parts.spi_open is None or self.parts.pin_factory is None:
            self.add("info", "readers", "version registers not read (no SPI here)")
            return
        from table.drivers.probe import output_pin

        held: dict[int, Any] = {}
        try:
            for r in spi.values():       # RST high (chip running), GPIO chip selects idle high
                for pin in (r.reset_pin, r.cs_pin):
                    if pin is not None and pin not in held:
                        held[pin] = output_pin(pin, self.parts.pin_factory, True)
            self.sleep(0.05)
            answered = {place: r for place, r in spi.items()
                        if self._version(place, r, held.get(r.cs_pin)
                                         if r.cs_pin is not None else None)}
            self.miso_release(answered, held, spi)
        except Exception as exc:  # noqa: BLE001 - e.g. a pin the readers' driver holds
            self.add("fail", "readers", f"cannot drive the readers' pins: {exc}",
                     "stop the service first: sudo systemctl stop cardtable")
        finally:
            for dev in held.values():
                dev.close()

    @contextmanager
    def _spi(self, bus: int, device: int, **settings: Any) -> Iterator[Any]:
        """/dev/spidev{bus}.{device} set to mode 0 at 1 MHz (and `settings`),
        each setting put back as it was when done: the kernel keeps them for
        the device, so a SPI_NO_CS left behind would silence a reader for the
        next program (the service)."""
        assert self.parts.spi_open is not None
        spi = self.parts.spi_open(bus, device)
        saved: list[tuple[str, Any]] = []
        try:
            for name, value in {**SPI_SETTINGS, **settings}.items():
                before = getattr(spi, name)
                if before != value:
                    setattr(spi, name, value)
                    saved.append((name, before))
            yield spi
        finally:
            for name, before in reversed(saved):
                try:
                    setattr(spi, name, before)
                except OSError as exc:
                    self.add("warn", f"SPI{bus}", f"/dev/spidev{bus}.{device}: {name} could "
                             f"not be set back to {before!r} ({exc})",
                             "reboot the Pi before starting the service")
            spi.close()

    def _read_register(self, r: SpiReader, cs: Any, reg: int) -> int:
        """One register of reader `r`, selected by its chip enable or by its
        GPIO chip select `cs` (the chip enable then held off: SPI_NO_CS)."""
        device = r.device if r.device is not None else 0
        with self._spi(r.bus, device, **({"no_cs": True} if cs is not None else {})) as spi:
            try:
                if cs is not None:
                    cs.off()
                return int(spi.xfer2([0x80 | (reg << 1), 0x00])[1])
            finally:
                if cs is not None:
                    cs.on()

    def _version(self, place: int, r: SpiReader, cs: Any) -> bool:
        """Reports reader `r`'s VersionReg; True if a known chip answered."""
        topic = place_name(self.config, place)
        try:
            value = self._read_register(r, cs, VERSION_REG)
        except OSError as exc:
            self.add("fail", topic, f"{r.describe()}: cannot open the SPI device ({exc})",
                     "see the SPI lines above")
            return False
        known = VERSIONS.get(value)
        if known is not None:
            self.add(known[0], topic, f"{r.describe()}: {known[1]} (VersionReg 0x{value:02X})")
            return True
        if value in (0x00, 0xFF):
            self.add("fail", topic, f"{r.describe()}: no answer (VersionReg reads "
                     f"0x{value:02X})",
                     "check this reader's wires: 3.3 V (never 5 V), GND, SCK, MOSI, MISO, "
                     "its chip select (SDA on the board) and RST; if every reader on "
                     "this bus reads 0x00, one of them may hold MISO low (see below)")
        else:
            self.add("warn", topic, f"{r.describe()}: unknown chip (VersionReg 0x{value:02X})",
                     "it may not be an MFRC522; check the reader board")
        return False

    # ----- MISO released when deselected -----------------------------------------------

    def _idle_bus(self, bus: int, device: int) -> list[int]:
        """MISO read with every chip select high: SPI_NO_CS on a device of the
        bus (GPIO chip selects are held high by the caller)."""
        with self._spi(bus, device, no_cs=True) as spi:
            return [int(b) for b in spi.xfer2([0x00] * IDLE_READ_BYTES)]

    def miso_release(self, readers: dict[int, SpiReader], held: dict[int, Any],
                     wired: dict[int, SpiReader]) -> None:
        """Finds a reader that keeps driving MISO after its chip select goes
        high: each reader in turn ends a read on a 1 bit (ModeReg's bit 0,
        always 1 for ISO 14443A), then the bus is read with every chip select
        high. A released bus reads 0x00 (the Pi pulls GPIO 9 and 19 down).
        `readers` are the ones that answered, `wired` all the configured ones:
        a module holding MISO matters when anything else shares its bus."""
        by_bus: dict[int, dict[int, SpiReader]] = {}
        for place, r in readers.items():
            by_bus.setdefault(r.bus, {})[place] = r
        d = self.config.display
        spi_display = {d.spi_port} if d.driver != "none" and d.interface == "spi" else set()
        for bus, group in sorted(by_bus.items()):
            device = next(iter(group.values())).device or 0
            shared = sum(r.bus == bus for r in wired.values()) > 1 or bus in spi_display
            before = self._idle_bus(bus, device)
            if any(before[-TAIL_BYTES:]):
                self.add("fail" if shared else "warn", f"SPI{bus}",
                         f"MISO is driven with every chip select high (reads "
                         f"{_hex(before)}) before any reader was asked",
                         "something on this bus does not let go of MISO: unplug the readers "
                         "one by one and run the doctor again; see \"Shared MISO\" in "
                         "docs/hardware.md")
                continue
            stuck = []
            for place, r in group.items():
                cs = held.get(r.cs_pin) if r.cs_pin is not None else None
                if not self._read_register(r, cs, MODE_REG) & 1:
                    self.add("info", place_name(self.config, place),
                             f"{r.describe()}: MISO release not tested (ModeReg ends on 0)")
                    continue
                after = self._idle_bus(bus, device)
                if any(after[-TAIL_BYTES:]):
                    stuck.append(place)
                    self.add("fail" if shared else "warn", place_name(self.config, place),
                             f"{r.describe()}: keeps driving MISO after its chip select goes "
                             f"high (SPI{bus} reads {_hex(after)} with every chip select high)"
                             + ("" if shared else "; harmless while it is alone on the bus"),
                             "this reader board does not release MISO: put a 74HC125 buffer "
                             "between its MISO and the bus (the buffer's /OE to the reader's "
                             "chip select), or give it a bus of its own; see \"Shared MISO\" "
                             "in docs/hardware.md")
            if not stuck:
                self.add("ok", f"SPI{bus}", f"every reader on SPI{bus} lets go of MISO when "
                         "its chip select goes high")

    # ----- the reader hub -----------------------------------------------------------------

    def hub_channels(self) -> None:
        """Ask the hub for its version and its channels' state; name each
        seat whose reader does not answer the hub."""
        from table.drivers.hub_readers import HUB_CS_PINS

        places = {p: r for p, r in self.config.readers_by_place().items()
                  if isinstance(r, HubReader)}
        if not places:
            return
        if self.parts.open_hub is None:
            for place, r in places.items():
                self.add("info", place_name(self.config, place),
                         f"on {r.describe()}: the hub was not asked (no hub here)")
            return
        try:
            result = self.parts.open_hub().probe(self.hub_wait_s)
        except Exception as exc:  # noqa: BLE001 - reported as a finding
            self.add("fail", "hub", f"cannot be asked: {type(exc).__name__}: {exc}",
                     "stop the service first (sudo systemctl stop cardtable), then check the "
                     "lines above")
            return
        where = result.port or self.config.hub.port
        if result.error:
            self.add("fail", "hub", f"{where}: {result.error}",
                     "plug the hub into a USB port of the Pi (a data cable, not a charging-only "
                     "one); stop the service first if it runs (sudo systemctl stop cardtable)")
            return
        if not result.version:
            self.add("fail", "hub", f"{where}: no answer to VER in {self.hub_wait_s:g} s",
                     "is it the reader hub? Put the hub's firmware on the Pico (docs/readers.md, "
                     "\"Updating the hub's firmware\": mpremote on a new Pico, `cardtable "
                     "hub-update` first on a running hub) and plug it in again")
        else:
            name, version, protocol = (*result.version, "", "", "")[:3]
            if protocol == "1":
                self.add("ok", "hub", f"{where}: {name} {version}, protocol {protocol}")
            else:
                self.add("warn", "hub", f"{where}: {name} {version} speaks protocol "
                         f"{protocol or '?'}; this program speaks protocol 1",
                         "update the hub's firmware from this version's firmware/ folder")
        for place, r in places.items():
            topic = place_name(self.config, place)
            answers = result.answers.get(place)
            if answers is None:
                self.add("fail", topic, f"{r.describe()}: the hub did not list its channels "
                         f"in {self.hub_wait_s:g} s",
                         "unplug the hub and plug it in again, then run the doctor again")
            elif answers:
                cards = result.cards.get(place, ())
                lying = f"; a card lies on it ({', '.join(cards)})" if cards else ""
                self.add("ok", topic, f"{r.describe()}: the reader answers{lying}")
            else:
                self.add("fail", topic, f"{r.describe()}: the reader does not answer",
                         "check this reader's wires to the hub: 3.3 V, GND, SCK (GP18), MOSI "
                         "(GP19), MISO (GP16), RST (GP22) and its chip select, SDA on the "
                         f"board (GP{HUB_CS_PINS[r.channel]}); see firmware/PROTOCOL.md")

    def ensure_readers(self) -> None:
        p = self.parts
        if p.readers is not None or p.open_readers is None:
            return
        try:
            p.readers = p.open_readers()
        except Exception as exc:  # noqa: BLE001 - reported as a finding
            p.errors["readers"] = str(exc)
            self.add("fail", "readers", f"cannot be opened: {exc}",
                     "fix the lines above (SPI, hub), then run the doctor again")
            return
        self.add("ok", "readers", "opened")

    # ----- LEDs, buzzer, display --------------------------------------------------------

    def patterns(self) -> None:
        p = self.parts
        for part, topic in (("display", "display"), ("indicators", "LEDs/buzzer"),
                            ("gpio", "GPIO")):
            if part in p.errors:
                self.add("fail", topic, f"cannot be opened: {p.errors[part]}",
                         _open_fix(part, self.config))
        if p.indicators is not None:
            self.out("  Watch the table: each seat's LED lights in turn, then the status "
                     "LED blinks, then the buzzer plays its four sounds.")
            for i, seat in enumerate(self.config.seats):
                if seat.led is None:
                    continue
                p.indicators.seat_led(i, "on")
                self.sleep(0.5)
                p.indicators.seat_led(i, "off")
            if self.config.leds.status is not None:
                p.indicators.status_led("fast_blink")
                self.sleep(1.0)
                p.indicators.status_led("off")
            if self.config.buzzer.pin is not None:
                for pattern in ("ok", "turn", "error", "match_end"):
                    p.indicators.buzz(pattern)
                    p.indicators.wait_buzzer(3.0)
                    self.sleep(0.3)
            lit = [s.name for s in self.config.seats if s.led is not None]
            self.add("ok", "LEDs/buzzer",
                     f"test pattern played: seat LEDs {', '.join(lit) or 'none'}; "
                     f"status LED {'yes' if self.config.leds.status is not None else 'none'}; "
                     f"buzzer {'yes' if self.config.buzzer.pin is not None else 'none'}",
                     "an LED that stayed dark: check its pin, its resistor and which leg is "
                     "which (the long leg to the GPIO side)")
        if p.display is not None:
            self.display_pattern()

    def display_pattern(self) -> None:
        d = self.parts.display
        for image in pattern_frames(d.size, self.config):
            d.show(image)
            self.sleep(1.0)
        if getattr(d, "healthy", True):
            self.add("ok", "display", f"test pattern sent ({d.size[0]}x{d.size[1]}): a frame, "
                     "a checkerboard, then the seat names",
                     "nothing on the screen? check VCC/GND, and the address with "
                     "`i2cdetect -y 1`")
        else:
            self.add("fail", "display", f"writing failed: {getattr(d, 'last_error', '')}",
                     "check SDA/SCL (or the SPI wires), power, and [display] i2c_address: "
                     "`i2cdetect -y 1` shows the address the screen answers at")

    # ----- live reads ---------------------------------------------------------------------

    def live_reads(self) -> None:
        readers = self.parts.readers
        if readers is None:
            self.add("fail", "read test", "the readers could not be opened: "
                     + self.parts.errors.get("readers", "unknown reason"),
                     "fix the lines above, then run the doctor again")
            return
        events: queue.Queue[Any] = queue.Queue()
        readers.start(events.put)
        places = list(range(len(self.config.seats))) + (
            [DEALER] if self.config.dealer is not None else [])
        try:
            for place in places:
                self._read_one(place, events)
        finally:
            readers.stop()

    def _collect(self, events: queue.Queue[Any], until: float) -> Iterator[Any]:
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return
            try:
                yield events.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue

    def _read_one(self, place: int, events: queue.Queue[Any]) -> None:
        name = place_name(self.config, place)
        reader = self.config.readers_by_place()[place]
        self.out(f"  Put one card on {name} ({reader.describe()}) and leave it there...")
        first: CardArrived | None = None
        offline: dict[int, str] = {}
        for ev in self._collect(events, time.monotonic() + self.wait_s):
            if isinstance(ev, CardArrived):
                first = ev
                break
            if isinstance(ev, ReaderOffline):
                offline[ev.seat] = ev.detail
        if first is None:
            for p, detail in offline.items():
                self.add("fail", place_name(self.config, p),
                         f"reader offline{': ' + detail if detail else ''}",
                         "check its wires and power")
            self.add("fail", name, f"read nothing in {self.wait_s:g} s",
                     "check the reader's wires, and that the card has a sticker (a card the "
                     "table knows reads on any reader)")
            return
        seen = {first.seat}
        for ev in self._collect(events, time.monotonic() + self.settle_s):
            if isinstance(ev, CardArrived) and ev.uid == first.uid:
                seen.add(ev.seat)
        others = sorted((p for p in seen if p != place), key=lambda p: (p == DEALER, p))
        other_names = ", ".join(place_name(self.config, p) for p in others)
        if place not in seen:
            self.add("fail", name, f"the card put here (UID {first.uid}) was read by "
                     f"{other_names} instead",
                     "the readers are swapped: fix the wiring or the readers in the "
                     "configuration")
        elif others:
            self.add("warn", name, f"reads UID {first.uid}, but {other_names} saw the same "
                     "card (crosstalk)",
                     "move the readers further apart (at least 20 cm between antenna "
                     "centres), or lower the card's reading distance; see docs/hardware.md")
        else:
            self.add("ok", name, f"reads UID {first.uid}, and no other reader saw it")
        self.out("  Now take the card away.")
        for ev in self._collect(events, time.monotonic() + self.wait_s):
            if isinstance(ev, CardLeft) and ev.uid == first.uid and ev.seat == first.seat:
                break
            if isinstance(ev, ReaderBack):
                continue


def _open_fix(part: str, config: Config) -> str:
    if part == "display":
        if config.display.interface == "i2c":
            return (f"enable I2C (dtparam=i2c_arm=on in {CONFIG_TXT}) and check "
                    "[display] i2c_port and i2c_address")
        return f"enable SPI (dtparam=spi=on in {CONFIG_TXT}) and check [display]"
    if part == "gpio":
        return "install the pi extra (pip install 'cardtable[pi]'): gpiozero and lgpio"
    return "another program may hold these pins: sudo systemctl stop cardtable"


def pattern_frames(size: tuple[int, int], config: Config) -> list[Any]:
    """A border with the size written in it, a checkerboard (every pixel
    toggles), and the seat names, as mode "1" images."""
    from PIL import Image, ImageDraw

    w, h = size
    frame = Image.new("1", size, 0)
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, 0, w - 1, h - 1), outline=1)
    draw.text((4, 4), "cardtable", fill=1)
    draw.text((4, 16), f"doctor {w}x{h}", fill=1)
    checker = Image.new("1", size, 0)
    px = checker.load()
    assert px is not None  # an image made in memory is loaded
    for y in range(h):
        for x in range(w):
            px[x, y] = 1 if (x // 8 + y // 8) % 2 == 0 else 0
    names = Image.new("1", size, 0)
    draw = ImageDraw.Draw(names)
    for i, seat in enumerate(config.seats):
        draw.text((4 + (i % 2) * (w // 2), 2 + (i // 2) * 12), f"{i}: {seat.name}", fill=1)
    return [frame, checker, names]


def _hex(values: list[int]) -> str:
    return " ".join(f"{v:02X}" for v in values)


MARK: dict[str, str] = {"ok": "OK  ", "warn": "WARN", "fail": "FAIL", "info": "--  "}


def format_finding(f: Finding) -> str:
    line = f"{MARK[f.status]}  {f.topic}: {f.text}"
    if f.fix and f.status in ("warn", "fail"):
        line += f"\n      -> {f.fix}"
    return line


def summary(findings: list[Finding]) -> str:
    fails = [f for f in findings if f.status == "fail"]
    warns = [f for f in findings if f.status == "warn"]
    if not fails and not warns:
        return "All checks passed: the table is ready (sudo systemctl start cardtable)."
    lines = [f"{len(fails)} problem{'s' if len(fails) != 1 else ''}, "
             f"{len(warns)} warning{'s' if len(warns) != 1 else ''}. What to do, in order "
             "(later problems often go away with the first):"]
    for n, f in enumerate(fails + warns, 1):
        lines.append(f"  {n}. {f.topic}: {f.text}")
        if f.fix:
            lines.append(f"     {f.fix}")
    return "\n".join(lines)
