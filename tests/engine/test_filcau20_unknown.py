"""20-card Filcău with hands unknown (the table reads only the cards played):
the winning binder proves his call by tapping his five cards face down."""

from __future__ import annotations

from engine import card, cards, get_game
from engine.games.filcau20 import Filcau20State
from tests.engine.test_filcau20_flow import BIND_HANDS, CLOSED_HANDS, START, TIE_HANDS, reason


def open_flow(options=None, state=START):
    return get_game("filcau20", options).hand_flow(state)


def knock(f, *choices):
    f.choose(2, "knock")
    for seat, choice in zip(f.order, choices, strict=False):
        f.choose(seat, choice)


def prove(f, seat, hand):
    event = None
    for c in cards(hand):
        event = f.card(seat, c)
    return event


def test_every_call_is_offered_when_the_hands_are_unknown():
    f = open_flow()
    f.choose(2, "knock")
    choices = f.pending().choices
    assert choices[:2] == ("pass", "closed") and "bind:4:Ob" in choices and len(choices) == 13


def test_the_winner_proves_his_call_and_then_plays_the_cards_he_showed():
    f = open_flow()
    knock(f, "bind:3:U", "bind:4:T", "pass", "pass")
    step = f.pending()
    assert (step.kind, step.seat, step.prompt, step.choices) == \
        ("card", 1, "filcau20_prove", ("withdraw",))
    assert reason(f.card, 0, card("Oa")) == "not_your_turn"
    event = prove(f, 1, BIND_HANDS[1])
    assert event.data == {"proof": True, "call": "4:T"}
    assert f.pending().choices == ("l",)
    f.choose(1, "l")
    f.card(0, card("Kb"))                             # a bell led
    assert reason(f.card, 1, card("Ka")) == "not_in_hand"     # not among his five
    assert reason(f.card, 1, card("Ol")) == "must_follow"     # he showed the bell Under
    f.card(1, card("Ub"))


def test_a_call_the_cards_do_not_make_is_struck_and_the_next_best_wins():
    f = open_flow()
    knock(f, "bind:3:U", "bind:4:A", "pass", "pass")  # seat 1's hand makes 4:T, not 4:A
    event = prove(f, 1, BIND_HANDS[1])
    assert event.data == {"proof": False, "call": "4:A"}
    assert f.pending().seat == 0 and f.pending().prompt == "filcau20_prove"
    prove(f, 0, BIND_HANDS[0])
    assert f.pending().seat == 0 and f.pending().choices == ("a",)


def test_a_weaker_call_than_the_hand_makes_breaks_rule_7():
    f = open_flow()
    knock(f, "bind:3:U", "pass", "pass", "pass")
    event = prove(f, 0, "Oa Ua Ka Th Ah")             # this hand must call 3:T
    assert event.data["proof"] is False
    assert f.finished and f.result().extra == {"redeal": "no_binding"}


def test_withdraw_strikes_the_call():
    f = open_flow()
    knock(f, "bind:3:U", "bind:4:T", "pass", "pass")
    f.choose(1, "withdraw")
    assert f.pending().seat == 0 and f.pending().prompt == "filcau20_prove"


def test_a_card_cannot_be_shown_twice_or_by_two_seats():
    f = open_flow({"tie_break": "higher_over"})
    knock(f, "bind:3:U", "bind:3:U", "pass", "pass")
    f.card(0, card("Ob"))
    assert reason(f.card, 0, card("Ob")) == "already_played"
    for c in cards(TIE_HANDS[0])[1:]:
        f.card(0, c)
    assert f.pending().seat == 1                      # both tied bindings are proven
    assert reason(f.card, 1, card("Ua")) == "not_in_hand"
    prove(f, 1, TIE_HANDS[1])
    assert f.binder == 1                              # the acorn Over beats the bell Over


def test_tie_first_caller_only_the_first_proves():
    f = open_flow()
    knock(f, "bind:3:U", "bind:3:U", "pass", "pass")
    prove(f, 0, TIE_HANDS[0])
    assert f.binder == 0 and f.pending().prompt == "filcau20_name_trump"


def test_tie_redeal_after_both_prove():
    f = open_flow({"tie_break": "redeal"})
    knock(f, "bind:3:U", "bind:3:U", "pass", "pass")
    prove(f, 0, TIE_HANDS[0])
    prove(f, 1, TIE_HANDS[1])
    assert f.finished and f.result().extra == {"redeal": "tie"}


def test_closed_redeal_is_proven_at_once():
    f = open_flow({"closed_hand": "redeal"})
    knock(f, "closed")
    assert f.pending().seat == 0 and f.pending().prompt == "filcau20_prove"
    prove(f, 0, CLOSED_HANDS[0])
    assert f.finished and f.result().extra == {"redeal": "closed"}
    assert f.settled() == START


def test_a_false_closed_declaration_is_struck_and_calling_goes_on():
    f = open_flow({"closed_hand": "redeal"})
    knock(f, "closed")
    prove(f, 0, BIND_HANDS[0])
    assert f.pending().prompt == "filcau20_bind" and f.pending().seat == 1


def test_closed_declare_needs_no_proof():
    f = open_flow()
    knock(f, "closed", "pass", "pass", "pass")
    assert f.finished and f.result().extra == {"redeal": "no_binding"}
    assert f.settled() == Filcau20State(None, (3, 4), 3)
