"""The code base is `ruff` clean, and the engine stays pure."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STDLIB = set(sys.stdlib_module_names)


def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    proc = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_engine_imports_only_the_standard_library_and_itself():
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in STDLIB and top != "engine":
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders


def test_the_engine_does_no_io_and_reads_no_clock():
    forbidden = {"open", "print", "input"}
    forbidden_modules = {"time", "datetime", "os", "io", "socket", "subprocess", "pathlib",
                         "sqlite3", "threading"}
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in forbidden:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id}()")
            if isinstance(node, ast.Import | ast.ImportFrom):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                for m in mods:
                    if m.split(".")[0] in forbidden_modules:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {m}")
    assert not offenders


def test_only_table_drivers_import_hardware_libraries():
    hardware = {"gpiozero", "mfrc522", "luma", "serial", "RPi", "spidev", "lgpio", "smbus2"}
    offenders = []
    for folder in ("engine", "table"):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if rel.parts[:2] == ("table", "drivers"):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    mods = [a.name for a in node.names] if isinstance(node, ast.Import) \
                        else [node.module or ""]
                    for m in mods:
                        if m.split(".")[0] in hardware:
                            offenders.append(f"{rel}:{node.lineno} {m}")
    assert not offenders


def test_importing_table_pulls_in_no_hardware_library():
    code = ("import sys, table, table.cli, table.ports, table.referee; "
            "bad = [m for m in ('gpiozero', 'mfrc522', 'luma', 'serial', 'RPi', 'spidev') "
            "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
