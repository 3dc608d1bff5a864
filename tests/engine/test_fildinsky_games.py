"""Whole Fildinsky games to 2000 with random play, through the public engine API
and through the hand flow, with the deal read, partly read or not read at all."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.games.fildinsky.deal import Declared, TrickScore

OPTION_SETS = [
    {},
    {"deece_exchange_to": "hand", "deece_trigger": "played_by_winner",
     "tie_rule_phase1": False, "turned_seven_scores": True, "bezique_pair": "classic_switch",
     "revoke_penalty": "forfeit_last_eight"},
    {"game_end": "end_of_hand", "last_trick_bonus": 32, "meld_needs_current_trick_card": False,
     "deal_pattern": "2-3-3", "first_dealer": 1},
]


def check_hand(g, deal):
    assert deal.points == [deal.brisques[s] + deal.meld_points[s] + deal.bonus_points[s]
                           for s in (0, 1)]
    per_trick: dict[int, int] = {}
    for e in deal.events:
        if isinstance(e, Declared):
            per_trick[e.trick] = per_trick.get(e.trick, 0) + 1
            assert e.seat == deal.tricks[e.trick - 1].winner
    assert all(n <= 2 for n in per_trick.values())
    if not deal.finished or len(deal.tricks) < 32:
        assert g.options["game_end"] == "immediate" and deal.reached_target() is not None
    brisques = sum(e.brisques for e in deal.events if isinstance(e, TrickScore))
    assert brisques == sum(deal.brisques) <= 160


def play_match(g, rng, mode):
    state = g.new_match(rng)
    hands = 0
    while not state.over:
        dealt = g.deal(rng, state.dealer)
        if mode == "full":
            deal = g.start_hand(state, dealt)
        elif mode == "hands":
            deal = g.start_hand(state, dealt, read_stock=False)
        else:
            deal = g.new_hand(state, dealt.extra["turn_up"])
        stock = dealt.extra["stock"]
        while not deal.finished:
            stage, seat = deal.pending()
            if stage == "draw" and mode == "hands":
                deal.draw(seat, stock[47 - deal.face_down])  # the table reads each draw
            else:
                deal.step_randomly(rng)
        if mode != "blind":
            assert deal.revokes == []
        check_hand(g, deal)
        before = state.score
        state = g.settle_deal(state, deal)
        assert state.score == (before[0] + deal.points[0], before[1] + deal.points[1])
        hands += 1
    return state, hands


@pytest.mark.parametrize("seed", [100, 200])
@pytest.mark.parametrize("mode", ["full", "hands", "blind"])
@pytest.mark.parametrize("options", range(len(OPTION_SETS)))
def test_random_matches_to_2000(mode, options, seed):
    g = get_game("fildinsky", OPTION_SETS[options])
    rng = random.Random(seed + options)
    state, hands = play_match(g, rng, mode)
    a, b = state.score
    assert state.winner == (0 if a > b else 1) and max(a, b) >= 2000 and hands >= 2
    if g.options["game_end"] == "immediate":
        assert min(a, b) < 2000


@pytest.mark.parametrize("mode", ["full", "hands", "blind"])
def test_random_matches_through_the_hand_flow_with_undo(mode):
    g = get_game("fildinsky")
    rng = random.Random(7)
    state = g.new_match(rng)
    while not state.over:
        dealt = g.deal(rng, state.dealer)
        stock = dealt.extra["stock"]
        f = g.hand_flow(state, None if mode == "blind" else dealt.hands,
                        stock=stock if mode == "full" else None)
        f.card(state.dealer, dealt.extra["turn_up"])
        while True:
            step = f.pending()
            if step.kind == "done":
                break
            if step.kind == "play":
                f.card(step.seat, rng.choice(list(f.deal.legal_cards())))
            elif step.kind == "choose":
                f.choose(step.seat, rng.choice(step.choices))
            elif step.kind == "card":
                f.card(step.seat, stock[47 - f.deal.face_down])
            if rng.random() < 0.03:
                before = f.deal.snapshot() if f.deal is not None else None
                f.undo()
                assert f.deal is None or f.deal.snapshot() != before
        check_hand(g, f.deal)
        state = f.settled()
    assert state.over and max(state.score) >= 2000
