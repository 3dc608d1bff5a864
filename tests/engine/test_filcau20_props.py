"""Properties of 20-card Filcău over random deals and random players (who also
try wrong calls, wrong fris cards and false proofs): every hand holds 8 points;
a binding is only ever accepted from a hand eligible for it; matches end at 11;
undo restores the hand exactly. Everything goes through the public API."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalPlay, get_game
from engine.games.filcau20_binding import CALLS, binding_in, required

OPTIONS = st.fixed_dictionaries({}, optional={
    "must_trump": st.booleans(),
    "first_lead_after_binding": st.sampled_from(["left_of_dealer", "binder"]),
    "tie_break": st.sampled_from(["first_caller", "higher_over", "redeal"]),
    "closed_hand": st.sampled_from(["declare", "redeal"]),
    "rule7": st.sampled_from(["strongest", "highest_card_suit"]),
    "binding_compulsory": st.booleans(),
    "no_binding": st.sampled_from(["redeal_same_dealer", "next_dealer", "dealer_names"]),
    "fris_priority": st.sampled_from(["seat_order", "highest_over"]),
    "fris_turned_cards_bind": st.sampled_from(["d1", "d2"]),
    "status_ladder": st.sampled_from(["stepwise", "direct"]),
    "eight_nil_even": st.booleans(),
    "match_points": st.sampled_from(["after_status_update", "status_at_start"]),
})


def check_binding(f, game):
    """Whoever holds a binding holds a hand that makes it (the hand on record:
    the dealt hand, or the five cards he proved and must now play)."""
    if f.binder is None:
        return
    hand = f.hands[f.binder] if f.hands is not None else f.proven[f.binder]
    assert f.binding == required(hand, game.options["rule7"])
    if f.trump is not None:
        assert binding_in(hand, f.trump) == f.binding


def random_hand(game, state, rng, known, undo_checks=False):
    cut = rng.random() < 0.5
    dealt = game.deal(rng, state.dealer, cut=cut)
    held = [list(h) for h in dealt.hands]
    f = game.hand_flow(state, dealt.hands if known else None)
    for _ in range(500):
        check_binding(f, game)
        step = f.pending()
        if step.kind == "done":
            return f
        if undo_checks and rng.random() < 0.15:
            before = (f.pending(), f.deal.snapshot() if f.deal else None, f.phase)
            copy = [list(h) for h in held]
            try:
                act(f, step, game, held, rng)
            except IllegalPlay:
                continue
            f.undo()
            held = copy
            assert (f.pending(), f.deal.snapshot() if f.deal else None, f.phase) == before
            continue
        try:
            act(f, step, game, held, rng)
        except IllegalPlay:
            pass
    raise AssertionError(f"the hand did not end: {f.pending()}")


def act(f, step, game, held, rng):
    seat = step.seat
    if f.phase == "cut":
        f.choose(seat, rng.choice(step.choices))
    elif f.phase == "fris":
        r = rng.random()
        if r < 0.05:
            f.choose(f.dealer, "deal")
        elif r < 0.6:
            f.card(seat, rng.choice(held[seat][:3]))       # an Over makes fris
        else:
            f.choose(seat, "pass")
    elif f.phase == "bind":
        # half the time the call the hand makes, else any call at all, right or wrong:
        # the flow must refuse or strike the wrong ones
        must = required(held[seat], game.options["rule7"])
        if must is not None and rng.random() < 0.5:
            f.choose(seat, f"bind:{must.call}")
        else:
            f.choose(seat, rng.choice(["pass", "closed", *(f"bind:{c}" for c in CALLS)]))
    elif f.phase == "prove":
        if rng.random() < 0.1:
            f.choose(seat, "withdraw")
        else:
            f.card(seat, held[seat][len(f.proof)])
    elif f.phase == "name":
        f.choose(seat, rng.choice(["a", "l", "h", "b"]))
    elif f.phase == "turn":
        f.card(rng.choice([seat, f.dealer]), held[f.turning][3 + len(f.turn_cards)])
    elif step.kind == "play":
        if f.hands is not None:
            c = rng.choice(f.legal_cards())
        else:
            deal = f.deal
            legal = [c for c in held[seat] if deal.is_legal(seat, c)]
            if deal.in_fris_trick:
                # a follower uses his first three cards unless his others are turned up
                turned = deal.turned_cards(seat)
                first = [c for c in held[seat][:3] if c in legal]
                smalls = [c for c in first if c.rank in "UK"]
                legal = smalls or ([c for c in legal if c in turned or c in first]
                                   if turned else [])
            if not legal:
                f.choose(seat, "turn")
                return
            c = rng.choice(legal)
        f.card(seat, c)
        held[seat].remove(c)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_every_hand_has_8_points_and_only_eligible_bindings(seed, options, known):
    game = get_game("filcau20", options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    f = random_hand(game, state, rng, known)
    result = f.result()
    if "redeal" in result.extra:
        after = f.settled()
        assert after.score == state.score and after.boss == state.boss
        return
    assert sum(result.points) == 8 and sum(result.tricks) == 5
    check_binding(f, game)
    after = f.settled()
    assert sum(after.score) - sum(state.score) <= 1
    assert after.boss is None or game.team_of(after.dealer) != after.boss


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_random_matches_are_won_at_11(seed, options, known):
    game = get_game("filcau20", options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    for _ in range(3000):
        if state.over:
            break
        state = random_hand(game, state, rng, known).settled()
    assert state.over and state.score[state.winner] == 11
    assert state.score[1 - state.winner] < 11


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_undo_restores_the_hand_exactly(seed, options, known):
    game = get_game("filcau20", options)
    rng = random.Random(seed)
    random_hand(game, game.new_match(rng), rng, known, undo_checks=True)
