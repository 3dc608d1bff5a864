"""The table's voice: espeak-ng speaks, aplay plays (or a folder keeps the sound).

`EspeakSpeaker` is a `table.voice.Speaker`. `say()` only queues the
utterance and returns at once: a thread of its own runs
`espeak-ng --stdout` for each one and copies the sound, as it comes, into
its output:

* `AlsaOutput(device)`: `aplay -D <device>` (the Pi's headphone jack, HDMI,
  a USB speaker: `aplay -l` lists them, docs/hardware.md);
* `FolderOutput(folder)`: one WAV file per utterance (tests, the simulator
  without a sound card).

An urgent utterance (a refusal) stops what is being said and drops what
waits. `on_sound(utterance, said_at, first_sample_at)` is called when the
first audio sample of an utterance has been written to the output (the
benchmark's probe; times are `time.monotonic()`). A missing program is
`VoiceError` at start; a failure while speaking is logged and the next
utterance is tried: the voice never stops the table.
"""

from __future__ import annotations

import logging
import os
import queue
import shutil
import struct
import subprocess
import threading
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from table.voice import Utterance

log = logging.getLogger("cardtable.voice")

#: espeak-ng's voice for each of the table's languages.
VOICES = {"en": "en", "ro": "ro", "hu": "hu"}
#: The size of the WAV header espeak-ng writes before the samples.
WAV_HEADER = 44
_CHUNK = 2048


class VoiceError(RuntimeError):
    """The voice cannot start: the message says what to install or change."""


@dataclass(frozen=True)
class WavFormat:
    channels: int
    rate: int
    width: int

    @classmethod
    def parse(cls, header: bytes) -> WavFormat:
        if len(header) < WAV_HEADER or header[:4] != b"RIFF" or header[8:12] != b"WAVE":
            raise ValueError("espeak-ng did not write a WAV header")
        channels, rate = struct.unpack_from("<HI", header, 22)
        bits = struct.unpack_from("<H", header, 34)[0]
        return cls(channels, rate, bits // 8)


class Output(Protocol):
    """Where the sound of one utterance goes."""

    def open(self, utterance: Utterance, fmt: WavFormat, header: bytes) -> Sink: ...


class Sink(Protocol):
    def write(self, samples: bytes) -> None: ...

    def close(self) -> None: ...

    def cut(self) -> None: ...


class AlsaOutput:
    """`aplay -q -D <device>`: the Pi's audio output or a USB speaker."""

    def __init__(self, device: str = "default", aplay: str | None = None) -> None:
        self.device = device
        found = shutil.which(aplay or "aplay")
        if found is None:
            raise VoiceError("aplay is not installed (sudo apt install alsa-utils)")
        self.aplay = found

    def open(self, utterance: Utterance, fmt: WavFormat, header: bytes) -> Sink:
        proc = subprocess.Popen([self.aplay, "-q", "-D", self.device, "-"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        sink = _AplaySink(proc, self.device)
        sink.write(header)
        return sink


class _AplaySink:
    def __init__(self, proc: subprocess.Popen[bytes], device: str) -> None:
        self.proc = proc
        self.device = device

    def write(self, samples: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(samples)
            self.proc.stdin.flush()
        except BrokenPipeError:   # aplay has gone: say why
            self._check(self.proc.wait())
            raise

    def close(self) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self._check(self.proc.wait())

    def _check(self, status: int) -> None:
        if status != 0:
            err = self.proc.stderr.read().decode(errors="replace").strip() \
                if self.proc.stderr else ""
            last = err.splitlines()[-1] if err else "no message"
            raise OSError(f"aplay -D {self.device} failed ({status}): {last}")

    def cut(self) -> None:
        self.proc.kill()
        self.proc.wait()


class FolderOutput:
    """Each utterance as a WAV file in `folder`: `0001-refused-en.wav`, ..."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self.files: list[Path] = []

    def open(self, utterance: Utterance, fmt: WavFormat, header: bytes) -> Sink:
        self.count += 1
        kind = utterance.kind or "say"
        path = self.folder / f"{self.count:04d}-{kind}-{utterance.lang}.wav"
        self.files.append(path)
        w = wave.open(str(path), "wb")
        w.setnchannels(fmt.channels)
        w.setsampwidth(fmt.width)
        w.setframerate(fmt.rate)
        return _WaveSink(w)


class _WaveSink:
    def __init__(self, w: wave.Wave_write) -> None:
        self.w = w

    def write(self, samples: bytes) -> None:
        self.w.writeframes(samples)

    def close(self) -> None:
        self.w.close()

    def cut(self) -> None:
        self.w.close()


OnSound = Callable[[Utterance, float, float], None]


class EspeakSpeaker:
    """See the module docstring. `rate`: words a minute (espeak-ng -s);
    `volume`: 0..200 (espeak-ng -a, 100 is normal)."""

    def __init__(self, output: Output, *, rate: int = 160, volume: int = 100,
                 espeak: str | None = None, on_sound: OnSound | None = None) -> None:
        found = shutil.which(espeak or "espeak-ng")
        if found is None:
            raise VoiceError(f"{espeak or 'espeak-ng'} is not installed "
                             "(sudo apt install espeak-ng)")
        self.espeak = found
        self.output = output
        self.rate = rate
        self.volume = volume
        self.on_sound = on_sound
        self.errors = 0
        self._problem = ""
        self._queue: queue.Queue[tuple[Utterance, float] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._current: tuple[subprocess.Popen[bytes], Sink | None] | None = None
        self._cut = threading.Event()
        # utterances queued or being said: `wait()` returns when none is left
        # (counted, not an idle flag, which the thread could set just as a
        # new utterance arrives)
        self._pending = 0
        self._settled = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="cardtable-voice", daemon=True)
        self._thread.start()

    def command(self, utterance: Utterance) -> list[str]:
        voice = VOICES.get(utterance.lang, "en")
        return [self.espeak, "-v", voice, "-s", str(self.rate), "-a", str(self.volume),
                "--stdout", utterance.text]

    # ----- the caller's side ----------------------------------------------------------

    def say(self, utterance: Utterance) -> None:
        """Queue `utterance` (an urgent one first stops and drops the rest)."""
        if not utterance.text.strip():
            return
        if utterance.urgent:
            self._drop_waiting()
            self._stop_current()
        with self._settled:
            self._pending += 1
        self._queue.put((utterance, time.monotonic()))

    def wait(self, timeout: float = 30.0) -> bool:
        """Wait until everything queued has been said (tests, benchmarks)."""
        with self._settled:
            return self._settled.wait_for(lambda: self._pending == 0, timeout)

    def _settle(self) -> None:
        with self._settled:
            self._pending -= 1
            if self._pending == 0:
                self._settled.notify_all()

    def close(self) -> None:
        self._drop_waiting()
        self._stop_current()
        self._queue.put(None)
        self._thread.join(5.0)

    def _drop_waiting(self) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                self._settle()

    def _stop_current(self) -> None:
        with self._lock:
            current = self._current
            if current is not None:
                self._cut.set()
                proc, sink = current
                proc.kill()
                if sink is not None:
                    sink.cut()

    # ----- the voice's thread -----------------------------------------------------------

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            try:
                self._say_one(*item)
            finally:
                self._settle()

    def _say_one(self, utterance: Utterance, said_at: float) -> None:
        try:
            self._speak(utterance, said_at)
        except Exception as exc:  # noqa: BLE001 - the voice never stops the table
            if self._cut.is_set():   # cut short on purpose (the pipe is gone)
                return
            self.errors += 1
            # said once in the log, not for every sentence while it lasts
            problem = f"{type(exc).__name__}: {exc}"
            level = logging.DEBUG if problem == self._problem else logging.WARNING
            self._problem = problem
            log.log(level, "voice: could not say %r: %s", utterance.text[:40], exc)
            return
        self._problem = ""

    def _speak(self, utterance: Utterance, said_at: float) -> None:
        self._cut.clear()
        # unbuffered: the samples are passed on as soon as espeak-ng writes them
        proc = subprocess.Popen(self.command(utterance), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, bufsize=0)
        with self._lock:
            self._current = (proc, None)
        sink: Sink | None = None
        try:
            assert proc.stdout is not None
            header = _read_exactly(proc.stdout, WAV_HEADER)
            if self._cut.is_set():
                return
            fmt = WavFormat.parse(header)
            sink = self.output.open(utterance, fmt, header)
            with self._lock:
                self._current = (proc, sink)
                if self._cut.is_set():
                    return
            first = True
            while chunk := os.read(proc.stdout.fileno(), _CHUNK):
                if self._cut.is_set():
                    return
                sink.write(chunk)
                if first:
                    first = False
                    if self.on_sound is not None:
                        self.on_sound(utterance, said_at, time.monotonic())
            if self._cut.is_set():
                return
            with self._lock:
                self._current = None
            sink.close()
        finally:
            with self._lock:
                self._current = None
            proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()


def _read_exactly(stream: IO[bytes], n: int) -> bytes:
    data = b""
    while len(data) < n:
        more = stream.read(n - len(data))
        if not more:
            break
        data += more
    return data


def open_speaker(device: str = "default", *, folder: Path | None = None, rate: int = 160,
                 volume: int = 100, on_sound: OnSound | None = None) -> EspeakSpeaker:
    """The speaker of `[voice]`: to the ALSA `device`, or WAV files in `folder`."""
    if shutil.which("espeak-ng") is None:   # said first: without it nothing is said at all
        raise VoiceError("espeak-ng is not installed (sudo apt install espeak-ng)")
    output: Output = FolderOutput(folder) if folder is not None else AlsaOutput(device)
    return EspeakSpeaker(output, rate=rate, volume=volume, on_sound=on_sound)
