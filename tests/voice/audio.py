"""Looking at the sound files the voice produced (with sox, a real program)."""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

from tests.system_programs import require_program


def duration(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / w.getframerate()


def rms(path: Path) -> float:
    """The RMS amplitude (0..1) sox measures over the whole file."""
    sox = require_program("sox")
    out = subprocess.run([sox, str(path), "-n", "stat"], capture_output=True, text=True,
                         check=True).stderr
    line = next(ln for ln in out.splitlines() if ln.startswith("RMS     amplitude"))
    return float(line.split(":")[1])


def samples(path: Path) -> bytes:
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes())
