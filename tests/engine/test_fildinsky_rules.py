"""Fildinsky rules through the public engine API: the deal, tricks, draws, the
two phases, brisques, melds in play, the deece, bonuses and the game's end.

Every expectation is worked out by hand from RULES.md §2.D.
"""

from __future__ import annotations

import random

import pytest

from engine import BadRequest, IllegalPlay, card, cards
from engine.games.fildinsky import FildinskyState
from engine.games.fildinsky.deal import Declared, Drawn, TrickScore, TurnedSeven
from engine.packs import FRENCH_64_DOUBLE
from tests.engine.test_fildinsky_helpers import game, make_deal, reach_last_eight, run_policy


def codes(cs):
    return sorted(c.code for c in cs)


def trick_scores(deal):
    return [e for e in deal.events if isinstance(e, TrickScore)]


class NoShuffle(random.Random):
    def shuffle(self, x):  # the pack stays in pack order
        pass


# ----- the pack and the deal -----------------------------------------------------------

def test_the_pack_has_two_of_every_card_seven_to_ace():
    g = game()
    assert g.pack is FRENCH_64_DOUBLE and g.pack.size == 64
    distinct = {c.code for c in g.pack.cards}
    assert len(distinct) == 32
    assert {c.rank for c in g.pack.cards} == set("789TJQKA")
    assert all(g.pack.cards.count(c) == 2 for c in g.pack.distinct_cards)


# Pack order: 7c 8c 9c Tc Jc Qc Kc Ac 7d ... Ad 7h ... Ah 7s ... As, twice.
@pytest.mark.parametrize(("pattern", "non_dealer", "dealer"), [
    ("3-2-3", "7c 8c 9c Kc Ac 9d Td Jd", "Tc Jc Qc 7d 8d Qd Kd Ad"),
    ("2-3-3", "7c 8c Jc Qc Kc 9d Td Jd", "9c Tc Ac 7d 8d Qd Kd Ad"),
    ("3-3-2", "7c 8c 9c Kc Ac 7d Jd Qd", "Tc Jc Qc 8d 9d Td Kd Ad"),
])
def test_deal_in_batches_non_dealer_first_then_the_turn_up(pattern, non_dealer, dealer):
    g = game(deal_pattern=pattern)
    dealt = g.deal(NoShuffle(), 1)
    assert codes(dealt.hands[0]) == codes(cards(non_dealer))
    assert codes(dealt.hands[1]) == codes(cards(dealer))
    assert dealt.extra["turn_up"] == card("7h") and dealt.trump == "h"
    assert dealt.shown == (card("7h"),)
    assert dealt.leader == 0
    stock = dealt.extra["stock"]
    assert len(stock) == 47 and stock[0] == card("8h") and stock[-1] == card("As")


def test_first_dealer_random_or_fixed_then_alternate():
    dealers = {game().new_match(random.Random(s)).dealer for s in range(20)}
    assert dealers == {0, 1}
    for seat in (0, 1):
        g = game(first_dealer=seat)
        st = g.new_match(random.Random(3))
        assert st.dealer == seat
        st = g.settle(st, [10, 20])
        assert st.dealer == 1 - seat and st.score == (10, 20)
        assert g.settle(st, [0, 0]).dealer == seat


def test_bad_deals_are_refused():
    g = game()
    st = FildinskyState(1)
    h0, h1 = cards("Ac Ac 7d 8d 9d Td Jd Qd"), cards("Ac 7c 8s 9s Ts Js Qs Ks")
    with pytest.raises(BadRequest):
        g.new_hand(st, card("9h"), [h0, h1])  # three Aces of clubs
    h1 = cards("Kc 7c 8s 9s Ts Js Qs Ks")
    with pytest.raises(BadRequest):
        g.new_hand(st, card("Ac"), [h0, h1])  # the turn-up's copies are both dealt
    with pytest.raises(BadRequest):
        g.new_hand(st, card("9h"), [h0, h1], cards("7h 8h"))  # stock of 2
    with pytest.raises(BadRequest):
        g.new_hand(st, card("9h"), None, cards("7h") * 47)  # stock without hands
    with pytest.raises(BadRequest):
        g.new_deal("c", 0, [h0, h1], turn_up=card("9h"))  # trumps are the turn-up's suit
    with pytest.raises(BadRequest):
        g.new_hand(FildinskyState(1, (2000, 10)), card("9h"))  # the match is over


# ----- tricks --------------------------------------------------------------------------

def test_trick_winner_higher_trump_else_higher_card_of_the_suit_led():
    g = game()
    assert g.trick_winner(cards("Tc Ac"), "h") == 1
    assert g.trick_winner(cards("Ac 7h"), "h") == 1
    assert g.trick_winner(cards("7h Ac"), "h") == 0
    assert g.trick_winner(cards("9c As"), "h") == 0  # a discard never wins
    assert g.trick_winner(cards("Kh Th"), "h") == 1  # ten above king
    assert g.trick_points(cards("Ac Th"), "h") == 20
    assert g.trick_points(cards("Kc Qh"), "h") == 0


@pytest.mark.parametrize(("tie_rule", "stock_phase_winner"), [(True, 0), (False, 1)])
def test_identical_cards_first_played_wins(tie_rule, stock_phase_winner):
    g = game(tie_rule_phase1=tie_rule)
    for pair in ("Ac Ac", "7h 7h", "9s 9s"):
        assert g.trick_winner(cards(pair), "h") == stock_phase_winner
        assert g.trick_winner(cards(pair), "h", stock_empty=False) == stock_phase_winner
        # In the last eight tricks the card led always wins.
        assert g.trick_winner(cards(pair), "h", stock_empty=True) == 0
    deal = make_deal(g, "Ac 7d 8d 9d Td Jd Qd Kd", "Ac 7c 8s 9s Ts Js Qs Ks", "9h")
    deal.play(0, card("Ac"))
    done = deal.play(1, card("Ac")).trick
    assert done.winner == stock_phase_winner and done.points == 20


@pytest.mark.parametrize("tie_rule", [True, False])
def test_identical_cards_in_the_last_eight_the_card_led_wins(tie_rule):
    g = game(tie_rule_phase1=tie_rule)
    deal, leader = reach_last_eight(g, "Ac 7d 8d 9d Td Jd Qd", "Ac 7c 8s 9s Ts Js Qs")
    deal.play(leader, card("Ac"))
    assert codes(deal.legal_cards()) == ["7c", "Ac"]  # no club higher: any club
    assert deal.play(1 - leader, card("Ac")).trick.winner == leader


# ----- the stock phase ------------------------------------------------------------------

def test_stock_phase_any_card_may_be_played():
    g = game()
    deal = make_deal(g, "Ac Tc 7d 8d 9d Td Jd Qd", "Kc 7c 7h 9s Ts Js Qs Ks", "9h")
    deal.play(0, card("Ac"))
    # Seat 1 holds clubs and a trump, and may still throw a spade.
    assert codes(deal.legal_cards()) == codes(cards("Kc 7c 7h 9s Ts Js Qs Ks"))
    done = deal.play(1, card("9s")).trick
    assert done.winner == 0


def test_brisques_score_as_won_and_the_winner_draws_first():
    g = game()
    deal = make_deal(g, "Ac Tc 7d 8d 9d Td Jd Qd", "Kc 7c 8s 9s Ts Js Qs Ks", "9h",
                     stock_top="As Ad 8h Kh")
    deal.play(0, card("Tc"))
    done = deal.play(1, card("Kc")).trick
    assert (done.winner, done.points) == (0, 10)
    assert deal.points == [10, 0] and deal.brisques == [10, 0]
    # Nothing to meld: straight to the draws, winner first.
    assert [(e.seat, e.card.code) for e in deal.events if isinstance(e, Drawn)] == \
        [(0, "As"), (1, "Ad")]
    assert "As" in codes(deal.hand_of(0)) and "Ad" in codes(deal.hand_of(1))
    assert deal.stock_left == 46 and deal.pending() == ("play", 0)
    # The winner of a trick draws first even when he is the other player.
    deal2 = make_deal(g, "Ac Tc 7d 8d 9d Td Jd Qd", "Kc 7c 8s 9s Ts Js Qs Ks", "9h",
                      stock_top="As Ad 8h Kh")
    deal2.play(0, card("7d"))
    deal2.play(1, card("Ts"))  # leads diamonds, a spade discard: seat 0 wins
    assert deal2.points == [10, 0]
    deal2.play(0, card("8d"))
    assert deal2.play(1, card("Ad")).trick.winner == 1
    draws = [(e.seat, e.card.code) for e in deal2.events if isinstance(e, Drawn)]
    assert draws[2:] == [(1, "8h"), (0, "Kh")]


def test_the_twenty_fourth_draw_gives_the_loser_the_turn_up():
    g = game()
    deal, leader = reach_last_eight(g, "Ac 7d 8d 9d Td Jd Qd", "Kc 7c 8s 9s Ts Js Qs", "Kh")
    draws = [e for e in deal.events if isinstance(e, Drawn)]
    assert len(draws) == 48
    last_two = [(e.seat, e.card.code) for e in draws[-2:]]
    assert last_two == [(leader, "Kh"), (1 - leader, "Kh")]  # face-down copy, then turn-up
    assert deal.stock_empty and len(deal.tricks) == 24
    assert all(len(deal.hand_of(s)) == 8 for s in (0, 1))


# ----- the last eight tricks (BE) -------------------------------------------------------

LEAD = "Tc 8h Kd 7d 8d 9d Jd"
FOLLOW = "Ac 9c Kh 7s 8s 9s Ts"


def test_last_eight_must_beat_the_card_led():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW)
    deal.play(leader, card("Tc"))
    assert codes(deal.legal_cards()) == ["Ac"]
    with pytest.raises(IllegalPlay) as e:
        deal.play(1 - leader, card("9c"))
    assert e.value.reason == "must_beat"
    with pytest.raises(IllegalPlay) as e:
        deal.play(1 - leader, card("Kh"))
    assert e.value.reason == "must_follow"
    assert deal.play(1 - leader, card("Ac")).trick.winner == 1 - leader


def test_last_eight_must_trump_when_void():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW)
    deal.play(leader, card("Kd"))
    assert codes(deal.legal_cards()) == ["9h", "Kh"]
    with pytest.raises(IllegalPlay) as e:
        deal.play(1 - leader, card("7s"))
    assert e.value.reason == "must_trump"
    assert deal.play(1 - leader, card("9h")).trick.winner == 1 - leader


def test_last_eight_trump_lead_needs_a_higher_trump_identical_does_not_beat():
    deal, leader = reach_last_eight(game(), LEAD, FOLLOW)
    deal.play(leader, card("9h"))
    assert codes(deal.legal_cards()) == ["Kh"]
    with pytest.raises(IllegalPlay) as e:
        deal.play(1 - leader, card("9h"))
    assert e.value.reason == "must_beat"


def test_last_eight_cannot_follow_or_trump_any_card():
    g = game()
    assert codes(g.legal_subset("h", cards("Kd"), cards("7s 8c Ac"), stock_empty=True)) == \
        ["7s", "8c", "Ac"]
    assert codes(g.legal_subset("h", cards("Kd"), cards("7s 8c Ac"))) == ["7s", "8c", "Ac"]
    assert codes(g.legal_subset("h", cards("Th"), cards("9h Ah 7c"), stock_empty=True)) == \
        ["Ah"]
    assert codes(g.legal_subset("h", cards("Th"), cards("9h 8h 7c"), stock_empty=True)) == \
        ["8h", "9h"]
    assert codes(g.legal_subset("h", cards("Th"), cards("9h 8h 7c"))) == ["7c", "8h", "9h"]
    with pytest.raises(BadRequest):
        g.legal_subset("h", [], cards("7c"), stock_empty="yes")
    with pytest.raises(BadRequest):
        g.legal_subset("h", [], cards("7c"), stok_empty=True)


def be_oracle(hand, lead, trump):
    """BE for two players, written from the rule text."""
    order = "789TJQKA".index
    same = [c for c in hand if c.suit == lead.suit]
    if same:
        return [c for c in same if order(c.rank) > order(lead.rank)] or same
    return [c for c in hand if c.suit == trump] or list(hand)


@pytest.mark.parametrize("seed", range(6))
def test_last_eight_legal_sets_match_the_rule_text(seed):
    rng = random.Random(seed)
    pack = [c for c in FRENCH_64_DOUBLE.cards]
    rng.shuffle(pack)
    tu = pack[0]
    pool = [c for c in pack[1:] if c != tu]
    deal, _ = reach_last_eight(game(), [c.code for c in pool[:7]],
                               [c.code for c in pool[7:14]], tu.code)
    while not deal.finished:
        stage, seat = deal.pending()
        if stage == "meld":
            deal.close_melds(seat)
            continue
        hand = deal.hand_of(seat)
        want = hand if not deal.trick else be_oracle(hand, deal.current_trick[0], deal.trump)
        assert codes(deal.legal_cards()) == codes(set(want))
        deal.play(seat, rng.choice(sorted(set(want), key=lambda c: c.code)))


# ----- melds in play ---------------------------------------------------------------------

def test_melds_after_winning_a_trick_from_won_cards():
    g = game()
    deal = make_deal(g, "Qs Kh 7c 8c 9c 7d 8d 9d", "Jd Qh 7s 8s 9s Tc Jc Qc", "9h")
    deal.play(0, card("Qs"))
    deal.play(1, card("Jd"))
    assert deal.pending() == ("meld", 0)
    assert [k.name for k in deal.legal_melds()] == ["bezique"]
    with pytest.raises(IllegalPlay) as e:
        deal.declare(1, "bezique")
    assert e.value.reason == "not_your_turn"
    with pytest.raises(BadRequest):
        deal.declare(0, "bezique_royale")
    with pytest.raises(IllegalPlay) as e:
        deal.play(0, card("Kh"))
    assert e.value.reason == "not_expected"
    deal.declare(0, "bezique")
    assert deal.points == [40, 0] and deal.meld_points == [40, 0]
    assert deal.pending() == ("play", 0)  # nothing left to declare: on to the draws
    deal.play(0, card("Kh"))
    deal.play(1, card("Qh"))
    assert [k.name for k in deal.legal_melds()] == ["royal_marriage"]
    deal.declare(0, "royal_marriage")
    assert deal.points == [80, 0]
    assert [(e.seat, e.meld.name, e.trick) for e in deal.events if isinstance(e, Declared)] \
        == [(0, "bezique", 1), (0, "royal_marriage", 2)]


HAND0 = "Kc Qc Kd 7d 8d 9c 8c 7c"
HAND1 = "7s 8s Qd 9s Ts Js 7h 8h"


def _two_marriages(g):
    deal = make_deal(g, HAND0, HAND1, "9h")
    for lead, follow in (("Kc", "7s"), ("Qc", "8s")):
        deal.play(0, card(lead))
        deal.play(1, card(follow))
        if deal.stage == "meld":
            deal.close_melds(0)
    deal.play(0, card("Kd"))
    deal.play(1, card("Qd"))
    return deal


def test_meld_needs_a_card_of_the_trick_just_won():
    deal = _two_marriages(game())
    assert [k.name for k in deal.legal_melds()] == ["marriage_d"]
    with pytest.raises(IllegalPlay) as e:
        deal.declare(0, "marriage_c")
    assert e.value.reason == "meld_needs_trick_card"


def test_meld_from_older_won_cards_when_the_option_is_off():
    deal = _two_marriages(game(meld_needs_current_trick_card=False))
    assert [k.name for k in deal.legal_melds()] == ["marriage_c", "marriage_d"]
    deal.declare(0, "marriage_c")
    deal.declare(0, "marriage_d")
    assert deal.points == [40, 0] and deal.stage == "play"


def _four_queens_tricks(g, bezique_first):
    deal = make_deal(g, "Qs Qh Qd Qc 7c 8c 9c 7d", "Jd 7s 8s 9s Ts Js Ks As", "9h")
    offered = []
    for lead, follow in (("Qs", "Jd"), ("Qh", "7s"), ("Qd", "8s"), ("Qc", "9s")):
        deal.play(0, card(lead))
        deal.play(1, card(follow))
        offered.append([k.name for k in deal.legal_melds()])
        if deal.stage == "meld":
            if bezique_first and lead == "Qs":
                deal.declare(0, "bezique")
            else:
                deal.close_melds(0)
    return deal, offered


def test_each_won_card_serves_in_one_meld_ever():
    g = game(meld_needs_current_trick_card=False)
    deal, offered = _four_queens_tricks(g, bezique_first=False)
    assert offered[-1] == ["four_queens", "bezique"]
    deal, offered = _four_queens_tricks(g, bezique_first=True)
    # The Q♠ went into the bézique: no four queens with the same Q♠.
    assert offered[-1] == []
    assert codes(deal.unused_won(0)) == ["7s", "8s", "9s", "Qc", "Qd", "Qh"]
    assert deal.points == [40, 0]


def test_at_most_two_melds_then_the_step_closes():
    g = game(meld_needs_current_trick_card=False)
    deal = make_deal(g, "Kc Qc Kd Qd Ks Qs 7c 8c", "7d 8d 9d 7s 8s 9s Td Ts", "9h")
    for lead, follow in (("Kc", "7d"), ("Qc", "8d"), ("Kd", "9d"), ("Qd", "7s"),
                         ("Ks", "8s"), ("Qs", "9s")):
        deal.play(0, card(lead))
        deal.play(1, card(follow))
        if lead != "Qs" and deal.stage == "meld":
            deal.close_melds(0)
    assert [k.name for k in deal.legal_melds()] == ["marriage_c", "marriage_d", "marriage_s"]
    deal.declare(0, "marriage_c")
    assert deal.stage == "meld"
    deal.declare(0, "marriage_d")
    assert deal.stage != "meld" and deal.points == [40, 0]
    with pytest.raises(IllegalPlay) as e:
        deal.declare(0, "marriage_s")
    assert e.value.reason == "not_expected"


# ----- the deece -------------------------------------------------------------------------

DEECE0 = "7h Kc Qc 9c 8c 7c 9d 8d"
DEECE1 = "8h 7h Jc Tc 9s 8s 7s 7d"


def test_deece_for_winning_a_trick_with_the_seven_of_trumps_and_the_exchange():
    g = game()
    deal = make_deal(g, DEECE0, DEECE1, "Ah")
    deal.play(0, card("7h"))
    done = deal.play(1, card("8h")).trick
    assert done.winner == 1 and deal.points == [0, 10] and deal.bonus_points == [0, 10]
    assert deal.pending() == ("meld", 1) and deal.can_exchange()
    ex = deal.exchange(1)
    assert (ex.took.code, ex.gave.code) == ("Ah", "7h")
    assert codes(deal.won_cards(1)) == ["8h", "Ah"]
    assert deal.brisques == [0, 0]  # the turn-up in the won cards is no brisque
    assert deal.pending() == ("play", 1)  # drawn already (stock known)
    assert all(len(deal.hand_of(s)) == 8 for s in (0, 1))
    # The second Seven: 10 more, no second exchange.
    deal.play(1, card("7h"))
    deal.play(0, card("9c"))
    assert deal.points == [0, 20] and not deal.can_exchange()
    assert [e.deece for e in trick_scores(deal)] == [10, 10]


def test_deece_only_when_the_winner_played_the_seven():
    g = game(deece_trigger="played_by_winner")
    deal = make_deal(g, DEECE0, DEECE1, "Ah")
    deal.play(0, card("7h"))
    deal.play(1, card("8h"))
    assert deal.points == [0, 0] and deal.pending() == ("play", 1)
    deal.play(1, card("7h"))
    deal.play(0, card("9c"))
    assert deal.points == [0, 10] and deal.can_exchange()


def test_deece_exchange_to_the_hand_replaces_the_draw():
    g = game(deece_exchange_to="hand")
    deal = make_deal(g, DEECE0, DEECE1, "Ah", stock_top="Kd Ks")
    deal.play(0, card("7h"))
    deal.play(1, card("8h"))
    deal.exchange(1)
    assert "Ah" in codes(deal.hand_of(1)) and "Kd" not in codes(deal.hand_of(1))
    assert "Kd" in codes(deal.hand_of(0))  # the loser draws the top card
    assert codes(deal.won_cards(1)) == ["7h", "8h"]
    assert all(len(deal.hand_of(s)) == 8 for s in (0, 1))
    assert deal.stock_left == 46 and deal.bottom is None
    run_policy(deal)
    assert len(deal.tricks) == 32
    assert sum(e.deece for e in trick_scores(deal)) == 20


def test_a_declined_exchange_passes_to_the_second_seven():
    deal = make_deal(game(), DEECE0, DEECE1, "Ah")
    deal.play(0, card("7h"))
    deal.play(1, card("8h"))
    deal.close_melds(1)
    deal.play(1, card("7h"))
    deal.play(0, card("9c"))
    assert deal.can_exchange()
    with pytest.raises(IllegalPlay) as e:
        deal.exchange(0)
    assert e.value.reason == "not_your_turn"


def test_the_exchanged_seven_comes_back_to_the_loser_of_trick_24_and_scores_no_more():
    deal = make_deal(game(), DEECE0, DEECE1, "Ah")
    deal.play(0, card("7h"))
    deal.play(1, card("8h"))
    deal.exchange(1)
    deal.play(1, card("7h"))
    deal.play(0, card("9c"))
    run_policy(deal, until=lambda d: d.stock_empty)
    last = [e for e in deal.events if isinstance(e, Drawn)][-1]
    loser = 1 - deal.tricks[23].winner
    assert (last.seat, last.card.code) == (loser, "7h")
    run_policy(deal)
    assert sum(e.deece for e in trick_scores(deal)) == 20  # tricks 1 and 2 only


def test_no_exchange_without_a_deece_or_once_the_turn_up_is_drawn():
    deal = make_deal(game(), "Ac Tc 7d 8d 9d Td Jd Qd", "Kc 7c 8s 9s Ts Js Qs Ks", "9h")
    deal.play(0, card("Ac"))
    deal.play(1, card("Kc"))
    with pytest.raises(IllegalPlay) as e:
        deal.exchange(0)
    assert e.value.reason == "not_expected"  # no meld step at all


@pytest.mark.parametrize(("option", "dealer_points", "trick_deece"), [(False, 0, 20),
                                                                       (True, 10, 10)])
def test_a_turned_up_seven(option, dealer_points, trick_deece):
    g = game(turned_seven_scores=option)
    deal = make_deal(g, "7h Kc Qc 9c 8c 7c 9d 8d", "8h Jc Tc 9s 8s 7s 7d Ks", "7h")
    assert deal.points == [0, dealer_points]  # seat 1 deals (seat 0 leads)
    assert bool([e for e in deal.events if isinstance(e, TurnedSeven)]) == option
    run_policy(deal)
    # Both Sevens of hearts are won in tricks at some point; the turned one
    # scores there only if it did not score for the dealer.
    assert sum(e.deece for e in trick_scores(deal)) == trick_deece


# ----- bonuses and the end of the game -------------------------------------------------

@pytest.mark.parametrize("last", [24, 32])
def test_last_trick_bonus(last):
    deal = make_deal(game(last_trick_bonus=last), DEECE0, DEECE1, "9h")
    run_policy(deal)
    assert [e.trick.number for e in trick_scores(deal) if e.last] == [last]
    assert all(e.last in (0, 10) for e in trick_scores(deal))
    assert sum(deal.bonus_points) == 10 + sum(e.deece for e in trick_scores(deal))


def test_game_ends_the_moment_a_total_reaches_2000():
    g = game()
    deal = make_deal(g, "Ac Tc 7d 8d 9d Td Jd Qd", "Kc 7c 8s 9s Ts Js Qs Ks", "9h",
                     score=(1990, 1500))
    deal.play(0, card("Ac"))
    deal.play(1, card("7c"))
    assert deal.finished and deal.pending() == ("over", None)
    with pytest.raises(IllegalPlay) as e:
        deal.play(0, card("Tc"))
    assert e.value.reason == "hand_over"
    st = g.settle(FildinskyState(1, (1990, 1500)), deal.points)
    assert st.score == (2000, 1500) and st.winner == 0 and st.over


def test_a_meld_can_end_the_game():
    g = game()
    deal = make_deal(g, "Qs Kh 7c 8c 9c 7d 8d 9d", "Jd Qh 7s 8s 9s Tc Jc Qc", "9h",
                     score=(1960, 0))
    deal.play(0, card("Qs"))
    deal.play(1, card("Jd"))
    assert not deal.finished
    deal.declare(0, "bezique")
    assert deal.finished and deal.points == [40, 0]


def test_game_end_at_end_of_hand_plays_on():
    g = game(game_end="end_of_hand")
    deal = make_deal(g, "Ac Tc 7d 8d 9d Td Jd Qd", "Kc 7c 8s 9s Ts Js Qs Ks", "9h",
                     score=(1990, 1500))
    deal.play(0, card("Ac"))
    deal.play(1, card("7c"))
    assert not deal.finished
    run_policy(deal)
    assert len(deal.tricks) == 32
    st = g.settle(FildinskyState(1, (1990, 1500)), deal.points)
    a, b = st.score
    assert st.winner == (0 if a > b else 1) and max(a, b) >= 2000


def test_match_winner_needs_the_target_and_a_higher_total():
    assert FildinskyState(0, (1999, 1200)).winner is None
    assert FildinskyState(0, (2000, 1200)).winner == 0
    assert FildinskyState(0, (2100, 2200)).winner == 1
    assert FildinskyState(0, (2100, 2100)).winner is None  # play another hand
    assert FildinskyState(0, (300, 250), target=300).winner == 0
    g = game(target=500)
    assert g.settle(FildinskyState(0, (450, 0), 500), [60, 0]).winner == 0
    with pytest.raises(BadRequest):
        g.settle(FildinskyState(0, (500, 0), 500), [0, 0])
    with pytest.raises(BadRequest):
        g.settle(FildinskyState(0), [-1, 0])


def test_state_json_round_trip_and_errors():
    g = game()
    st = g.state_from_json({"dealer": 1, "score": [1200, 800]})
    assert st.to_json() == {"dealer": 1, "score": [1200, 800], "winner": None}
    assert g.state_from_json(st.to_json()) == st
    for bad in ({"dealer": 2}, {"dealer": 0, "score": [1]}, {"dealer": 0, "status": "even"},
                [0, 1], {"dealer": 0, "score": [True, 0]}):
        with pytest.raises(BadRequest):
            g.state_from_json(bad)


@pytest.mark.parametrize(("pair", "offered"), [("fixed", []), ("classic_switch", ["bezique"])])
def test_bezique_pair_option_in_play(pair, offered):
    # Spades trumps: the classic rule makes Q♣ + J♥ the bézique.
    g = game(bezique_pair=pair)
    deal = make_deal(g, "Qc 7d 8d 9d Td Jd Qd Kd", "Jh 7c 8c 9c Tc Jc Kc Ac", "9s")
    deal.play(0, card("Qc"))
    deal.play(1, card("Jh"))  # a discard: seat 0 wins Q♣ J♥
    assert [k.name for k in deal.legal_melds()] == offered
