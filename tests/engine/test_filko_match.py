"""What a hand's result does to a match of filko, filko6 and filko_hats
(RULES.md §2.B.1, §2.B.2, §2.B.6). Cases worked out by hand from the rules."""

from __future__ import annotations

import pytest

from engine import BadRequest, IllegalPlay, get_game


def settle(gid, state, points, options=None, **extra):
    game = get_game(gid, options or {})
    return game.settle(game.state_from_json(state), points, **extra).to_json()


EVEN_D1 = {"status": "even", "dealer": 1, "servant": None}
M0_S3 = {"status": "masters:0", "dealer": 3, "servant": 3}


# ----- four players, Hungarian ----------------------------------------------------------

def test_six_points_make_masters_who_choose_the_servant():
    assert settle("filko", EVEN_D1, [6, 2], servant=3) == {
        "status": "masters:0", "dealer": 3, "servant": 3}


def test_eight_nil_is_the_same_as_six_two():
    assert settle("filko", EVEN_D1, [0, 8], servant=2) == {
        "status": "masters:1", "dealer": 2, "servant": 2}


def test_the_masters_must_choose_an_opponent():
    with pytest.raises(BadRequest, match="servant"):
        settle("filko", EVEN_D1, [6, 2])
    with pytest.raises(IllegalPlay) as err:
        settle("filko", EVEN_D1, [6, 2], servant=2)
    assert err.value.reason == "filko_bad_servant"


@pytest.mark.parametrize("points", [[5, 3], [4, 4], [3, 5], [6, 2], [7, 1], [8, 0]])
def test_masters_stay_while_the_servants_take_fewer_than_six(points):
    assert settle("filko", M0_S3, points) == M0_S3


@pytest.mark.parametrize("points", [[2, 6], [1, 7], [0, 8]])
def test_servants_taking_six_become_masters_and_the_role_passes_right(points):
    # The former Servant was seat 3; the player to his right is seat 0.
    assert settle("filko", M0_S3, points) == {"status": "masters:1", "dealer": 0, "servant": 0}


def test_no_servant_is_chosen_when_masters_already_exist_or_nobody_takes_six():
    with pytest.raises(BadRequest):
        settle("filko", M0_S3, [2, 6], servant=1)
    with pytest.raises(BadRequest):
        settle("filko", EVEN_D1, [4, 4], servant=0)


@pytest.mark.parametrize("points", [[4, 4], [5, 3], [3, 5]])
def test_without_masters_the_next_player_deals_by_default(points):
    assert settle("filko", EVEN_D1, points) == {"status": "even", "dealer": 2, "servant": None}


@pytest.mark.parametrize("dealer, points, expected", [
    (0, [3, 5], 0),  # the dealer's team took fewer: he deals again
    (1, [3, 5], 2),  # the dealer's team took more: the next player deals
    (1, [4, 4], 2),  # a tie: the next player
])
def test_dealer_while_even_loser(dealer, points, expected):
    state = {"status": "even", "dealer": dealer, "servant": None}
    assert settle("filko", state, points, {"dealer_while_even": "loser"})["dealer"] == expected


@pytest.mark.parametrize("dealer, points, servant", [
    (0, [6, 2], 1),  # the player after the dealer (1) is an opponent of the masters
    (1, [6, 2], 1),  # the player after the dealer (2) is a master: the dealer himself
    (2, [2, 6], 2),
])
def test_automatic_servant_choice(dealer, points, servant):
    state = {"status": "even", "dealer": dealer, "servant": None}
    after = settle("filko", state, points, {"servant_choice": "auto"})
    assert after["servant"] == servant and after["dealer"] == servant


def test_points_of_a_hand_must_add_up():
    with pytest.raises(BadRequest):
        settle("filko", EVEN_D1, [5, 2])


@pytest.mark.parametrize("state, why", [
    ({"status": "masters:0", "dealer": 3}, "servant"),
    ({"status": "masters:0", "dealer": 2, "servant": 2}, "opponent"),
    ({"status": "masters:0", "dealer": 1, "servant": 3}, "dealer"),
    ({"status": "even", "dealer": 1, "servant": 1}, "null"),
    ({"status": "even", "dealer": 4}, "seat"),
    ({"status": "even", "dealer": 1, "score": [0, 0]}, "unknown"),
    ({"status": "slaves", "dealer": 1}, "status"),
])
def test_inconsistent_states_are_refused(state, why):
    with pytest.raises(BadRequest, match=why):
        get_game("filko").state_from_json(state)


def test_match_length_ends_the_match_with_the_team_that_was_master_more_often():
    state = {"status": "masters:1", "dealer": 0, "servant": 0, "hands": 2, "tally": [0, 2]}
    after = settle("filko", state, [2, 6], {"match_length": 3})
    assert after == {"status": "masters:1", "dealer": 0, "servant": 0, "hands": 3,
                     "tally": [0, 3], "winner": 1, "over": True}
    game = get_game("filko", {"match_length": 3})
    with pytest.raises(BadRequest, match="over"):
        game.settle(game.state_from_json(after), [4, 4])


# ----- six players ----------------------------------------------------------------------

def test_six_players_choose_the_servant_among_three():
    game = get_game("filko6")
    state = game.state_from_json({"status": "even", "dealer": 0})
    assert game.servant_choices(state, [7, 1]) == (1, 3, 5)
    assert game.servant_choices(state, [5, 3]) == ()


def test_six_player_servant_role_passes_right():
    state = {"status": "masters:0", "dealer": 3, "servant": 3}
    assert settle("filko6", state, [2, 6]) == {"status": "masters:1", "dealer": 4,
                                               "servant": 4}


@pytest.mark.parametrize("state, points, expected", [
    # Filicău's table: 8-0 makes even, 6-7 masters whatever the status, slaves deal.
    ({"status": "even", "dealer": 2}, [8, 0], {"status": "even", "dealer": 3}),
    ({"status": "masters:0", "dealer": 1}, [7, 1], {"status": "masters:0", "dealer": 1}),
    ({"status": "masters:0", "dealer": 1}, [1, 7], {"status": "masters:1", "dealer": 2}),
    ({"status": "masters:1", "dealer": 2}, [0, 8], {"status": "even", "dealer": 3}),
    ({"status": "masters:1", "dealer": 2}, [5, 3], {"status": "masters:1", "dealer": 2}),
])
def test_six_players_with_romanian_scoring(state, points, expected):
    after = settle("filko6", state, points, {"scoring": "romanian"})
    assert after == {**expected, "servant": None}


def test_romanian_scoring_has_no_servant():
    with pytest.raises(BadRequest):
        settle("filko6", {"status": "even", "dealer": 2}, [7, 1], {"scoring": "romanian"},
               servant=1)
    with pytest.raises(BadRequest):
        settle("filko6", {"status": "even", "dealer": 2}, [7, 1])  # Hungarian needs one


# ----- with Hats ------------------------------------------------------------------------

@pytest.mark.parametrize("threshold, points, hatless, score", [
    (61, [61, 59], 1, [1, 0]),
    (61, [60, 60], None, [0, 0]),  # a draw
    (61, [30, 90], 0, [0, 1]),
    (62, [61, 59], None, [0, 0]),  # literally "more than 61": undecided
    (62, [62, 58], 1, [1, 0]),
])
def test_hats_winning_threshold(threshold, points, hatless, score):
    after = settle("filko_hats", {"dealer": 0}, points, {"win_threshold": threshold})
    assert after == {"dealer": 1, "hatless": hatless, "score": score}


def test_hats_losers_stay_bare_headed_until_they_win():
    state = {"dealer": 3, "hatless": 0, "score": [0, 1]}
    assert settle("filko_hats", state, [60, 60]) == {"dealer": 0, "hatless": 0,
                                                     "score": [0, 1]}
    assert settle("filko_hats", state, [70, 50]) == {"dealer": 0, "hatless": 1,
                                                     "score": [1, 1]}


def test_hats_points_add_up_to_120_and_there_is_no_servant():
    with pytest.raises(BadRequest):
        settle("filko_hats", {"dealer": 0}, [60, 59])
    with pytest.raises(BadRequest):
        settle("filko_hats", {"dealer": 0}, [70, 50], servant=1)


def test_hats_match_length():
    after = settle("filko_hats", {"dealer": 0, "score": [1, 0], "hands": 1}, [20, 100],
                   {"match_length": 2})
    assert after == {"dealer": 1, "hatless": 0, "score": [1, 1], "hands": 2, "winner": None,
                     "over": True}
