"""The hub firmware under either interpreter: CPython (the firmware's modules
imported here, hw_mocks.mfrc522.pico's fake `machine`) or the real
MicroPython (hw_mocks.micropython_pico: the same emulated readers, the
firmware running in the `micropython` interpreter). `make_hub` gives a hub
and its port with the same face either way."""

from __future__ import annotations

from hw_mocks.mfrc522.pico import build_hub, load_firmware
from hw_mocks.micropython_pico import MicroPythonPico

FW = load_firmware()
INTERPRETERS = ("cpython", "micropython")


class Port:
    """The hub's port under CPython."""

    def __init__(self):
        self.inbox = b""
        self.out = b""

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.out += data

    def lines(self):
        lines = self.out.decode().splitlines()
        self.out = b""
        return lines


class RemotePort:
    """The hub's port (a MemoryPort) inside MicroPython."""

    def __init__(self, pico):
        self.pico = pico

    @property
    def inbox(self):
        return self.pico.eval("port.inbox")

    @inbox.setter
    def inbox(self, data):
        self.pico.exec(f"port.inbox = {bytes(data)!r}")

    def lines(self):
        return self.pico.eval("port.take()").decode().splitlines()


class RemoteHub:
    """The firmware's Hub inside MicroPython: methods run there, attributes
    are read from there."""

    def __init__(self, pico):
        self.pico = pico

    def boot(self):
        self.pico.exec("h.boot()")

    def step(self):
        self.pico.exec("h.step()")

    def __getattr__(self, name):
        return self.pico.eval(f"h.{name}")


def make_hub(interpreter, board, request, **options):
    """(hub, port) for `board`, under `interpreter`."""
    if interpreter == "cpython":
        port = Port()
        return build_hub(board, port, FW, **options), port
    pico = MicroPythonPico(board)
    request.addfinalizer(pico.close)
    extra = "".join(f", {k}={v!r}" for k, v in options.items())
    pico.exec(f"port = MemoryPort(); h = build_hub({len(board.readers)}, port{extra})")
    hub = RemoteHub(pico)
    return hub, RemotePort(pico)
