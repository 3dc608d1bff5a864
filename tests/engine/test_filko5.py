"""Five-player Filkó (RULES.md §2.B.3-§2.B.5): the Old Man's call, the secret
partner and who may know it, Rich and Poor, Kelebia, and the match results.
Expectations are worked out by hand from the rules."""

from __future__ import annotations

import pytest

from engine import BadRequest, IllegalPlay, UnknownOption, card, cards, get_game

#: Seat 0 holds the Over of acorns: he is the Old Man.
HANDS = [cards("Oa Ah Th Kh 9a 8a"),
         cards("Al Tl Kl Ul 9l 8l"),
         cards("Ol Ob Ab Tb Kb Ub"),
         cards("Oh Aa Ta Ka Ua Uh"),
         cards("9h 8h 7h 9b 8b 7a")]
#: The Old Man also holds the Over of leaves (swapped with seat 2's Ace of hearts).
HANDS_BOTH = [cards("Oa Ol Th Kh 9a 8a"), HANDS[1], cards("Ah Ob Ab Tb Kb Ub"), HANDS[3],
              HANDS[4]]
EVEN = {"status": "even", "dealer": 1}


def flow_for(options=None, hands=HANDS, state=EVEN, **kw):
    game = get_game("filko5", options or {})
    return game, game.hand_flow(game.state_from_json(state), hands, **kw)


def codes(cs):
    return [c.code for c in cs]


# ----- the call -------------------------------------------------------------------------

def test_the_holder_of_the_over_of_acorns_names_trumps_then_calls_a_card():
    _, flow = flow_for()
    step = flow.pending()
    assert (step.kind, step.seat, step.prompt) == ("choose", 0, "filko5_name_trump")
    assert step.choices == ("a", "l", "h", "b")
    flow.choose(0, "h")
    step = flow.pending()
    assert (step.kind, step.seat, step.prompt) == ("choose", 0, "filko5_call_card")
    # Hearts, not an Over, not his own (he holds Ah Th Kh).
    assert step.choices == ("Uh", "9h", "8h", "7h")


def test_szeged_forbids_calling_the_top_seven():
    _, flow = flow_for({"top_trumps": "szeged"})
    flow.choose(0, "h")
    assert flow.pending().choices == ("Uh", "9h", "8h")


def test_kelebia_callable_acorns():
    game = get_game("filko5", {"top_trumps": "kelebia"})
    # No 8a in the pack, 7a is a permanent trump.
    assert codes(game.callable_cards("a", cards("Oa 9a"))) == ["Aa", "Ta", "Ka", "Ua"]


def test_the_old_man_may_call_his_own_card_only_with_the_option():
    _, flow = flow_for()
    flow.choose(0, "h")
    with pytest.raises(IllegalPlay) as err:
        flow.choose(0, "Ah")
    assert err.value.reason == "filko5_call_own"
    for wrong in ("Oh", "Al", "Xx"):
        with pytest.raises(IllegalPlay) as err:
            flow.choose(0, wrong)
        assert err.value.reason == "filko_not_a_choice"
    with pytest.raises(IllegalPlay) as err:
        flow.choose(3, "Uh")
    assert err.value.reason == "not_your_turn"
    assert flow.deal is None and flow.called is None
    _, own = flow_for({"old_man_may_call_own_card": True})
    own.choose(0, "h")
    assert own.pending().choices == ("Ah", "Th", "Kh", "Uh", "9h", "8h", "7h")


def test_the_call_fixes_trumps_and_the_old_man_leads():
    _, flow = flow_for()
    events = flow.call(0, card=card("Uh"))
    assert [e.data for e in events] == [{"trump": "h"}, {"called": "Uh", "trump": "h"}]
    assert flow.trump == "h" and flow.deal.leader == 0
    assert flow.pending().kind == "play" and flow.pending().seat == 0
    flow.undo()
    assert flow.pending().prompt == "filko5_call_card" and flow.deal is None


def test_the_old_man_card_can_be_the_top_trump():
    game, flow = flow_for({"top_trumps": "szeged", "old_man_card": "top_trump"})
    assert flow.old_man == 4  # he holds the Seven of hearts
    _, default = flow_for({"top_trumps": "szeged"})
    assert default.old_man == 0


# ----- the secret partner ---------------------------------------------------------------

def test_nobody_but_the_partner_knows_the_partnership_until_the_called_card_is_played():
    game, flow = flow_for()
    flow.call(0, card=card("Uh"))  # seat 3 holds it
    unknown = (0, None, None, None, None)
    assert flow.view(None).teams == unknown
    assert flow.view(0).teams == unknown  # the Old Man does not know his partner
    assert flow.view(3).teams == (0, 1, 1, 0, 1)  # the partner knows
    assert flow.view(3).team_points == (0, 0)
    for seat in (1, 2, 4):  # each of the others knows only that he is not the partner
        mine = [None] * 5
        mine[0], mine[seat] = 0, 1
        assert flow.view(seat).teams == tuple(mine)
        assert flow.view(seat).team_points is None
    assert flow.teams() is None
    with pytest.raises(BadRequest):
        flow.deal.team_points()
    # Trick 1: acorns led; seat 2 trumps with the Over of bells and wins.
    for seat, c in ((0, "9a"), (1, "8l"), (2, "Ob"), (3, "Aa"), (4, "7a")):
        flow.card(seat, card(c))
    assert flow.view(None).teams == unknown
    assert flow.view(None).seat_points == (0, 0, 1, 0, 0)
    # Trick 2: bells led; seat 3, void in bells, must trump: the called Under.
    flow.card(2, card("Ab"))
    flow.card(3, card("Uh"))
    for seat in (None, 0, 1, 2, 3, 4):
        assert flow.view(seat).teams == (0, 1, 1, 0, 1)
    assert flow.teams() == (0, 1, 1, 0, 1)
    assert flow.view(None).team_points == (0, 1)
    flow.undo()
    assert flow.view(None).teams == unknown


def test_a_seats_view_shows_its_own_cards_only():
    _, flow = flow_for()
    flow.call(0, card=card("Uh"))
    assert set(flow.view(0).hand) == set(HANDS[0])
    assert set(flow.view(0).legal) == set(HANDS[0])
    assert set(flow.view(3).hand) == set(HANDS[3]) and flow.view(3).legal == ()
    assert flow.view(None).hand == ()
    assert flow.view(None).called == card("Uh") and flow.view(None).old_man == 0


def test_an_old_man_who_called_his_own_card_plays_alone_and_only_he_knows():
    _, flow = flow_for({"old_man_may_call_own_card": True})
    flow.call(0, card=card("Ah"))
    assert flow.view(0).teams == (0, 1, 1, 1, 1)
    assert flow.view(None).teams == (0, None, None, None, None)
    assert flow.view(2).teams == (0, None, 1, None, None)
    flow.card(0, card("Ah"))
    assert flow.teams() == (0, 1, 1, 1, 1)


def test_with_hands_unknown_the_old_man_shows_his_card_first():
    game, flow = flow_for(hands=None)
    step = flow.pending()
    assert (step.kind, step.seat, step.choices) == ("card", None, ("Oa",))
    with pytest.raises(IllegalPlay):
        flow.card(2, card("Kb"))
    flow.card(0, card("Oa"))
    assert flow.old_man == 0
    # Any card of hearts but the Overs may be called: the table cannot see his hand.
    flow.choose(0, "h")
    assert flow.pending().choices == ("Ah", "Th", "Kh", "Uh", "9h", "8h", "7h")
    flow.choose(0, "Ah")
    with pytest.raises(IllegalPlay) as err:
        flow.card(0, card("Ah"))  # he held the card he called
    assert err.value.reason == "filko5_called_own"
    flow.undo()  # back to the call
    assert flow.pending().prompt == "filko5_call_card"
    flow.choose(0, "Uh")
    flow.card(0, card("Ah"))
    with pytest.raises(IllegalPlay) as err:
        flow.card(1, card("Oa"))  # the Old Man's card
    assert err.value.reason == "not_in_hand"


def test_the_old_man_must_be_the_holder_of_his_card():
    game = get_game("filko5")
    with pytest.raises(BadRequest):
        game.hand_flow(game.state_from_json(EVEN), HANDS, old_man=2)


# ----- Rich and Poor --------------------------------------------------------------------

RP = {"teams": "rich_poor"}


def test_rich_are_the_holders_of_the_two_top_overs_and_stay_secret_until_played():
    _, flow = flow_for(RP)
    step = flow.pending()
    assert (step.prompt, step.choices) == ("filko5_name_trump", ("a", "l", "h", "b"))
    flow.call(0, trump="h")
    assert flow.trump == "h" and flow.deal.leader == 0 and flow.called is None
    assert flow.view(None).teams == (0, None, None, None, None)
    assert flow.view(2).teams == (0, 1, 0, 1, 1)  # he holds the Over of leaves
    flow.card(0, card("9a"))
    flow.card(1, card("8l"))
    flow.card(2, card("Ol"))
    assert flow.teams() == (0, 1, 0, 1, 1)


def test_the_other_over_order_makes_the_holder_of_the_over_of_hearts_rich():
    _, flow = flow_for({**RP, "over_order": "ahbl"})
    flow.call(0, trump="b")
    assert flow.view(3).teams == (0, 1, 1, 0, 1)


def test_both_top_overs_in_one_hand_the_next_over_is_the_partner():
    _, flow = flow_for(RP, hands=HANDS_BOTH)
    flow.call(0, trump="h")
    assert flow.view(0).teams == (0, None, None, None, None)
    # Seat 3 holds the Over of hearts but cannot know the Old Man holds the leaves one.
    assert flow.view(3).teams == (0, None, None, None, None)
    flow.card(0, card("Ol"))
    assert flow.view(None).teams == (0, None, None, None, None)
    assert flow.view(3).teams == (0, 1, 1, 0, 1)
    for seat, c in ((1, "Al"), (2, "Ah"), (3, "Oh")):
        flow.card(seat, card(c))
    assert flow.teams() == (0, 1, 1, 0, 1)


def test_both_top_overs_alone():
    _, flow = flow_for({**RP, "both_top_overs": "alone"}, hands=HANDS_BOTH)
    flow.call(0, trump="h")
    assert flow.view(0).teams == (0, 1, 1, 1, 1)
    flow.card(0, card("Ol"))
    assert flow.teams() == (0, 1, 1, 1, 1)


def test_rich_and_poor_called_form():
    _, flow = flow_for({**RP, "rich_poor_form": "called"})
    flow.choose(0, "h")
    assert flow.pending().prompt == "filko5_call_card"
    with pytest.raises(BadRequest):
        flow.call(0, trump="h")


def test_rich_and_poor_leader_option():
    _, flow = flow_for({**RP, "rp_leader": "right"})
    flow.call(0, trump="h")
    assert flow.deal.leader == 2  # dealer 1's right


# ----- Kelebia: the must-beat rule ------------------------------------------------------

def legal(options, trump, trick, hand):
    return codes(get_game("filko5", options).legal_subset(trump, cards(trick), cards(hand)))


KELEBIA = {"top_trumps": "kelebia"}


def test_kelebia_must_beat_a_trump_lead():
    # Bells trumps, the Ace of bells led: the Seven of acorns (permanent) beats it.
    assert legal(KELEBIA, "b", "Ab", "Kb 7a Aa 8h") == ["7a"]
    assert legal({}, "b", "Ab", "Kb Oh Aa 8h") == ["Kb", "Oh"]  # Filkó: any trump


def test_kelebia_must_head_the_led_suit():
    assert legal(KELEBIA, "b", "Kh", "Ah 9h Ub") == ["Ah"]
    # Once the lead has been trumped, any heart will do.
    assert legal(KELEBIA, "b", "Kh 7b", "Ah 9h") == ["Ah", "9h"]


@pytest.mark.parametrize("undertrump, expected", [(True, ["Kb"]), (False, ["Kb", "9l"])])
def test_kelebia_undertrump_option(undertrump, expected):
    options = {**KELEBIA, "undertrump_required": undertrump}
    # Acorns led and trumped with the Over of hearts: no acorns, only a lower trump.
    assert legal(options, "b", "Aa Oh", "Kb 9l") == expected


def test_kelebia_refusal_names_the_rule():
    game = get_game("filko5", KELEBIA)
    refused = game.verdict("b", cards("Kh"), cards("Ah 9h Ub"), card("9h"))
    assert refused.reason == "must_beat"


# ----- while there are masters ----------------------------------------------------------

MASTERS = {"status": "masters:0", "dealer": 1, "servant": 1, "teams": [0, 1, 1, 0, 1],
           "trump": "l", "old_man": 3}


def test_masters_keep_teams_trump_and_the_old_man_leads():
    game, flow = flow_for(state=MASTERS)
    assert flow.pending().kind == "play" and flow.pending().seat == 3
    assert flow.trump == "l" and flow.teams() == (0, 1, 1, 0, 1)
    assert flow.view(None).team_points == (0, 0)
    with pytest.raises(BadRequest):
        game.hand_flow(game.state_from_json(MASTERS), HANDS, trump="h")


# ----- results --------------------------------------------------------------------------

def settle(state, points, options=None, **extra):
    game = get_game("filko5", options or {})
    return game.settle(game.state_from_json(state), points, **extra).to_json()


FRESH = {"teams": [0, 1, 1, 0, 1], "old_man": 0, "trump": "h"}


def masters(masters_, servant, teams=(0, 1, 1, 0, 1), trump="h", old_man=0):
    return {"status": f"masters:{masters_}", "dealer": servant, "servant": servant,
            "teams": list(teams), "trump": trump, "old_man": old_man}


@pytest.mark.parametrize("dealer, points, expected", [
    (1, [6, 2], masters(0, 1)),  # the dealer lost: he is the Servant
    (0, [7, 1], masters(0, 1)),  # the dealer won: the first loser after him
    (3, [2, 6], masters(1, 3)),
    (4, [8, 0], masters(0, 4)),  # 8-0 makes masters too
])
def test_old_man_game_six_points_make_masters(dealer, points, expected):
    assert settle({"status": "even", "dealer": dealer}, points, **FRESH) == expected


@pytest.mark.parametrize("points", [[5, 3], [4, 4], [3, 5]])
def test_old_man_game_no_masters_next_dealer_and_a_fresh_call(points):
    assert settle({"status": "even", "dealer": 2}, points, **FRESH) == {
        "status": "even", "dealer": 3, "servant": None, "teams": None, "trump": None,
        "old_man": None}


EVEN_AFTER_SERVANT_1 = {"status": "even", "dealer": 2, "servant": None, "teams": None,
                        "trump": None, "old_man": None}


@pytest.mark.parametrize("points, expected", [
    ([5, 3], masters(0, 1)),
    ([3, 5], masters(0, 1)),
    ([7, 1], masters(0, 1)),
    ([8, 0], EVEN_AFTER_SERVANT_1),  # swimming away
    ([2, 6], EVEN_AFTER_SERVANT_1),  # liberated; not masters by default
])
def test_the_servants_team_liberates_itself_with_0_or_6(points, expected):
    assert settle(masters(0, 1), points) == expected


def test_liberation_by_six_makes_masters_with_that_option():
    # Seat 1 served team 0; his team takes 6: it becomes master, and the first
    # of the new losers after the dealer (seat 1) serves: seat 3.
    after = settle(masters(0, 1), [2, 6], {"liberation_by_6_makes_masters": True})
    assert after == masters(1, 3)
    assert settle(masters(0, 1), [8, 0], {"liberation_by_6_makes_masters": True}) == (
        EVEN_AFTER_SERVANT_1)


@pytest.mark.parametrize("liberating, points, liberated", [
    ("servants", [6, 2], True),
    ("servants", [2, 6], False),
    ("old_man_opponents", [6, 2], False),  # literally: the three must take 0 or 6+
    ("old_man_opponents", [2, 6], True),
])
def test_who_liberates_when_the_three_are_masters(liberating, points, liberated):
    state = masters(1, 3)  # seat 3, the Old Man's partner, serves
    after = settle(state, points, {"liberating_team": liberating})
    assert (after["status"] == "even") is liberated
    if liberated:
        assert after["dealer"] == 4


def test_settle_needs_the_teams_of_a_fresh_hand_and_keeps_those_of_masters():
    with pytest.raises(BadRequest):
        settle({"status": "even", "dealer": 0}, [6, 2])
    with pytest.raises(BadRequest):
        settle(masters(0, 1), [4, 4], trump="a")
    with pytest.raises(BadRequest):
        settle({"status": "even", "dealer": 0}, [6, 2], teams=[0, 0, 0, 1, 1], old_man=0,
               trump="h")
    with pytest.raises(BadRequest):
        settle({"status": "even", "dealer": 0}, [6, 1], **FRESH)


RP_TEAMS = {"teams": [0, 1, 0, 1, 1], "old_man": 0, "trump": "h"}


@pytest.mark.parametrize("options, dealer, points, new_dealer", [
    ({}, 1, [6, 2], 1),  # the Rich won; dealer 1 is Poor: he deals again
    ({}, 1, [5, 3], 2),  # the Poor won with 3: the first Rich from the dealer on
    ({"rp_dealer": "next_loser"}, 1, [6, 2], 3),  # the first Poor after the dealer
])
def test_rich_and_poor_independent_deals(options, dealer, points, new_dealer):
    after = settle({"status": "even", "dealer": dealer}, points, {**RP, **options}, **RP_TEAMS)
    assert after["status"] == "even" and after["dealer"] == new_dealer


RP_FIXED = {**RP, "teams_fixed_until_liberated": True}


def test_rich_and_poor_fixed_teams_until_the_dealing_team_takes_six():
    first = settle({"status": "even", "dealer": 1}, [5, 3], RP_FIXED, **RP_TEAMS)
    # The Poor won; the first Rich from dealer 1 on is seat 2: he keeps dealing.
    assert first == masters(1, 2, (0, 1, 0, 1, 1))
    assert settle(first, [5, 3], RP_FIXED) == first
    freed = settle(first, [6, 2], RP_FIXED)
    # The Rich took 6: free. The losers (Poor) deal: the first from seat 2 on is 3.
    assert freed["status"] == "even" and freed["dealer"] == 3


@pytest.mark.parametrize("threshold, freed", [(6, False), (3, True)])
def test_rich_and_poor_liberation_threshold_of_the_poor(threshold, freed):
    options = {**RP_FIXED, "liberation_threshold": threshold}
    first = settle({"status": "even", "dealer": 1}, [6, 2], options, **RP_TEAMS)
    assert first == masters(0, 1, (0, 1, 0, 1, 1))  # the Poor dealer serves
    after = settle(first, [4, 4], options)
    assert (after["status"] == "even") is freed


def test_independent_rich_and_poor_has_no_masters_state():
    with pytest.raises(BadRequest):
        get_game("filko5", RP).state_from_json(masters(0, 1))


@pytest.mark.parametrize("state", [
    {**masters(0, 1), "teams": [1, 1, 1, 0, 1]},  # the Old Man on team 1
    {**masters(0, 1), "servant": 0, "dealer": 0},  # a master serving
    {**masters(0, 1), "dealer": 2},
    {**masters(0, 1), "trump": "x"},
    {"status": "even", "dealer": 1, "trump": "h"},
    {"status": "masters:0", "dealer": 1, "servant": 1},
])
def test_inconsistent_states_are_refused(state):
    with pytest.raises(BadRequest):
        get_game("filko5").state_from_json(state)


def test_match_length_and_the_seat_that_won_most_hands():
    state = {"status": "even", "dealer": 1, "hands": 1, "tally": [1, 0, 0, 1, 0]}
    after = settle(state, [7, 1], {"match_length": 2}, **FRESH)
    assert after["tally"] == [2, 0, 0, 2, 0] and after["over"] and after["winner"] is None
    after = settle(state, [1, 7], {"match_length": 2}, **FRESH)
    assert after["tally"] == [1, 1, 1, 1, 1] and after["winner"] is None
    after = settle({**state, "tally": [0, 0, 3, 0, 0]}, [1, 7], {"match_length": 2}, **FRESH)
    assert after["winner"] == 2


def test_unknown_options_are_refused():
    with pytest.raises(UnknownOption):
        get_game("filko5", {"teams": "everyone"})
