"""Fildinsky with the stock (and hands) known or unknown: the engine refuses
only what it can prove, and reports revokes it proves later."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalPlay, card, cards
from engine.games.fildinsky.deal import TrickScore
from tests.engine.test_fildinsky_helpers import game, make_deal, reach_last_eight


def codes(cs):
    return sorted(c.code for c in cs)


def refused(action):
    with pytest.raises(IllegalPlay) as e:
        action()
    return e.value.reason


def no_melds(deal):
    if deal.stage == "meld":
        deal.close_melds(deal.declarer)


def blind(turn_up="9h", **options):
    g = game(**options)
    return g.new_deal(card(turn_up).suit, 0, None, turn_up=card(turn_up))


# ----- the stock phase, nothing seen but the plays -------------------------------------

def test_blind_hand_accepts_what_it_cannot_disprove():
    deal = blind()
    assert not deal.hands_known
    deal.play(0, card("Ac"))
    done = deal.play(1, card("Ac")).trick  # the other copy
    assert done.winner == 0 and done.points == 20
    assert deal.pending() == ("draw", 0)  # draws wait to be reported
    deal.draw(0, None)
    deal.draw(1, None)
    assert refused(lambda: deal.play(0, card("Ac"))) == "already_played"
    deal.play(0, card("9h"))  # one 9♥ is free; the other lies under the stock
    assert refused(lambda: deal.play(1, card("9h"))) == "not_in_hand"
    deal.play(1, card("Qs"))


def test_a_draw_seen_by_the_table_is_known():
    deal = blind()
    deal.play(0, card("Kd"))
    deal.play(1, card("7c"))
    deal.draw(0, card("Qs"))
    deal.draw(1, card("Qs"))  # the other copy
    assert codes(deal.hand_of(0)) == ["Qs"] and codes(deal.hand_of(1)) == ["Qs"]
    assert deal.unknown == [7, 7]
    deal.play(0, card("Qs"))
    deal.play(1, card("Qs"))
    deal.draw(0, None)
    deal.draw(1, None)
    assert refused(lambda: deal.draw(0, card("Qs"))) == "not_expected"
    deal.play(0, card("Kd"))  # the other K♦
    assert refused(lambda: deal.play(1, card("Kd"))) == "already_played"


def test_a_draw_that_cannot_be_in_the_stock_is_refused():
    deal = blind()
    deal.play(0, card("Ac"))
    deal.play(1, card("Ac"))
    assert refused(lambda: deal.draw(0, card("Ac"))) == "not_in_stock"
    assert deal.pending() == ("draw", 0)
    deal.draw(0, card("9h"))  # the one 9♥ not under the stock
    assert refused(lambda: deal.draw(1, card("9h"))) == "not_in_stock"
    assert refused(lambda: deal.draw(0, None)) == "not_your_turn"


def test_a_fully_known_hand_is_exact():
    g = game()
    h0 = cards("Ac Tc 7d 8d 9d Td Jd Qd")
    deal = g.new_deal("h", 0, None, {0: h0}, turn_up=card("9h"))
    assert deal.unknown == [0, 8]
    assert refused(lambda: deal.play(0, card("Kc"))) == "not_in_hand"
    deal.play(0, card("Tc"))
    deal.play(1, card("Kc"))


def test_hands_known_stock_unknown_draws_are_reported():
    g = game()
    deal = make_deal(g, "Ac Tc 8d 9d Td Jd Qd Kd", "Kc 7c 8d 9s Ts Js Qs Ks", "9h",
                     stock_known=False)
    deal.play(0, card("Ac"))
    deal.play(1, card("Kc"))
    assert deal.pending() == ("draw", 0)
    assert refused(lambda: deal.draw(0, card("8d"))) == "not_in_stock"  # both 8♦ dealt
    deal.draw(0, card("As"))
    assert deal.hands_known and "As" in codes(deal.hand_of(0))
    deal.draw(1, None)  # not seen: seat 1's hand is partly unknown now
    assert not deal.hands_known
    assert deal.unknown == [0, 1] and len(deal.hand_of(1)) == 7
    # Seat 0 is still known exactly.
    assert refused(lambda: deal.play(0, card("7h"))) == "not_in_hand"
    deal.play(0, card("As"))
    deal.play(1, card("7h"))  # the card he drew, for all the table knows


def test_hands_and_stock_known_draws_are_automatic():
    deal = make_deal(game(), "Ac Tc 8d 9d Td Jd Qd Kd", "Kc 7c 8d 9s Ts Js Qs Ks", "9h",
                     stock_top="Jh Qh")
    deal.play(0, card("Ac"))
    deal.play(1, card("Kc"))
    assert deal.pending() == ("play", 0)
    assert "Jh" in codes(deal.hand_of(0)) and "Qh" in codes(deal.hand_of(1))
    assert refused(lambda: deal.draw(0, card("Jh"))) == "not_expected"


# ----- the last eight tricks, hands unseen ------------------------------------------------

LEAD = "8h Kc Qc Jc 7c 7d 8d"
FOLLOW = "7h Ac 9c 7s 8s 9s Ts"


def test_the_turn_up_is_known_in_the_loser_of_trick_24s_hand():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW, know_hands=False)
    follower = 1 - leader
    assert codes(deal.hand_of(follower)) == ["9h"] and deal.unknown_of(follower) == 7
    assert deal.hand_of(leader) == [] and deal.unknown_of(leader) == 8


def test_blind_last_eight_refuses_proven_wrong_plays():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW, know_hands=False)
    follower = 1 - leader
    deal.play(leader, card("8h"))
    # He holds the 9♥ (the turn-up): hearts must be followed, and beaten.
    assert codes(deal.legal_cards()) == ["9h"]
    assert refused(lambda: deal.play(follower, card("7s"))) == "must_follow"
    assert refused(lambda: deal.play(follower, card("7h"))) == "must_beat"
    assert refused(lambda: deal.play(follower, card("Th"))) == "already_played"
    deal.play(follower, card("9h"))


def test_blind_last_eight_must_trump_with_the_known_trump():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW, know_hands=False)
    deal.play(leader, card("Kc"))
    # Whether he has clubs or not, a spade is wrong: he holds a trump.
    assert refused(lambda: deal.play(1 - leader, card("7s"))) == "must_trump"


def test_blind_last_eight_a_low_card_is_accepted_then_the_revoke_proven():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW, know_hands=False)
    follower = 1 - leader
    deal.play(leader, card("Kc"))
    out = deal.play(follower, card("9c"))  # he also holds A♣: unprovable now
    assert out.revoke is None and out.trick.winner == leader
    no_melds(deal)
    deal.play(leader, card("Qc"))
    out = deal.play(follower, card("Ac"))
    assert (out.revoke.seat, out.revoke.trick, out.revoke.suit) == (follower, 25, "c")
    assert deal.revokes == [out.revoke]


def test_blind_last_eight_a_false_void_is_proven_later():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW, know_hands=False)
    follower = 1 - leader
    deal.play(leader, card("Kc"))
    assert deal.play(follower, card("9h")).trick.winner == follower  # "no clubs"
    no_melds(deal)
    out = deal.play(follower, card("Ac"))
    assert (out.revoke.seat, out.revoke.trick, out.revoke.suit) == (follower, 25, "c")


def test_known_last_eight_refuses_the_same_low_card():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW, know_hands=True)
    deal.play(leader, card("Kc"))
    assert refused(lambda: deal.play(1 - leader, card("9c"))) == "must_beat"
    assert refused(lambda: deal.play(1 - leader, card("9h"))) == "must_follow"


# ----- invariants and undo, every way of knowing -------------------------------------------

MODES = ("full", "hands", "blind")


def start(g, rng, mode):
    from engine.games.fildinsky import FildinskyState

    dealt = g.deal(rng, 1)
    st_ = FildinskyState(1)
    if mode == "full":
        return g.start_hand(st_, dealt), dealt
    if mode == "hands":
        return g.start_hand(st_, dealt, read_stock=False), dealt
    return g.new_hand(st_, dealt.extra["turn_up"]), dealt


def check_cards_accounted(deal):
    """Every slot is in exactly one place: a hand, the table/won piles, the
    stock, or (hands unknown) the places the engine does not know."""
    full = deal.pack.full_mask
    stock = 0
    if deal.stock_order is not None:
        for s in deal.stock_order[deal.stock_pos:]:
            stock |= 1 << s
    if deal.bottom is not None:
        stock |= 1 << deal.bottom
    parts = [deal.known_of(0), deal.known_of(1), deal.played, stock, deal.unseen()]
    total = 0
    for p in parts:
        assert total & p == 0
        total |= p
    assert total == full
    assert deal.unseen().bit_count() == deal.unknown_of(0) + deal.unknown_of(1) + (
        deal.face_down if deal.stock_order is None else 0)
    if deal.stage == "play" and not deal.trick:
        size = 32 - len(deal.tricks) if deal.stock_empty else 8
        assert deal.hand_size_of(0) == deal.hand_size_of(1) == size
    won = Counter()
    for s in (0, 1):
        won.update(deal.won_cards(s))
    assert sum(won.values()) + deal.trick.__len__() == (deal.played.bit_count())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(MODES),
       st.sampled_from([{}, {"deece_exchange_to": "hand"}, {"tie_rule_phase1": False},
                        {"meld_needs_current_trick_card": False, "turned_seven_scores": True},
                        {"deece_trigger": "played_by_winner", "last_trick_bonus": 32,
                         "revoke_penalty": "forfeit_last_eight"}]))
def test_random_hands_keep_every_card_accounted_and_undo_exactly(seed, mode, options):
    rng = random.Random(seed)
    g = game(game_end="end_of_hand", **options)
    deal, _ = start(g, rng, mode)
    snaps = [deal.snapshot()]
    while not deal.finished:
        deal.step_randomly(rng)
        check_cards_accounted(deal)
        snaps.append(deal.snapshot())
    assert len(deal.tricks) == 32
    assert deal.points == [deal.brisques[s] + deal.meld_points[s] + deal.bonus_points[s]
                           for s in (0, 1)]
    # Every Ace and Ten is won in a trick, except a turned-up one exchanged
    # into the won cards (no brisque there).
    kept_out = (deal.exchanged and g.options["deece_exchange_to"] == "won_pile"
                and deal.turn_up.rank in "AT")
    assert sum(deal.brisques) == 160 - (10 if kept_out else 0)
    # Undo everything, checking each state on the way back.
    snaps.pop()
    while deal.can_undo:
        deal.undo()
        assert deal.snapshot() == snaps.pop()
    assert not snaps
    with pytest.raises(IllegalPlay):
        deal.undo()


@pytest.mark.parametrize("penalty", ["none", "forfeit_last_eight"])
def test_revoke_penalty_forfeits_the_last_eight(penalty):
    g = game(revoke_penalty=penalty)
    deal, leader = reach_last_eight(g, LEAD, FOLLOW, know_hands=False)
    follower = 1 - leader
    for seat, c in ((leader, "Kc"), (follower, "9c"),   # 25: hides his A♣
                    (leader, "7d"), (follower, "7h")):  # 26: trumps with the deece
        deal.play(seat, card(c))
        no_melds(deal)
    scores = [e for e in deal.events if isinstance(e, TrickScore)]
    assert (scores[-1].trick.winner, scores[-1].deece) == (follower, 10)
    before = list(deal.points)
    deal.play(follower, card("Ts"))  # 27: the leader trumps and wins 10
    deal.play(leader, card("8h"))
    no_melds(deal)
    assert deal.points[leader] == before[leader] + 10
    deal.play(leader, card("Qc"))
    out = deal.play(follower, card("Ac"))  # 28: the revoke of trick 25 is proven
    assert out.revoke.trick == 25 and out.trick.winner == follower
    gained = [deal.points[s] - before[s] for s in (0, 1)]
    if penalty == "none":
        assert gained[follower] == 10 and gained[leader] == 10
    else:
        # His tricks of the last eight count for the other player: the deece
        # of trick 26 moves over, and so does trick 28.
        assert gained[follower] == -10 and gained[leader] == 30
        no_melds(deal)
        while not deal.finished:
            stage, seat = deal.pending()
            if stage == "meld":
                deal.close_melds(seat)
            else:
                deal.play(seat, next(iter(deal.legal_cards())))
        last_eight = [e for e in deal.events
                      if isinstance(e, TrickScore) and e.trick.number > 24]
        assert all(e.credited == leader for e in last_eight if e.trick.winner == follower)
