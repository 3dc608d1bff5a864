"""Hardware backends and extra commands chosen by name through entry points
(table/backends.py): the table finds `pi` and `mock` among the installed
packages, never by importing hw_mocks, and says clearly when one is missing."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from hw_mocks.backend import MockBackend
from table.backends import (
    COMMANDS_GROUP,
    HARDWARE_GROUP,
    BackendError,
    BackendNotInstalled,
    backend_names,
    extra_commands,
    load_backend,
)
from table.cli import build_parser, main
from table.config import loads
from table.drivers.backend import PiBackend

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_entry_points_are_those_of_pyproject():
    """Entry points come from the installed metadata: an installation older
    than pyproject.toml (reinstall with pip install -e '.[test]') fails here
    first, with the difference shown."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    for group in (HARDWARE_GROUP, COMMANDS_GROUP):
        installed = {ep.name: ep.value for ep in entry_points(group=group)}
        assert installed == declared[group], f"reinstall cardtable: {group} differs"


def test_both_backends_are_found_by_name():
    assert backend_names() == ["mock", "pi"]
    assert isinstance(load_backend("mock"), MockBackend)
    assert isinstance(load_backend("pi"), PiBackend)


def test_an_unknown_backend_is_a_clear_error_naming_the_installed_ones(capsys):
    with pytest.raises(BackendNotInstalled, match=r"no hardware backend 'pc' is installed "
                                                  r"\(installed: mock, pi\)"):
        load_backend("pc")
    assert main(["run", "--hardware", "pc"]) == 2
    assert "cardtable run: no hardware backend 'pc' is installed" in capsys.readouterr().err
    assert main(["doctor", "--hardware", "pc"]) == 2
    assert "cardtable doctor: no hardware backend 'pc' is installed" in \
        capsys.readouterr().err


def test_without_the_fakes_mock_and_sim_are_gone_with_a_clear_error(monkeypatch, capsys,
                                                                    tmp_path):
    """hw_mocks absent (entry points left by an older installation): the
    mock backend is not installed, and the sim command is not offered."""
    for name in [n for n in sys.modules if n == "hw_mocks" or n.startswith("hw_mocks.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "hw_mocks", None)
    with pytest.raises(BackendNotInstalled, match="the fakes come with cardtable's hw_mocks"):
        load_backend("mock")
    assert extra_commands() == []
    assert main(["run", "--hardware", "mock", "--state", str(tmp_path / "s")]) == 2
    assert "no hardware backend 'mock' is installed" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["sim"])
    assert "invalid choice: 'sim'" in capsys.readouterr().err


def test_sim_is_registered_by_hw_mocks():
    names = sorted(name for name, _ in extra_commands())
    assert names == ["club-sim", "sim"]
    args = build_parser().parse_args(["sim", "--demo", "--headless"])
    assert args.handler.__module__ == "hw_mocks.simulator.command"


def test_the_real_hardware_plays_no_events_file_and_the_fakes_run_no_configured_table():
    with pytest.raises(BackendError, match="events files play fake hardware"):
        PiBackend().fake_table(4, True, (128, 64))
    with pytest.raises(BackendError, match="the mock hardware does not run a configured"):
        MockBackend().open_ports(loads(""))


def test_the_mock_backend_gives_a_fake_table_and_doctor_parts():
    table = load_backend("mock").fake_table(4, False, (128, 32))
    try:
        assert len(table.readers.places) == 4
        assert table.display.size == (128, 32)
    finally:
        table.close()
    parts = load_backend("mock").doctor_parts(loads(""))
    try:
        assert parts.readers is not None and parts.indicators is not None
    finally:
        parts.close()


def test_the_product_loads_no_fake_and_no_hardware_library_on_its_own():
    """Starting the command line and choosing the pi backend imports neither
    hw_mocks' fakes nor a hardware library (only the sim command's module,
    and its options, registered by hw_mocks, are loaded to build the parser)."""
    code = (
        "import sys\n"
        "from table.cli import build_parser\n"
        "from table.backends import load_backend\n"
        "build_parser(); load_backend('pi')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('gpiozero', 'RPi', 'spidev', 'mfrc522', 'serial', 'luma', 'smbus2', 'lgpio')"
        " or (m.startswith('hw_mocks') and m not in "
        "('hw_mocks', 'hw_mocks.simulator', 'hw_mocks.simulator.command',"
        " 'hw_mocks.simulator.club_command',"
        " 'hw_mocks.simulator.cli')))\n"
        "print(bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_backend_of_another_installed_package_is_found_by_name(tmp_path):
    """cardtable's own entry points are read first (one package's metadata,
    cheap at start-up); a name it does not have is looked for in every
    installed package's."""
    dist = tmp_path / "club_panel-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: club-panel\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[cardtable.hardware]\npanel = club_panel:Panel\n")
    (tmp_path / "club_panel.py").write_text(
        "from table.backends import Backend\n"
        "class Panel(Backend):\n    name = 'panel'\n")
    code = ("from table.backends import backend_names, load_backend\n"
            "print(backend_names(), type(load_backend('panel')).__name__,"
            " type(load_backend('pi')).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["['mock',", "'panel',", "'pi']", "Panel", "PiBackend"]


def test_cardtables_own_entry_points_are_read_as_importlib_metadata_reads_them():
    """`own_entry_points` (entry_points.txt read straight, for a quick
    start) finds the same distribution and the same entry points as
    importlib.metadata, for every group cardtable has."""
    from importlib.metadata import distribution

    from table.backends import DISTRIBUTION, own_entry_points

    dist = distribution(DISTRIBUTION)
    for group in (HARDWARE_GROUP, COMMANDS_GROUP, "console_scripts"):
        want = sorted((ep.name, ep.value) for ep in dist.entry_points.select(group=group))
        got = own_entry_points(group)
        assert got is not None and want
        assert sorted((ep.name, ep.value) for ep in got) == want
    assert own_entry_points("cardtable.nothing") == []


def test_run_finds_its_backend_without_importlib_metadata():
    code = ("import sys\n"
            "from table.backends import load_backend\n"
            "backend = load_backend('mock'); load_backend('pi')\n"
            "print(type(backend).__name__, 'importlib.metadata' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.stdout.split() == ["MockBackend", "False"], out.stderr


def test_without_cardtables_metadata_the_backends_are_looked_for_everywhere(monkeypatch,
                                                                            tmp_path):
    """No metadata found, unreadable, or one without the name: the backend is
    still found, through importlib.metadata over every installed package."""
    import table.backends as backends

    monkeypatch.setattr(backends, "_own_metadata", lambda: None)
    assert backends.own_entry_points(HARDWARE_GROUP) is None
    assert isinstance(load_backend("pi"), PiBackend)
    stale = tmp_path / "cardtable-0.0.1.dist-info"
    stale.mkdir()
    (stale / "entry_points.txt").write_text("# an older installation\n[cardtable.hardware]\n"
                                            "pc = table.nothing:Nothing\n")
    monkeypatch.setattr(backends, "_own_metadata", lambda: str(stale))
    assert [ep.name for ep in backends.own_entry_points(HARDWARE_GROUP) or []] == ["pc"]
    assert isinstance(load_backend("mock"), MockBackend)
    monkeypatch.setattr(backends, "_own_metadata", lambda: str(tmp_path / "gone.dist-info"))
    assert backends.own_entry_points(HARDWARE_GROUP) == []
    assert isinstance(load_backend("pi"), PiBackend)


def test_the_fake_display_shows_the_first_frame_and_becomes_the_fake_tables():
    backend = load_backend("mock")
    display = backend.fake_display((128, 32))
    table = backend.fake_table(4, False, (128, 32), display=display)
    try:
        assert table.display is display
    finally:
        table.close()
    with pytest.raises(ValueError, match=r"the display given is \(128, 32\), the screen"):
        backend.fake_table(4, False, (128, 64), display=display)
    with pytest.raises(BackendError, match="the pi hardware has no fake display"):
        PiBackend().fake_display((128, 64))
