"""`cardtable review EXPORT`: the report a person reads, and bad input."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from engine import get_game
from table.cli import main

EXAMPLE = Path(__file__).parents[2] / "examples" / "referee" / "filicau_hand.jsonl"


def _export(tmp_path: Path, seed: int = 3) -> Path:
    """A Filicău hand in the referee protocol, played by random legal cards,
    its new_hand as `cardtable export` writes it."""
    g = get_game("filicau")
    rng = random.Random(seed)
    dealt = g.deal(rng, 3)
    deal = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
    lines: list[dict[str, object]] = [{
        "op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 3},
        "shown": [c.code for c in dealt.shown],
        "hands": [[c.code for c in h] for h in dealt.hands]}]
    while not deal.finished:
        seat = deal.turn
        c = rng.choice(list(deal.legal_cards()))
        deal.play(seat, c)
        lines.append({"op": "play", "seat": seat, "card": c.code})
    path = tmp_path / "match.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_the_example_hand_is_reviewed_card_by_card(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    assert main(["review", str(EXAMPLE), "--budget", "0"]) == 0
    out, err = capsys.readouterr()
    assert "Hand 1 · Filicău" in out
    assert "Played: 5–3" in out  # the example hand ends 5–3 (see docs/referee.md)
    rows = [ln for ln in out.splitlines() if ln[:3].strip().isdigit()]
    assert len(rows) == 32
    # seats as people count them: the teams by their seats, seats 1..4 in the rows
    assert "teams 1+3 and 2+4" in out
    assert {ln.split()[2] for ln in rows} == {"1", "2", "3", "4"}
    assert "Cards that cost the hand:" in out
    # The example's refused play (line 7) is reported, not fatal.
    assert "line 7" in err


def test_the_fair_view_averages_over_sampled_deals(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = _export(tmp_path)
    assert main(["review", str(path), "--budget", "2", "--jobs", "1", "--samples", "3"]) == 0
    out = capsys.readouterr().out
    rows = [ln for ln in out.splitlines() if ln[:3].strip().isdigit()]
    assert len(rows) == 32
    # Every card with a choice was judged over 3 deals: its average loss, the
    # deal count and the fair best card are on its line.
    fair = [re.search(r"\s(\d+\.\d\d)\s+3\s+([2-9TUOKA][alhb])\s", ln) for ln in rows]
    assert sum(m is not None for m in fair) >= 5
    assert all(float(m.group(1)) >= 0 for m in fair if m is not None)


def test_a_file_that_cannot_be_read_is_a_clear_error(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert main(["review", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_file_without_a_hand_says_so(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text("not json\n{\"op\": \"games\"}\n", encoding="utf-8")
    assert main(["review", str(path), "--budget", "0"]) == 1
    err = capsys.readouterr().err
    assert "line 1: not JSON" in err
    assert "no hand to review" in err


def test_bad_options_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(EXAMPLE), "--budget", "-1"]) == 2
    assert "--budget" in capsys.readouterr().err


def test_a_play_gets_its_share_of_the_hands_budget_and_one_deal_at_least() -> None:
    import time

    from engine.analysis.review import record_of
    from table.commands.review import HOWS, _sample_task

    g = get_game("filicau")
    rng = random.Random(5)
    dealt = g.deal(rng, 3)
    deal = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
    while not deal.finished:
        deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
    record = record_of(deal)
    index = len(record.plays) - 8  # two tricks from the end: quick deals
    # The hand's deadline already past: one deal all the same.
    i, loss, solved, best = _sample_task((record, index, 1, 50, time.monotonic() - 1.0, 1, 2,
                                          "fast", None))
    assert (i, solved) == (index, 1) and loss >= 0 and best is not None
    # Time to spare: up to the most deals asked for, and never more.
    for how in HOWS:   # each deal asked the played card's loss, or every card
        _, loss, solved, best = _sample_task((record, index, 1, 6, time.monotonic() + 60.0,
                                              1, 2, how, 3))
        assert solved == 6 and loss >= 0 and best is not None
    # The same deals (one seed), the same loss, whichever the question.
    got = [_sample_task((record, index, 7, 5, time.monotonic() + 60.0, 1, 2, how, 4))
           for how in HOWS]
    assert got[0][:3] == got[1][:3] == got[2][:3]
