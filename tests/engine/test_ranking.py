"""Permanent trumps, effective suits and the trick winner (RULES.md §2.0, §2.A)."""

from __future__ import annotations

import pytest

from engine import cards, get_game
from engine.cards import TRUMP, card
from engine.packs import FRENCH_64_DOUBLE
from engine.ranking import Ranking

FILICAU = get_game("filicau")


def winner(trump, codes):
    return FILICAU.trick_winner(cards(codes), trump)


def test_the_trump_suit_has_eleven_cards_and_a_plain_suit_seven():
    t = FILICAU.ranking.tables("l")
    assert [c.code for c in t.trump_order] == [
        "Oa", "Ol", "Oh", "Ob", "Al", "Tl", "Kl", "Ul", "9l", "8l", "7l"]
    plain_hearts = [c for c in FILICAU.pack.cards if t.eff[FILICAU.pack.slot(c)] != TRUMP
                    and c.suit == "h"]
    assert sorted(c.rank for c in plain_hearts) == sorted("ATKU987")


def test_overs_are_trumps_not_members_of_their_printed_suit():
    t = FILICAU.ranking.tables("h")
    for code in ("Oa", "Ol", "Oh", "Ob"):
        assert t.eff[FILICAU.pack.slot(card(code))] == TRUMP


@pytest.mark.parametrize("trump,trick,expected", [
    ("b", "Aa 7b Ol Ta", 2),      # the spec's example: the Over of leaves wins
    ("h", "Ah Ob", 1),            # the lowest Over beats the trump Ace
    ("h", "Ob Oh Ol Oa", 3),      # Over of acorns is highest
    ("h", "Ol Oh Ob 7h", 0),
    ("a", "9h Ah Th 7a", 3),      # the Seven of trumps beats the led Ace
    ("a", "9h Kl Al 8h", 0),      # off-suit cards never win: the Nine of hearts holds
    ("a", "Kh Th Ah Uh", 2),      # Ace over Ten over King over Under
    ("l", "Uh 9h", 0),            # Under above Nine
])
def test_trick_winner(trump, trick, expected):
    assert winner(trump, trick) == expected


def test_trick_points_count_aces_and_tens():
    assert FILICAU.trick_points(cards("Aa 7b Ol Ta")) == 2
    assert FILICAU.trick_points(cards("Oa Ol Oh Ob")) == 0
    assert FILICAU.total_points == 8


def test_identical_cards_first_played_wins():
    ranking = Ranking(FRENCH_64_DOUBLE, (), tuple("ATKQJ987"), tuple("ATKQJ987"),
                      (("A", 10), ("T", 10)))
    t = ranking.tables("s")
    first, second = FRENCH_64_DOUBLE.slots_of(card("Qh"))
    assert t.winner_index([first, second]) == 0
    assert t.winner_index([second, first]) == 0
    a1, a2 = FRENCH_64_DOUBLE.slots_of(card("As"))
    assert t.winner_index([first, a2, a1]) == 1
