"""20-card Filcău's rule 8 in the solver (`Position.no_trump_lead`): a
"three" binder who won trick 1 must lead a non-trump to trick 2. The solver
agrees exactly with the brute force (which writes the rule out) on random
endings where the rule bites at the first lead or at the next one, and a
live deal with rule 8 passes it on."""

from __future__ import annotations

import dataclasses
import random

from engine import get_game
from engine.analysis import SolverCache, analyse
from engine.analysis.position import legal_now, no_trump_lead_of
from tests.analysis.helpers import brute_force, random_ending


def test_the_solver_agrees_with_the_brute_force_under_rule_8():
    game = get_game("filcau20")
    rng = random.Random("rule8")
    cache = SolverCache()
    bit = 0
    for i in range(120):
        p = random_ending(game, rng, 4 if i % 2 else 3)
        # The restriction bites at the next lead: the leader now, or whoever
        # wins the trick under way.
        cards = len(p.hands[p.leader])   # (a leader who has played holds the next lead's count)
        seat = rng.randrange(game.players) if p.trick else p.leader
        p = dataclasses.replace(p, no_trump_lead=(seat, cards))
        points, values = brute_force(p, memo={})
        got = analyse(p, cache=cache if i % 3 else None)
        assert got.points == points, (i, p)
        assert got.values == values, (i, p)
        plain = dataclasses.replace(p, no_trump_lead=None)
        bit += brute_force(plain, memo={}) != (points, values)
    assert bit >= 20    # the rule changed the answer in a good share of them (29)


def test_the_leader_under_rule_8_has_only_his_plain_cards():
    from engine import cards

    game = get_game("filcau20")
    hands = (tuple(cards("Ob Th Kl Ah")), tuple(cards("Ul Ub Kb Ua")),
             tuple(cards("Ol Al Tl Kh")), tuple(cards("Ab Tb Uh Ka")))
    from engine.analysis import Position

    p = Position(game, "h", hands, (), 0, (0, 1, 0, 1), (0, 0), None, (0, 4))
    assert {c.code for c in legal_now(p)} == {"Kl"}
    free = dataclasses.replace(p, no_trump_lead=None)
    assert {c.code for c in legal_now(free)} == {"Ob", "Th", "Kl", "Ah"}
    # and the values: only Kl is valued
    assert {c.code for c in analyse(p).values} == {"Kl"}


def test_a_live_deal_gives_its_rule_8_seat():
    game = get_game("filcau20")
    d = game.deal(random.Random(3), 0)
    deal = game.new_deal(d.trump, d.leader, d.hands)
    assert no_trump_lead_of(deal) is None
    deal.rule8 = 2  # the "three" binder
    assert no_trump_lead_of(deal) == (2, 4)


def test_best_play_under_rule_8_is_legal_for_the_game_and_reaches_the_solved_value():
    """The game's own deal (its rule 8 refuses a trump lead to trick 2 by the
    binder who won trick 1) accepts every best card of the solver, and best
    play ends with the points solved at the start."""
    from engine.analysis import position_of
    from engine.games.filcau20.deal import Filcau20Deal

    game = get_game("filcau20")
    rng = random.Random(8)
    bit = 0
    for _ in range(40):
        dealt = game.deal(rng, 0)
        binder = dealt.leader
        deal = Filcau20Deal(game, dealt.trump, dealt.leader,
                            dealt.hands, rule8=binder)
        start = analyse(position_of(deal), values=False).points
        while not deal.finished:
            a = analyse(position_of(deal))
            deal.play(deal.turn, min(a.best_cards(), key=lambda c: c.code))
            bit += deal.rule8_applies(deal.turn)
        assert tuple(deal.team_points()) == start
    assert bit >= 3   # the binder led trick 2 under the rule in some of them
