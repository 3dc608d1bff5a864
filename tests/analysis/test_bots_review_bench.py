"""bench/review_bench.py, small, so the sampled review's timing cannot rot:
the hands it reviews are whole hands, and a fixed number of deals a card
gives every card with a choice exactly that many."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import review_bench  # noqa: E402


def test_a_hand_reviewed_with_two_deals_a_card() -> None:
    [record] = review_bench.hands(1, seed=4)
    assert len(record.plays) == 32  # a whole Filicău hand
    for how in review_bench.HOWS:   # every card valued, every other card asked, and now
        res = review_bench.review_all([record], budget=1e9, samples=2, jobs=1, how=how)
        assert len(res["walls"]) == 1 and res["walls"][0] > 0
        assert res["deals"] and set(res["deals"]) == {2}
        assert res["first"] and set(res["first"]) == {2}
        assert res["cpu"] > 0
