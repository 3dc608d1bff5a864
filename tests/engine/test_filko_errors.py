"""Bad input to the Filkó games gets a clear error and changes nothing."""

from __future__ import annotations

import random

import pytest

from engine import BadRequest, IllegalPlay, card, cards, get_game
from engine.games.filko.five_deal import Filko5Deal

HANDS5 = [cards("Oa Ah Th Kh 9a 8a"), cards("Al Tl Kl Ul 9l 8l"), cards("Ol Ob Ab Tb Kb Ub"),
          cards("Oh Aa Ta Ka Ua Uh"), cards("9h 8h 7h 9b 8b 7a")]


def even(gid, dealer=0):
    game = get_game(gid)
    state = {"dealer": dealer} if gid == "filko_hats" else {"status": "even", "dealer": dealer}
    return game, game.state_from_json(state)


def test_a_trump_that_is_not_a_suit():
    game, state = even("filko")
    with pytest.raises(BadRequest, match="suit letter"):
        game.hand_flow(state, None, "x")


def test_a_choice_when_none_is_asked_for():
    game, state = even("filko")
    flow = game.hand_flow(state, None)
    with pytest.raises(IllegalPlay) as err:
        flow.choose(0, "1")
    assert err.value.reason == "not_expected"
    game5, state5 = even("filko5")
    flow5 = game5.hand_flow(state5, HANDS5)
    with pytest.raises(IllegalPlay) as err:
        flow5.card(0, card("9a"))  # the Old Man must call first
    assert err.value.reason == "not_expected"
    assert flow5.pending().prompt == "filko5_name_trump"


def test_undo_with_nothing_to_undo():
    game, state = even("filko6")
    with pytest.raises(IllegalPlay) as err:
        game.hand_flow(state, None).undo()
    assert err.value.reason == "nothing_to_undo"


@pytest.mark.parametrize("state", [
    {"dealer": 0, "hatless": 2},
    {"dealer": 0, "hatless": True},
    {"dealer": 0, "score": [1]},
    {"dealer": 0, "score": [1, -1]},
    {"dealer": 0, "hands": "3"},
    {"dealer": 0, "status": "even"},
    [0],
])
def test_bad_hats_states(state):
    with pytest.raises(BadRequest):
        get_game("filko_hats").state_from_json(state)


@pytest.mark.parametrize("gid", ["filko", "filko6", "filko_hats"])
def test_settle_refuses_unknown_fields_and_other_games_states(gid):
    game, state = even(gid)
    points = [4, 4] if game.total_points == 8 else [60, 60]
    with pytest.raises(BadRequest, match="unknown"):
        game.settle(state, points, colour="red")
    _, other = even("filko5")
    with pytest.raises(BadRequest):
        game.settle(other, points)


def test_five_player_settle_refuses_a_servant_and_an_over_match():
    game, state = even("filko5")
    teams = {"teams": [0, 1, 1, 0, 1], "old_man": 0, "trump": "h"}
    with pytest.raises(BadRequest, match="Servant"):
        game.settle(state, [6, 2], servant=1, **teams)
    with pytest.raises(BadRequest, match="unknown"):
        game.settle(state, [6, 2], colour="red", **teams)
    long = get_game("filko5", {"match_length": 1})
    done = long.settle(long.state_from_json({"status": "even", "dealer": 0}), [4, 4], **teams)
    with pytest.raises(BadRequest, match="over"):
        long.settle(done, [4, 4], **teams)


def test_five_players_have_no_fixed_teams_to_ask_for():
    with pytest.raises(BadRequest):
        get_game("filko5").team_of(0)


def test_a_five_player_deal_needs_the_old_man_and_a_partner_card():
    game = get_game("filko5")
    with pytest.raises(BadRequest):
        game.new_deal("h", 0, HANDS5)
    with pytest.raises(BadRequest):
        Filko5Deal(game, "h", 0, HANDS5, old_man=0)


def test_trumps_named_before_the_old_man_is_known():
    game, state = even("filko5")
    with pytest.raises(BadRequest, match="Old Man"):
        game.hand_flow(state, None, "h")


def test_a_wrong_call_changes_nothing():
    game, state = even("filko5")
    flow = game.hand_flow(state, HANDS5)
    with pytest.raises(IllegalPlay):
        flow.call(0, card=card("Ah"))
    assert flow.named is None and flow.deal is None and not flow.can_undo
    with pytest.raises(BadRequest):
        flow.call(0)


def test_a_finished_hand_refuses_plays():
    game = get_game("filko6")
    rng = random.Random(2)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    flow = game.hand_flow(state, dealt.hands, dealt.trump)
    flow.deal.playout(rng)
    if flow.pending().kind == "choose":
        flow.choose(flow.pending().seat, flow.pending().choices[0])
    with pytest.raises(IllegalPlay) as err:
        flow.card(0, dealt.hands[0][0])
    assert err.value.reason == "hand_over"
