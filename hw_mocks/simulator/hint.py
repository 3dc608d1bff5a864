"""The hint key: the card the sampled analysis prefers for the person's seat.

`engine.analysis.bot.hint` weighs sampled deals within the table's own
budget of search nodes (`table.controller.hint.BUDGET`, at most ≈ 0.6 CPU
seconds on one core of the development machine, measured by
bench/hint_bench.py) and deal cap, so the simulator hints what a table in
practice mode would, and the same position with the same random draws gets
the same hint. The window runs this in a worker thread, so the table stays
live while the analysis thinks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.analysis.bot import hint
from engine.cards import Card
from engine.deal import Deal
from table.controller.hint import BUDGET, SAMPLES

#: Search nodes a hint may use (all its deals together), and the most deals it weighs.
BUDGET_NODES = BUDGET
MOST_SAMPLES = SAMPLES


@dataclass(frozen=True)
class Advice:
    """The preferred card, its average points for the seat's side at the
    hand's end, every legal card's average, how many deals were weighed and
    in how many seconds."""

    card: Card
    average: float
    averages: Mapping[Card, float]
    samples: int
    seconds: float


def advise(deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random,
           public: Mapping[int, Sequence[Card]] | None = None, budget: int = BUDGET_NODES,
           most: int = MOST_SAMPLES, clock: Callable[[], float] = time.monotonic
           ) -> Advice | None:
    """The hint from at most `most` deals sharing `budget` search nodes
    (`clock` only times it). None where the analysis does not search the
    hand (see `engine.analysis.bot.searchable`) or not even one deal fits in
    the budget (early in a long hand: Sueca, Filkó with Hats)."""
    start = clock()
    found = hint(deal, seat, hand, rng, most, public, budget=budget)
    if found is None:
        return None
    return Advice(found.card, found.average, found.averages, found.samples, clock() - start)
