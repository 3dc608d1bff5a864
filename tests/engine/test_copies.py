"""A copy of a hand in play (a bot trying a card, the simulator's bot job, a
reading of the hand taken back) is a hand of its own: playing on it never
changes the real one, in every game."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from engine.bots import RandomBot, bot_action
from engine.games import game_ids


def _state(flow):
    d = flow.deal
    return (flow.pending(), None if d is None else
            (list(d.hands or []), d.played, d.turn, list(d.trick), list(d.points),
             list(d.voids), len(d.tricks), d.finished))


@pytest.mark.parametrize("gid", game_ids())
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ahead=st.integers(1, 12), split=st.integers(0, 30))
def test_playing_on_a_copy_leaves_the_hand_as_it_was(gid, seed, ahead, split):
    game = get_game(gid)
    rng = random.Random(seed)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    extra = dict(dealt.extra) if gid == "fildinsky" else {}
    flow = game.hand_flow(state, dealt.hands, **extra)
    hands = [list(h) for h in dealt.hands]

    def step(f, hs):
        kind, seat, what = bot_action(f, hs, RandomBot(), rng, dealt.shown)
        if kind == "done":
            return False
        if kind == "choose":
            f.choose(seat, what)
        else:
            ev = f.card(seat, what)
            if ev.kind == "played" and what in hs[seat]:
                hs[seat].remove(what)
        return True

    for _ in range(split):
        if not step(flow, hands):
            break
    before = _state(flow)
    trial = copy.deepcopy(flow)
    trial_hands = copy.deepcopy(hands)
    for _ in range(ahead):
        if not step(trial, trial_hands):
            break
    assert _state(flow) == before
    # and the real hand plays on as if no copy had been made
    if step(flow, hands):
        assert _state(flow) != before
