"""Card codes and packs (referee spec, "Cards")."""

from __future__ import annotations

import pytest

from engine import Card, UnknownCard, card, cards
from engine.packs import (
    FRENCH_40,
    FRENCH_64_DOUBLE,
    GERMAN_20,
    GERMAN_30,
    GERMAN_30_KELEBIA,
    GERMAN_32,
    PACKS,
)


@pytest.mark.parametrize("pack", list(PACKS.values()), ids=lambda p: p.name)
def test_every_card_round_trips_through_its_code(pack):
    for c in pack.cards:
        assert Card.parse(c.code) is c
        assert pack.parse(str(c)) is c


def test_ten_may_be_written_10_on_input_but_prints_as_T():
    assert card("10h").code == "Th"
    assert GERMAN_32.parse("10a") is card("Ta")


@pytest.mark.parametrize("bad", ["", "O", "Oaa", "oa", "OA", "1h", "Xa", "10", "Ox", 7, None,
                                 ["Oa"], "Ö a"])
def test_anything_else_is_an_unknown_card_naming_the_input(bad):
    with pytest.raises(UnknownCard) as err:
        Card.parse(bad)
    assert isinstance(err.value, ValueError)
    assert err.value.reason == "unknown_card"


def test_a_card_outside_the_pack_is_refused_by_the_pack():
    with pytest.raises(UnknownCard):
        GERMAN_32.parse("2c")  # a French card
    with pytest.raises(UnknownCard):
        GERMAN_30.parse("7b")  # removed from the 30-card pack
    with pytest.raises(UnknownCard):
        FRENCH_40.parse("8h")  # Sueca has no 8, 9, 10


def test_cards_are_immutable_interned_values():
    assert Card("O", "a") is card("Oa")
    assert card("Oa") == Card("O", "a")
    assert len({card("Oa"), Card("O", "a")}) == 1
    with pytest.raises(AttributeError):
        card("Oa").rank = "U"  # type: ignore[misc]


def test_pack_sizes_and_contents():
    assert GERMAN_32.size == 32
    assert GERMAN_30.size == 30 and "7b" not in GERMAN_30.codes_of(GERMAN_30.full_mask)
    assert "7l" not in GERMAN_30.codes_of(GERMAN_30.full_mask)
    kelebia = set(GERMAN_30_KELEBIA.codes_of(GERMAN_30_KELEBIA.full_mask))
    assert len(kelebia) == 30
    assert {"7a", "7l", "7h", "7b"} <= kelebia and not {"8l", "8a"} & kelebia
    assert sorted({c.rank for c in GERMAN_20.cards}) == sorted("UOKTA")
    assert GERMAN_20.size == 20
    assert FRENCH_40.size == 40
    assert FRENCH_64_DOUBLE.size == 64 and FRENCH_64_DOUBLE.copies == 2
    assert len(FRENCH_64_DOUBLE.distinct_cards) == 32


def test_a_double_pack_holds_each_card_twice_and_no_more():
    two = FRENCH_64_DOUBLE.mask(cards("Qs Qs"))
    assert two.bit_count() == 2
    with pytest.raises(ValueError):
        FRENCH_64_DOUBLE.mask(cards("Qs Qs Qs"))
    with pytest.raises(ValueError):
        GERMAN_32.mask(cards("Oa Oa"))


def test_cards_helper_splits_a_string():
    assert [c.code for c in cards("Oa Th 7b")] == ["Oa", "Th", "7b"]
