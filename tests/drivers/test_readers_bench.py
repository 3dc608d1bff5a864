"""Smoke test of the readers' benchmark (bench/readers_bench.py): its main()
runs on a tiny workload, prints both drivers side by side and exits 0 (the
targets are met). The figures themselves go in the README, not in tests."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "readers_bench.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("readers_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readers_benchmark_runs_both_drivers_and_exits_0(capsys):
    bench = load_bench()
    assert bench.main(["--cycles", "2", "--stock-cycles", "2"]) == 0
    out = capsys.readouterr().out
    rows = [row.split("|")[1:-1] for row in out.splitlines() if re.match(r"\| \d", row)]
    assert [(r[0].strip(), r[1].strip()) for r in rows] == [
        (n, cards) for n in ("1", "4", "6") for cards in ("none", "still")]
    assert all(float(r[2]) > float(r[4]) for r in rows)  # stock transfers, ours
    # the stock loop with its wait fixed stops at its timer: fewer transfers than
    # as shipped, yet each empty poll still waits for the package's long timer
    empty = [r for r in rows if r[1].strip() == "none"]
    assert all(float(r[3]) < float(r[2]) for r in empty)
    assert all(float(r[9]) > float(r[10]) for r in empty)  # cycle ms: fixed, ours
    assert "(target < 10 ms): met" in out and "(target >= 50): met" in out
    assert "with its wait loop fixed" in out


def test_the_benchmark_refuses_an_odd_stock_cycle_count(capsys):
    bench = load_bench()
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--stock-cycles", "3"])
    assert stopped.value.code == 2
    assert "even" in capsys.readouterr().err
