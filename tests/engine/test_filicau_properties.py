"""Hypothesis properties of Filicău hands played through the public API."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalPlay, UnknownCard, get_game
from engine.games.filicau import FilicauState, status_after

G = get_game("filicau")
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def dealt(seed: int):
    rng = random.Random(seed)
    return rng, G.deal(rng, rng.randrange(4))


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_a_random_legal_playout_ends_after_8_tricks_with_8_points(seed):
    rng, d = dealt(seed)
    deal = G.new_deal(d.trump, d.leader, d.hands)
    plays = 0
    while not deal.finished:
        legal = list(deal.legal_cards())
        assert legal, "the legal set is never empty"
        deal.play(deal.turn, rng.choice(legal))
        plays += 1
    assert plays == 32 and len(deal.tricks) == 8
    assert sum(deal.team_points()) == 8
    assert all(not deal.hand_of(s) for s in range(4))


@settings(max_examples=100, deadline=None)
@given(seeds, st.data())
def test_a_refused_play_changes_nothing(seed, data):
    rng, d = dealt(seed)
    deal = G.new_deal(d.trump, d.leader, d.hands)
    stop = data.draw(st.integers(0, 31))
    for _ in range(stop):
        deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
    seat = data.draw(st.integers(0, 3))
    code = data.draw(st.sampled_from([c.code for c in G.pack.cards] + ["2c", "Zz"]))
    before = deal.snapshot()
    try:
        deal.play(seat, code)
    except (IllegalPlay, UnknownCard):
        assert deal.snapshot() == before
    else:
        assert seat == before[2]  # only the seat whose turn it was could play


@settings(max_examples=100, deadline=None)
@given(seeds, st.integers(1, 32))
def test_undo_restores_the_exact_earlier_state(seed, n):
    rng, d = dealt(seed)
    deal = G.new_deal(d.trump, d.leader, d.hands)
    snaps = []
    for _ in range(n):
        snaps.append(deal.snapshot())
        deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
    for snap in reversed(snaps):
        deal.undo()
        assert deal.snapshot()[:-1] == snap[:-1]


@settings(max_examples=100, deadline=None)
@given(seeds)
def test_a_truthful_hand_played_with_hands_unknown_reports_no_revoke(seed):
    rng, d = dealt(seed)
    truth = G.new_deal(d.trump, d.leader, d.hands)
    blind = G.new_deal(d.trump, d.leader, known={d.dealer: d.shown})
    while not truth.finished:
        c = rng.choice(list(truth.legal_cards()))
        seat = truth.turn
        a = truth.play(seat, c)
        b = blind.play(seat, c)
        assert b.revoke is None
        assert a.trick == b.trick
    assert blind.finished and blind.team_points() == truth.team_points()


@settings(max_examples=100, deadline=None)
@given(seeds)
def test_a_revoke_is_always_caught_once_proven(seed):
    """Hands unknown: one seat fails to follow although it holds the led suit.
    The referee cannot see that yet; when the seat later plays a card of that
    suit, the revoke is reported, naming the seat and the trick."""
    rng, d = dealt(seed)
    blind = G.new_deal(d.trump, d.leader)
    hands = [list(h) for h in d.hands]
    tables = G.ranking.tables(d.trump)

    def eff(c):
        return tables.eff[G.pack.slot(c)]

    revoke = None  # (seat, effective suit, trick)
    while not blind.finished:
        seat = blind.turn
        hand = hands[seat]
        trick = blind.current_trick
        choice = rng.choice(G.legal_subset(d.trump, trick, hand))
        if trick and revoke is None:
            led = eff(trick[0])
            off = [c for c in hand if eff(c) != led]
            if off and len(off) < len(hand):
                choice = rng.choice(off)
                revoke = (seat, led, blind.trick_number)
        hand.remove(choice)
        out = blind.play(seat, choice)
        if out.revoke is not None:
            # Only the revoking seat is ever accused, for the trick of its revoke.
            assert revoke is not None
            assert (out.revoke.seat, out.revoke.trick) == (revoke[0], revoke[2])
            return
        if revoke is not None and seat == revoke[0] and eff(choice) == revoke[1] \
                and blind.tricks and len(blind.tricks) >= revoke[2]:
            raise AssertionError("a proven revoke was not reported")


@settings(max_examples=100, deadline=None)
@given(seeds)
def test_stopping_early_when_decided_gives_the_same_result(seed):
    early = get_game("filicau", {"early_stop_when_decided": True})
    rng, d = dealt(seed)
    full = G.new_deal(d.trump, d.leader, d.hands)
    short = early.new_deal(d.trump, d.leader, d.hands)
    while not full.finished:
        c = rng.choice(list(full.legal_cards()))
        seat = full.turn
        full.play(seat, c)
        if not short.finished:
            short.play(seat, c)
    state = FilicauState(None, d.dealer)
    for masters in (None, 0, 1):
        state = FilicauState(masters, d.dealer)
        assert early.settle(state, short.team_points()) == G.settle(state, full.team_points())
    assert status_after(None, full.team_points()) == status_after(None, short.team_points())
