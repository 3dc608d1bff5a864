"""Fildinsky melds: the table, the rules of declaring, the best choice.

Expected values come from the meld table of RULES.md §2.D, worked by hand.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cards
from engine.games.fildinsky.melds import (
    CARDS_MISSING,
    NEEDS_TRICK_CARD,
    TOO_MANY,
    best_melds,
    combination_problem,
    legal_melds,
    meld_kind,
    meld_kinds,
)


def names(melds):
    return [m.name for m in melds]


# name, cards, points with hearts trumps (the source's table)
TABLE_HEARTS = [
    ("sequence", "Ah Th Kh Qh Jh", 250),
    ("royal_marriage", "Kh Qh", 40),
    ("marriage_c", "Kc Qc", 20),
    ("marriage_d", "Kd Qd", 20),
    ("marriage_s", "Ks Qs", 20),
    ("four_aces", "Ac Ad Ah As", 100),
    ("four_kings", "Kc Kd Kh Ks", 80),
    ("four_queens", "Qc Qd Qh Qs", 60),
    ("four_jacks", "Jc Jd Jh Js", 40),
    ("bezique", "Qs Jd", 40),
    ("double_bezique", "Qs Jd Qs Jd", 500),
]


def test_the_meld_table_with_hearts_trumps():
    got = [(k.name, sorted(k.codes), k.points) for k in meld_kinds("h")]
    want = [(n, sorted(c.split()), p) for n, c, p in TABLE_HEARTS]
    assert got == want


@pytest.mark.parametrize(("name", "codes", "points"), TABLE_HEARTS)
def test_each_meld_is_declarable_from_exactly_its_cards(name, codes, points):
    pile = cards(codes)
    found = {k.name: k.points for k in legal_melds(pile, "h")}
    assert found.get(name) == points
    # One card fewer and the meld is gone.
    assert name not in names(legal_melds(pile[1:], "h"))


def test_the_marriage_in_trumps_is_royal_and_the_others_common():
    pile = cards("Ks Qs Kh Qh")
    assert {k.name: k.points for k in legal_melds(pile, "s")} == {
        "royal_marriage": 40, "marriage_h": 20}
    assert {k.name: k.points for k in legal_melds(pile, "h")} == {
        "royal_marriage": 40, "marriage_s": 20}


def test_the_sequence_is_only_in_trumps():
    assert names(legal_melds(cards("Ac Tc Kc Qc Jc"), "h")) == ["marriage_c"]
    assert "sequence" in names(legal_melds(cards("Ac Tc Kc Qc Jc"), "c"))


def test_bezique_pair_fixed_whatever_the_trump():
    for trump in "cdhs":
        assert meld_kind("bezique", trump).codes == ["Qs", "Jd"]


@pytest.mark.parametrize(("trump", "pair"), [("s", ["Qc", "Jh"]), ("d", ["Qc", "Jh"]),
                                              ("h", ["Qs", "Jd"]), ("c", ["Qs", "Jd"])])
def test_bezique_pair_classic_switch(trump, pair):
    assert meld_kind("bezique", trump, "classic_switch").codes == pair
    assert meld_kind("double_bezique", trump, "classic_switch").codes == pair * 2
    assert "bezique" in names(legal_melds(cards(pair), trump, bezique_pair="classic_switch"))


def test_double_bezique_needs_all_four_cards_unused():
    four = cards("Qs Jd Qs Jd")
    assert "double_bezique" in names(legal_melds(four, "c"))
    # A bézique already declared used one Q♠ and one J♦: no upgrade (FD-A9).
    after_single = Counter(four)
    after_single.subtract(cards("Qs Jd"))
    assert names(legal_melds(after_single, "c")) == ["bezique"]
    assert names(legal_melds(cards("Qs Jd Qs"), "c")) == ["bezique"]


def test_at_most_two_melds_after_a_trick():
    pile = cards("Kc Qc Kd Qd Ks Qs")
    melds = [meld_kind(n, "h") for n in ("marriage_c", "marriage_d", "marriage_s")]
    assert combination_problem(melds[:2], pile) is None
    assert combination_problem(melds, pile) == TOO_MANY
    assert legal_melds(pile, "h", declared=melds[:2]) == []


def test_a_card_serves_in_one_meld_only():
    pile = cards("Kh Qh Qc Qd Qs")
    royal, queens = meld_kind("royal_marriage", "h"), meld_kind("four_queens", "h")
    assert combination_problem([royal], pile) is None
    assert combination_problem([queens], pile) is None
    assert combination_problem([royal, queens], pile) == CARDS_MISSING
    assert names(legal_melds(pile, "h", declared=[royal])) == []
    # With the second Queen of hearts both can be made.
    assert combination_problem([royal, queens], pile + cards("Qh")) is None


def test_the_same_meld_twice_needs_both_copies():
    marriage = meld_kind("marriage_c", "h")
    assert combination_problem([marriage, marriage], cards("Kc Qc Kc")) == CARDS_MISSING
    assert combination_problem([marriage, marriage], cards("Kc Qc Kc Qc")) is None


def test_a_meld_must_contain_a_card_of_the_trick_just_won():
    pile = cards("Kc Qc 9d 8s")
    marriage = meld_kind("marriage_c", "h")
    assert combination_problem([marriage], pile, trick=cards("9d 8s")) == NEEDS_TRICK_CARD
    assert combination_problem([marriage], pile, trick=cards("Qc 8s")) is None
    # Option off: no trick given, no such rule.
    assert combination_problem([marriage], pile, trick=None) is None
    assert names(legal_melds(pile, "h", trick=cards("9d 8s"))) == []
    assert names(legal_melds(pile, "h")) == ["marriage_c"]


def test_two_melds_need_a_card_of_the_trick_each():
    queens, bezique = meld_kind("four_queens", "h"), meld_kind("bezique", "h")
    # Two Q♠ won, only one in this trick: both melds would need that one card.
    pile = cards("Qs Qs Qc Qd Qh Jd")
    assert combination_problem([queens], pile, trick=cards("Qs 8c")) is None
    assert combination_problem([bezique], pile, trick=cards("Qs 8c")) is None
    assert combination_problem([queens, bezique], pile, trick=cards("Qs 8c")) == \
        NEEDS_TRICK_CARD
    assert names(legal_melds(pile, "h", trick=cards("Qs 8c"), declared=[queens])) == []
    # Both players played a Q♠: one each.
    assert combination_problem([queens, bezique], pile, trick=cards("Qs Qs")) is None
    # Or the trick's second card is the J♦ of the bézique.
    assert combination_problem([queens, bezique], pile, trick=cards("Qs Jd")) is None


def test_best_choice_beats_greedy():
    # Hearts trumps. The best single meld is four queens (60), but it takes the
    # Q♥ of the royal marriage and the Q♠ of the bézique: those two score 80.
    pile = cards("Qh Qs Qd Qc Kh Jd")
    assert max(k.points for k in legal_melds(pile, "h")) == 60
    assert names(best_melds(pile, "h")) == ["royal_marriage", "bezique"]
    # Same with the trick-card rule, the trick being Q♥ and J♦.
    best = best_melds(pile, "h", trick=cards("Qh Jd"))
    assert names(best) == ["royal_marriage", "bezique"]
    assert sum(k.points for k in best) == 80


def test_best_choice_respects_the_trick_card_rule():
    # One K♥ only: the sequence (250) and four kings (80) exclude each other.
    # Without the rule the sequence is best; with the trick 8♣ + K♦ only melds
    # holding the K♦ may be declared: four kings.
    pile = cards("Ah Th Kh Qh Jh Kc Kd Ks 8c")
    assert names(best_melds(pile, "h")) == ["sequence"]
    assert names(best_melds(pile, "h", trick=cards("8c Kd"))) == ["four_kings"]


def test_best_choice_prefers_fewer_cards_on_equal_points():
    # Four jacks (40, four cards) or the bézique (40, two cards): the bézique
    # keeps the other jacks for later.
    pile = cards("Jc Jd Jh Js Qs")
    assert names(best_melds(pile, "h", max_melds=1)) == ["bezique"]


def test_best_choice_of_an_empty_pile_is_nothing():
    assert best_melds([], "h") == ()
    assert best_melds(cards("7c 8d 9h"), "h") == ()


# ----- property: the best choice against an independent brute force ---------------

MELD_CARDS = cards("Ac Ad Ah As Tc Td Th Ts Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd Jh Js")


def physically_possible(melds, pile, trick):
    """Give every meld real cards of the pile, one by one, each card once; with a
    trick, each meld must get at least one card of it (trick cards first in `pile`)."""
    pool = list(pile)
    trick_n = len(trick) if trick is not None else 0

    def place(i, free):
        if i == len(melds):
            return True
        need = list(melds[i].cards)
        for chosen in _choices(need, free, pool):
            if trick is not None and not any(j < trick_n for j in chosen):
                continue
            if place(i + 1, free - set(chosen)):
                return True
        return False

    return place(0, frozenset(range(len(pool))))


def _choices(need, free, pool_cards):
    def rec(k, free_now, picked):
        if k == len(need):
            yield tuple(picked)
            return
        for j in sorted(free_now):
            if pool_cards[j] == need[k]:
                yield from rec(k + 1, free_now - {j}, [*picked, j])

    yield from rec(0, frozenset(free), [])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(MELD_CARDS), min_size=0, max_size=12),
       st.integers(min_value=0, max_value=2), st.sampled_from("cdhs"), st.booleans())
def test_best_choice_is_the_maximum_of_all_physically_possible_choices(pile, n_trick, trump,
                                                                      with_trick):
    # Trick cards are the first n_trick cards of the pile (just won, unused).
    counts = Counter(pile)
    for c, n in counts.items():
        if n > 2:
            pile = [x for x in pile if x != c] + [c, c]
    trick = pile[:n_trick] if with_trick else None
    kinds = meld_kinds(trump)
    best_points = 0
    for size in (1, 2):
        for combo in permutations(list(kinds) * 2, size):
            if physically_possible(combo, pile, trick):
                best_points = max(best_points, sum(k.points for k in combo))
    got = best_melds(pile, trump, trick=trick)
    assert sum(k.points for k in got) == best_points
    assert physically_possible(got, pile, trick) or got == ()
