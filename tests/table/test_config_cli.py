"""`cardtable config check|show` as a person runs them."""

from __future__ import annotations

from pathlib import Path

from table.cli import main
from table.config import ConfigError, load, loads

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "config.toml"


def test_check_a_good_file_says_so_and_summarises_the_table(capsys):
    assert main(["config", "check", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert f"{EXAMPLE}: no mistakes" in out
    assert "4 seats, play goes anticlockwise: 1, 4, 3, 2" in out
    assert "seat 4: reader SPI1 CE1, LED GPIO23" in out
    assert "dealer: reader SPI1 CE2" in out


def test_check_prints_every_mistake_exactly_as_loading_refuses(tmp_path, capsys):
    f = tmp_path / "config.toml"
    f.write_text('[table]\nlanguage = "fr"\n[buttons]\nok = 6\n')
    assert main(["config", "check", str(f)]) == 1
    err = capsys.readouterr().err
    try:
        load(f)
    except ConfigError as exc:
        assert err == str(exc) + "\n"
    assert err == (f"{f}: 2 mistakes:\n"
                   '  table.language: must be one of "en", "ro", "hu", not "fr"\n'
                   "  buttons.ok: GPIO 6 is also used by buttons.undo (default)\n")


def test_check_uses_the_environment_when_no_path_is_given(tmp_path, capsys, monkeypatch):
    f = tmp_path / "c.toml"
    f.write_text("[display]\nrotate = 5\n")
    monkeypatch.setenv("CARDTABLE_CONFIG", str(f))
    assert main(["config", "check"]) == 1
    assert "display.rotate: must be one of 0, 1, 2, 3, not 5" in capsys.readouterr().err


def test_check_a_missing_file(tmp_path, capsys):
    assert main(["config", "check", str(tmp_path / "none.toml")]) == 1
    assert "(file): no such file" in capsys.readouterr().err


def test_show_fills_every_default_and_reads_back(tmp_path, capsys):
    f = tmp_path / "c.toml"
    f.write_text('[table]\nlanguage = "ro"\ndirection = "clockwise"\n')
    assert main(["config", "show", str(f)]) == 0
    out = capsys.readouterr().out
    assert 'language = "ro"' in out and "i2c_address = 0x3C" in out and "match_length = 0" in out
    assert loads(out) == load(f).__class__(**{**load(f).__dict__, "source": None})
