"""The fair view of 20-card Filcău knows the calls: every seat's binding call
is heard by all before play, so the review samples only deals that fit them
(`engine.analysis.sampling.FittingDraw`, as the bots draw theirs).

The expected hands are checked with the binding rules (`binding_in`,
`required`), not with the deal's own `hand_fits`; the two played hands below
were dealt at random and played by `SimpleBot` through the engine's flow
(their cards written out here, so that a change to the bot does not change
the case), and their expected losses were found by listing every deal the
player could not tell apart, with and without the calls."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Card, cards, get_game
from engine.analysis import SolverCache, sampling
from engine.analysis.review import (
    FLAG_LOSS,
    CardSampler,
    HandRecord,
    draw_for,
    record_of,
    review_double_dummy,
    sampled_losses,
)
from engine.bots import SimpleBot
from engine.games.filcau20 import Filcau20State
from engine.games.filcau20.binding import binding_in, parse_call, required
from table.cli import main
from table.commands.review import replay, review_hand
from tests.analysis.helpers import bound_deal

GAME = get_game("filcau20")


def _bot_hand(seed: int) -> Any:
    """A hand dealt at random, knocked, bound with random calls among those
    the flow offers, and played by `SimpleBot`; None if nobody bound."""
    rng = random.Random(seed)
    deal = bound_deal(GAME, rng)
    if deal is None:
        return None
    bot = SimpleBot()
    while not deal.finished:
        deal.play(deal.turn, bot.play(deal, deal.turn, deal.hand_of(deal.turn), rng))
    return deal


def _fits_the_calls(record: HandRecord, hands: list[list[Card]], played: list[list[Card]],
                    seat: int) -> None:
    """Every other seat's cards as dealt (played + sampled) make its call."""
    assert record.calls is not None
    for s, call in record.calls.items():
        if s == seat or call in ("pass", "closed"):
            continue
        dealt = [*played[s], *hands[s]]
        binding = parse_call(call)
        assert binding is not None
        assert required(dealt) == binding, (s, call, dealt)
        if s == record.binder:
            assert record.trump is not None
            assert binding_in(dealt, record.trump) == binding, (call, record.trump, dealt)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), where=st.floats(0, 1), draws=st.integers(1, 4),
       tries=st.sampled_from([0, sampling.TRIES]))
def test_every_sampled_deal_of_a_review_fits_the_calls(seed: int, where: float,
                                                       draws: int, tries: int) -> None:
    """`tries` 0: no random try of the constrained seats' hands, only the
    search that follows them when none fits (as with tight calls)."""
    saved = sampling.TRIES
    sampling.TRIES = tries
    try:
        _check_the_draws(seed, where, draws)
    finally:
        sampling.TRIES = saved


def _check_the_draws(seed: int, where: float, draws: int) -> None:
    deal = _bot_hand(seed)
    if deal is None:
        return
    record = record_of(deal)
    assert record.calls == deal.calls and record.binder == deal.binder
    index = min(int(where * len(record.plays)), len(record.plays) - 1)
    seat = record.plays[index][0]
    sampler = CardSampler(record, index, SolverCache(limit=1))
    assert sampler.draw is not None
    drawn: list[list[list[Card]]] = []
    draw = sampler.draw

    def recording(rng: random.Random) -> list[list[Card]] | None:
        hands = draw(rng)
        if hands is not None:
            drawn.append(hands)
        return hands

    sampler.draw = recording
    rng = random.Random(seed)
    for _ in range(draws):
        assert sampler.solve(rng)
    assert len(drawn) == draws == sampler.result.deals
    played: list[list[Card]] = [[] for _ in range(4)]
    for s, c in record.plays[:index]:
        played[s].append(c)
    everything = sorted(c.code for c in GAME.pack.cards)
    own = sorted(c.code for c in record.position(index).hands[seat])
    for hands in drawn:
        assert sorted(c.code for c in hands[seat]) == own
        assert sorted(c.code for s in range(4) for c in (*hands[s], *played[s])) == everything
        _fits_the_calls(record, hands, played, seat)


# ----- two hands where the calls decide -------------------------------------------------

#: (dealer, hands as dealt, the calls in order, trumps, the plays by seat and card,
#: the play judged (0-based), its loss in every deal that fits the calls).
WRONG = (2, ("Uh Ub Ul Kh Al", "Oa Kb Ta Tb Ab", "Ua Ob Tl Aa Ol", "Th Ka Kl Oh Ah"),
         ((3, "bind:3:T"), (0, "pass"), (1, "pass"), (2, "bind:4:U")), "a",
         "3:Th 0:Uh 1:Oa 2:Ua 1:Kb 2:Ob 3:Ka 0:Ub 2:Tl 3:Kl 0:Ul 1:Ta 1:Tb 2:Aa 3:Oh 0:Kh "
         "3:Ah 0:Al 1:Ab 2:Ol", 13, 2)
RIGHT = (0, ("Oh Ul Kb Al Ab", "Ua Kl Kh Tl Aa", "Ta Ol Tb Th Oa", "Ka Uh Ub Ah Ob"),
         ((1, "pass"), (2, "pass"), (3, "bind:3:U"), (0, "pass")), "h",
         "1:Ua 2:Ta 3:Ka 0:Oh 0:Ul 1:Kl 2:Ol 3:Uh 2:Tb 3:Ub 0:Kb 1:Kh 1:Tl 2:Th 3:Ah 0:Al "
         "3:Ob 0:Ab 1:Aa 2:Oa", 13, 0)


def _played(case: tuple[Any, ...]) -> Any:
    """The hand of `case` through the engine's flow (which checks every call
    and every card)."""
    dealer, hands, calls, trump, plays, _, _ = case
    f: Any = GAME.hand_flow(Filcau20State(None, (0, 0), dealer), [cards(h) for h in hands])
    f.choose(f.pending().seat, "knock")
    for seat, call in calls:
        assert f.pending().seat == seat
        f.choose(seat, call)
    f.choose(f.pending().seat, trump)
    deal = f.deal
    for p in plays.split():
        seat, code = p.split(":")
        deal.play(int(seat), cards(code)[0])
    assert deal.finished
    return deal


def _losses(record: HandRecord, index: int, deals: int) -> list[float]:
    """The played card's loss in each of `deals` sampled deals."""
    out = []
    cache = SolverCache(limit=1)
    rng = random.Random(5)
    for _ in range(deals):
        sampler = CardSampler(record, index, cache)
        assert sampler.solve(rng)
        out.append(sampler.result.loss)
    return out


@pytest.mark.parametrize("case", [WRONG, RIGHT], ids=["wrong", "right"])
def test_the_fair_view_flags_what_a_player_who_heard_the_calls_would(case: Any) -> None:
    """WRONG: seat 3 (0-based) called "three, the Ten" and lost the binding
    to seat 2: with that call heard, the cards left at trick 4 can lie one
    way only, and there seat 2's Ace of trumps gives away 2 points; of the
    deals that ignore the call, most say it costs nothing. RIGHT: seat 3
    bound "three, the Under" in hearts: seat 2's Ten of trumps gives nothing
    away in the only deal that fits, while deals that ignore the call say
    it may cost points."""
    *_, index, loss = case
    record = record_of(_played(case))
    heard = _losses(record, index, 12)
    assert heard == [loss] * 12
    blind = _losses(dataclasses.replace(record, calls=None), index, 12)
    assert any(x != loss for x in blind)
    # The review itself (as `cardtable review` runs it, one process).
    reviews = {r.index: r for r in review_hand(record, 30.0, 12, 1, 18, None)}
    r = reviews[index]
    assert r.samples == 12 and r.sampled_loss == loss
    assert r.flagged == (loss >= FLAG_LOSS)
    dd = {x.index: x for x in review_double_dummy(record)}
    assert dd[index].loss == loss       # the real deal is the one that fits


def test_when_the_calls_leave_one_deal_every_draw_is_that_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Even with no random try (the search alone), every draw is the one
    deal the calls leave (the real one), never a deal of the plays alone."""
    monkeypatch.setattr(sampling, "TRIES", 0)
    record = record_of(_played(WRONG))
    real = record.position(13).hands
    draw = draw_for(record, 13)
    rng = random.Random(3)
    for _ in range(10):
        hands = draw(rng)
        assert hands is not None
        assert [sorted(c.code for c in h) for h in hands] == \
            [sorted(c.code for c in h) for h in real]


def test_the_slow_way_draws_the_same_deals() -> None:
    """The benchmark's reference (every card of every deal valued) samples
    the same deals: the same loss."""
    record = record_of(_played(WRONG))
    losses, solved = sampled_losses(record, 13, random.Random(1), 6)
    assert solved == 6 and losses[record.plays[13][1]] == 2


def test_a_record_without_calls_samples_from_the_plays_alone() -> None:
    """An older record (no calls) still reviews: its deals follow the plays."""
    record = dataclasses.replace(record_of(_played(WRONG)), calls=None, binder=None,
                                 deal_class=None)
    assert record.fits() is None
    sampler = CardSampler(record, 13)
    rng = random.Random(2)
    assert all(sampler.solve(rng) for _ in range(6))


# ----- `cardtable review` on an export with 20-card Filcău hands ------------------------

START = {"status": "even", "score": [0, 0], "dealer": 2}


def _export(tmp_path: Path) -> Path:
    """Two hands as `cardtable export` writes them: WRONG, bound through the
    referee's ops, then the same cards with trumps given (no calls heard)."""
    dealer, hands, calls, trump, plays, _, _ = WRONG
    hand_lists = [h.split() for h in hands]
    lines: list[dict[str, object]] = [
        {"op": "new_hand", "game": "filcau20", "state": START, "cut": False,
         "hands": hand_lists}]
    for seat, call in calls:
        lines.append({"op": "bind", "game": "filcau20", "seat": seat,
                      "call": call.removeprefix("bind:")})
    lines.append({"op": "bind", "game": "filcau20", "seat": 2, "trump": trump})
    play_lines = [{"op": "play", "seat": int(p.split(":")[0]), "card": p.split(":")[1]}
                  for p in plays.split()]
    lines += play_lines
    lines.append({"op": "new_hand", "game": "filcau20", "state": START, "trump": trump,
                  "hands": hand_lists})
    lines += play_lines
    path = tmp_path / "filcau20.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_the_export_replays_with_its_calls(tmp_path: Path) -> None:
    got = list(replay(_export(tmp_path).read_text(encoding="utf-8").splitlines()))
    assert [type(x).__name__ for x in got] == ["ReplayedHand", "ReplayedHand"], got
    first, second = (x.record for x in got if not isinstance(x, str))
    assert dict(first.calls) == {3: "3:T", 0: "pass", 1: "pass", 2: "4:U"}
    assert first.binder == 2 and not first.calls_unknown
    assert second.calls is None and second.calls_unknown


def test_cardtable_review_reports_the_calls_and_flags_the_card(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _export(tmp_path)
    assert main(["review", str(path), "--budget", "20", "--jobs", "1", "--samples", "4"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    first, second = out.split("Hand 2 ")
    assert first.startswith("Hand 1 · Filcău (20 cards) · trumps: a")
    assert ("Calls heard before play: seat 1 pass, seat 2 pass, seat 3 4:U (won the "
            "binding), seat 4 3:T; the fair view's deals fit them.") in first
    row = next(ln for ln in first.splitlines() if ln.split()[:4] == ["14", "4", "3", "Aa"])
    assert row.split()[4:6] == ["2", "Ol"]          # 2 points with every card visible
    assert " 2.00 " in row and row.rstrip().endswith("<<")
    assert "trick 4, seat 3, Aa: 2 point(s)" in first
    assert ("The binding calls of this hand are not in the export (its trumps were "
            "given): the fair view's deals follow the cards seen only.") in second
