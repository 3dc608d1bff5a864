"""The binding rules of 20-card Filcău (RULES.md §1.2 "Binding the trump",
FC-A7 … FC-A11), checked on hands worked out by hand."""

from __future__ import annotations

import pytest

from engine import cards
from engine.games.filcau20.binding import (
    CALLS,
    Binding,
    binding_in,
    bindings,
    call_refusal,
    closed_suits,
    highest_over,
    naming_suits,
    parse_call,
    required,
)


def b(call: str) -> Binding:
    found = parse_call(call)
    assert found is not None
    return found


def test_every_possible_call():
    # 3 or 4 trumps; the lowest may be an Over only if enough Overs rank above it
    assert CALLS == ("3:U", "3:K", "3:T", "3:A", "3:Ob", "3:Oh",
                     "4:U", "4:K", "4:T", "4:A", "4:Ob")
    assert parse_call("3:Ol") is None and parse_call("5:U") is None and parse_call("x") is None


@pytest.mark.parametrize("hand,suit,call", [
    ("Oa Ua Ka Th Kb", "a", "3:U"),          # an Over and two acorns: "three, the Under"
    ("Oa Ua Ka Th Kb", "h", None),           # only two trumps
    ("Ua Ka Ta Aa Kb", "a", None),           # four acorns but no Over
    ("Ol Oh Al Tl Ub", "l", "4:T"),          # four, farbă the bells Under
    ("Ol Oh Al Tl Ab", "l", None),           # four with an Ace as farbă: banned
    ("Ol Oh Al Tl Ab", "b", "3:A"),          # ... but three in bells (FC-A10)
    ("Oa Ol Oh Ob Kh", "a", "4:Ob"),         # all bound trumps Overs: the bells Over is lowest
    ("Oa Ol Oh Ob Kh", "h", None),           # five trumps: closed
    ("Oa Ol Oh Ub Kb", "a", "3:Oh"),
    ("Ob Ua Ka Ta Aa", "a", None),           # closed in acorns
])
def test_eligibility(hand, suit, call):
    got = binding_in(cards(hand), suit)
    assert (got.call if got else None) == call


def test_closed_hands():
    assert closed_suits(cards("Ob Ua Ka Ta Aa")) == ["a"]
    assert closed_suits(cards("Oa Ol Oh Ob Kh")) == ["h"]
    assert closed_suits(cards("Oa Ol Oh Ub Kb")) == ["b"]     # three Overs and two bells
    assert closed_suits(cards("Oa Ol Oh Ub Kh")) == []


def test_bindings_compare_by_count_then_lowest_trump():
    assert b("4:U") > b("3:Oh")                       # more trumps wins
    assert b("4:K") > b("4:U")                        # "four, the horse" beats "four, the valet"
    assert b("3:T") > b("3:K") > b("3:U")
    assert b("3:Ob") > b("3:A")                       # an Over is above every plain card
    assert b("3:Oh") > b("3:Ob")


def test_rule_7_strongest_binding_by_default():
    hand = cards("Oa Ua Ka Th Ah")                    # acorns 3:U, hearts 3:T
    assert bindings(hand) == {"a": b("3:U"), "h": b("3:T")}
    assert required(hand) == b("3:T")
    assert naming_suits(hand) == ["h"]


def test_rule_7_equal_bindings_in_several_suits_may_name_any():
    hand = cards("Oa Ol Oh Ob Kh")
    assert required(hand) == b("4:Ob")
    assert naming_suits(hand) == ["a", "l", "b"]


def test_rule_7_highest_card_suit_option():
    hand = cards("Oa Ol Ua Ka Th")        # acorns 4:U (top card King); hearts 3:T (top Ten)
    assert required(hand) == b("4:U") and naming_suits(hand) == ["a"]
    assert required(hand, "highest_card_suit") == b("3:T")
    assert naming_suits(hand, "highest_card_suit") == ["h"]


def test_highest_over():
    assert highest_over(cards("Ob Ol Ua")) == 3
    assert highest_over(cards("Ua Ka")) == 0


@pytest.mark.parametrize("hand,call,kw,reason", [
    ("Oa Ua Ka Th Kb", "3:U", {}, None),
    ("Oa Ua Ka Th Kb", "3:K", {}, "binding_not_eligible"),
    ("Oa Ua Ka Th Ah", "3:U", {}, "binding_rule7"),        # must call the stronger 3:T
    ("Oa Ua Ka Th Ah", "pass", {}, None),
    ("Oa Ua Ka Th Ah", "pass", {"compulsory": True}, "must_bind"),
    ("Ua Ka Ta Aa Kb", "pass", {"compulsory": True}, None),   # cannot bind: may pass
    ("Oa Ua Ka Th Ah", "closed", {}, "binding_not_closed"),
    ("Ob Ua Ka Ta Aa", "closed", {}, None),
    ("Ob Ua Ka Ta Aa", "pass", {}, "binding_closed"),         # must say closed
    ("Oa Ol Oh Ob Kh", "4:Ob", {}, None),                      # closed in hearts, binds another
    ("Oa Ol Oh Ob Kh", "closed", {}, None),
    ("Oa Ol Oh Ob Kh", "closed", {"compulsory": True}, "must_bind"),
    ("Oa Ol Oh Ob Kh", "4:Ob", {"closed_redeal": True}, "binding_closed"),
    ("Oa Ol Oh Ob Kh", "closed", {"closed_redeal": True, "compulsory": True}, None),
])
def test_call_refusals(hand, call, kw, reason):
    assert call_refusal(cards(hand), call, **kw) == reason
