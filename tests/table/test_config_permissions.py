"""A configuration this user may not read (on an installed Pi /etc/cardtable
is 0750, group cardtable): `config check`, `run` and `doctor` say so as a
keyed mistake and name the command to run as the cardtable user, instead of
ending in a traceback.

The tests run as root, who may open anything, so besides `chmod 000` the
folder's paths are made to raise PermissionError as they would for anyone
else (pathlib's stat and open: what `exists()` and `read_text()` call).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import table.config as cfg
from table.cli import main
from table.config import ConfigError, load


@pytest.fixture
def locked(tmp_path, monkeypatch):
    """A folder holding config.toml that this user may not enter."""
    folder = tmp_path / "etc-cardtable"
    folder.mkdir()
    (folder / "config.toml").write_text('[table]\nlanguage = "ro"\n')
    folder.chmod(0o000)
    real_stat, real_open = Path.stat, Path.open

    def inside(path):
        return Path(os.path.abspath(path)).is_relative_to(folder) and Path(
            os.path.abspath(path)) != folder

    def stat(self, *a, **kw):
        if inside(self):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_stat(self, *a, **kw)

    def open_(self, *a, **kw):
        if inside(self):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *a, **kw)

    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(Path, "open", open_)
    monkeypatch.setattr(cfg, "DEFAULT_PATH", folder / "config.toml")
    monkeypatch.delenv("CARDTABLE_CONFIG", raising=False)
    yield folder / "config.toml"
    folder.chmod(0o750)


def expected(file, command):
    return (f"{file}: 1 mistake:\n"
            f"  (file): cannot be read by this user (Permission denied: {file}); "
            f"run as the cardtable user: sudo -u cardtable cardtable {command}")


def test_the_default_file_in_a_closed_folder_is_a_mistake_not_the_defaults(locked):
    with pytest.raises(ConfigError) as info:
        load(None)
    assert str(info.value) == expected(locked, "config check")
    assert info.value.problems[0].key == "(file)"


def test_a_named_file_that_cannot_be_read(locked):
    with pytest.raises(ConfigError) as info:
        load(locked, command="doctor")
    assert str(info.value) == expected(locked, "doctor")


def test_other_read_errors_are_mistakes_too(tmp_path, monkeypatch):
    f = tmp_path / "config.toml"
    f.write_text("")

    def broken(self, *a, **kw):
        raise OSError(errno.EIO, "Input/output error", str(self))

    monkeypatch.setattr(Path, "read_text", broken)
    with pytest.raises(ConfigError) as info:
        load(f)
    assert str(info.value) == (f"{f}: 1 mistake:\n"
                               f"  (file): cannot be read (Input/output error: {f})")


def test_config_check_names_the_command_to_run_instead(locked, capsys):
    assert main(["config", "check"]) == 1
    captured = capsys.readouterr()
    assert captured.err == expected(locked, "config check") + "\n"
    assert "Traceback" not in captured.err and captured.out == ""


def test_config_check_of_a_named_file_repeats_the_name(locked, capsys):
    assert main(["config", "check", str(locked)]) == 1
    assert capsys.readouterr().err == expected(locked, f"config check {locked}") + "\n"


def test_run_refuses_to_start_with_the_same_message(locked, capsys):
    assert main(["run", "--hardware", "pi"]) == 2
    assert capsys.readouterr().err == "cardtable run: " + expected(locked, "run") + "\n"


def test_run_on_the_fakes_with_the_file_named(locked, capsys, tmp_path):
    assert main(["run", "--hardware", "mock", "--config", str(locked),
                 "--state", str(tmp_path / "state")]) == 2
    err = capsys.readouterr().err
    assert err == "cardtable run: " + expected(locked, f"run --config {locked}") + "\n"


def test_doctor_says_it_too(locked, capsys):
    assert main(["doctor", "--hardware", "mock", "--no-live"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(expected(locked, "doctor") + "\n")
    assert "Fix the configuration first" in err


def test_setup_md_shows_what_a_normal_user_gets(locked, capsys, monkeypatch):
    from tests.table.test_config_docs import DOCS, blocks

    shown = next(b for b in blocks((DOCS / "setup.md").read_text(), "")
                 if "cannot be read by this user" in b)
    assert main(["config", "check"]) == 1
    err = capsys.readouterr().err
    assert err.replace(str(locked), "/etc/cardtable/config.toml") == shown
    steps = (DOCS / "setup.md").read_text()
    assert "sudo -u cardtable /opt/cardtable/venv/bin/cardtable config check" in steps
