"""Filkó cards, rankings, trumps from the cut and the deal (RULES.md §2.B).
Every expectation is written out from the rules, not computed by the engine."""

from __future__ import annotations

import random

import pytest

from engine import BadRequest, UnknownCard, UnknownOption, card, cards, get_game
from engine.games.filko.common import cut_recipients, shuffle_cut_deal


def order(gid, trump, **options):
    return [c.code for c in get_game(gid, options).ranking.tables(trump).trump_order]


# ----- packs and rankings ---------------------------------------------------------------

def test_four_player_trumps_are_the_overs_then_the_suit():
    # The source's example with leaves as trumps.
    assert order("filko", "l") == "Oa Ol Oh Ob Al Tl Kl Ul 9l 8l 7l".split()


def test_other_over_order_puts_leaves_lowest():
    assert order("filko", "h", over_order="ahbl") == "Oa Oh Ob Ol Ah Th Kh Uh 9h 8h 7h".split()


def test_six_player_pack_has_no_seven_of_bells_or_leaves():
    pack = get_game("filko6").pack
    assert pack.size == 30
    assert card("7b") not in pack and card("7l") not in pack
    with pytest.raises(UnknownCard):
        pack.parse("7l")


def test_szeged_six_players_puts_seven_of_hearts_and_acorns_on_top():
    assert order("filko6", "b", top_trumps="szeged") == (
        "7h 7a Oa Ol Oh Ob Ab Tb Kb Ub 9b 8b".split())


def test_szeged_five_players_has_only_the_seven_of_hearts_on_top():
    assert order("filko5", "a", top_trumps="szeged") == (
        "7h Oa Ol Oh Ob Aa Ta Ka Ua 9a 8a 7a".split())


def test_kelebia_pack_and_its_fourteen_or_thirteen_trumps():
    game = get_game("filko5", {"top_trumps": "kelebia"})
    pack = game.pack
    assert pack.size == 30
    assert all(card(c) in pack for c in ("7a", "7l", "7h", "7b"))
    assert card("8l") not in pack and card("8a") not in pack
    hearts = order("filko5", "h", top_trumps="kelebia")
    assert hearts == "Oa 7h Ol Oh Ob 7b 7l 7a Ah Th Kh Uh 9h 8h".split()
    acorns = order("filko5", "a", top_trumps="kelebia")
    assert acorns == "Oa 7h Ol Oh Ob 7b 7l 7a Aa Ta Ka Ua 9a".split()
    assert len(hearts) == 14 and len(acorns) == 13


def test_kelebia_keeps_its_own_order_so_the_other_over_order_is_refused():
    with pytest.raises(UnknownOption) as err:
        get_game("filko5", {"top_trumps": "kelebia", "over_order": "ahbl"})
    assert err.value.params["option"] == "over_order"


def test_top_trump_variants_exist_only_where_the_rules_have_them():
    with pytest.raises(UnknownOption):
        get_game("filko", {"top_trumps": "szeged"})
    with pytest.raises(UnknownOption):
        get_game("filko6", {"top_trumps": "kelebia"})
    with pytest.raises(UnknownOption):
        get_game("filko_hats", {"win_threshold": 60})
    with pytest.raises(UnknownOption):
        get_game("filko", {"no_such_option": True})


@pytest.mark.parametrize("gid, total", [("filko", 8), ("filko6", 8), ("filko5", 8),
                                        ("filko_hats", 120)])
def test_card_points_total(gid, total):
    assert get_game(gid).total_points == total


def test_hats_card_values():
    game = get_game("filko_hats")
    # A 11, T 10, K 4, O 3, U 2, 9 8 7 nothing.
    assert game.trick_points(cards("Aa Tl Kh Ob"), "h") == 28
    assert game.trick_points(cards("Ua 9l 8h 7b"), "h") == 2


def test_trick_winners():
    filko6 = get_game("filko6", {"top_trumps": "szeged"})
    # Bells trumps: the Seven of hearts beats the Over of acorns.
    assert filko6.trick_winner(cards("Ab Oa 7h Kb 9a Ta"), "b") == 2
    filko = get_game("filko")
    # Hearts led, nobody trumps (leaves): the Ace of hearts wins; the Seven of
    # hearts is an ordinary heart in the four-player game.
    assert filko.trick_winner(cards("Kh 7h Ah Aa"), "l") == 2
    assert filko.trick_winner(cards("Kh 7h Ah Ob"), "l") == 3


# ----- trumps from the cut --------------------------------------------------------------

def test_trump_is_the_first_card_up_the_cut_that_is_not_an_over():
    game = get_game("filko")
    assert game.trump_from_shown(cards("9h")) == ("h", 1)
    assert game.trump_from_shown(cards("Oh Ob Ka Tl")) == ("a", 3)


def test_under_szeged_the_top_sevens_are_skipped_too():
    assert get_game("filko6", {"top_trumps": "szeged"}).trump_from_shown(
        cards("7h 7a Oa Kb")) == ("b", 4)
    # In the four-player game the Seven of hearts is just a heart.
    assert get_game("filko").trump_from_shown(cards("7h")) == ("h", 1)


def test_trump_needs_a_card_that_is_not_an_over():
    game = get_game("filko")
    with pytest.raises(BadRequest):
        game.trump_from_shown(cards("Oa Ol"))
    with pytest.raises(BadRequest):
        game.trump_from_shown(cards("Oa Oa 9h"))


def test_five_players_do_not_cut_for_trumps():
    with pytest.raises(BadRequest):
        get_game("filko5").trump_from_shown(cards("9h"))


# ----- the deal -------------------------------------------------------------------------

def test_four_at_a_time_gives_the_dealer_the_bottom_four():
    # Dealer 0 deals R=1, X=2, L=3, D=0, twice: the bottom four cards are the
    # dealer's, the four above them L's (seat 3).
    assert cut_recipients(4, 0, (4, 4))[:8] == [0, 0, 0, 0, 3, 3, 3, 3]
    assert cut_recipients(4, 2, (4, 4))[:5] == [2, 2, 2, 2, 1]


def test_three_then_two_gives_the_dealer_two_and_his_left_the_two_above():
    assert cut_recipients(6, 0, (3, 2))[:6] == [0, 0, 5, 5, 4, 4]


class RiggedRandom(random.Random):
    """Shuffles into a given order and cuts a given number of cards."""

    def __init__(self, order, cut):
        super().__init__(0)
        self.order = order
        self.cut = cut

    def shuffle(self, x):
        x[:] = self.order

    def randint(self, a, b):
        assert a <= self.cut <= b
        return self.cut


def test_four_overs_at_the_bottom_of_the_cut_go_to_the_dealer_and_the_fifth_to_his_left():
    game = get_game("filko")
    rest = [c for c in game.pack.cards if c.code not in ("Oa", "Ol", "Oh", "Ob", "9h")]
    # The lifted packet (top 10 cards) ends ... 9h, Ob, Oh, Ol, Oa (its bottom card).
    order_ = rest[:5] + cards("9h Ob Oh Ol Oa") + rest[5:]
    rng = RiggedRandom(order_, 10)
    hands, shown, k = shuffle_cut_deal(game.pack, rng, 1, 4, (4, 4), 5,
                                       game.ranking.permanent_trumps)
    assert [c.code for c in shown] == ["Oa", "Ol", "Oh", "Ob", "9h"]
    assert k == 10
    assert set(cards("Oa Ol Oh Ob")) <= set(hands[1])  # the dealer
    assert card("9h") in hands[0]  # the dealer's left: seat 1 - 1
    assert all(len(h) == 8 for h in hands)


@pytest.mark.parametrize("gid", ["filko", "filko6", "filko_hats"])
def test_every_dealt_cut_card_is_in_the_hand_the_rules_say(gid):
    game = get_game(gid)
    rng = random.Random(11)
    for dealer in range(game.players):
        dealt = game.deal(rng, dealer)
        assert sorted(c.code for h in dealt.hands for c in h) == sorted(
            c.code for c in game.pack.cards)
        for c, seat in zip(dealt.shown, dealt.extra["shown_to"], strict=True):
            assert c in dealt.hands[seat]
        assert dealt.shown[-1].suit == dealt.trump and dealt.shown[-1].rank != "O"
        assert dealt.extra["shown_to"][0] == dealer
        assert dealt.leader == (dealer + 1) % game.players


def test_cut_min_size_bounds_the_engines_cuts():
    cuts_default = {get_game("filko").deal(random.Random(s), 0).extra["cut"] for s in range(300)}
    assert min(cuts_default) >= 5 and max(cuts_default) <= 27
    assert min(cuts_default) < 10
    cuts_10 = {get_game("filko", {"cut_min_size": 10}).deal(random.Random(s), 0).extra["cut"]
               for s in range(300)}
    assert min(cuts_10) >= 10 and max(cuts_10) <= 22


@pytest.mark.parametrize("cutter, expected", [("left", 3), ("right", 1)])
def test_who_cuts(cutter, expected):
    assert get_game("filko", {"cutter": cutter}).cutter(0) == expected


@pytest.mark.parametrize("lead, expected", [("right", 3), ("left", 1)])
def test_who_leads_the_first_trick(lead, expected):
    dealt = get_game("filko", {"first_lead": lead}).deal(random.Random(1), 2)
    assert dealt.leader == expected


def test_five_player_deal_is_six_cards_each_and_names_the_old_man():
    game = get_game("filko5")
    dealt = game.deal(random.Random(4), 3)
    assert [len(h) for h in dealt.hands] == [6] * 5
    assert card("Oa") in dealt.hands[dealt.extra["old_man"]]
    assert dealt.leader == dealt.extra["old_man"] and dealt.trump is None
