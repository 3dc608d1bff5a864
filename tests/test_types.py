"""`mypy --strict` over the three packages ([tool.mypy] in pyproject.toml),
and every `type: ignore` names its error code and says why."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "table", "hw_mocks")


@pytest.fixture(scope="module")
def mypy_report() -> str:
    """One run over the three packages (mypy's cache, .mypy_cache, makes later runs fast)."""
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", *PACKAGES],
                         capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert out.returncode in (0, 1), out.stdout + out.stderr   # 2: mypy itself failed
    return out.stdout


@pytest.mark.parametrize("package", PACKAGES)
def test_mypy_strict_is_clean(mypy_report, package):
    errors = [line for line in mypy_report.splitlines()
              if line.startswith(package + "/") and ": error:" in line]
    assert errors == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_type_ignore_has_its_code_and_a_reason(package):
    bare = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if "micropython_side" in path.parts:
            continue  # MicroPython code, outside mypy (its exclude in pyproject.toml)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "type: ignore" in line and not re.search(r"type: ignore\[[-a-z, ]+\]  # \S", line):
                bare.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert bare == []
