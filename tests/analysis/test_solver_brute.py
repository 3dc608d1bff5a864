"""The solver agrees exactly with a brute-force search (tests/analysis/helpers.py)
on random endings of 3 and 4 tricks in every game: each team's points under
best play and the value of every legal card."""

from __future__ import annotations

import os
import random

import pytest

from engine import game_ids, get_game
from engine.analysis import SolverCache, analyse
from tests.analysis.helpers import brute_force, random_ending

#: Endings per game and length, sized to keep the suite fast (2,200 in all);
#: CARDTABLE_SOLVER_ENDINGS=N multiplies them by N for a longer run.
_SCALE = int(os.environ.get("CARDTABLE_SOLVER_ENDINGS", "1"))
ENDINGS = {3: 250 * _SCALE, 4: 25 * _SCALE}


def _context(game_id: str) -> dict[str, object]:
    return {"stock_empty": True} if game_id == "fildinsky" else {}


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("tricks", sorted(ENDINGS))
def test_solver_agrees_with_brute_force(game_id: str, tricks: int) -> None:
    game = get_game(game_id)
    ctx = _context(game_id)
    family = game.legal_family_for(**ctx) if ctx else None
    rng = random.Random(f"{game_id}-{tricks}")
    cache = SolverCache()
    count = ENDINGS[tricks] if game.players <= 4 else ENDINGS[tricks] // 3
    for i in range(count):
        position = random_ending(game, rng, tricks, family)
        expected_points, expected_values = brute_force(position, ctx)
        got = analyse(position, cache=cache if i % 2 else None)
        assert got.points == expected_points, (i, position)
        assert got.values == expected_values, (i, position)
        assert got.best == max(expected_values.values())


def test_a_known_ending_of_filicau() -> None:
    """Worked by hand: hearts are trumps; seat 0 leads. Whatever seat 0
    leads, the Over of acorns (seat 2) and the Over of leaves (seat 3) take one
    trick each, and both Ace and Ten fall to... the side that wins them."""
    from engine import cards
    from engine.analysis import Position

    g = get_game("filicau")
    p = Position(g, "h", (tuple(cards("Ah Th")), tuple(cards("7h 8h")),
                          tuple(cards("Oa 9h")), tuple(cards("Ol Uh"))),
                 (), leader=0, teams=(0, 1, 0, 1))
    a = analyse(p)
    # Seat 0 leads a heart; seat 2 overtakes with Oa only if needed; team 0
    # keeps both points: the Ol cannot take a trick holding a point.
    assert a.points == (2, 0)
