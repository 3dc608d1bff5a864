"""The hint key: the card the sampled analysis prefers for the person's seat.

`engine.analysis.bot.hint` weighs a number of sampled deals; here it is
asked for a few at a time until a time budget is spent (the engine has no
clock), and the answers are pooled. The window runs this in a worker thread,
so the table stays live while the analysis thinks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.analysis.bot import hint
from engine.cards import Card
from engine.deal import Deal

#: Seconds a hint may think, and the most deals it weighs.
BUDGET_S = 1.0
MOST_SAMPLES = 200
_BATCH = 2


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
           public: Mapping[int, Sequence[Card]] | None = None, budget_s: float = BUDGET_S,
           most: int = MOST_SAMPLES, clock: Callable[[], float] = time.monotonic
           ) -> Advice | None:
    """Pool `hint` answers until `budget_s` is spent (at least one batch) or
    `most` deals are weighed. None where the analysis does not search the
    hand (see `engine.analysis.bot.searchable`)."""
    start = clock()
    sums: dict[Card, float] = {}
    weighed = 0
    while weighed < most:
        found = hint(deal, seat, hand, rng, min(_BATCH, most - weighed), public)
        if found is None:
            break
        for c, v in found.averages.items():
            sums[c] = sums.get(c, 0.0) + v * found.samples
        weighed += found.samples
        if clock() - start >= budget_s:
            break
    if not weighed:
        return None
    averages = {c: v / weighed for c, v in sums.items()}
    best = max(averages, key=lambda c: (averages[c], c.code))
    return Advice(best, averages[best], averages, weighed, clock() - start)
