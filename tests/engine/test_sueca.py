"""Sueca (RULES.md §2.E): pack, ranking, points, legal plays, the deal, and how
a hand's result changes the match. Expectations are worked out by hand from
the rules."""

from __future__ import annotations

import random

import pytest

from engine import BadRequest, IllegalPlay, UnknownCard, UnknownOption, card, cards, get_game
from engine.games.sueca import SuecaState
from engine.games.sueca.deal import Penalty
from engine.packs import FRENCH_40


def make_hands(*partial: str) -> list[list]:
    """Four hands of ten: each given hand (codes separated by spaces) is filled
    up with the unused cards of the pack, in pack order."""
    given = [cards(p) for p in partial] + [[] for _ in range(4 - len(partial))]
    used = {c for h in given for c in h}
    rest = [c for c in FRENCH_40.cards if c not in used]
    out = []
    for h in given:
        need = 10 - len(h)
        out.append(h + rest[:need])
        rest = rest[need:]
    assert sorted(c.code for h in out for c in h) == sorted(c.code for c in FRENCH_40.cards)
    return out


def state(score=(0, 0), carry=0, dealer=3) -> SuecaState:
    return SuecaState(score, carry, dealer)


# ----- cards ------------------------------------------------------------------------


def test_the_pack_has_forty_cards_without_eights_nines_and_tens():
    g = get_game("sueca")
    assert g.pack.size == 40
    assert {c.rank for c in g.pack.cards} == set("234567JQKA")
    for code in ("8h", "9s", "Tc"):
        with pytest.raises(UnknownCard):
            g.pack.parse(code)


def test_card_points_add_up_to_120():
    g = get_game("sueca")
    assert g.total_points == 120
    assert [g.ranking.card_points(card(c)) for c in ("Ah", "7h", "Kh", "Jh", "Qh", "6h", "2h")] \
        == [11, 10, 4, 3, 2, 0, 0]


@pytest.mark.parametrize("suit", ["s", "h"])  # plain suit (trump h) and the trump suit itself
def test_ranking_a_7_k_j_q_6_5_4_3_2(suit):
    g = get_game("sueca")
    order = ["A", "7", "K", "J", "Q", "6", "5", "4", "3", "2"]
    for hi in range(len(order)):
        for lo in range(hi + 1, len(order)):
            # led low, then high: the high card wins; led high: the high card wins
            assert g.trick_winner(cards([order[lo] + suit, order[hi] + suit]), "h") == 1
            assert g.trick_winner(cards([order[hi] + suit, order[lo] + suit]), "h") == 0


def test_trump_beats_any_plain_card_and_off_suit_cards_never_win():
    g = get_game("sueca")
    assert g.trick_winner(cards("As 2h Ks 7s"), "h") == 1
    assert g.trick_winner(cards("2s Ac Ad Kc"), "h") == 0   # nobody followed, no trump
    assert g.trick_winner(cards("2s 3h Ad 4h"), "h") == 3   # higher trump wins
    assert g.trick_points(cards("Ks As 2h 7s")) == 25


def test_follow_suit_only_no_duty_to_trump_or_beat():
    g = get_game("sueca")
    hand = cards("2s Ah 3d")
    assert g.legal_subset("h", cards("Ks"), hand) == cards("2s")  # must follow, may under-play
    hand = cards("Ah 3d Jc")
    assert g.legal_subset("h", cards("Ks"), hand) == hand         # void: anything, trump or not
    verdict = g.verdict("h", cards("Ks"), cards("2s Ah"), card("Ah"))
    assert verdict is not None and verdict.reason == "must_follow"


def test_the_trump_is_the_turned_card():
    g = get_game("sueca")
    assert g.trump_from_shown([card("7d")]) == ("d", 1)
    with pytest.raises(BadRequest):
        g.trump_from_shown([])


def test_deal_ten_at_a_time_turned_card_stays_with_the_dealer():
    g = get_game("sueca")
    rng = random.Random(5)
    dealt = g.deal(rng, 2)
    pack = list(g.pack.cards)
    random.Random(5).shuffle(pack)
    assert dealt.shown == (pack[-1],)
    assert dealt.trump == pack[-1].suit
    assert dealt.hands[3] == tuple(pack[0:10])   # the player after the dealer first
    assert dealt.hands[0] == tuple(pack[10:20])
    assert dealt.hands[1] == tuple(pack[20:30])
    assert dealt.hands[2] == tuple(pack[30:40])  # the dealer's packet holds the turned card
    assert pack[-1] in dealt.hands[2]
    assert dealt.leader == 3


# ----- options ----------------------------------------------------------------------


def test_unknown_options_are_refused():
    with pytest.raises(UnknownOption):
        get_game("sueca", {"tie": "replay"})
    with pytest.raises(UnknownOption):
        get_game("sueca", {"target": 0})
    with pytest.raises(UnknownOption):
        get_game("sueca", {"bandeira": True})


@pytest.mark.parametrize("direction,order", [("clockwise", (0, 1, 2, 3)),
                                             ("anticlockwise", (0, 3, 2, 1))])
def test_direction_decides_where_the_next_seat_sits(direction, order):
    g = get_game("sueca", {"direction": direction})
    assert g.physical_order() == order
    # either way, the player after the dealer receives the first packet and leads
    dealt = g.deal(random.Random(1), 0)
    assert dealt.leader == 1
    assert dealt.extra["direction"] == direction


# ----- the match --------------------------------------------------------------------


@pytest.mark.parametrize("points,score", [
    ((61, 59), (1, 0)), ((90, 30), (1, 0)), ((91, 29), (2, 0)), ((59, 61), (0, 1)),
    ((29, 91), (0, 2)),
])
def test_61_to_90_is_one_game_point_91_to_120_two(points, score):
    g = get_game("sueca")
    after = g.settle(state(), list(points), None)
    assert after.score == score
    assert after.dealer == 0          # the next player deals
    assert after.winner is None


def test_120_points_without_every_trick_scores_two_not_the_flag():
    g = get_game("sueca")
    after = g.settle(state(), [120, 0], [9, 1])
    assert after.score == (2, 0) and after.winner is None


def test_the_flag_wins_the_match_at_once():
    g = get_game("sueca")
    after = g.settle(state(score=(0, 3)), [120, 0], [10, 0])
    assert after.winner == 0 and after.over
    assert after.score == (4, 3)


def test_120_to_0_needs_the_tricks_to_tell_a_flag():
    g = get_game("sueca")
    with pytest.raises(BadRequest):
        g.settle(state(), [0, 120], None)


@pytest.mark.parametrize("all_tricks,tricks,flag", [
    (True, [9, 1], False), (True, [10, 0], True), (False, [9, 1], True), (False, [10, 0], True),
])
def test_flag_definition_option(all_tricks, tricks, flag):
    g = get_game("sueca", {"flag_requires_all_tricks": all_tricks})
    after = g.settle(state(), [120, 0], tricks)
    assert (after.winner == 0) is flag
    assert after.score == ((4, 0) if flag else (2, 0))


def test_flag_by_points_needs_no_tricks():
    g = get_game("sueca", {"flag_requires_all_tricks": False})
    assert g.settle(state(), [0, 120], None).winner == 1


@pytest.mark.parametrize("effect,target,score,winner", [
    ("match", 10, (10, 0), 0), ("four_points", 10, (5, 0), None),
    ("match", 4, (4, 0), 0), ("four_points", 4, (5, 0), 0),
])
def test_flag_effect_option(effect, target, score, winner):
    g = get_game("sueca", {"flag_effect": effect, "target": target})
    after = g.settle(state(score=(1, 0)), [120, 0], [10, 0])
    assert after.score == score and after.winner == winner


def test_a_tie_carries_a_point_to_the_winner_of_the_next_hand():
    g = get_game("sueca")
    s = g.settle(state(score=(1, 1)), [60, 60], None)
    assert s.score == (1, 1) and s.carry == 1 and s.dealer == 0
    s = g.settle(s, [60, 60], None)
    assert s.carry == 2                      # consecutive ties accumulate
    s = g.settle(s, [30, 90], None)
    assert s.score == (1, 4) and s.carry == 0 and s.winner == 1


def test_the_carry_is_added_to_two_game_points_too():
    g = get_game("sueca")
    s = g.settle(state(carry=1), [100, 20], None)
    assert s.score == (3, 0) and s.carry == 0


def test_tie_annul_option_scores_nothing_and_carries_nothing():
    g = get_game("sueca", {"tie": "annul"})
    s = g.settle(state(score=(1, 1)), [60, 60], None)
    assert s.score == (1, 1) and s.carry == 0 and s.dealer == 0
    s = g.settle(s, [70, 50], None)
    assert s.score == (2, 1)


@pytest.mark.parametrize("target,score,winner", [(4, (4, 2), 0), (6, (4, 2), None)])
def test_target_option(target, score, winner):
    g = get_game("sueca", {"target": target})
    after = g.settle(state(score=(2, 2)), [95, 25], None)
    assert after.score == score and after.winner == winner


def test_settle_refuses_bad_points_and_a_finished_match():
    g = get_game("sueca")
    with pytest.raises(BadRequest):
        g.settle(state(), [60, 50], None)           # a hand has 120 points
    with pytest.raises(BadRequest):
        g.settle(state(), [61, 59], [5, 4])         # and ten tricks
    with pytest.raises(BadRequest):
        g.settle(state(), [61, 59], [10, 0])        # points without a trick
    with pytest.raises(BadRequest):
        g.settle(SuecaState((4, 0), 0, 1, 0), [61, 59], None)


def test_redeal_keeps_the_match_and_the_dealer():
    g = get_game("sueca")
    s = state(score=(2, 1), carry=1, dealer=2)
    assert g.settle(s, None, redeal=True) == s


def test_penalties_follow_the_revoke_mode():
    s = state(score=(1, 2), carry=1, dealer=0)
    with pytest.raises(BadRequest):
        get_game("sueca").settle(s, None, penalty=Penalty(1, "revoke", 0, 1))
    lose_match = get_game("sueca", {"revoke_mode": "denounce_match_loss"})
    after = lose_match.settle(s, None, penalty=Penalty(1, "revoke", 0, 1))
    assert after.winner == 0 and after.score == (4, 2)
    lose_hand = get_game("sueca", {"revoke_mode": "denounce_hand_120"})
    after = lose_hand.settle(s, None, penalty=Penalty(1, "revoke", 0, 1))
    assert after.winner == 0 and after.score == (1 + 2 + 1, 2) and after.carry == 0
    after = lose_hand.settle(state(carry=1), None, penalty=Penalty(0, "false_denounce", 0, 1))
    assert after.winner is None and after.score == (0, 3) and after.carry == 0


def test_state_json_round_trip_and_errors():
    g = get_game("sueca")
    s = g.state_from_json({"score": [1, 3], "carry": 2, "dealer": 1})
    assert s.to_json() == {"score": [1, 3], "carry": 2, "dealer": 1, "winner": None}
    for bad in ({"score": [1], "dealer": 0}, {"dealer": 4}, {"dealer": 0, "carry": -1},
                {"dealer": 0, "winner": 2}, {"dealer": 0, "winner": True}, {"dealer": 0, "x": 1},
                []):
        with pytest.raises(BadRequest):
            g.state_from_json(bad)


def test_strict_mode_refuses_a_revoke_and_changes_nothing():
    g = get_game("sueca")
    hands = make_hands("As 2c", "Ks 3c", "Qs 4c", "Js 5c")
    deal = g.new_deal("h", 0, hands)
    deal.play(0, card("As"))
    before = deal.snapshot()
    with pytest.raises(IllegalPlay) as refused:
        deal.play(1, card("3c"))
    assert refused.value.reason == "must_follow"
    assert deal.snapshot() == before
