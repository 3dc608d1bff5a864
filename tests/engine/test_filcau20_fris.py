"""The fris of 20-card Filcău (rules 1–6, FC-A15 … FC-A20): the window after a
cut, who wins it, the fris trick with its small cards and turned-up cards."""

from __future__ import annotations

import pytest

from engine import card, get_game
from engine.games.filcau20 import Filcau20State
from tests.engine.test_filcau20_flow import FRIS2_HANDS, FRIS_HANDS, START, flow, reason


def cut(hands=FRIS_HANDS, options=None):
    f = flow(hands, options)
    f.choose(2, "cut")
    return f


def fris_by_seat_1(options=None, trump="h"):
    f = cut(FRIS_HANDS, options)
    f.choose(0, "pass")
    f.card(1, card("Ol"))
    f.choose(1, trump)
    return f


def codes(cs):
    return sorted(c.code for c in cs)


def test_after_a_cut_each_player_in_turn_may_put_down_an_over():
    f = cut()
    step = f.pending()
    assert (step.kind, step.seat, step.prompt, step.choices) == \
        ("card", 0, "filcau20_fris", ("pass", "deal"))
    assert reason(f.card, 0, card("Oa")) == "fris_not_dealt"    # one of his last two cards
    assert reason(f.card, 0, card("Th")) == "fris_needs_over"
    assert reason(f.card, 1, card("Ol")) == "not_your_turn"
    f.choose(0, "pass")
    f.card(1, card("Ol"))
    step = f.pending()
    assert (step.kind, step.seat, step.prompt, step.choices) == \
        ("choose", 1, "filcau20_name_trump", ("a", "l", "h", "b"))


def test_the_fris_player_names_any_suit_and_his_over_leads_trick_1():
    f = fris_by_seat_1(trump="b")
    assert f.deal.trump == "b"
    assert f.deal.current_trick == [card("Ol")]
    step = f.pending()
    assert (step.kind, step.seat, step.prompt) == ("play", 2, "filcau20_fris_follow")


def test_small_cards_on_the_fris_and_turned_up_cards_d1():
    f = fris_by_seat_1()
    # seat 2 holds Ta Aa Ah first: no small card, so Kl Tb are turned up; Kl is small
    assert codes(f.turned_cards(2)) == ["Kl", "Tb"]
    assert codes(f.legal_cards()) == ["Kl"]
    assert reason(f.card, 2, card("Ta")) == "fris_small_card"
    f.card(2, card("Kl"))
    # seat 3 holds Oh Ob Al first: turned Uh Kb; never an Over on the fris
    assert codes(f.turned_cards(3)) == ["Kb", "Uh"]
    assert reason(f.card, 3, card("Oh")) == "fris_no_over"
    assert reason(f.card, 3, card("Al")) == "fris_small_card"
    f.card(3, card("Uh"))
    # seat 0 has the Under of acorns among his first three: he plays it, nothing turned
    assert f.turned_cards(0) == []
    assert codes(f.legal_cards()) == ["Ua"]
    assert reason(f.card, 0, card("Kh")) == "fris_not_dealt"     # not dealt yet
    assert reason(f.card, 0, card("Oa")) == "fris_no_over"
    assert reason(f.card, 0, card("Ab")) == "fris_small_card"
    event = f.card(0, card("Ua"))
    assert event.outcome.trick.winner == 1            # the fris player always wins it
    step = f.pending()
    assert (step.seat, step.prompt) == (1, "play")    # and leads trick 2 with five cards' play
    assert f.deal.rule8 is None


def test_turned_cards_under_d2_never_oblige():
    f = fris_by_seat_1({"fris_turned_cards_bind": "d2"})
    assert codes(f.legal_cards()) == ["Aa", "Ah", "Kl", "Ta", "Tb"]
    f.card(2, card("Ah"))
    assert codes(f.legal_cards()) == ["Al", "Kb", "Uh"]      # any of five but the Overs


def test_a_big_card_when_the_turned_cards_hold_no_small_one():
    # seat 2: Ta Aa Ah first, then Tb Al: no small card anywhere
    hands = ("Ua Th Ab Oa Kh", "Ol Tl Ka Ul Ub", "Ta Aa Ah Tb Al", "Oh Ob Kl Uh Kb")
    for rule in ("d1", "d2"):
        f = flow(hands, {"fris_turned_cards_bind": rule})
        f.choose(2, "cut")
        f.choose(0, "pass")
        f.card(1, card("Ol"))
        f.choose(1, "h")
        assert codes(f.legal_cards()) == ["Aa", "Ah", "Al", "Ta", "Tb"]
        f.card(2, card("Aa"))
        f.card(3, card("Kl"))
        f.card(0, card("Ua"))
        assert f.deal.tricks[0].points == 1 and f.deal.tricks[0].winner == 1


def test_seat_order_the_first_over_put_down_wins():
    f = cut(FRIS2_HANDS)
    f.choose(0, "pass")
    f.card(1, card("Ob"))
    assert f.pending().seat == 1 and f.pending().prompt == "filcau20_name_trump"


def test_highest_over_every_seat_is_asked_and_the_highest_over_wins():
    f = cut(FRIS2_HANDS, {"fris_priority": "highest_over"})
    f.choose(0, "pass")
    f.card(1, card("Ob"))
    assert f.pending().seat == 2 and f.pending().prompt == "filcau20_fris"
    f.choose(2, "pass")
    f.card(3, card("Ol"))
    step = f.pending()
    assert (step.seat, step.prompt) == (3, "filcau20_name_trump")
    f.choose(3, "a")
    assert f.deal.current_trick == [card("Ol")] and f.pending().seat == 0


def test_the_dealer_may_make_fris():
    f = cut()
    for seat in (0, 1, 2):
        f.choose(seat, "pass")
    f.card(3, card("Oh"))
    assert f.pending().seat == 3 and f.pending().prompt == "filcau20_name_trump"


def test_the_dealer_need_not_wait_rule_1():
    f = cut()
    f.choose(0, "pass")
    event = f.choose(1, "deal")            # on the menu at seat 1's turn: the dealer deals
    assert event.seat == 3
    assert f.pending().prompt == "filcau20_bind" and f.pending().seat == 0


@pytest.mark.parametrize("choice,order", [
    (None, (0,) * 5 + (1,) * 5 + (2,) * 5 + (3,) * 5),
    ("knock", (0,) * 5 + (1,) * 5 + (2,) * 5 + (3,) * 5),
    ("cut", (0,) * 3 + (1,) * 3 + (2,) * 3 + (3,) * 3 + (0, 0, 1, 1, 2, 2, 3, 3)),
])
def test_deal_order(choice, order):
    f = flow(FRIS_HANDS)
    if choice:
        f.choose(2, choice)
    assert f.deal_order() == order


def test_can_undo():
    f = flow(FRIS_HANDS)
    assert not f.can_undo
    f.choose(2, "cut")
    assert f.can_undo


def test_no_fris_leads_to_normal_binding_with_five_cards():
    f = cut()
    for seat in (0, 1, 2, 3):
        f.choose(seat, "pass")
    step = f.pending()
    assert step.prompt == "filcau20_bind" and step.seat == 0
    # seat 0 now holds all five: Ua Th Ab Oa Kh, hearts Oa Th Kh: "three, the King"
    assert step.choices == ("pass", "bind:3:K")
    f.choose(0, "pass")
    # seat 1: Ol Tl Ka Ul Ub binds leaves 3:U
    assert f.pending().choices == ("pass", "bind:3:U")


def test_a_fris_hand_counts_eight_points():
    f = fris_by_seat_1()
    while not f.finished:
        f.card(f.pending().seat, f.legal_cards()[0])
    assert sum(f.result().points) == 8
    assert f.result().extra == {"trump": "h", "fris": 1}
    assert isinstance(f.settled(), Filcau20State)


@pytest.mark.parametrize("priority", ["seat_order", "highest_over"])
def test_undo_through_the_fris(priority):
    f = cut(FRIS2_HANDS, {"fris_priority": priority})
    steps = [f.pending()]
    f.choose(0, "pass")
    steps.append(f.pending())
    f.card(1, card("Ob"))
    steps.append(f.pending())
    if priority == "highest_over":
        f.choose(2, "pass")
        steps.append(f.pending())
        f.choose(3, "pass")
        steps.append(f.pending())
    f.choose(1, "h")
    steps.append(f.pending())
    f.card(2, f.legal_cards()[0])
    for expected in reversed(steps):
        f.undo()
        assert f.pending() == expected
    f.undo()
    assert f.pending().prompt == "filcau20_cut_or_knock"
    assert reason(f.undo) == "nothing_to_undo"


def test_fris_with_hands_unknown_turn_before_a_big_card():
    game = get_game("filcau20")
    f = game.hand_flow(START)
    f.choose(2, "cut")
    f.choose(0, "pass")
    f.card(1, card("Ol"))
    f.choose(1, "h")
    step = f.pending()
    assert (step.seat, step.prompt, step.choices) == (2, "filcau20_fris_follow", ("turn",))
    assert reason(f.card, 2, card("Ta")) == "fris_turn_first"
    assert reason(f.card, 2, card("Oh")) == "fris_no_over"
    f.choose(2, "turn")
    assert f.pending().kind == "card" and f.pending().prompt == "filcau20_show_turned"
    f.card(3, card("Kl"))                  # the dealer may tap them
    f.card(2, card("Tb"))
    assert codes(f.turned_cards(2)) == ["Kl", "Tb"]
    assert f.pending().choices == ()
    assert reason(f.card, 2, card("Ta")) == "fris_small_card"   # d1: Kl must go
    f.card(2, card("Kl"))
    assert reason(f.card, 3, card("Tb")) == "not_in_hand"       # turned for seat 2
    f.card(3, card("Uh"))                  # small cards need no turning
    f.card(0, card("Ua"))
    # trick 2: seat 1 leads a leaf; seat 2 trumps. Playing a small leaf on the fris
    # Over showed no void in trumps, so this is no revoke.
    f.card(1, card("Tl"))
    event = f.card(2, card("Ah"))
    assert event.outcome.revoke is None


def test_fris_with_hands_unknown_d2():
    f = get_game("filcau20", {"fris_turned_cards_bind": "d2"}).hand_flow(START)
    f.choose(2, "cut")
    f.card(0, card("Oa"))
    f.choose(0, "l")
    f.choose(1, "turn")
    f.card(1, card("Ka"))
    f.card(1, card("Ub"))
    f.card(1, card("Th"))                  # d2: a big card although a small one was turned
