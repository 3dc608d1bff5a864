"""The sampled bot and the hint: legal cards, fair knowledge, its levels."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.analysis.bot import LEVELS, SampledBot, hint


def test_the_bot_plays_whole_hands_of_legal_cards() -> None:
    rng = random.Random(4)
    for game_id in ("filicau", "filko6"):
        game = get_game(game_id)
        dealt = game.deal(rng, 1) if game_id != "filcau20" else None
        if dealt is None or dealt.trump is None:
            continue
        deal = game.new_deal(dealt.trump, dealt.leader, dealt.hands)
        bot = SampledBot("easy")
        for _ in range(2 * game.players):  # two tricks of the first legal cards
            deal.play(deal.turn, next(iter(deal.legal_cards())))
        while not deal.finished:
            seat = deal.turn
            c = bot.play(deal, seat, deal.hand_of(seat), rng)
            deal.play(seat, c)  # raises IllegalPlay on an illegal card
        assert sum(deal.team_points()) == game.total_points


def test_the_hint_weighs_every_legal_card_over_the_deals_asked_for() -> None:
    g = get_game("filicau")
    rng = random.Random(9)
    dealt = g.deal(rng, 2)
    deal = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
    for _ in range(13):  # three tricks and a card: seat to play mid-trick
        deal.play(deal.turn, next(iter(deal.legal_cards())))
    seat = deal.turn
    found = hint(deal, seat, deal.hand_of(seat), random.Random(1), 6)
    assert found is not None
    assert found.samples == 6
    assert set(found.averages) == set(deal.legal_cards())
    assert found.card in found.averages
    assert found.average == max(found.averages.values())
    assert all(0 <= v <= g.total_points for v in found.averages.values())


def test_levels_are_named_and_an_unknown_level_is_refused() -> None:
    assert list(LEVELS) == ["easy", "good", "strong"]
    assert LEVELS["easy"] < LEVELS["good"] < LEVELS["strong"]
    with pytest.raises(ValueError, match="no level"):
        SampledBot("grandmaster")
