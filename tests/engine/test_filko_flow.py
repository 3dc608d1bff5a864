"""The Filkó hand as the table lives it (four and six players): the cutter
shows the cut, the hand is played, new masters choose the Servant."""

from __future__ import annotations

import random

import pytest

from engine import BadRequest, IllegalPlay, card, cards, get_game
from engine import bots as filko_bot

#: Dealer 0. The cut showed Oa then 9h (both dealt to the dealer): hearts trumps.
HANDS = [cards("Oa 9h Ab Tb Kb Ub 9b 8b"),
         cards("Ol Ah Th Kh Uh 8h 7h 7b"),
         cards("Oh Ob Aa Ta Ka Ua 9a 8a"),
         cards("Al Tl Kl Ul 9l 8l 7l 7a")]


def new_flow(options=None, hands=HANDS, dealer=0):
    game = get_game("filko", options or {})
    state = game.state_from_json({"status": "even", "dealer": dealer})
    return game, game.hand_flow(state, hands)


def test_the_cutter_shows_the_cut_until_a_card_that_is_not_an_over():
    game, flow = new_flow()
    step = flow.pending()
    assert (step.kind, step.seat, step.prompt) == ("show", 3, "filko_show_cut")
    with pytest.raises(IllegalPlay) as err:
        flow.card(0, card("Oa"))
    assert err.value.reason == "not_your_turn"
    assert flow.card(3, card("Oa")).kind == "shown"
    event = flow.card(3, card("9h"))
    assert event.kind == "trump" and event.data["trump"] == "h" and event.data["used"] == 2
    assert flow.trump == "h"
    assert flow.pending().kind == "play" and flow.pending().seat == 1


def test_the_cutter_is_on_the_dealers_right_with_that_option():
    _, flow = new_flow({"cutter": "right"})
    assert flow.pending().seat == 1


def test_the_first_lead_follows_its_option():
    _, flow = new_flow({"first_lead": "left"})
    flow.card(3, card("9h"))
    assert flow.deal.leader == 3


def test_a_card_that_cannot_be_the_bottom_of_the_cut_is_refused_and_changes_nothing():
    _, flow = new_flow()
    with pytest.raises(IllegalPlay) as err:
        flow.card(3, card("Kl"))  # seat 3's card: the bottom of the cut goes to the dealer
    assert err.value.reason == "filko_not_cut_card"
    # the protocol's seat 0, counted from 1 for people
    assert "it must go to seat 1." in err.value.message("en")
    assert flow.shown == [] and flow.pending().kind == "show"


def test_undo_takes_back_the_trump_card():
    _, flow = new_flow()
    flow.card(3, card("9h"))
    flow.undo()
    assert flow.trump is None and flow.deal is None and flow.pending().kind == "show"


def test_four_overs_in_the_cut_go_to_the_dealer_and_the_fifth_card_to_his_left():
    game = get_game("filko")
    flow = game.hand_flow(game.state_from_json({"status": "even", "dealer": 0}))
    for c in cards("Oa Ol Oh Ob"):
        assert flow.card(3, c).kind == "shown"
    event = flow.card(3, card("9h"))
    assert event.data == {"trump": "h", "used": 5, "to": 3}
    assert flow.known_cards() == {0: cards("Oa Ol Oh Ob"), 3: [card("9h")]}
    with pytest.raises(IllegalPlay) as err:
        flow.card(1, card("9h"))  # the fifth card is known to be seat 3's
    assert err.value.reason == "not_in_hand"
    flow.card(1, card("Ah"))
    with pytest.raises(IllegalPlay):
        flow.card(2, card("Ob"))  # the dealer's
    flow.card(2, card("7h"))
    flow.card(3, card("9h"))
    assert flow.card(0, card("Oa")).outcome.trick.winner == 0


def test_six_players_show_the_cut_for_the_dealer_and_his_left():
    game = get_game("filko6")
    flow = game.hand_flow(game.state_from_json({"status": "even", "dealer": 2}))
    assert flow.pending().seat == 1  # the dealer's left cuts
    for c in cards("Oa Ol Oh"):
        flow.card(1, c)
    flow.card(1, card("Kb"))
    # The dealer gets the bottom two, his left the two above them.
    assert flow.known_cards() == {2: cards("Oa Ol"), 1: cards("Oh Kb")}
    assert flow.trump == "b" and flow.deal.leader == 3


def finished_with_new_masters(options=None, gid="filko"):
    """A hand from even that ended with one team on 6 or more (first seed found)."""
    game = get_game(gid, options or {})
    for seed in range(500):
        rng = random.Random(seed)
        state = game.state_from_json({"status": "even", "dealer": 0})
        dealt = game.deal(rng, 0)
        flow = game.hand_flow(state, dealt.hands)
        while flow.pending().kind in ("show", "play"):
            filko_bot.step(game, flow, dealt, rng)
        points = flow.deal.team_points()
        if max(points) >= 6:
            return game, flow, points
    raise AssertionError("no hand made masters")


def test_new_masters_choose_the_servant_among_the_losers():
    game, flow, points = finished_with_new_masters()
    winners = 0 if points[0] >= 6 else 1
    losers = [s for s in range(4) if s % 2 != winners]
    step = flow.pending()
    assert (step.kind, step.prompt) == ("choose", "filko_choose_servant")
    assert step.choices == tuple(str(s) for s in losers)
    assert step.seat % 2 == winners
    assert not flow.finished
    with pytest.raises(BadRequest):
        flow.settled()
    with pytest.raises(IllegalPlay) as err:
        flow.choose(losers[0], str(losers[0]))  # the losers do not choose
    assert err.value.reason == "not_your_turn"
    with pytest.raises(IllegalPlay) as err:
        flow.choose(step.seat, str(step.seat))  # a master cannot serve
    assert err.value.reason == "filko_bad_servant"
    with pytest.raises(IllegalPlay) as err:
        flow.choose(step.seat, "nobody")
    assert err.value.reason == "filko_not_a_choice"
    assert flow.pending() == step
    event = flow.choose(step.seat, str(losers[1]))
    assert event.data == {"servant": losers[1]}
    assert flow.finished and flow.pending().kind == "done"
    after = flow.settled()
    assert (after.masters, after.servant, after.dealer) == (winners, losers[1], losers[1])
    flow.undo()
    assert flow.pending() == step


def test_with_automatic_choice_the_hand_ends_without_a_choice():
    game, flow, points = finished_with_new_masters({"servant_choice": "auto"})
    winners = 0 if points[0] >= 6 else 1
    assert flow.pending().kind == "done"
    after = flow.settled()
    # FK-4: the player after the dealer (seat 1) if an opponent, else the dealer (seat 0).
    assert after.servant == (1 if winners == 0 else 0)


def test_six_player_masters_choose_among_three():
    game, flow, points = finished_with_new_masters(gid="filko6")
    winners = 0 if points[0] >= 6 else 1
    assert flow.pending().choices == tuple(str(s) for s in range(6) if s % 2 != winners)


def test_a_seat_sees_its_own_cards_and_legal_plays_only():
    _, flow = new_flow()
    flow.card(3, card("9h"))
    mine = flow.view(1)
    assert set(mine.hand) == set(HANDS[1]) and mine.legal == tuple(mine.hand)
    other = flow.view(2)
    assert set(other.hand) == set(HANDS[2]) and other.legal == ()
    public = flow.view(None)
    assert public.hand == () and public.legal == ()
    assert public.teams == (0, 1, 0, 1) and public.trump == "h"
    assert public.shown == (card("9h"),) and public.team_points == (0, 0)
    flow.card(1, card("Ah"))
    assert flow.view(None).trick == ((1, card("Ah")),)


@pytest.mark.parametrize("gid, dealer", [("filko", 2), ("filko6", 4), ("filko_hats", 0)])
def test_a_table_that_reads_the_deal_knows_the_cut(gid, dealer):
    game = get_game(gid)
    flow = game.hand_flow(game.state_from_json({"status": "even", "dealer": dealer}
                                               if gid != "filko_hats" else {"dealer": dealer}))
    order = flow.deal_order()
    packet = 4 if game.players == 4 else 3
    # The first packet goes to the player after the dealer, the last to the dealer.
    assert order[:packet] == ((dealer + 1) % game.players,) * packet
    assert order[-1] == dealer and len(order) == game.pack.size
    for seed in range(20):
        dealt = game.deal(random.Random(seed), dealer)
        received = [list(h) for h in dealt.hands]
        sequence = [(seat, received[seat].pop(0)) for seat in order]
        table = game.hand_flow(game.state_from_json(
            {"status": "even", "dealer": dealer} if gid != "filko_hats" else {"dealer": dealer}),
            dealt.hands)
        events = table.after_deal(sequence)
        assert table.trump == dealt.trump and tuple(table.shown) == dealt.shown
        assert events[-1].kind == "trump" and table.pending().kind == "play"


def test_five_player_deal_order_is_two_packets_of_three():
    game = get_game("filko5")
    flow = game.hand_flow(game.state_from_json({"status": "even", "dealer": 4}), None)
    assert flow.deal_order()[:4] == (0, 0, 0, 1)
    assert flow.deal_order()[-3:] == (4, 4, 4)
    assert flow.after_deal([]) == []
