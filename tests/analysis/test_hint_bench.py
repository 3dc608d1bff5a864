"""bench/hint_bench.py, small, so the hint's timing cannot rot: its positions
are the ones it says (tricks played, a lead awaited, Fildinsky's end game),
a budget too small for one deal gives no hint, and a run prints a row per
game and position with the baseline check."""

from __future__ import annotations

import random
import sys
from pathlib import Path

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
sys.path.insert(0, BENCH)   # the bench imports its neighbours, for this import only
try:
    import hint_bench
finally:
    sys.path.remove(BENCH)

from engine.analysis.bot import searchable  # noqa: E402
from table.controller.hint import SAMPLES  # noqa: E402


def test_positions_have_the_tricks_played_and_await_a_lead() -> None:
    rng = random.Random(1)
    for game_id, tricks in (("filicau", 3), ("filko5", 0), ("filcau20", 3)):
        deal = hint_bench.position(game_id, tricks, rng)
        assert len(deal.tricks) == tricks and not deal.current_trick
        assert not deal.finished and searchable(deal)
    deal = hint_bench.position("fildinsky", 5, rng)
    assert len(deal.tricks) == deal.game.tricks_per_hand - 8 + 5
    assert deal.context()["stock_empty"] and not deal.current_trick


def test_a_budget_too_small_for_one_deal_gives_no_hint_and_a_late_one_many() -> None:
    rng = random.Random(2)
    deal = hint_bench.position("filicau", 0, rng)
    seconds, deals = hint_bench.table_hint(deal, 1, random.Random(3))
    assert deals == 0 and seconds >= 0
    late = hint_bench.position("filicau", 6, rng)     # two tricks left
    seconds, deals = hint_bench.table_hint(late, 1_000_000, random.Random(3))
    assert deals == SAMPLES and seconds > 0


def test_a_small_run_prints_each_position_and_the_baseline_check(capsys) -> None:
    dearest = hint_bench.main(["--hands", "1", "--games", "filcau20", "--budget", "3000"])
    out = capsys.readouterr().out
    assert "| filcau20 | opening lead |" in out and "| filcau20 | after 3 tricks |" in out
    assert "after 5 tricks" not in out          # a 5-trick hand: nothing left to hint
    assert "the table's hint, 3,000 nodes" in out and "Baseline check:" in out
    assert dearest > 0
