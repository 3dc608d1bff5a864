"""Bots play any game's hand to the end with legal cards; the simple one
plays better than chance."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cards, get_game
from engine.bots import RandomBot, SimpleBot, bot_action, make_bot
from engine.games import game_ids


def play_hand(game, rng, bots, knowledge_known=True):
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    hands = [list(h) for h in dealt.hands]
    # Fildinsky draws from a stock: the table knows the drawn cards only when
    # it knows the stock, so the bots play it with the stock known.
    extra = dict(dealt.extra) if game.id == "fildinsky" else {}
    flow = game.hand_flow(state, dealt.hands if knowledge_known else None, **extra)
    for _ in range(500):
        waiting = flow.pending().seat
        bot = bots[waiting] if waiting is not None else bots[0]
        kind, seat, what = bot_action(flow, hands, bot, rng, dealt.shown)
        if kind == "done":
            break
        if kind == "choose":
            flow.choose(seat, what)
        else:
            ev = flow.card(seat, what)
            if ev.kind == "played" and what in hands[seat]:
                hands[seat].remove(what)  # (a drawn card was never in the dealt hand)
    assert flow.finished
    return flow


CASES = [(gid, known) for gid in game_ids() for known in (True, False)
         if known or gid != "fildinsky"]  # unknown draws: the bots could not know their cards


@pytest.mark.parametrize("gid,known", CASES,
                         ids=[f"{g}-{'known' if k else 'unknown'}" for g, k in CASES])
@pytest.mark.parametrize("bot", ["random", "simple", "table"])
def test_bots_finish_a_hand_of_every_game(gid, bot, known):
    game = get_game(gid)
    rng = random.Random(5)
    flow = play_hand(game, rng, [make_bot(bot)] * game.players, knowledge_known=known)
    assert flow.finished and all(p >= 0 for p in flow.result().points)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_simple_bot_never_plays_an_illegal_card_with_hands_unknown(seed):
    game = get_game("filicau")
    rng = random.Random(seed)
    play_hand(game, rng, [SimpleBot(), RandomBot()] * 2, knowledge_known=False)


def test_simple_bot_wins_more_points_than_random_bots():
    game = get_game("filicau")
    rng = random.Random(1)
    ours = theirs = 0
    for _ in range(300):
        flow = play_hand(game, rng, [SimpleBot(), RandomBot(), SimpleBot(), RandomBot()])
        p = flow.result().points
        ours += p[0]
        theirs += p[1]
    assert ours > theirs * 1.15


def test_simple_bot_throws_cheap_cards_rather_than_aces_under_an_opponents_trump():
    game = get_game("filicau")
    deal = game.new_deal("h", 0, [cards("Oa Kh 9h 8h 7h Tb 9b 8b"),
                                  cards("Ol Ah Th Uh Aa 7a 8a 9a"),
                                  cards("Oh Ab Kb Ub 7b Ta Ka Ua"),
                                  cards("Ob Al Tl Kl Ul 9l 8l 7l")])
    deal.play(0, cards("9b")[0])
    deal.play(1, cards("Ol")[0])  # void in bells: trumps with the Over of leaves
    # seat 2 holds Ab Kb Ub 7b: cannot beat a trump with bells; keeps the Ace
    assert SimpleBot().play(deal, 2, deal.hand_of(2), random.Random(0)).code == "7b"


def test_simple_bot_wins_cheaply_when_an_opponent_is_winning_points():
    game = get_game("filicau")
    deal = game.new_deal("h", 0, [cards("Oa Kh 9h 8h 7h Tb 9b 8b"),
                                  cards("Ol Ah Th Uh Aa 7a 8a 9a"),
                                  cards("Oh Ab Kb Ub 7b Ta Ka Ua"),
                                  cards("Ob Al Tl Kl Ul 9l 8l 7l")])
    deal.play(0, cards("Tb")[0])
    # seat 1 is void in bells, holds trumps: must trump; the cheapest trump that wins
    assert SimpleBot().play(deal, 1, deal.hand_of(1), random.Random(0)).code == "Uh"


def test_unknown_bot_name():
    with pytest.raises(ValueError) as err:
        make_bot("genius")
    assert "random, simple, table, sampled[-level]" in str(err.value)
    with pytest.raises(ValueError, match="no level 'genius'"):
        make_bot("sampled-genius")


def test_the_sampled_bot_belongs_to_the_family_by_name():
    from engine.analysis.bot import SampledBot

    bot = make_bot("sampled-easy")
    assert isinstance(bot, SampledBot) and bot.name == "sampled-easy"
    assert make_bot("sampled").name == "sampled-good"


def test_the_table_bot_tries_the_legal_cards_of_its_real_hand_first():
    """Hands unknown to the deal: the seat's legal cards in random order, then
    the cards the rules would refuse, in hand order (the fake table's player)."""
    from engine.bots import TableBot

    game = get_game("filicau")
    deal = game.new_deal("h", 0)
    deal.play(0, cards("Ah")[0])
    hand = cards("7a Kh 8l 9h Ta")
    order = TableBot.play_order(deal, 1, hand, random.Random(3))
    assert sorted(order[:2]) == [1, 3] and order[2:] == [0, 2, 4]
    assert TableBot().play(deal, 1, hand, random.Random(3)) in cards("Kh 9h")
