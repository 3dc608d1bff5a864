"""A 20-card Filcău hand as the table lives it: cut or knock, the fris window and
the fris trick, the binding and its calls, proofs with hands unknown, rule 8,
and undo. Each option that acts here is tested under each of its settings.

Every test deals with seat 3 as dealer: seat 0 (L) is the first to receive
cards and to call, seat 2 (the dealer's right) cuts or knocks."""

from __future__ import annotations

import pytest

from engine import IllegalPlay, card, get_game
from engine.games.filcau20 import Filcau20State
from tests.engine.test_filcau20 import make_hands

START = Filcau20State(None, (3, 4), 3)

#: 0: acorns 3:U. 1: leaves 4:T (strongest). 2: acorns 3:T. 3: no Over.
BIND_HANDS = ("Oa Ua Ka Th Kb", "Ol Oh Al Tl Ub", "Ob Ta Aa Ah Kh", "Ul Kl Uh Tb Ab")
#: 0: acorns 3:U with Ob; 1: leaves 3:U with Oa; 2 and 3 cannot bind.
TIE_HANDS = ("Ob Ua Ka Th Kb", "Oa Ul Kl Ah Tb", "Ol Ta Tl Uh Ub", "Oh Aa Al Kh Ab")
#: 0: five acorn trumps (closed); 1: hearts 4:K (and bells 4:U).
CLOSED_HANDS = ("Ob Ua Ka Ta Aa", "Oa Ol Oh Ub Kh", "Ul Kl Tl Al Uh", "Th Ah Kb Tb Ab")
#: For a cut: the first three cards of each hand, then the other two.
FRIS_HANDS = ("Ua Th Ab Oa Kh", "Ol Tl Ka Ul Ub", "Ta Aa Ah Kl Tb", "Oh Ob Al Uh Kb")
#: As FRIS_HANDS with seat 1's and seat 3's Overs swapped.
FRIS2_HANDS = ("Ua Th Ab Oa Kh", "Ob Tl Ka Ul Ub", "Ta Aa Ah Kl Tb", "Oh Ol Al Uh Kb")


def flow(hands=None, options=None, state=START):
    game = get_game("filcau20", options)
    return game.hand_flow(state, None if hands is None else make_hands(*hands))


def calls(f, *choices):
    for seat, choice in zip(f.order, choices, strict=False):
        f.choose(seat, choice)


def reason(fn, *args) -> str:
    with pytest.raises(IllegalPlay) as refused:
        fn(*args)
    return refused.value.reason


# ----- cut or knock --------------------------------------------------------------------


def test_the_player_on_the_dealers_right_cuts_or_knocks():
    f = flow(BIND_HANDS)
    step = f.pending()
    assert (step.kind, step.seat, step.prompt, step.choices) == \
        ("choose", 2, "filcau20_cut_or_knock", ("cut", "knock"))
    assert reason(f.choose, 0, "knock") == "not_your_turn"
    assert reason(f.choose, 2, "shuffle") == "not_expected"
    assert reason(f.card, 2, card("Oa")) == "not_expected"
    f.choose(2, "knock")
    assert f.pending().prompt == "filcau20_bind" and f.pending().seat == 0


# ----- the binding -------------------------------------------------------------------------


def test_binding_calls_go_round_from_the_dealers_left_and_the_strongest_wins():
    f = flow(BIND_HANDS)
    f.choose(2, "knock")
    assert f.pending().choices == ("pass", "bind:3:U")
    assert reason(f.choose, 0, "bind:3:K") == "binding_not_eligible"
    assert reason(f.choose, 1, "bind:4:T") == "not_your_turn"
    f.choose(0, "bind:3:U")
    assert f.pending().choices == ("pass", "bind:4:T")
    f.choose(1, "bind:4:T")
    assert f.pending().choices == ("pass", "bind:3:T")
    f.choose(2, "pass")
    assert f.pending().choices == ("pass",)
    f.choose(3, "pass")
    step = f.pending()
    assert (step.kind, step.seat, step.prompt, step.choices) == \
        ("choose", 1, "filcau20_name_trump", ("l",))
    assert reason(f.choose, 1, "h") == "binding_suit"
    f.choose(1, "l")
    assert f.deal.trump == "l" and f.deal.rule8 is None
    step = f.pending()
    assert (step.kind, step.seat, step.prompt) == ("play", 0, "play")   # L leads


def test_rule_7_the_binder_must_call_his_strongest_binding():
    f = flow(("Oa Ua Ka Th Ah",))
    f.choose(2, "knock")
    assert f.pending().choices == ("pass", "bind:3:T")
    assert reason(f.choose, 0, "bind:3:U") == "binding_rule7"


@pytest.mark.parametrize("rule7,choices,suits", [
    ("strongest", ("pass", "bind:4:U"), ("a",)),
    ("highest_card_suit", ("pass", "bind:3:T"), ("h",)),
])
def test_rule7_option(rule7, choices, suits):
    f = flow(("Oa Ol Ua Ka Th", "Ub Kb Tb Ab Ul", "Oh Ta Kl Uh Al", "Ob Aa Tl Kh Ah"),
             {"rule7": rule7})
    f.choose(2, "knock")
    assert f.pending().choices == choices
    calls(f, choices[1], "pass", "pass", "pass")
    assert f.pending().choices == suits


def test_the_ace_farba_ban():
    f = flow(("Oa Ua Ka Ta Ah",))       # four acorn trumps, the farbă is an Ace
    f.choose(2, "knock")
    assert f.pending().choices == ("pass",)
    assert reason(f.choose, 0, "bind:4:U") == "binding_not_eligible"


@pytest.mark.parametrize("compulsory,choices", [(False, ("pass", "bind:3:U")),
                                                (True, ("bind:3:U",))])
def test_binding_compulsory_option(compulsory, choices):
    f = flow(BIND_HANDS, {"binding_compulsory": compulsory})
    f.choose(2, "knock")
    assert f.pending().choices == choices
    if compulsory:
        assert reason(f.choose, 0, "pass") == "must_bind"
    f.choose(0, "bind:3:U")
    # seat 3 cannot bind, so may pass either way
    f.choose(1, "bind:4:T")
    f.choose(2, choices[-1].replace("3:U", "3:T"))
    assert f.pending().choices == ("pass",)


def test_closed_declare_is_only_a_declaration():
    f = flow(CLOSED_HANDS)
    f.choose(2, "knock")
    assert f.pending().choices == ("closed",)
    assert reason(f.choose, 0, "pass") == "binding_closed"
    f.choose(0, "closed")
    f.choose(1, "bind:4:K")
    assert f.pending().choices == ("pass",)
    f.choose(2, "pass")
    f.choose(3, "pass")
    assert f.pending().seat == 1 and f.pending().choices == ("h",)


def test_closed_redeal_ends_the_hand_at_once():
    f = flow(CLOSED_HANDS, {"closed_hand": "redeal"})
    f.choose(2, "knock")
    f.choose(0, "closed")
    assert f.finished
    assert f.result().extra == {"redeal": "closed"}
    assert f.settled() == START


def test_a_closed_player_may_bind_another_suit():
    f = flow(("Oa Ol Oh Ob Kh",))
    f.choose(2, "knock")
    assert f.pending().choices == ("closed", "bind:4:Ob")
    calls(f, "bind:4:Ob", "pass", "pass", "pass")
    assert f.pending().choices == ("a", "l", "b")


@pytest.mark.parametrize("tie_break,binder", [("first_caller", 0), ("higher_over", 1),
                                              ("redeal", None)])
def test_tie_break_option(tie_break, binder):
    f = flow(TIE_HANDS, {"tie_break": tie_break})
    f.choose(2, "knock")
    calls(f, "bind:3:U", "bind:3:U", "pass", "pass")
    if binder is None:
        assert f.finished and f.result().extra == {"redeal": "tie"}
        assert f.settled() == START
    else:
        assert f.pending().seat == binder and f.binder == binder


@pytest.mark.parametrize("rule,dealer", [("redeal_same_dealer", 3), ("next_dealer", 0)])
def test_nobody_binds_redeal(rule, dealer):
    f = flow(BIND_HANDS, {"no_binding": rule})
    f.choose(2, "knock")
    calls(f, "pass", "pass", "pass", "pass")
    assert f.finished and f.result().extra == {"redeal": "no_binding"}
    after = f.settled()
    assert after.dealer == dealer and after.score == START.score


def test_nobody_binds_dealer_names():
    f = flow(BIND_HANDS, {"no_binding": "dealer_names"})
    f.choose(2, "knock")
    calls(f, "pass", "pass", "pass", "pass")
    step = f.pending()
    assert (step.seat, step.prompt, step.choices) == (3, "filcau20_name_trump",
                                                      ("a", "l", "h", "b"))
    f.choose(3, "b")
    assert f.deal.trump == "b" and f.pending().seat == 0 and f.deal.rule8 is None


@pytest.mark.parametrize("first_lead,leader", [("left_of_dealer", 0), ("binder", 1)])
def test_first_lead_after_binding_option(first_lead, leader):
    f = flow(BIND_HANDS, {"first_lead_after_binding": first_lead})
    f.choose(2, "knock")
    calls(f, "bind:3:U", "bind:4:T", "pass", "pass")
    f.choose(1, "l")
    assert f.pending().kind == "play" and f.pending().seat == leader


# ----- rule 8 ---------------------------------------------------------------------------


def bound_three(hands=BIND_HANDS, options=None):
    f = flow(hands, options)
    f.choose(2, "knock")
    calls(f, "bind:3:U", "pass", "pass", "pass")
    f.choose(0, "a")
    return f


def test_rule_8_a_three_binder_who_wins_trick_1_leads_a_non_trump():
    f = bound_three()
    assert f.deal.rule8 == 0
    for seat, c in enumerate(("Oa", "Oh", "Ta", "Ul")):
        f.card(seat, card(c))
    step = f.pending()
    assert (step.seat, step.prompt) == (0, "filcau20_rule8")
    assert sorted(c.code for c in f.legal_cards()) == ["Kb", "Th"]
    assert reason(f.card, 0, card("Ua")) == "rule8_farba"
    f.card(0, card("Th"))
    assert f.pending().prompt == "play"


def test_rule_8_does_not_apply_when_the_binder_loses_trick_1():
    f = bound_three()
    for seat, c in enumerate(("Ua", "Ol", "Ta", "Ul")):
        f.card(seat, card(c))
    assert f.pending().seat == 1 and f.pending().prompt == "play"


def test_rule_8_does_not_apply_to_a_four_binder():
    f = flow(BIND_HANDS, {"first_lead_after_binding": "binder"})
    f.choose(2, "knock")
    calls(f, "pass", "bind:4:T", "pass", "pass")
    f.choose(1, "l")
    for seat, c in ((1, "Ol"), (2, "Ob"), (3, "Kl"), (0, "Oa")):
        f.card(seat, card(c))
    # seat 0 won with the acorn Over; seat 1 (the binder) did not: ordinary play
    assert f.pending().seat == 0 and f.pending().prompt == "play"


# ----- must_trump in play ---------------------------------------------------------------


@pytest.mark.parametrize("must_trump,legal", [(True, ["Aa", "Ob", "Ta"]),
                                              (False, ["Aa", "Ah", "Kh", "Ob", "Ta"])])
def test_must_trump_option_in_play(must_trump, legal):
    f = bound_three(options={"must_trump": must_trump})     # acorns trumps
    f.card(0, card("Kb"))                    # a bell led
    assert [c.code for c in f.legal_cards()] == ["Ub"]      # seat 1 follows
    f.card(1, card("Ub"))
    assert sorted(c.code for c in f.legal_cards()) == legal  # seat 2 has no bell
