"""The solver's bounds never contradict the brute force
(tests/analysis/helpers.py), in every game: the points a side is sure of
from its top trumps (engine/analysis/bounds.py) are at most what it takes
under best play, and every fail-soft answer of the search holds."""

from __future__ import annotations

import doctest
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import game_ids, get_game
from engine.analysis import Position, bounds
from engine.analysis.bounds import sure_points
from engine.analysis.position import load
from engine.analysis.solver import _ties
from engine.cards import TRUMP
from tests.analysis.helpers import brute_force, random_ending, random_teams

#: Tricks left in the endings checked (the brute force's cost grows fast).
TRICKS = 3


def _boundary_position(game_id: str, seed: int) -> Position:
    """A random position at a trick boundary with `TRICKS` tricks left."""
    game = get_game(game_id)
    rng = random.Random(seed)
    pack = list(game.pack.cards)
    rng.shuffle(pack)
    n = game.players
    hands = tuple(tuple(pack[i * TRICKS:(i + 1) * TRICKS]) for i in range(n))
    family = game.legal_family_for(stock_empty=True) if game_id == "fildinsky" else None
    return Position(game, rng.choice(game.pack.suits), hands, (), rng.randrange(n),
                    random_teams(game, rng), (0, 0), family)


def _context(game_id: str) -> dict[str, object]:
    return {"stock_empty": True} if game_id == "fildinsky" else {}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(game_ids()), st.integers(0, 2**32))
def test_sure_points_never_exceed_what_best_play_gives(game_id: str, seed: int) -> None:
    position = _boundary_position(game_id, seed)
    solver, rules = load(position)
    side0 = tuple(t == 0 for t in position.teams)
    sure0, sure1 = sure_points(rules.tables.suit_mask[TRUMP], _ties(rules), rules.points,
                               solver.hands, side0)
    (team0, team1), _ = brute_force(position, _context(game_id), memo={})
    assert sure0 <= team0
    assert sure1 <= team1
    assert team0 + team1 == solver.rem


def test_sure_points_are_found_when_a_side_holds_the_top_trumps() -> None:
    """Sueca, trumps hearts: side 0 holds the ace and the seven of hearts (11
    and 10 points), side 1 the king: side 0 is sure of 21, and the brute
    force agrees it takes at least that."""
    from engine import cards

    game = get_game("sueca")
    hands = (tuple(cards("Ah 2c")), tuple(cards("Kh 3c")), tuple(cards("7h 4c")),
             tuple(cards("5c 6c")))
    position = Position(game, "h", hands, (), 1, (0, 1, 0, 1))
    solver, rules = load(position)
    sure = sure_points(rules.tables.suit_mask[TRUMP], _ties(rules), rules.points,
                       solver.hands, (True, False, True, False))
    assert sure == (21, 0)
    (team0, _), _ = brute_force(position, memo={})
    assert team0 >= 21


def test_identical_top_trumps_split_between_the_sides_are_not_sure() -> None:
    """Fildinsky's double pack: when each side holds one of the two top
    trumps, whichever is played first wins, so neither side is sure of it."""
    game = get_game("fildinsky")
    from engine import cards

    hands = (tuple(cards("Ah 7c")), tuple(cards("Ah 8c")))
    position = Position(game, "h", hands, (), 0, (0, 1),
                        family=game.legal_family_for(stock_empty=True))
    solver, rules = load(position)
    assert sure_points(rules.tables.suit_mask[TRUMP], _ties(rules), rules.points,
                       solver.hands, (True, False)) == (0, 0)


def test_the_module_example_holds() -> None:
    failures, tried = doctest.testmod(bounds)
    assert tried > 0 and failures == 0


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(game_ids()), st.integers(0, 2**32))
def test_every_fail_soft_answer_holds(game_id: str, seed: int) -> None:
    """`Solver.probe(need)` for every `need`, asked in a random order on one
    solver (so answers build on the table's earlier bounds): a result at or
    above `need` is reachable, one below it is not exceeded, against the
    brute force, mid-trick positions included."""
    game = get_game(game_id)
    rng = random.Random(seed)
    ctx = _context(game_id)
    family = game.legal_family_for(**ctx) if ctx else None
    position = replace(random_ending(game, rng, TRICKS, family), won=(0, 0))
    (team0, _), _ = brute_force(position, ctx, memo={})
    solver, _ = load(position)
    needs = list(range(-1, solver.rem + 2))
    rng.shuffle(needs)
    for need in needs:
        r = solver.probe(need)
        if r >= need:
            assert team0 >= r, (need, r, team0)
        else:
            assert team0 <= r, (need, r, team0)
