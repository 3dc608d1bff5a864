"""The import rules of DESIGN.md as import-linter contracts ([tool.importlinter]
in pyproject.toml): one test per contract, showing what breaks it.

Run by hand with `lint-imports` from the checkout."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
    "contracts"]

#: The rules the house must keep, by contract id (a contract missing from
#: pyproject.toml fails here, not silently).
EXPECTED = {"layers", "table-without-fakes", "hardware-in-drivers", "engine-pure",
            "engine-core-without-games", "engine-acyclic", "games-independent"}


@pytest.fixture(scope="module")
def report() -> str:
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
                               " sys.exit(lint_imports_command())", "--no-cache"],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "Contracts:" in out.stdout, out.stdout + out.stderr
    return out.stdout


def test_every_rule_is_a_contract():
    assert {c["id"] for c in CONTRACTS} == EXPECTED


@pytest.mark.parametrize("contract", CONTRACTS, ids=[c["id"] for c in CONTRACTS])
def test_contract_is_kept(report, contract):
    # the summary line may be wrapped at 80 columns: match the words, not the lines
    words = re.sub(r"\s+", " ", report)
    name = re.sub(r"\s+", " ", contract["name"])
    status = re.search(re.escape(name) + r" (KEPT|BROKEN)", words)
    assert status is not None, report
    if status.group(1) == "BROKEN":
        broken = report.split("Broken contracts", 1)[-1]
        pytest.fail(f"{contract['name']}: BROKEN\n{broken}")


def test_a_forbidden_import_breaks_its_contract(tmp_path):
    """The contracts are live: a module of the table that imports the fakes
    or a hardware library is caught (checked on a copy of the packages)."""
    for package in ("engine", "table", "hw_mocks"):
        subprocess.run(["cp", "-r", str(ROOT / package), str(tmp_path / package)], check=True)
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "table" / "sneaky.py").write_text(
        "from typing import TYPE_CHECKING\n\nimport spidev\n\n"
        "if TYPE_CHECKING:\n    from hw_mocks.table import MockTable\n")
    out = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, '.'); "
                               "from importlinter.cli import lint_imports_command;"
                               " sys.exit(lint_imports_command())",
         "--no-cache", "--contract", "table-without-fakes", "--contract", "hardware-in-drivers"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "table.sneaky -> hw_mocks.table (l.6)" in out.stdout
    assert "table.sneaky -> spidev (l.3)" in out.stdout


def test_every_game_package_is_in_the_independence_contract():
    """A new game's package must join `games-independent`, or nothing stops it
    importing another game."""
    games = {f"engine.games.{p.name}" for p in (ROOT / "engine" / "games").iterdir()
             if (p / "__init__.py").exists()}
    contract = next(c for c in CONTRACTS if c["id"] == "games-independent")
    assert set(contract["modules"]) == games


def test_a_game_importing_another_breaks_the_independence_contract(tmp_path):
    """Filkó reaching into Filicău's rules (as its Romanian scoring once did)
    is caught (checked on a copy of the packages)."""
    for package in ("engine", "table", "hw_mocks"):
        subprocess.run(["cp", "-r", str(ROOT / package), str(tmp_path / package)], check=True)
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "engine" / "games" / "filko" / "sneaky.py").write_text(
        "from engine.games.filicau.rules import FilicauState\n")
    out = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, '.'); "
                               "from importlinter.cli import lint_imports_command;"
                               " sys.exit(lint_imports_command())",
         "--no-cache", "--contract", "games-independent"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "engine.games.filko.sneaky -> engine.games.filicau.rules (l.1)" in out.stdout
