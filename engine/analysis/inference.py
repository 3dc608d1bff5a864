"""Which sampled deals agree with how the other seats played (inference).

A deal drawn only from what a seat has seen (`engine.analysis.review.
sample_hands`: its cards, the cards played, the voids shown) treats every
hand that fits as equally likely, yet players do not play at random: an
opponent who led a low card of a suit most likely holds more of it. `Replay`
scores a sampled deal by how many of the other seats' plays a rule-of-thumb
player (`engine.bots.SimpleBot`, the model) would have made holding the
sampled cards: the hand is taken back play by play on a copy of the deal,
the model is asked at each play of a seat it watches, and the hand is played
forward again. `SampledBot` keeps, of a few deals drawn, the one with fewest
plays unexplained (`fewest_surprises`).

The game's own deal class takes the cards back and answers the legal cards,
so every game's rules apply as written; a play with rules of its own (the
fris trick of 20-card Filcău) or that the model cannot judge teaches nothing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence

from engine import Card, Deal, EngineError
from engine.bots import Bot

#: Draws of a deal, at most, for each deal kept (`fewest_surprises`).
DRAWS = 6


class Replay:
    """A copy of `deal` on which sampled hands are taken back and replayed;
    the plays of the seats in `watched` are checked against `model`."""

    def __init__(self, deal: Deal, watched: Sequence[int], model: Bot, plays: int) -> None:
        self.original = deal
        self.deal = _copy(deal)
        self.watched = frozenset(watched)
        self.model = model
        #: How many of the last plays are checked (taken back).
        self.plays = plays
        # The model's own generator: asking it leaves the caller's untouched.
        self._rng = random.Random(0)

    def surprises(self, hands: Sequence[Sequence[Card]], stop: int | None = None) -> int:
        """How many plays of the watched seats the model would not have made
        with these current `hands` (every seat's cards now); counting stops
        once `stop` is reached. The copy is left as it was."""
        d = self.deal
        pack = d.pack
        saved = d.hands
        d.hands = [pack.mask(h) for h in hands]
        d._changed()
        undone: list[tuple[int, Card]] = []
        count = 0
        try:
            for _ in range(self.plays):
                if stop is not None and count >= stop:
                    break
                taken = d.undo()
                undone.append((taken.seat, taken.card))
                if taken.seat not in self.watched or getattr(d, "in_fris_trick", False):
                    continue
                try:
                    choice = self.model.play(d, taken.seat, d.hand_of(taken.seat), self._rng)
                except EngineError:
                    continue
                count += choice != taken.card
        except EngineError:
            # The deal would not take these cards back: the least likely deal.
            count = self.plays + 1
        finally:
            try:
                for seat, card in reversed(undone):
                    d.play(seat, card)
                d.hands = saved
                d._changed()
            except EngineError:
                self.deal = _copy(self.original)
        return count


def _copy(deal: Deal) -> Deal:
    """A copy of `deal` to take back and replay (it shares what play never
    changes: `Deal.__deepcopy__`)."""
    return copy.deepcopy(deal)


def fewest_surprises(draw: Callable[[], list[list[Card]] | None], replay: Replay,
                     draws: int = DRAWS) -> list[list[Card]] | None:
    """Of up to `draws` deals from `draw`, the first the model explains
    fully, else the one with the fewest surprises (the earliest of equals);
    None if `draw` finds none."""
    best: list[list[Card]] | None = None
    fewest = -1
    for _ in range(draws):
        hands = draw()
        if hands is None:
            break
        n = replay.surprises(hands, stop=fewest if fewest >= 0 else None)
        if best is None or n < fewest:
            best, fewest = hands, n
        if fewest == 0:
            break
    return best
