"""The generated search (`engine.analysis.searchcode`): compiled once per
shape of game, a search stopped by its node limit leaves nothing behind
that changes a later answer (its state lives in the calls' arguments), and
the move orders it learns from its cut-offs never change a value."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from engine.analysis import SearchLimit, Solver, SolverCache, analyse
from engine.analysis import solver as solver_module
from engine.analysis.position import hand_masks
from engine.analysis.rules import solver_rules
from engine.analysis.searchcode import Shape, search_factory, source
from tests.analysis.helpers import brute_force, random_ending


@pytest.mark.parametrize("game_id", ["filicau", "filko5", "fildinsky"])
def test_a_search_cut_by_its_limit_leaves_the_solver_as_good_as_new(game_id: str) -> None:
    game = get_game(game_id)
    rng = random.Random(game_id)
    family = game.legal_family_for(stock_empty=True) if game_id == "fildinsky" else None
    stopped = 0
    for _ in range(20):
        p = random_ending(game, rng, 6, family)
        rules = solver_rules(game, p.trump, p.family)
        hands, _ = hand_masks(p, rules)
        trick = [rules.mask_of([c]).bit_length() - 1 for c in p.trick]
        fresh = Solver(rules, p.teams)
        fresh.load(hands, trick, p.leader)
        expected = fresh.card_values()
        reused = Solver(rules, p.teams)
        reused.load(hands, trick, p.leader)
        reused.stats.limit = 30
        try:
            reused.card_values()
        except SearchLimit:
            stopped += 1
        reused.stats.limit = 0
        reused.load(hands, trick, p.leader)
        assert reused.card_values() == expected
    assert stopped >= 10


def test_the_search_is_compiled_once_per_shape() -> None:
    game = get_game("filicau")
    rules = solver_rules(game, game.pack.suits[0])
    shape = Shape((True, False, True, False), True, -1, True)
    factory = search_factory(shape)
    Solver(rules, (0, 1, 0, 1))
    Solver(rules, (0, 1, 0, 1))
    assert search_factory(shape) is factory
    assert search_factory(Shape((False, True, False, True), True, -1, True)) is not factory


def test_the_generated_source_answers_the_fixed_questions_in_the_code() -> None:
    """Four seats, follow table, no lead rule: no trick list, no call of the
    legal family, no test of the lead rule; the generic family keeps them."""
    follow = source(Shape((True, False, True, False), True, -1, True))
    assert "me.trick" not in follow and "legal_mask(" not in follow
    assert "ntl_cards and" not in follow
    generic = source(Shape((True, False, True, False), False, 2, False))
    assert "me.trick.append(b)" in generic and "legal_mask(" in generic
    assert generic.count("ntl_cards and") == 1  # only seat 2 leads under the rule
    assert "sure_points(" not in generic  # no trumps, no top-trumps bound


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_generated_shape_is_clean_python(seats: int, tmp_path: Path) -> None:
    """pyflakes (ruff's F rules) over the generated code of every kind of
    shape: no name it uses is missing, no branch refers to a function that
    was not generated, whether or not a test's deals reach it."""
    paths = []
    for follow in (True, False):
        for ntl in (-1, 1):
            for trumps in (True, False):
                side0 = tuple(s % 2 == 0 for s in range(seats))
                path = tmp_path / f"shape_{follow}_{ntl}_{trumps}.py"
                path.write_text(source(Shape(side0, follow, ntl, trumps)))
                paths.append(str(path))
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    proc = subprocess.run([ruff, "check", "--no-cache", "--isolated", "--select", "F",
                           "--output-format", "concise", *paths],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr



@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6),
       game_id=st.sampled_from(["filicau", "filko_hats", "filko6", "sueca", "fildinsky"]))
def test_what_a_solver_learnt_from_earlier_questions_never_changes_a_value(
        seed: int, game_id: str) -> None:
    """The search reorders its remembered moves by the cut-offs it met (the
    move that refuted a node is tried first at the next node of the same
    kind), so one solver's later searches depend on what it was asked
    before: the work may change, never a value. One solver kept for a run
    of endings of the same trump and teams (as the review and the sampled
    deals keep theirs) values every card as the brute force does."""
    game = get_game(game_id)
    rng = random.Random(seed)
    ctx: dict[str, object] = {"stock_empty": True} if game_id == "fildinsky" else {}
    family = game.legal_family_for(**ctx) if ctx else None
    first = random_ending(game, rng, 4, family)
    cache = SolverCache()
    for i in range(10):
        p = replace(random_ending(game, rng, 3 + i % 2, family),
                    trump=first.trump, teams=first.teams)
        expected_points, expected_values = brute_force(p, ctx, memo={})
        got = analyse(p, cache=cache)
        assert (got.points, got.values) == (expected_points, expected_values), (i, p)


@pytest.mark.parametrize("game_id", ["filicau", "filko6", "filcau20"])
def test_a_new_solver_that_takes_a_dropped_solvers_search_starts_as_if_new(
        game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dropped solver's search goes back to a pool, emptied, for the next
    solver of the same rules and sides: that solver knows nothing of what the
    dropped one learnt (not even after a search cut by its node limit) and
    does the same work as a solver built new."""
    monkeypatch.setattr(solver_module, "_POOL", {})
    game = get_game(game_id)
    rng = random.Random(game_id + "pool")
    for _ in range(6):
        p = random_ending(game, rng, 5)
        rules = solver_rules(game, p.trump, p.family)
        hands, _ = hand_masks(p, rules)
        solver_module._POOL.clear()
        fresh = Solver(rules, p.teams)
        fresh.load(hands, [], p.leader)
        expected = fresh.card_values()
        used = Solver(rules, p.teams)
        other = random_ending(game, rng, 5)
        used.load(hand_masks(other, rules)[0], [], other.leader)
        used.card_values()
        used.load(hands, [], p.leader)
        used.stats.limit = 30
        with pytest.raises(SearchLimit):
            used.card_values()
        search = used._s
        del used
        again = Solver(rules, p.teams)
        assert again._s is search
        assert (again.stats.nodes, again.stats.limit, len(again.tt)) == (0, 0, 0)
        again.load(hands, [], p.leader)
        assert again.card_values() == expected
        assert again.stats.nodes == fresh.stats.nodes
        assert Solver(rules, p.teams)._s is not search  # (in use by `again`)
