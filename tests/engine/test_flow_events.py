"""A hand flow's events know their JSON form, and `play` (the referee's
play) is refused before the play starts the same way at the table's flow and
at the referee: the rule lives in the game's flow."""

from __future__ import annotations

import json
import random

import pytest

from engine import IllegalPlay, card, get_game
from tests.engine.test_filko5 import EVEN, HANDS, flow_for


def test_a_shown_card_that_fixes_trumps_is_a_trump_event_in_json():
    game = get_game("filicau")
    state = game.new_match(random.Random(3))
    dealt = game.deal(random.Random(3), state.dealer)
    flow = game.hand_flow(state, dealt.hands)
    event = flow.card(state.dealer, dealt.shown[0])
    obj = event.to_json()
    assert obj["event"] == event.kind and obj["seat"] == state.dealer
    assert obj["card"] == dealt.shown[0].code
    if event.kind == "trump":
        assert obj["trump"] == flow.trump and obj["used"] == 1
    json.dumps(obj)   # plain JSON: no card objects left


def test_a_play_that_closes_a_trick_carries_the_trick_and_the_end_of_the_hand():
    _, flow = flow_for()
    flow.choose(0, "h")
    flow.choose(0, "Uh")
    last = None
    while not flow.finished:
        assert flow.deal is not None
        seat = flow.deal.turn
        last = flow.play(seat, next(iter(flow.deal.legal_cards(seat))))
        obj = last.to_json()
        assert obj["event"] == "played" and obj["seat"] == seat
        assert ("trick" in obj) == (last.outcome is not None and last.outcome.trick is not None)
        json.dumps(obj)
    assert last is not None and last.to_json()["hand_over"] is True
    with pytest.raises(IllegalPlay) as refused:
        flow.play(0, card("Oa"))
    assert refused.value.reason == "hand_over"


def test_chosen_events_carry_their_data():
    _, flow = flow_for()
    assert flow.choose(0, "h").to_json() == {"event": "chosen", "seat": 0, "trump": "h"}
    assert flow.choose(0, "Uh").to_json() == {"event": "chosen", "seat": 0, "card": "Uh",
                                              "called": "Uh", "trump": "h"}


def test_five_player_filko_refuses_a_play_before_the_call_naming_the_old_man():
    _, flow = flow_for()
    with pytest.raises(IllegalPlay) as refused:
        flow.play(0, HANDS[0][0])
    assert refused.value.reason == "filko5_call_first"
    assert "seat 1" in refused.value.message("en")   # seat 0, as people count
    assert flow.pending().prompt == "filko5_name_trump"   # nothing changed


def test_a_play_while_the_dealer_shows_trumps_is_not_expected():
    game = get_game("filicau")
    state = game.new_match(random.Random(1))
    flow = game.hand_flow(state, None)
    with pytest.raises(IllegalPlay) as refused:
        flow.play(state.dealer, card("Ah"))
    assert refused.value.reason == "not_expected"
    assert flow.shown == []


def test_a_card_tapped_at_the_table_before_the_call_is_still_the_old_mans_card():
    """The table's `card` keeps its meaning (a tap, not a play)."""
    _, flow = flow_for(hands=None, old_man=None)
    assert EVEN and flow.pending().kind == "card"
    event = flow.card(3, card("Oa"))
    assert event.to_json() == {"event": "shown", "seat": 3, "card": "Oa", "old_man": 3}
