"""Positions from live deals, and questions the solver refuses clearly."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import BadRequest, get_game
from engine.analysis import analyse, position_of


def test_a_deal_whose_hands_are_unknown_is_refused_with_a_reason() -> None:
    g = get_game("filicau")
    deal = g.new_deal("h", 0, None)
    with pytest.raises(BadRequest, match="needs every hand"):
        position_of(deal)


def test_a_finished_deal_is_refused() -> None:
    g = get_game("filicau")
    rng = random.Random(1)
    dealt = g.deal(rng, 0)
    deal = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
    deal.playout(rng)
    with pytest.raises(BadRequest, match="not waiting for a card"):
        position_of(deal)


def test_five_player_filko_teams_come_from_the_called_card() -> None:
    g = get_game("filko5")
    rng = random.Random(2)
    dealt = g.deal(rng, 0)
    old_man = dealt.extra["old_man"]
    # Call a card the Old Man does not hold: its holder is his partner.
    partner, called = next((s, c) for s, h in enumerate(dealt.hands) if s != old_man
                           for c in h if c.rank == "A")
    new_deal: Any = g.new_deal  # five-player Filkó's takes the Old Man and the call
    deal = new_deal("h", dealt.leader, dealt.hands, old_man=old_man, chain=(called,))
    p = position_of(deal)
    assert p.teams[old_man] == p.teams[partner] == 0
    assert sorted(p.teams) == [0, 0, 1, 1, 1]
    a = analyse(p, values=False)
    assert sum(a.points) == g.total_points


def test_a_position_holding_a_card_twice_is_refused_and_names_the_card() -> None:
    from engine import cards
    from engine.analysis import Position

    g = get_game("filicau")
    p = Position(g, "h", (tuple(cards("Ah Th")), tuple(cards("7h Ah")),
                          tuple(cards("Oa 9h")), tuple(cards("Ol Uh"))),
                 (), leader=0, teams=(0, 1, 0, 1))
    with pytest.raises(ValueError, match="Ah appears more often than the pack holds it"):
        analyse(p)


def test_a_position_with_a_card_of_another_pack_is_refused() -> None:
    from engine import UnknownCard, cards
    from engine.analysis import Position

    g = get_game("filicau")
    p = Position(g, "h", (tuple(cards("Ah Th")), tuple(cards("7h 2c")),
                          tuple(cards("Oa 9h")), tuple(cards("Ol Uh"))),
                 (), leader=0, teams=(0, 1, 0, 1))
    with pytest.raises(UnknownCard, match="2c"):
        analyse(p)
