"""The engine benchmark's baseline (bench/engine_bench.py) plays the same
Filicău as the engine, and its check would notice if it did not; main()
prints every row with its ratio. The figures go in the README, not here."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path

import pytest

from engine import get_game

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine_bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("engine_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["engine_bench"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["engine_bench"]


def dealt(n):
    game = get_game("filicau")
    rng = random.Random(4)
    return game, [game.deal(rng, i % 4) for i in range(n)]


def test_the_baseline_agrees_with_the_engine(bench):
    game, deals = dealt(30)
    assert bench.check(game, deals) == 30 * 32


def test_the_check_notices_a_baseline_that_ranks_a_card_wrongly(bench, monkeypatch):
    game, deals = dealt(30)
    wrong = {}
    for trump, t in bench.TABLES.items():
        power = list(t.power)
        oa, ob = bench.SLOT["Oa"], bench.SLOT["Ob"]
        power[oa], power[ob] = power[ob], power[oa]      # Ob above Oa
        wrong[trump] = t._replace(power=tuple(power))
    monkeypatch.setattr(bench, "TABLES", wrong)
    with pytest.raises(bench.Mismatch):
        bench.check(game, deals)


def test_the_check_notices_a_baseline_that_forgets_the_duty_to_trump(bench, monkeypatch):
    game, deals = dealt(30)
    monkeypatch.setattr(bench.BitDeal, "_legal_mask",
                        lambda self: self.hands[self.turn] & self.follow
                        or self.hands[self.turn])
    with pytest.raises(bench.Mismatch, match="may play"):
        bench.check(game, deals)


def test_main_prints_every_row_with_the_ratio_for_the_three_compared(bench, capsys):
    assert bench.main(["--seconds", "0.01", "--repeat", "1", "--deals", "8"]) == 0
    out = capsys.readouterr().out
    assert "The baseline agrees with the engine on 8 deals" in out
    rows = [r.split("|")[1:-1] for r in out.splitlines() if re.match(r"\| (plays|new|legal)", r)]
    assert len(rows) == 8
    ratios = [r[3].strip() for r in rows]
    assert all(re.fullmatch(r"\d+\.\d\d", x) for x in ratios[:3])
    assert ratios[3:] == [""] * 5
    verdicts = [r[4].strip() for r in rows]
    assert verdicts[:3] == ["met" if float(x) <= 1.5 else "NOT met" for x in ratios[:3]]
    assert verdicts[3:] == [""] * 5
