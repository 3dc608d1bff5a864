"""Fildinsky's end game in the solver (`Position.extras`): besides the
brisques, a trick scores the deece (a Seven of trumps that has not scored
yet), the last-trick bonus (option `last_trick_bonus = 32`) and the melds
its winner declares from his won cards; each player plays for his margin.
The solver agrees exactly with a brute force that plays every card and every
meld choice out with the game's own deal, on random endings of 3 and 4
tricks under the default options and the variants that change what the end
game scores."""

from __future__ import annotations

import os
import random

import pytest

from engine import get_game
from engine.analysis import Position, analyse, position_of
from engine.analysis.review import record_of, review_double_dummy
from tests.analysis.helpers import brute_force_fildinsky, fildinsky_ending

#: Endings per case (a brute force through the deal takes about half a
#: second); CARDTABLE_SOLVER_ENDINGS=N multiplies them by N for a longer run.
_SCALE = int(os.environ.get("CARDTABLE_SOLVER_ENDINGS", "1"))
OPTIONS = {
    "default": {},
    "last trick 32": {"last_trick_bonus": 32},
    "deece by its player": {"deece_trigger": "played_by_winner"},
    "melds without a trick card": {"meld_needs_current_trick_card": False},
}


@pytest.mark.parametrize("variant", list(OPTIONS))
def test_the_solver_agrees_with_the_brute_force_in_the_end_game(variant: str) -> None:
    game = get_game("fildinsky", OPTIONS[variant])
    rng = random.Random(f"fildinsky-{variant}")
    extra = 0
    for i in range(6 * _SCALE):
        deal = fildinsky_ending(game, rng, 4 if i % 4 == 0 else 3)
        margin, values = brute_force_fildinsky(deal)
        p = position_of(deal)
        assert p.extras is not None
        a = analyse(p)
        sign = 1 if a.team == 0 else -1
        assert a.points[0] - a.points[1] == margin, (i, deal.snapshot())
        assert {c: a.loss(c) for c in a.values} == \
            {c: margin * sign - v for c, v in values.items()}, (i, deal.snapshot())
        # What brisques alone would say, for the count of endings where the
        # extras change the answer.
        plain = analyse(Position(p.game, p.trump, p.hands, p.trick, p.leader, p.teams, p.won,
                                 p.family))
        extra += (plain.points[0] - plain.points[1]) != margin
    assert extra >= 1, "the extras changed no answer: the check proves little"


def test_the_review_judges_the_end_game_with_its_melds() -> None:
    rng = random.Random("fildinsky-review")
    game = get_game("fildinsky")
    for _ in range(2):
        deal = fildinsky_ending(game, rng, 8)
        if deal.trick:
            deal.undo()
        while not deal.finished:
            deal.step_randomly(rng)
        record = record_of(deal)
        assert len(record.plays) == 16 and record.extras is not None
        reviews = review_double_dummy(record)
        assert [r.index for r in reviews] == list(range(16))
        # The last card of the hand has no choice left.
        assert reviews[-1].legal == 1 and reviews[-1].loss == 0
