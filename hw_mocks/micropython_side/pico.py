# Runs under MicroPython (the unix port), never under CPython: a Raspberry Pi
# Pico for the hub firmware. `machine` and `time` are fakes whose SPI, pins,
# clock and watchdog are served by the CPython test process over a pair of
# pipes (hw_mocks/micropython_pico.py); everything else (`sys`, `select`,
# `micropython`, the interpreter itself) is MicroPython's own, and the
# process's stdin/stdout are the Pico's USB serial.
#
#     micropython pico.py <fd from host> <fd to host> <firmware dir>
#
# The host then sends code to run, one request a line ("x" exec, "e" eval,
# hex-encoded); while it runs, the fakes ask the host ("<op> <args>") and
# wait for the answer ("=<value>", or "!" to stop: SystemExit).

import sys

TICKS_PERIOD = 1 << 30  # the Pico's ticks wrap at 2**30 as on every 32-bit port
WDT_MAX_MS = 8388  # RP2040: 0x7FFFFF microseconds


class Link:
    def __init__(self, rfd: int, wfd: int) -> None:
        self.rx = open("/dev/fd/" + str(rfd), "rb")
        self.tx = open("/dev/fd/" + str(wfd), "wb")
        self.pins = []  # output pin changes not yet sent: they go with the next request

    def drive(self, pin: int, level: int) -> None:
        self.pins.append(str(pin) + ":" + str(level))

    def send(self, text: str) -> None:
        self.tx.write((text + "\n").encode())

    def ask(self, op: str, *args: object) -> str:
        words = [op] + [str(a) for a in args]
        if self.pins:  # applied by the host, in order, before `op`
            words.append("|" + ",".join(self.pins))
            self.pins = []
        self.send(" ".join(words))
        line = self.rx.readline()
        if not line:
            raise SystemExit(3)  # the host went away
        text = line.decode().strip()
        if text.startswith("!"):
            raise SystemExit(text[1:] or "stopped by the host")
        if not text.startswith("="):
            raise RuntimeError("bad answer from the host: " + text)
        return text[1:]


LINK = None


def ask(op: str, *args: object) -> str:
    if LINK is None:
        raise RuntimeError("no host")
    return LINK.ask(op, *args)


def drive(pin: int, level: int) -> None:
    if LINK is None:
        raise RuntimeError("no host")
    LINK.drive(pin, level)


# ----- machine ---------------------------------------------------------------------


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin: int, mode: int = -1, pull: int = -1, value: object = None) -> None:
        if not isinstance(pin, int) or not 0 <= pin <= 29:
            raise ValueError("invalid pin")
        self.pin = pin
        self.mode = mode
        if mode == Pin.OUT:
            drive(pin, 1 if value else 0)

    def value(self, level: object = None) -> object:
        if level is None:
            return int(ask("G", self.pin))
        if self.mode != Pin.OUT:
            raise OSError("pin " + str(self.pin) + " is not an output")
        drive(self.pin, 1 if level else 0)
        return None

    __call__ = value

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)


class SPI:
    def __init__(self, spi_id: int, baudrate: int = 1000000, polarity: int = 0,
                 phase: int = 0, bits: int = 8, firstbit: int = 0, sck: object = None,
                 mosi: object = None, miso: object = None) -> None:
        if spi_id not in (0, 1):
            raise ValueError("SPI(" + str(spi_id) + ") doesn't exist")
        if polarity or phase:
            raise ValueError("the MFRC522 needs SPI mode 0")
        self.spi_id = spi_id
        self.baudrate = baudrate

    def write_readinto(self, out: bytes, into: bytearray) -> None:
        if len(out) != len(into):
            raise ValueError("buffers must be the same length")
        back = bytes.fromhex(ask("X", self.spi_id, self.baudrate, bytes(out).hex()))
        for i in range(len(into)):
            into[i] = back[i]

    def write(self, out: bytes) -> None:
        ask("X", self.spi_id, self.baudrate, bytes(out).hex())

    def read(self, count: int, fill: int = 0) -> bytes:
        return bytes.fromhex(ask("X", self.spi_id, self.baudrate, bytes([fill] * count).hex()))


class WDT:
    def __init__(self, id: int = 0, timeout: int = 5000) -> None:  # noqa: A002 (machine's name)
        if not 1 <= timeout <= WDT_MAX_MS:
            raise ValueError("timeout out of range")
        ask("W", timeout)

    def feed(self) -> None:
        ask("F")


class Machine:
    """The fake `machine` module."""

    PWRON_RESET = 1
    WDT_RESET = 3
    Pin = Pin
    SPI = SPI
    WDT = WDT

    def reset_cause(self) -> int:
        return int(ask("C"))

    def reset(self) -> None:
        ask("R")
        raise SystemExit("machine.reset()")

    def soft_reset(self) -> None:
        ask("R")
        raise SystemExit("machine.soft_reset()")

    def bootloader(self, delay: int = 0) -> None:
        ask("B")
        raise SystemExit("machine.bootloader()")

    def unique_id(self) -> bytes:
        return b"\xe6\x61\x38\x05\x4b\x1c\x2a\x2f"

    def freq(self) -> int:
        return 125000000


# ----- time ------------------------------------------------------------------------


class Time:
    """The fake `time` module: ticks and sleeps on the host's virtual clock."""

    def ticks_ms(self) -> int:
        return int(ask("T", 1000)) % TICKS_PERIOD

    def ticks_us(self) -> int:
        return int(ask("T", 1000000)) % TICKS_PERIOD

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) % TICKS_PERIOD

    def ticks_diff(self, a: int, b: int) -> int:
        half = TICKS_PERIOD // 2
        return ((a - b + half) % TICKS_PERIOD) - half

    def sleep_us(self, us: int) -> None:
        ask("S", int(us))

    def sleep_ms(self, ms: int) -> None:
        ask("S", int(ms) * 1000)

    def sleep(self, seconds: float) -> None:
        ask("S", int(seconds * 1000000))


# ----- what the tests build on the Pico --------------------------------------------


class MemoryPort:
    """A hub port in memory: `inbox` is read once, `out` collects what is written."""

    def __init__(self) -> None:
        self.inbox = b""
        self.out = bytearray()

    def read(self) -> bytes:
        data = self.inbox
        self.inbox = b""
        return data

    def write(self, data: bytes) -> None:
        self.out += data

    def take(self) -> bytes:
        data = bytes(self.out)
        self.out = bytearray()
        return data


class Config:
    pass


def config(channels: int, **overrides: object) -> Config:
    """hubconfig with the first `channels` chip selects (and `overrides`)."""
    import hubconfig  # type: ignore[import-not-found]  # the firmware's, on the Pico

    out = Config()
    for name in dir(hubconfig):
        if name.isupper():
            setattr(out, name, getattr(hubconfig, name))
    out.CS_PINS = tuple(hubconfig.CS_PINS)[:channels]  # type: ignore[attr-defined]
    for name in overrides:
        setattr(out, name.upper(), overrides[name])
    return out


def build_hub(channels: int, port: object, **overrides: object) -> object:
    import cardhub  # type: ignore[import-not-found]

    return cardhub.build(sys.modules["machine"], sys.modules["time"],
                         config(channels, **overrides), port)


# ----- the request loop ------------------------------------------------------------


def _describe(exc: BaseException) -> str:
    import io

    text = io.StringIO()
    sys.print_exception(exc, text)  # type: ignore[attr-defined]
    return text.getvalue()


def serve(link: Link) -> None:
    namespace = {"MemoryPort": MemoryPort, "config": config, "build_hub": build_hub}
    while True:
        line = link.rx.readline()
        if not line:
            return
        op = line[:1]
        code = bytes.fromhex(line[1:].strip().decode()).decode()
        try:
            if op == b"x":
                exec(code, namespace)
                answer = "D" + repr(None)
            else:
                answer = "D" + repr(eval(code, namespace))
        except BaseException as exc:  # noqa: B036 (reported to the host, which raises)
            answer = "E" + type(exc).__name__ + "\n" + _describe(exc)
        if link.pins:
            link.ask("P")  # the pins as they stand, before the answer
        link.send(answer[:1] + answer[1:].encode().hex())


def main() -> None:
    global LINK
    LINK = Link(int(sys.argv[1]), int(sys.argv[2]))
    sys.modules["machine"] = Machine()  # type: ignore[assignment]
    sys.modules["time"] = Time()  # type: ignore[assignment]
    sys.path.insert(0, sys.argv[3])
    serve(LINK)


main()
