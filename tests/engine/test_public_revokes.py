"""Revokes proven from public cards, with hands unknown: a seat that fails to
follow (or to trump) while it still holds a card everyone has seen (shown for
trumps, a card of the cut, the turned-up card) revokes at that very play; the
later play of that card proves nothing new."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Revoke, card, get_game
from table.referee import Referee


def filicau_flow(dealer: int = 3):
    """Filicău, hands unknown; the dealer shows Ol (an Over: look on) then 9h:
    hearts are trumps, and Ol and 9h are public cards of the dealer."""
    game = get_game("filicau")
    state = game.state_from_json({"status": "even", "dealer": dealer})
    flow = game.hand_flow(state)
    flow.card(dealer, card("Ol"))
    event = flow.card(dealer, card("9h"))
    assert event.kind == "trump" and flow.trump == "h"
    return flow


def test_the_dealer_failing_to_follow_trumps_while_holding_a_shown_trump_revokes_at_once():
    flow = filicau_flow()
    for seat, code in ((0, "Ah"), (1, "Th"), (2, "7h")):
        assert flow.card(seat, card(code)).outcome.revoke is None
    played = flow.card(3, card("Aa"))          # no trump, yet Ol and 9h were shown
    assert played.outcome.revoke == Revoke(3, 1, "h")
    assert flow.deal.revokes == [Revoke(3, 1, "h")]


def test_the_later_play_of_the_shown_card_proves_nothing_new():
    flow = filicau_flow()
    for seat, code in ((0, "Ah"), (1, "Th"), (2, "7h"), (3, "Aa")):
        flow.card(seat, card(code))
    assert flow.deal.turn == 0                 # the Ace of trumps won trick 1
    for seat, code in ((0, "Kh"), (1, "8h"), (2, "Uh"), (3, "9h")):
        assert flow.card(seat, card(code)).outcome.revoke is None, (seat, code)
    assert flow.deal.revokes == [Revoke(3, 1, "h")]


def test_failing_to_trump_a_plain_lead_while_holding_a_shown_trump_revokes_at_once():
    flow = filicau_flow()
    flow.card(0, card("Aa"))
    flow.card(1, card("Ka"))
    flow.card(2, card("7a"))
    # The dealer plays a leaf: either he has an acorn (must follow) or he has
    # none and must trump; he holds the shown Ol and 9h, so either way a revoke.
    assert flow.card(3, card("Al")).outcome.revoke == Revoke(3, 1, "h")


def test_a_seat_without_public_cards_revokes_only_when_a_later_play_proves_it():
    flow = filicau_flow()
    assert flow.card(0, card("Ah")).outcome.revoke is None
    assert flow.card(1, card("Aa")).outcome.revoke is None     # seat 1 shows no trump
    flow.card(2, card("7h"))
    flow.card(3, card("9h"))                                   # the dealer follows
    # trick 1: Ah, Aa, 7h, 9h: the Ace of trumps wins; seat 0 leads again
    assert flow.deal.turn == 0
    flow.card(0, card("Ta"))
    assert flow.card(1, card("8h")).outcome.revoke == Revoke(1, 1, "h")


def test_undo_takes_the_revoke_back_with_the_play():
    flow = filicau_flow()
    for seat, code in ((0, "Ah"), (1, "Th"), (2, "7h")):
        flow.card(seat, card(code))
    before = flow.deal.snapshot()
    flow.card(3, card("Aa"))
    flow.undo()
    assert flow.deal.snapshot() == before and flow.deal.revokes == []
    assert flow.card(3, card("Ol")).outcome.revoke is None     # following is fine


def test_the_referee_answers_the_revoke_at_the_play_that_proves_it():
    ref = Referee()

    def ask(obj):
        return json.loads(ref.answer_line(json.dumps(obj)))

    new = ask({"op": "new_hand", "game": "filicau", "state": {"status": "even", "dealer": 3},
               "shown": ["Ol", "9h"]})
    assert new["ok"] and new["trump"] == "h" and new["leader"] == 0
    for seat, code in ((0, "Ah"), (1, "Th"), (2, "7h")):
        assert ask({"op": "play", "seat": seat, "card": code}) == {"ok": True}
    answer = ask({"op": "play", "seat": 3, "card": "Aa"})
    assert answer["revoke"] == {"seat": 3, "trick": 1, "suit": "h"}


def test_filko_cut_cards_are_public_cards_of_the_seats_they_are_dealt_to():
    game = get_game("filko")
    state = game.new_match(random.Random(1))
    flow = game.hand_flow(state)
    step = flow.pending()
    cutter = step.seat
    # the cut shows a permanent trump (Oa), then a plain card fixing trumps
    flow.card(cutter, card("Oa"))
    flow.card(cutter, card("9b"))
    assert flow.trump == "b"
    owner = game.cut_recipients(state.dealer)[0]          # who gets Oa: the dealer
    deal = flow.deal
    assert owner == state.dealer != deal.turn
    codes = iter(["Ab", "Tb", "Kb"])                        # trumps led and followed
    while deal.turn != owner:
        assert flow.card(deal.turn, card(next(codes))).outcome.revoke is None
    out = flow.card(owner, card("Aa")).outcome             # no trump, yet he holds Oa
    assert out.revoke == Revoke(owner, 1, "b")


def test_sueca_turned_up_card_is_the_dealers_public_card():
    game = get_game("sueca", {"revoke_mode": "denounce_match_loss"})
    state = game.new_match(random.Random(2))
    flow = game.hand_flow(state)
    dealer = state.dealer
    flow.card(dealer, card("2h"))                      # the turn-up: hearts are trumps
    deal = flow.deal
    assert deal is not None and flow.trump == "h"
    seat = deal.turn
    codes = iter(["Ah", "7h", "Kh", "Qh"])
    while seat != dealer:
        flow.card(seat, card(next(codes)))
        seat = deal.turn
    assert flow.card(dealer, card("As")).outcome.revoke == Revoke(dealer, 1, "h")


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_proven_revoke_is_never_reported_twice_for_the_same_void(rng):
    """Random Filicău hands, hands unknown: the same (seat, suit, trick) never
    appears twice among the revokes, and every revoke names a past trick."""
    game = get_game("filicau")
    dealt = game.deal(rng, 3)
    state = game.state_from_json({"status": "even", "dealer": 3})
    flow = game.hand_flow(state)
    for c in dealt.shown:
        flow.card(3, c)
    hands = [list(h) for h in dealt.hands]
    while not flow.finished:
        seat = flow.deal.turn
        c = rng.choice(hands[seat])
        hands[seat].remove(c)
        flow.card(seat, c)
    seen = [(r.seat, r.suit, r.trick) for r in flow.deal.revokes]
    assert len(seen) == len(set(seen))
    assert all(1 <= r.trick <= 8 for r in flow.deal.revokes)
