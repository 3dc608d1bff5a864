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
  tricks played at random, melds and exchanges included): *before*, the
  brisques only (`Position` without extras, the card-points solver);
  *after*, the exact search with the deece, the last-trick bonus and melds
  (`engine.analysis.extras`). Both: the values of every legal card at the
  first lead of the end game, and a whole end game's double-dummy review.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver_bench import _pct, baseline  # noqa: E402  (bench/ is the script's folder)

from engine import Deal, get_game  # noqa: E402
from engine.analysis import SolverCache, analyse, position_of  # noqa: E402
from engine.analysis.review import record_of, review_double_dummy  # noqa: E402
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


def fildinsky(deals: int) -> dict[str, list[float]]:
    rng = random.Random("fildinsky-bench")
    out: dict[str, list[float]] = {"before": [], "after": [], "review before": [],
                                   "review after": []}
    for _ in range(deals):
        deal = _end_game(rng)
        p = position_of(deal)
        plain = dataclasses.replace(p, extras=None)
        out["before"].append(timed(partial(analyse, plain)))
        out["after"].append(timed(partial(analyse, p)))
        while not deal.finished:
            deal.step_randomly(rng)
        rec = record_of(deal)
        bare = dataclasses.replace(rec, extras=None)
        out["review before"].append(timed(partial(review_double_dummy, bare, SolverCache())))
        out["review after"].append(timed(partial(review_double_dummy, rec, SolverCache())))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=30)
    args = ap.parse_args()
    base = baseline()
    print(f"baseline: {base:,.0f} Filicău playouts per CPU second\n")
    print("| case | deals | median | p90 | max |\n|---|---|---|---|---|")
    before, after = filcau20(args.deals)
    print(_row("filcau20 fris hand, before: from trick 2", before))
    print(_row("filcau20 fris hand, after: from the fris Over", after))
    fd = fildinsky(args.deals)
    print(_row("fildinsky end game, every card's value, before: brisques only", fd["before"]))
    print(_row("fildinsky end game, every card's value, after: with extras", fd["after"]))
    print(_row("fildinsky end game review (16 cards), before", fd["review before"]))
    print(_row("fildinsky end game review (16 cards), after", fd["review after"]))


if __name__ == "__main__":
    main()
