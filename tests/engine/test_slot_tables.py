"""The packs' lookup tables for the hot paths (`engine.packs.slot_tables`)
answer what the plain definitions do, and a deal stays under the attribute
count past which CPython 3.11 makes every attribute access dearer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from engine.cards import Card
from engine.packs import PACKS, slot_tables


@pytest.mark.parametrize("name", sorted(PACKS))
@settings(max_examples=60, deadline=None)
@given(bits=st.integers(min_value=0))
def test_cards_in_lists_the_cards_of_a_set_lowest_slot_first(name, bits):
    pack = PACKS[name]
    mask = bits & pack.full_mask
    tables = slot_tables(pack)
    if pack.copies > 1:
        assert tables.cards_in is None and tables.bytes4 is None
        return
    assert list(tables.cards_in(mask)) == pack.cards_of(mask)
    if tables.bytes4 is not None:
        b0, b1, b2, b3 = tables.bytes4
        joined = b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255] + b3[mask >> 24]
        assert list(joined) == pack.cards_of(mask)


@pytest.mark.parametrize("name", sorted(PACKS))
def test_first_slot_is_a_cards_first_slot_and_no_slot_for_a_card_of_no_pack(name):
    pack = PACKS[name]
    first = slot_tables(pack).first_slot
    for c in pack.distinct_cards:
        assert first[c.index] == pack.slots_of(c)[0]
    other = [c for c in map(Card.parse, ("2c", "7a", "Oh", "As")) if c not in pack]
    for c in other:
        assert first[c.index] == pack.size   # a bit no set of this pack holds


@pytest.mark.parametrize("known", [True, False])
def test_a_deal_keeps_under_30_attributes_through_a_hand(known):
    """Beyond 29 instance attributes CPython 3.11 stops sharing the instance
    dictionary's keys (the engine bench's card-by-card ratio went from about
    1.6 to 1.9 over it)."""
    game = get_game("filicau")
    d = game.deal(random.Random(2), 0)
    deal = game.new_deal(d.trump, d.leader, d.hands if known else None)
    rng = random.Random(5)
    for _ in range(13):
        legal = list(deal.legal_cards())
        deal.play(deal.turn, legal[rng.randrange(len(legal))])
    deal.undo()
    deal.playout(rng)
    while deal.can_undo:
        deal.undo()
    assert len(vars(deal)) < 30, sorted(vars(deal))
