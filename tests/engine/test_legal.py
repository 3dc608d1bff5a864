"""The legal-play families FT, F, UB and BE (RULES.md §2.0), on hand-made positions."""

from __future__ import annotations

import pytest

from engine import cards, get_game
from engine.legal import legal_mask, refusal
from engine.packs import FRENCH_40, FRENCH_64_DOUBLE, GERMAN_30_KELEBIA
from engine.ranking import Ranking

FILICAU = get_game("filicau")


def legal(trump, trick, hand):
    return [c.code for c in FILICAU.legal_subset(trump, cards(trick), cards(hand))]


def test_spec_example_void_in_hearts_must_trump_with_overs():
    assert legal("l", "Th", "Oh Ob Aa 7a Kb") == ["Oh", "Ob"]


def test_must_follow_the_led_suit():
    assert legal("l", "Th", "Ah 7h Oh Aa") == ["Ah", "7h"]


def test_an_over_does_not_follow_its_printed_suit():
    # Acorns led; the Over of acorns is a trump, so the player is void in acorns
    # and must trump: the Over (and any trump) is legal, the bell is not.
    assert legal("h", "Ta", "Oa 7b") == ["Oa"]
    assert legal("h", "Ta", "Oa 7h 7b") == ["Oa", "7h"]


def test_overs_count_as_trumps_when_trumps_are_led():
    # An Over led asks for trumps: the trump-suit cards and the other Overs follow.
    assert legal("b", "Ol", "Ob 7b Ab Kh") == ["Ob", "7b", "Ab"]
    # A trump-suit card led: an Over follows it.
    assert legal("b", "9b", "Oh Kh") == ["Oh"]


def test_no_duty_to_beat_or_to_overtrump():
    # Hearts led and trumped with the Over of leaves; a player void in hearts
    # may play any trump, even one that cannot beat the Over.
    assert legal("a", "Th Ol", "7a Ob Kl") == ["7a", "Ob"]
    # Following suit, a low card is fine even when a higher one would win.
    assert legal("a", "Kh", "Ah 7h") == ["Ah", "7h"]


def test_void_in_led_suit_and_trumps_may_play_anything():
    assert legal("a", "Th", "Kl 7b Ub") == ["Kl", "7b", "Ub"]


def test_the_leader_may_lead_anything():
    assert legal("a", "", "Oa Th 7b") == ["Oa", "Th", "7b"]


def test_refusal_reasons():
    g = FILICAU
    v = g.verdict("l", cards("Th"), cards("Ah Oh"), cards("Oh")[0])
    assert v is not None and v.reason == "must_follow"
    v = g.verdict("l", cards("Th"), cards("Oh Ob Aa"), cards("Aa")[0])
    assert v is not None and v.reason == "must_trump"
    assert g.verdict("l", cards("Th"), cards("Oh Ob Aa"), cards("Ob")[0]) is None
    v = g.verdict("l", cards("Th"), cards("Oh Ob Aa"), cards("Ka")[0])
    assert v is not None and v.reason == "not_in_hand"


# ----- F: follow only (Sueca) ---------------------------------------------------

SUECA_RANKING = Ranking(FRENCH_40, (), tuple("A7KJQ65432"), tuple("A7KJQ65432"),
                        (("A", 11), ("7", 10), ("K", 4), ("J", 3), ("Q", 2)))


def f_legal(trump, trick, hand):
    t = SUECA_RANKING.tables(trump)
    pack = FRENCH_40
    trick_slots = [pack.slot(c) for c in cards(trick)]
    hand_mask = pack.mask(cards(hand))
    return pack.codes_of(legal_mask("F", t, hand_mask, trick_slots))


def test_follow_only_family_never_forces_a_trump():
    assert f_legal("s", "Kh", "2h As 3c") == ["2h"]
    assert f_legal("s", "Kh", "As 3c") == ["3c", "As"]


# ----- UB: Ulti-style must-beat (Kelebia) -----------------------------------------

KELEBIA = Ranking(GERMAN_30_KELEBIA, tuple(cards("Oa 7h Ol Oh Ob 7b 7l 7a")),
                  tuple("ATKU98"), tuple("ATKU98"), (("A", 1), ("T", 1)))


def ub(trump, trick, hand, undertrump=True):
    pack = GERMAN_30_KELEBIA
    t = KELEBIA.tables(trump)
    trick_slots = [pack.slot(c) for c in cards(trick)]
    hand_mask = pack.mask(cards(hand))
    return sorted(pack.codes_of(legal_mask("UB", t, hand_mask, trick_slots, undertrump)))


def test_must_beat_in_the_led_suit_when_able():
    assert ub("b", "Kh", "Ah 9h Ab") == ["Ah"]


def test_any_card_of_the_suit_when_unable_to_beat():
    assert ub("b", "Ah", "Kh 9h Ab") == ["9h", "Kh"]


def test_third_player_must_beat_the_second_players_card():
    assert ub("b", "9h Th", "Kh Ah") == ["Ah"]


def test_no_duty_to_beat_the_led_suit_once_a_trump_has_been_played():
    assert ub("b", "9h Ab", "Kh Ah") == ["Ah", "Kh"]


def test_void_must_trump_and_overtrump_an_existing_trump():
    assert ub("b", "9h Ub", "Ab 9b Ka") == ["Ab"]


def test_must_play_any_trump_when_unable_to_overtrump():
    assert ub("b", "9h Oa", "Ab 9b Ka") == ["9b", "Ab"]
    # ... unless the option lifts the duty to under-trump
    assert ub("b", "9h Oa", "Ab 9b Ka", undertrump=False) == ["9b", "Ab", "Ka"]


def test_trump_led_must_be_beaten_with_a_higher_trump():
    assert ub("b", "Kb", "Ab 9b Kh") == ["Ab"]
    assert ub("b", "Ob", "Ab 9b Kh") == ["9b", "Ab"]


def test_ub_refusal_reasons():
    pack = GERMAN_30_KELEBIA
    t = KELEBIA.tables("b")
    hand = pack.mask(cards("Ah 9h Ab"))
    trick = [pack.slot(cards("Kh")[0])]
    assert refusal("UB", t, hand, trick, pack.slot(cards("9h")[0]))[0] == "must_beat"
    assert refusal("UB", t, hand, trick, pack.slot(cards("Ab")[0]))[0] == "must_follow"


# ----- BE: Bézique end game, identical cards do not beat --------------------------

BEZ = Ranking(FRENCH_64_DOUBLE, (), tuple("ATKQJ987"), tuple("ATKQJ987"),
              (("A", 10), ("T", 10)))


def test_an_identical_card_does_not_count_as_higher():
    pack = FRENCH_64_DOUBLE
    t = BEZ.tables("s")
    led, twin = pack.slots_of(cards("Kh")[0])
    hand = (1 << twin) | (1 << pack.slots_of(cards("9h")[0])[0])
    got = sorted(pack.codes_of(legal_mask("BE", t, hand, [led])))
    assert got == ["9h", "Kh"]  # no higher heart: any heart
    ace = pack.slots_of(cards("Ah")[0])[0]
    assert pack.codes_of(legal_mask("BE", t, hand | (1 << ace), [led])) == ["Ah"]


def test_unknown_family_is_an_error():
    with pytest.raises(ValueError):
        legal_mask("XX", BEZ.tables("s"), 1, [2])
