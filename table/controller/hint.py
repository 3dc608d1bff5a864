"""The practice hint: which card the sampled analysis prefers for the seat
to play (`engine.analysis.bot.hint`), shown on the match screen (MENU) when
the table's `practice_hint` option is on.

The work is bounded by search nodes, not by a clock (`BUDGET`: measured by
bench/hint_bench.py, at most ≈ 0.6 CPU s on one core of the development
machine in every game, so ≈ 3 s on a Pi 4, 4–5 times slower). The hint needs the
seat's own cards, so only a table that knows the hands (scanned or read
while dealing) gives one. It is worked out once per position and kept: the
screen may be drawn again without more work. The random draws are seeded by
the match and the position, so the same position always gets the same hint.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import Card
from engine.errors import EngineError
from table.controller.session import Hand

#: Search nodes one hint may use (all its sampled deals together). The
#: dearest case, Fildinsky's end game at its first lead (its nodes cost
#: most), took at most 0.61 CPU s here (bench/hint_bench.py, 30 hands,
#: 2026-11-25), ≈ 2.6–3 s on a Pi 4; 150,000 nodes took up to 3 s here,
#: 30,000 up to 0.73 s.
BUDGET = 25_000
#: The most deals one hint solves (late in a hand the cap, not the budget,
#: bounds the work; it was 200).
SAMPLES = 150


@dataclass(frozen=True)
class PracticeHint:
    """The card for `seat`, from `samples` deals (`card` None: no hint here)."""

    seat: int
    card: Card | None
    samples: int


class Hints:
    """Works out hints and remembers the last one."""

    def __init__(self, budget: int = BUDGET, samples: int = SAMPLES) -> None:
        self.budget = budget
        self.samples = samples
        self._last: tuple[tuple[int, int, int, int], PracticeHint | None] | None = None

    def for_hand(self, hand: Hand, seed: int) -> PracticeHint | None:
        """The hint for the seat to play in `hand`; None when no card is awaited
        or the table does not know that seat's cards."""
        flow = hand.flow
        step = hand.step()
        if flow is None or step is None or step.kind != "play" or step.seat is None:
            return None
        deal = flow.deal
        if deal is None or deal.hands is None:
            return None
        played = sum(len(t.cards) for t in deal.tricks) + len(deal.current_trick)
        key = (seed, hand.number, played, step.seat)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        found = self._work(hand, step.seat, random.Random(f"hint-{seed}-{hand.number}-{played}"))
        self._last = (key, found)
        return found

    def _work(self, hand: Hand, seat: int, rng: random.Random) -> PracticeHint | None:
        from engine.analysis.bot import hint

        flow = hand.flow
        assert flow is not None and flow.deal is not None
        deal = flow.deal
        try:
            cards = deal.hand_of(seat)
            found = hint(deal, seat, cards, rng, self.samples, budget=self.budget)
        except EngineError:
            # A deal the solver cannot judge (teams not known yet, and such):
            # the player simply gets no hint.
            return PracticeHint(seat, None, 0)
        if found is None:
            return PracticeHint(seat, None, 0)
        return PracticeHint(seat, found.card, found.samples)
