"""Benchmark: what searching 20-card Filcău's fris trick and Fildinsky's end
game with its extras (deece, last-trick bonus, melds) costs, before and after
in the same run (issue 18).

Run with `.venv/bin/python bench/solver_extras_bench.py [--deals N]`, on one
core. CPU time of this process (`time.process_time`).

* 20-card Filcău, random fris hands (the fris Over led): *before*, what the
  solver searched until now, the hand from trick 2 on after the followers'
  first legal cards; *after*, the whole hand from the fris Over, the fris
  trick's choices included (`Position.first_trick`).
* Fildinsky, random end games reached by the game's own deal (24 stock
  tricks played at random, melds and exchanges included): the brisques only
  (`Position` without extras, the card-points solver); the exact search with
  the deece, the last-trick bonus and melds (`engine.analysis.extras`)
  *before*: every unused won card kept in the key and every card searched
  (the search given the scoring through `Unreduced`, which keeps nothing
  from `relevant` and `plain_cards`), and *after*: won cards no meld can
  use any more dropped, interchangeable plain cards searched once. Each:
  the values of every legal card at the first lead of the end game, and a
  whole end game's double-dummy review (16 positions, one table).

The CPU time is the figure (the baseline runs at about the same rate per
CPU second idle and under load, within ≈ 10%); the run's baseline is compared with an idle
core's (`solver_bench.IDLE_BASELINE`, the same measure) as a check.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver_bench import _pct, baseline, check  # noqa: E402  (bench/ is the script's folder)

from engine import Card, Deal, get_game  # noqa: E402
from engine.analysis import SolverCache, analyse, position_of  # noqa: E402
from engine.analysis.review import HandRecord, record_of, review_double_dummy  # noqa: E402
from tests.analysis.helpers import fildinsky_ending, fris_deal  # noqa: E402

clock = time.process_time


def timed(f: Callable[[], object]) -> float:
    t0 = clock()
    f()
    return clock() - t0


def _row(name: str, xs: list[float]) -> str:
    return (f"| {name} | {len(xs)} | {statistics.median(xs) * 1e3:.2f} ms | "
            f"{_pct(xs, 0.9) * 1e3:.2f} ms | {max(xs) * 1e3:.2f} ms |")


def filcau20(deals: int) -> tuple[list[float], list[float]]:
    game = get_game("filcau20")
    rng = random.Random("fris-bench")
    before: list[float] = []
    after: list[float] = []
    for _ in range(deals):
        deal = fris_deal(game, rng)
        p = position_of(deal)
        after.append(timed(partial(analyse, p, values=False)))
        while deal.tricks == []:
            deal.play(deal.turn, next(iter(deal.legal_cards())))
        q = position_of(deal)
        before.append(timed(partial(analyse, q, values=False)))
    return before, after


def _end_game(rng: random.Random) -> Deal:
    game = get_game("fildinsky")
    deal = fildinsky_ending(game, rng, 8)
    if deal.trick:
        deal.undo()
    return deal


@dataclasses.dataclass(frozen=True)
class Unreduced:
    """A game's end-game scoring with nothing dropped from the search's key
    and no card interchangeable: the search as it was before."""

    scoring: Any

    def choices(self, state: Any, number: int, leader: int, cards: Sequence[Card],
                winner: int) -> Sequence[tuple[int, Any]]:
        return self.scoring.choices(state, number, leader, cards, winner)  # type: ignore[no-any-return]  # the game's

    def plain_cards(self, cards: Sequence[Card]) -> list[Card]:
        return []

    def cards_out(self, cards: Sequence[Card]) -> Hashable:
        return None

    def relevant(self, state: Any, out: Any) -> Hashable:
        return state  # type: ignore[no-any-return]  # the state itself


def _unreduced(rec: HandRecord) -> HandRecord:
    assert rec.extras is not None
    return dataclasses.replace(rec, extras=tuple(((Unreduced(e[0]), e[1]), won)
                                                 for e, won in rec.extras))


CASES = ("brisques only", "extras before", "extras after")


def fildinsky(deals: int) -> dict[str, list[float]]:
    rng = random.Random("fildinsky-bench")
    out: dict[str, list[float]] = {}
    for _ in range(deals):
        deal = _end_game(rng)
        p = position_of(deal)
        assert p.extras is not None
        positions = {"brisques only": dataclasses.replace(p, extras=None),
                     "extras before": dataclasses.replace(
                         p, extras=(Unreduced(p.extras[0]), p.extras[1])),
                     "extras after": p}
        values = {k: analyse(q) for k, q in positions.items()}
        for k, q in positions.items():
            out.setdefault("values " + k, []).append(timed(partial(analyse, q)))
        a, b = values["extras before"], values["extras after"]
        assert {c: a.loss(c) for c in a.values} == {c: b.loss(c) for c in b.values}
        while not deal.finished:
            deal.step_randomly(rng)
        rec = record_of(deal)
        records = {"brisques only": dataclasses.replace(rec, extras=None),
                   "extras before": _unreduced(rec), "extras after": rec}
        for k, r in records.items():
            out.setdefault("review " + k, []).append(
                timed(partial(review_double_dummy, r, SolverCache())))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=30)
    args = ap.parse_args()
    base = baseline()
    print(f"baseline: {base:,.0f} Filicău deals dealt and played out per CPU second\n")
    print("| case | deals | median | p90 | max |\n|---|---|---|---|---|")
    before, after = filcau20(args.deals)
    print(_row("filcau20 fris hand, before: from trick 2", before))
    print(_row("filcau20 fris hand, after: from the fris Over", after))
    fd = fildinsky(args.deals)
    for what, label in (("values", "every card's value at the first lead"),
                        ("review", "whole review (16 cards)")):
        for case in CASES:
            print(_row(f"fildinsky end game, {label}, {case}", fd[f"{what} {case}"]))
    print(f"\n{check(base)}")


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
