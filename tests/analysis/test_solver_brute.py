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

#: Endings per game of 3 tricks, and of 4 by the number of hands (a hand of
#: five or six seats has many more lines to try), sized to keep the suite
#: fast (2,635 in all); CARDTABLE_SOLVER_ENDINGS=N multiplies them by N for a
#: longer run.
_SCALE = int(os.environ.get("CARDTABLE_SOLVER_ENDINGS", "1"))
ENDINGS_OF_3 = 250 * _SCALE
ENDINGS_OF_4 = {2: 100 * _SCALE, 4: 100 * _SCALE, 5: 25 * _SCALE, 6: 10 * _SCALE}


def _context(game_id: str) -> dict[str, object]:
    return {"stock_empty": True} if game_id == "fildinsky" else {}


def _cases() -> list[tuple[str, int]]:
    """Every game with 3 and with 4 tricks left."""
    return [(g, t) for t in (3, 4) for g in game_ids()]


@pytest.mark.parametrize(("game_id", "tricks"), _cases())
def test_solver_agrees_with_brute_force(game_id: str, tricks: int) -> None:
    game = get_game(game_id)
    ctx = _context(game_id)
    family = game.legal_family_for(**ctx) if ctx else None
    rng = random.Random(f"{game_id}-{tricks}")
    cache = SolverCache()
    count = ENDINGS_OF_3 if tricks == 3 else ENDINGS_OF_4[game.players]
    for i in range(count):
        position = random_ending(game, rng, tricks, family)
        expected_points, expected_values = brute_force(position, ctx, memo={})
        got = analyse(position, cache=cache if i % 2 else None)
        assert got.points == expected_points, (i, position)
        assert got.values == expected_values, (i, position)
        assert got.best == max(expected_values.values())


def test_a_known_ending_of_filicau() -> None:
    """Worked by hand: hearts are trumps, seat 0 leads from Ah Th. Whichever
    it leads, seat 2 must take it with the Over of acorns (seat 3 would win it
    with the Over of leaves); seat 3 plays Uh under it, keeps the Ol and takes
    the other point card in the last trick. One point each, whatever the lead."""
    from engine import cards
    from engine.analysis import Position

    g = get_game("filicau")
    p = Position(g, "h", (tuple(cards("Ah Th")), tuple(cards("7h 8h")),
                          tuple(cards("Oa 9h")), tuple(cards("Ol Uh"))),
                 (), leader=0, teams=(0, 1, 0, 1))
    a = analyse(p)
    assert a.points == (1, 1)
    assert {c.code: v for c, v in a.values.items()} == {"Ah": 1, "Th": 1}


@pytest.mark.parametrize("raw_cards", [0, 2])
@pytest.mark.parametrize("game_id", game_ids())
def test_the_table_path_of_the_last_tricks_agrees_with_brute_force(
        game_id: str, raw_cards: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver loaded with few cards keeps the bounds of its positions by
    raw position; with more, it keeps those of positions with more than
    `RAW_CARDS` cards a hand in the table (whole deals). With the first
    threshold at 0 and the second at 0 or 2, endings of 3 tricks go through
    the table everywhere or at their first trick only, and still agree."""
    from engine.analysis import solver

    monkeypatch.setattr(solver, "SMALL_TRICKS", 0)
    monkeypatch.setattr(solver, "RAW_CARDS", raw_cards)
    game = get_game(game_id)
    ctx = _context(game_id)
    family = game.legal_family_for(**ctx) if ctx else None
    rng = random.Random(f"{game_id}-table-{raw_cards}")
    cache = SolverCache()
    for i in range(40):
        position = random_ending(game, rng, 3, family)
        expected_points, expected_values = brute_force(position, ctx, memo={})
        got = analyse(position, cache=cache if i % 2 else None)
        assert got.points == expected_points, (i, position)
        assert got.values == expected_values, (i, position)
