"""Properties of Sueca over random deals and random players: every hand holds
120 points and 10 tricks, matches always end, undo restores the state exactly.
Random hands and matches go through the public API (game.deal, game.hand_flow)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalPlay, get_game

OPTIONS = st.fixed_dictionaries({}, optional={
    "direction": st.sampled_from(["clockwise", "anticlockwise"]),
    "redeal_threshold": st.sampled_from(["at_most_10", "off", "brazil"]),
    "flag_requires_all_tricks": st.booleans(),
    "flag_effect": st.sampled_from(["match", "four_points"]),
    "tie": st.sampled_from(["carry_accumulate", "annul"]),
    "target": st.integers(1, 6),
    "revoke_mode": st.sampled_from(["strict", "denounce_match_loss", "denounce_hand_120"]),
})


def observable(f):
    """Everything the hand shows: the step it waits for, the play so far, the
    trump, a redeal claim in progress or granted, refused claims, the accept."""
    return (f.pending(), f.deal.snapshot() if f.deal is not None else None, f.trump,
            tuple(f.shown), f.redeal, f.showing, tuple(f.showing_cards),
            frozenset(f.refused), f.accepted, f.can_undo, f.finished)


def random_hand(game, state, rng, known=True, undo_checks=False):
    """Play one hand with random (sometimes wrong) actions; returns the flow.
    Every refused action must leave the hand exactly as it was."""
    dealt = game.deal(rng, state.dealer)
    held = [list(h) for h in dealt.hands]
    f = game.hand_flow(state, dealt.hands if known else None)
    for _ in range(400):
        step = f.pending()
        if step.kind == "done":
            return f
        before = observable(f)
        if undo_checks and f.deal is not None and rng.random() < 0.1:
            copy = [list(h) for h in held]
            try:
                _act(f, step, game, held, rng)
            except IllegalPlay:
                assert observable(f) == before
                continue
            f.undo()
            held = copy
            assert observable(f) == before
            continue
        try:
            _act(f, step, game, held, rng)
        except IllegalPlay:
            assert observable(f) == before
    raise AssertionError("the hand did not end")


def _act(f, step, game, held, rng):
    if step.kind == "show":
        f.card(step.seat, held[step.seat][-1] if step.seat == f.dealer else held[0][0])
        return
    if step.kind == "card":
        # Seat step.seat shows its hand for a redeal claim: tap the next unshown card.
        shown = f.showing_cards
        f.card(step.seat, [c for c in held[step.seat] if c not in shown][0])
        return
    claims_open = f.deal is not None and f.deal.played == 0
    if step.choices and (step.kind == "choose" or rng.random() < (0.3 if claims_open else 0.08)):
        choice = rng.choice(step.choices)
        seat = rng.randrange(4)
        if choice.startswith("redeal:"):
            seat = int(choice.split(":")[1])
        f.choose(seat, choice)
        return
    seat = step.seat
    if rng.random() < 0.1:
        # a wrong play, which the hand refuses: a card at another seat's reader, or
        # (hands known, revokes refused) a card that does not follow suit
        legal = f.legal_cards()
        wrong = [c for c in held[seat] if c not in legal] if f.hands is not None \
            and not game.denounce else []
        if wrong:
            f.card(seat, rng.choice(wrong))
        other = rng.choice([s for s in range(4) if s != seat])
        f.card(other, rng.choice(held[other] or held[seat]))
        raise AssertionError("a wrong play was accepted")
    if f.hands is not None:
        c = rng.choice(f.legal_cards())
    else:
        deal = f.deal
        trick = deal.current_trick
        legal = game.legal_subset(deal.trump, trick, held[seat])
        if game.denounce and rng.random() < 0.2:
            legal = held[seat]
        c = rng.choice(legal)
    f.card(seat, c)
    held[seat].remove(c)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_every_hand_has_120_points_and_10_tricks(seed, options, known):
    game = get_game("sueca", options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    f = random_hand(game, state, rng, known)
    result = f.result()
    if "redeal" in result.extra:
        assert f.settled() == state
        return
    if f.deal.penalty is None:
        assert sum(result.points) == 120
        assert sum(result.tricks) == 10
    else:
        assert sum(result.points) <= 120
    after = f.settled()
    assert after.dealer == (state.dealer + 1) % 4
    gained = [after.score[t] - state.score[t] for t in (0, 1)]
    assert min(gained) == 0 and max(gained) <= max(4, options.get("target", 4)) + state.carry


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_random_matches_end_with_a_winner(seed, options, known):
    game = get_game("sueca", options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    target = game.options["target"]
    for _ in range(200):
        if state.over:
            break
        f = random_hand(game, state, rng, known)
        new = f.settled()
        assert new.score[0] >= state.score[0] and new.score[1] >= state.score[1]
        state = new
    assert state.over
    assert state.score[state.winner] >= target


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, known=st.booleans())
def test_undo_restores_the_hand_exactly(seed, options, known):
    game = get_game("sueca", options)
    rng = random.Random(seed)
    random_hand(game, game.new_match(rng), rng, known, undo_checks=True)
