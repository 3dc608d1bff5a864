"""Filicău's match rules (RULES.md §2.A): the status table, the dealer rule,
trumps from the dealer's cards, the deal, options."""

from __future__ import annotations

import random

import pytest

from engine import BadRequest, UnknownOption, cards, get_game
from engine.games.filicau import FilicauState

G = get_game("filicau")
EVEN, M0, M1 = None, 0, 1


def settle(masters, dealer, points):
    return G.settle(FilicauState(masters, dealer), points)


# Every row of the status table, from every starting status.
@pytest.mark.parametrize("before", [EVEN, M0, M1])
@pytest.mark.parametrize("points,after", [
    ((4, 4), "same"), ((5, 3), "same"), ((3, 5), "same"),
    ((6, 2), M0), ((7, 1), M0), ((2, 6), M1), ((1, 7), M1),
    ((8, 0), EVEN), ((0, 8), EVEN),
])
def test_status_table(before, points, after):
    expected = before if after == "same" else after
    assert settle(before, 0, points).masters == expected


@pytest.mark.parametrize("dealer", range(4))
def test_next_dealer_when_even_is_the_player_after_the_dealer(dealer):
    assert settle(EVEN, dealer, (4, 4)).dealer == (dealer + 1) % 4
    assert settle(M0, dealer, (8, 0)).dealer == (dealer + 1) % 4  # ran away: even again


@pytest.mark.parametrize("dealer", range(4))
def test_a_slave_deals_when_there_are_masters(dealer):
    after = settle(EVEN, dealer, (6, 2))  # team 0 (seats 0 and 2) are masters
    assert after.dealer % 2 == 1
    # the same dealer if a slave, otherwise the next player
    assert after.dealer == (dealer if dealer % 2 == 1 else dealer + 1)


def test_slaves_keep_dealing_while_the_status_holds():
    state = FilicauState(M1, 0)  # seat 0 is a slave and deals
    for points in [(4, 4), (3, 5), (2, 6)]:
        state = G.settle(state, points)
        assert state.dealer == 0


def test_trump_is_the_first_shown_card_that_is_not_an_over():
    assert G.trump_from_shown(cards("Ol Ob 9h Aa")) == ("h", 3)
    assert G.trump_from_shown(cards("7a")) == ("a", 1)
    assert G.trump_from_shown(cards("Oa Ol Oh Ob Tb")) == ("b", 5)
    with pytest.raises(BadRequest):
        G.trump_from_shown(cards("Oa Ol"))


@pytest.mark.parametrize("seed", range(30))
def test_the_deal(seed):
    rng = random.Random(seed)
    dealer = seed % 4
    d = G.deal(rng, dealer)
    assert [len(h) for h in d.hands] == [8, 8, 8, 8]
    assert len({c for h in d.hands for c in h}) == 32
    # trumps come from the dealer's cards in the order received, within 5
    assert list(d.shown) == list(d.hands[dealer][:len(d.shown)])
    assert 1 <= len(d.shown) <= 5
    assert all(c.rank == "O" for c in d.shown[:-1]) and d.shown[-1].rank != "O"
    assert d.trump == d.shown[-1].suit
    assert d.leader == (dealer + 1) % 4


def test_the_first_dealer_is_a_slave_when_a_status_is_carried_over():
    seen = {G.new_match(random.Random(s), masters=0).dealer for s in range(40)}
    assert seen == {1, 3}
    seen = {G.new_match(random.Random(s)).dealer for s in range(40)}
    assert seen == {0, 1, 2, 3}


def test_unknown_options_are_named():
    with pytest.raises(UnknownOption) as err:
        get_game("filicau", {"match_lenght": 3})
    assert "match_lenght" in err.value.message()
    with pytest.raises(UnknownOption) as err:
        get_game("filicau", {"early_stop_when_decided": "yes"})
    assert "early_stop_when_decided" in err.value.message()
    with pytest.raises(UnknownOption):
        get_game("filicau", {"match_length": -1})
    with pytest.raises(UnknownOption):
        get_game("filicau", {"match_length": True})


def test_match_length_ends_the_match_with_the_team_that_was_master_more_often():
    g = get_game("filicau", {"match_length": 3})
    state = g.new_match(random.Random(1))
    for points in [(6, 2), (4, 4), (1, 7)]:
        assert not state.over
        state = g.settle(state, points)
    # masters after each hand: team 0, team 0 (unchanged), team 1 -> 2 to 1
    assert state.over and state.tally == (2, 1) and state.winner == 0
    with pytest.raises(BadRequest):
        g.settle(state, (4, 4))


def test_a_drawn_match_has_no_winner():
    g = get_game("filicau", {"match_length": 2})
    state = g.settle(g.settle(g.new_match(random.Random(1)), (6, 2)), (2, 6))
    assert state.over and state.winner is None


def test_without_match_length_the_match_never_ends():
    state = G.new_match(random.Random(2))
    for _ in range(50):
        state = G.settle(state, (7, 1))
    assert not state.over and state.winner is None


def test_points_must_be_two_teams_of_at_most_eight_in_all():
    for bad in [(5, 5), (8,), (-1, 9), ("4", 4), (4.0, 4)]:
        with pytest.raises(BadRequest):
            G.settle(FilicauState(None, 0), bad)
