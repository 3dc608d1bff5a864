"""What docs/setup.md says about the doctor's read test is what it does:
at a terminal it runs unless --no-live; from a script it is skipped unless
--live."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "config.toml"


@pytest.mark.parametrize("tty, flag, runs", [(True, None, True), (True, "--no-live", False),
                                             (False, None, False), (False, "--live", True)])
def test_the_read_test_at_a_terminal_and_from_a_script(tty, flag, runs, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin.isatty", lambda: tty)
    args = ["doctor", "--hardware", "mock", "--quick", "--wait", "0.05",
            "--config", str(EXAMPLE)] + ([flag] if flag else [])
    status = main(args)
    out = capsys.readouterr().out
    if runs:
        # nobody puts a card on the fake readers: every seat reads nothing
        assert "Put one card on seat 1" in out and "FAIL  seat 1: read nothing" in out
        assert status == 1
    else:
        assert "Put one card on" not in out
        assert "live read test skipped" in out
        assert status == 0
    text = " ".join((ROOT / "docs" / "setup.md").read_text().split())
    assert "Typed at a terminal it always does the read test; add `--no-live` to skip it" \
        in text
    assert "it skips the read test unless you add `--live`" in text
