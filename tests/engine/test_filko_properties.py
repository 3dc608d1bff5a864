"""Properties of every Filkó variant, over random deals: the card points of a
hand always add up to the variant's total, the seat to play always has a
legal card, a refused play changes nothing, and whole matches finish."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EngineError, IllegalPlay, get_game
from engine import bots as filko_bot

VARIANTS = [
    ("filko", {}),
    ("filko", {"over_order": "ahbl", "cutter": "right", "first_lead": "left"}),
    ("filko", {"servant_choice": "auto", "dealer_while_even": "loser", "cut_min_size": 12}),
    ("filko_hats", {}),
    ("filko_hats", {"win_threshold": 62, "over_order": "ahbl"}),
    ("filko6", {}),
    ("filko6", {"top_trumps": "szeged"}),
    ("filko6", {"scoring": "romanian", "over_order": "ahbl"}),
    ("filko6", {"top_trumps": "szeged", "servant_choice": "auto"}),
    ("filko5", {}),
    ("filko5", {"top_trumps": "szeged", "old_man_card": "top_trump"}),
    ("filko5", {"top_trumps": "kelebia"}),
    ("filko5", {"top_trumps": "kelebia", "undertrump_required": False}),
    ("filko5", {"old_man_may_call_own_card": True, "over_order": "ahbl"}),
    ("filko5", {"liberating_team": "old_man_opponents", "liberation_by_6_makes_masters": True}),
    ("filko5", {"teams": "rich_poor"}),
    ("filko5", {"teams": "rich_poor", "rich_poor_form": "called"}),
    ("filko5", {"teams": "rich_poor", "teams_fixed_until_liberated": True,
                "liberation_threshold": 3}),
    ("filko5", {"teams": "rich_poor", "both_top_overs": "alone", "rp_leader": "right",
                "rp_dealer": "next_loser", "over_order": "ahbl"}),
    ("filko5", {"teams": "rich_poor", "top_trumps": "kelebia"}),
]
IDS = [f"{gid}-{'-'.join(f'{k}={v}' for k, v in opts.items()) or 'default'}"
       for gid, opts in VARIANTS]


def snapshot(flow):
    deal = flow.deal
    return (flow.pending(), len(flow._log), tuple(flow.shown), flow.trump,
            deal.snapshot() if deal is not None else None)


def refused_plays(game, flow, rng):
    """Plays the rules refuse at this moment: a wrong seat, and (hands known)
    a held card that is not legal or a card the seat does not hold."""
    deal = flow.deal
    turn = deal.turn
    legal = set(deal.legal_cards())
    out = [((turn + 1) % game.players, rng.choice(sorted(legal, key=str)))]
    if deal.hands_known:
        held = deal.hand_of(turn)
        out += [(turn, c) for c in held if c not in legal][:2]
        other = deal.hand_of((turn + 1) % game.players)
        if other:
            out.append((turn, other[0]))
    return out


def play_checked_hand(gid, options, seed, hands_known):
    game = get_game(gid, options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    flow = game.hand_flow(state, dealt.hands if hands_known else None)
    while flow.pending().kind != "done":
        step = flow.pending()
        if step.kind == "play":
            assert flow.deal.legal_mask() != 0, "the seat to play has no legal card"
            if hands_known:
                assert list(flow.deal.legal_cards())
            for seat, c in refused_plays(game, flow, rng):
                before = snapshot(flow)
                with pytest.raises(IllegalPlay):
                    flow.card(seat, c)
                assert snapshot(flow) == before
        filko_bot.step(game, flow, dealt, rng)
    return game, flow, state


@pytest.mark.parametrize("gid, options", VARIANTS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hands_known=st.booleans())
def test_a_random_hand_keeps_the_rules(gid, options, seed, hands_known):
    game, flow, state = play_checked_hand(gid, options, seed, hands_known)
    result = flow.result()
    assert sum(result.points) == game.total_points
    assert sum(result.tricks) == game.tricks_per_hand
    assert sum(flow.deal.points) == game.total_points
    after = flow.settled()
    # The new state survives the referee's JSON round trip unchanged.
    assert game.state_from_json(after.to_json()).to_json() == after.to_json()


@pytest.mark.parametrize("gid, options", VARIANTS, ids=IDS)
@pytest.mark.parametrize("hands_known", [True, False], ids=["known", "unknown"])
def test_a_whole_match_finishes(gid, options, hands_known):
    game = get_game(gid, {**options, "match_length": 6})
    state, played = filko_bot.play_match(game, random.Random(len(gid) + len(options)),
                                         hands_known)
    assert played == 6 and state.over
    assert state.to_json()["over"] is True


@pytest.mark.parametrize("gid, options", VARIANTS, ids=IDS)
def test_the_stateless_questions_agree_with_the_hand(gid, options):
    """`legal_subset` (the referee's `legal`) gives the same cards as the hand
    for the seat to play, all through a random hand."""
    game = get_game(gid, options)
    rng = random.Random(99)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    flow = game.hand_flow(state, dealt.hands)
    while flow.pending().kind != "done":
        if flow.pending().kind == "play":
            deal = flow.deal
            hand = deal.hand_of(deal.turn)
            assert set(game.legal_subset(deal.trump, deal.current_trick, hand)) == set(
                deal.legal_cards())
        filko_bot.step(game, flow, dealt, rng)


def test_settled_before_the_end_is_refused():
    game = get_game("filko5")
    rng = random.Random(3)
    state = game.new_match(rng)
    flow = game.hand_flow(state, game.deal(rng, state.dealer).hands)
    with pytest.raises(EngineError):
        flow.settled()


FIVE = [(gid, opts) for gid, opts in VARIANTS if gid == "filko5"]


def true_teams(game, flow, hands):
    """The partnership worked out from the dealt hands, as the rules define it."""
    old_man = flow.old_man
    if flow.called is not None:
        chain = [flow.called]
    else:
        chain = list(game.rich_cards[1:2] if game.options["both_top_overs"] == "alone"
                     else game.rich_cards[1:])
    partner = old_man
    for c in chain:
        holder = next(s for s, h in enumerate(hands) if c in h)
        if holder != old_man:
            partner = holder
            break
    return tuple(0 if s in (old_man, partner) else 1 for s in range(5)), chain


@pytest.mark.parametrize("gid, options", FIVE, ids=[i for i, v in zip(IDS, VARIANTS,
                                                                        strict=True)
                                                    if v[0] == "filko5"])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_view_leaks_the_secret_partner(gid, options, seed):
    game = get_game(gid, options)
    rng = random.Random(seed)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    flow = game.hand_flow(state, dealt.hands)
    while flow.deal is None:
        filko_bot.step(game, flow, dealt, rng)
    truth, chain = true_teams(game, flow, dealt.hands)
    old_man = flow.old_man
    partner = next((s for s in range(5) if truth[s] == 0 and s != old_man), None)
    # The partner card: the first card of the chain the Old Man does not hold.
    held = dealt.hands[old_man]
    key = next((c for c in chain if c not in held), None)
    upto = chain[:chain.index(key) + 1] if key is not None else chain
    while True:
        played = {c for t in flow.deal.tricks for c in t.cards} | set(flow.deal.current_trick)
        for viewer in (None, 0, 1, 2, 3, 4):
            view = flow.view(viewer)
            assert all(t is None or t == truth[s] for s, t in enumerate(view.teams)), viewer
            # Until the partner card is played, nobody but the partner can name him.
            if partner is not None and key not in played and viewer != partner:
                assert view.teams[partner] is None, (viewer, view.teams)
                assert view.team_points is None
        # Everybody knows once every card of the chain up to it has been played.
        public = flow.view(None)
        if all(c in played for c in upto):
            assert public.teams == truth
        else:
            assert public.teams == tuple(0 if s == old_man else None for s in range(5))
            assert public.team_points is None
        if flow.pending().kind == "done":
            break
        filko_bot.step(game, flow, dealt, rng)
    assert flow.teams() == truth
