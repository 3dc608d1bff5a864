"""The simulator's hint key asks the sampled analysis within the table's
budget of search nodes, not a clock: a slow machine weighs the same deals
(and is slower), the same draws give the same hint, and a budget too small
for one deal gives none."""

from __future__ import annotations

import itertools
import random

from engine import get_game
from engine.bots import SimpleBot
from hw_mocks.simulator.hint import MOST_SAMPLES, advise


def a_deal(tricks: int, seed: int = 5):
    game = get_game("filicau")
    rng = random.Random(seed)
    dealt = game.deal(rng, 0)
    deal = game.new_deal(dealt.trump, dealt.leader, dealt.hands)
    bot = SimpleBot()
    while len(deal.tricks) < tricks:
        seat = deal.turn
        deal.play(seat, bot.play(deal, seat, deal.hand_of(seat), rng))
    return deal


def test_the_hint_is_bounded_by_nodes_not_by_the_clock() -> None:
    deal = a_deal(3)
    seat = deal.turn
    calm = advise(deal, seat, deal.hand_of(seat), random.Random(7), budget=20_000)
    ticks = itertools.count(step=100.0)       # a clock where each look costs 100 s
    slow = advise(deal, seat, deal.hand_of(seat), random.Random(7), budget=20_000,
                  clock=lambda: next(ticks))
    assert calm is not None and slow is not None
    assert calm.card in deal.legal_cards(seat)
    assert (slow.card, slow.samples, slow.averages) == (calm.card, calm.samples, calm.averages)
    assert 1 <= calm.samples < MOST_SAMPLES      # the budget, not the cap, stopped it
    assert slow.seconds == 100.0


def test_late_in_the_hand_the_cap_of_deals_is_reached() -> None:
    deal = a_deal(6)
    seat = deal.turn
    found = advise(deal, seat, deal.hand_of(seat), random.Random(7))
    assert found is not None and found.samples == MOST_SAMPLES


def test_a_budget_too_small_for_one_deal_gives_no_hint() -> None:
    deal = a_deal(0)
    seat = deal.turn
    assert advise(deal, seat, deal.hand_of(seat), random.Random(7), budget=1) is None
