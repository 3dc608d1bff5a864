"""20-card Filcău (RULES.md §1, §2.C): pack, ranking, points, legal plays, the
deal, and the status ladder and match points. Expectations worked out by hand."""

from __future__ import annotations

import random

import pytest

from engine import BadRequest, UnknownCard, UnknownOption, card, cards, get_game
from engine.games.filcau20 import Filcau20State
from engine.packs import GERMAN_20


def make_hands(*partial: str) -> list[list]:
    """Four hands of five, in the order received: each given hand (codes
    separated by spaces) is filled up with the unused cards in pack order."""
    given = [cards(p) for p in partial] + [[] for _ in range(4 - len(partial))]
    used = {c for h in given for c in h}
    rest = [c for c in GERMAN_20.cards if c not in used]
    out = []
    for h in given:
        need = 5 - len(h)
        out.append(h + rest[:need])
        rest = rest[need:]
    assert sorted(c.code for h in out for c in h) == sorted(c.code for c in GERMAN_20.cards)
    return out


def state(status=None, score=(0, 0), dealer=3) -> Filcau20State:
    return Filcau20State(status, score, dealer)


# ----- cards ------------------------------------------------------------------------


def test_the_pack_is_u_o_k_ten_ace_of_each_suit():
    g = get_game("filcau20")
    assert g.pack.size == 20
    assert {c.rank for c in g.pack.cards} == set("UOKTA")
    for code in ("7a", "9h", "8l"):
        with pytest.raises(UnknownCard):
            g.pack.parse(code)


def test_aces_and_tens_are_one_point_each_eight_in_all():
    g = get_game("filcau20")
    assert g.total_points == 8
    assert [g.ranking.card_points(card(c)) for c in ("Aa", "Th", "Kl", "Ob", "Uh")] \
        == [1, 1, 0, 0, 0]


def test_trump_order_overs_then_a_ten_k_u():
    g = get_game("filcau20")
    order = cards("Oa Ol Oh Ob Ah Th Kh Uh")      # hearts trumps
    for hi in range(len(order)):
        for lo in range(hi + 1, len(order)):
            assert g.trick_winner([order[lo], order[hi]], "h") == 1
            assert g.trick_winner([order[hi], order[lo]], "h") == 0


def test_plain_order_and_overs_are_never_plain_cards():
    g = get_game("filcau20")
    order = cards("Aa Ta Ka Ua")                  # acorns plain, hearts trumps
    for hi in range(4):
        for lo in range(hi + 1, 4):
            assert g.trick_winner([order[lo], order[hi]], "h") == 1
    assert g.trick_winner(cards("Aa Oa"), "h") == 1     # the acorn Over is a trump
    assert g.trick_winner(cards("Ka Ub"), "h") == 0     # off-suit, no trump: leader wins
    assert g.trick_winner(cards("Aa Ob Uh Ta"), "h") == 1


def test_follow_then_trump_with_overs_as_trumps():
    g = get_game("filcau20")
    assert g.legal_subset("h", cards("Ka"), cards("Ob Ub Ta")) == cards("Ta")
    assert g.legal_subset("h", cards("Ka"), cards("Ob Ub Tl")) == cards("Ob")   # void: trump
    assert g.legal_subset("h", cards("Ah"), cards("Ob Ua Tl")) == cards("Ob")   # Over follows
    assert g.legal_subset("h", cards("Ob"), cards("Uh Ua")) == cards("Uh")      # trump led
    assert g.legal_subset("h", cards("Ka"), cards("Ub Tl")) == cards("Ub Tl")


def test_must_trump_false_is_follow_suit_only():
    g = get_game("filcau20", {"must_trump": False})
    assert g.legal_subset("h", cards("Ka"), cards("Ob Ub Tl")) == cards("Ob Ub Tl")
    assert g.legal_subset("h", cards("Ah"), cards("Ob Ua Tl")) == cards("Ob")   # still follow


def test_knock_deals_five_at_once_from_the_dealers_left():
    g = get_game("filcau20")
    dealt = g.deal(random.Random(9), 1, cut=False)
    pack = list(g.pack.cards)
    random.Random(9).shuffle(pack)
    assert [list(dealt.hands[s]) for s in (2, 3, 0, 1)] == [pack[i:i + 5] for i in (0, 5, 10, 15)]
    assert dealt.leader == 2 and dealt.trump is None
    assert g.cutter(1) == 0                      # the player on the dealer's right cuts


def test_cut_deals_three_then_two():
    g = get_game("filcau20")
    dealt = g.deal(random.Random(9), 1, cut=True)
    pack = list(g.pack.cards)
    random.Random(9).shuffle(pack)
    order = (2, 3, 0, 1)
    for k, seat in enumerate(order):
        assert list(dealt.hands[seat][:3]) == pack[3 * k:3 * k + 3]
        assert list(dealt.hands[seat][3:]) == pack[12 + 2 * k:14 + 2 * k]


def test_unknown_options_are_refused():
    for bad in ({"tie_break": "coin"}, {"must_trump": "yes"}, {"legare": True}):
        with pytest.raises(UnknownOption):
            get_game("filcau20", bad)


@pytest.mark.parametrize("direction,order", [("default", (0, 1, 2, 3)),
                                             ("reverse", (0, 3, 2, 1))])
def test_seat_direction(direction, order):
    assert get_game("filcau20", {"seat_direction": direction}).physical_order() == order


# ----- the status ladder and match points ----------------------------------------------


@pytest.mark.parametrize("before,points,after,score", [
    (None, (6, 2), 0, (1, 0)),      # equal: 6 makes team 0 boss, and the boss scores
    (None, (2, 6), 1, (0, 1)),
    (None, (5, 3), None, (0, 0)),   # nobody reached 6: nothing changes, nobody scores
    (None, (4, 4), None, (0, 0)),
    (0, (5, 3), 0, (1, 0)),         # the boss team scores every hand it stays boss
    (0, (3, 5), 0, (1, 0)),
    (0, (7, 1), 0, (1, 0)),         # boss takes 6+: stays boss
    (0, (2, 6), None, (0, 0)),      # servants take 6: both equal, nobody scores
    (0, (0, 8), None, (0, 0)),      # one step only
    (1, (8, 0), None, (0, 0)),
])
def test_stepwise_ladder(before, points, after, score):
    g = get_game("filcau20")
    dealer = 3 if before != 1 else 0
    s = g.settle(state(before, dealer=dealer), list(points))
    assert s.boss == after and s.score == score


@pytest.mark.parametrize("before,points,after,score", [
    (0, (2, 6), 1, (0, 1)),         # straight from servant to boss
    (None, (6, 2), 0, (1, 0)),
    (0, (5, 3), 0, (1, 0)),
])
def test_direct_ladder(before, points, after, score):
    g = get_game("filcau20", {"status_ladder": "direct"})
    s = g.settle(state(before), list(points))
    assert s.boss == after and s.score == score


@pytest.mark.parametrize("option,before,points,after", [
    (False, None, (8, 0), 0), (True, None, (8, 0), None),
    (False, 1, (8, 0), None), (True, 0, (8, 0), None), (False, 0, (8, 0), 0),
])
def test_eight_nil_even(option, before, points, after):
    g = get_game("filcau20", {"eight_nil_even": option})
    dealer = 0 if before == 1 else 3
    assert g.settle(state(before, dealer=dealer), list(points)).boss == after


@pytest.mark.parametrize("timing,before,points,score", [
    ("after_status_update", 0, (2, 6), (0, 0)),
    ("status_at_start", 0, (2, 6), (1, 0)),
    ("after_status_update", None, (6, 2), (1, 0)),
    ("status_at_start", None, (6, 2), (0, 0)),
    ("status_at_start", 0, (5, 3), (1, 0)),
])
def test_match_points_timing(timing, before, points, score):
    g = get_game("filcau20", {"match_points": timing})
    assert g.settle(state(before), list(points)).score == score


def test_dealer_goes_round_while_equal_and_only_servants_deal_otherwise():
    g = get_game("filcau20")
    assert g.settle(state(None, dealer=3), [4, 4]).dealer == 0
    # team 0 becomes boss: the next dealer is the first servant after seat 3, seat 1
    s = g.settle(state(None, dealer=3), [6, 2])
    assert s.dealer == 1
    s = g.settle(s, [5, 3])          # boss stays: the servants take turns, 1 then 3
    assert s.dealer == 3
    s = g.settle(s, [5, 3])
    assert s.dealer == 1
    s = g.settle(s, [2, 6])          # both equal again: the next player
    assert s.boss is None and s.dealer == 2


def test_the_match_is_won_at_11():
    g = get_game("filcau20")
    s = g.settle(state(0, score=(10, 3)), [5, 3])
    assert s.score == (11, 3) and s.winner == 0 and s.over
    with pytest.raises(BadRequest):
        g.settle(s, [5, 3])
    s = g.settle(state(0, score=(9, 3)), [5, 3])
    assert s.winner is None


def test_settle_refuses_points_that_are_not_eight():
    g = get_game("filcau20")
    for bad in ([4, 3], [9, 0], [4], "4-4", [4.0, 4.0]):
        with pytest.raises(BadRequest):
            g.settle(state(), bad)


@pytest.mark.parametrize("rule,dealer", [("redeal_same_dealer", 3), ("next_dealer", 0),
                                         ("dealer_names", 3)])
def test_a_hand_nobody_bound(rule, dealer):
    g = get_game("filcau20", {"no_binding": rule})
    s = g.settle(state(None, score=(2, 1)), None, redeal=True)
    assert s.dealer == dealer and s.score == (2, 1) and s.boss is None


def test_state_json():
    g = get_game("filcau20")
    s = g.state_from_json({"status": "masters:1", "score": [2, 5], "dealer": 0})
    assert s.to_json() == {"status": "masters:1", "score": [2, 5], "dealer": 0, "winner": None}
    assert g.state_from_json({"dealer": 2}).to_json()["status"] == "even"
    for bad in ({"status": "boss", "dealer": 0}, {"dealer": 5}, {"dealer": 0, "score": [1]},
                {"status": "masters:1", "dealer": 1},   # a boss never deals
                {"dealer": 0, "carry": 1}, "x"):
        with pytest.raises(BadRequest):
            g.state_from_json(bad)
