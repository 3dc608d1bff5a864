"""Inference: sampled deals scored by how well a model explains the
opponents' plays (`engine.analysis.inference`), and the bot that uses it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Card, Deal, get_game
from engine.analysis.bot import SampledBot, _teams, hint
from engine.analysis.inference import Replay, fewest_surprises
from engine.bots import SimpleBot, legal_from


def _simple_hand(game_id: str, seed: int, cards: int) -> Deal:
    """A hand `cards` plays in, every seat playing as `SimpleBot`."""
    g = get_game(game_id)
    rng = random.Random(seed)
    dealt = g.deal(rng, 1)
    assert dealt.trump is not None
    deal = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
    bot = SimpleBot()
    for _ in range(cards):
        deal.play(deal.turn, bot.play(deal, deal.turn, deal.hand_of(deal.turn), rng))
    return deal


def _replay(deal: Deal) -> Replay:
    seat = deal.turn
    teams = _teams(deal, seat)
    played = sum(len(t.cards) for t in deal.tricks) + len(deal.current_trick)
    watched = [s for s in range(deal.n) if teams[s] != teams[seat]]
    return Replay(deal, watched, SimpleBot(), played)


def _shuffled(deal: Deal, rng: random.Random) -> list[list[Card]]:
    """The hidden cards dealt anew among the other seats (the same counts)."""
    true = [deal.hand_of(s) for s in range(deal.n)]
    hidden = [c for s in range(deal.n) if s != deal.turn for c in true[s]]
    rng.shuffle(hidden)
    out: list[list[Card]] = []
    for s in range(deal.n):
        if s == deal.turn:
            out.append(true[s])
        else:
            out.append(hidden[:len(true[s])])
            hidden = hidden[len(true[s]):]
    return out


def test_the_real_deal_holds_no_surprise_when_the_opponents_played_as_the_model() -> None:
    for game_id in ("filko6", "filicau", "sueca"):
        for seed in range(6):
            deal = _simple_hand(game_id, seed, 13)
            before = deal.snapshot()
            replay = _replay(deal)
            true = [deal.hand_of(s) for s in range(deal.n)]
            assert replay.surprises(true) == 0
            # Neither the deal asked about nor the replay's copy is changed.
            assert deal.snapshot() == before
            assert replay.deal.snapshot() == before


def test_other_deals_of_the_hidden_cards_surprise_the_model() -> None:
    """Dealt anew at random, the hidden cards often contradict a play the
    model made (a low lead from a short suit, a trick not won cheaply)."""
    surprised = 0
    for seed in range(10):
        deal = _simple_hand("filko6", seed, 13)
        replay = _replay(deal)
        rng = random.Random(seed)
        surprised += sum(replay.surprises(_shuffled(deal, rng)) > 0 for _ in range(5))
        true = [deal.hand_of(s) for s in range(deal.n)]
        assert replay.surprises(true) == 0  # the copy was restored each time
    assert surprised >= 25  # of 50


def test_counting_stops_at_the_limit() -> None:
    deal = _simple_hand("filko6", 3, 13)
    replay = _replay(deal)
    rng = random.Random(1)
    counts = [replay.surprises(_shuffled(deal, rng)) for _ in range(20)]
    rng = random.Random(1)
    capped = [replay.surprises(_shuffled(deal, rng), stop=1) for _ in range(20)]
    assert capped == [min(c, 1) for c in counts]
    assert max(counts) > 1


def test_of_the_deals_drawn_the_first_fully_explained_is_kept() -> None:
    deal = _simple_hand("filko6", 5, 13)
    replay = _replay(deal)
    rng = random.Random(2)
    true = [deal.hand_of(s) for s in range(deal.n)]
    wrong = next(h for h in (_shuffled(deal, rng) for _ in range(50))
                 if replay.surprises(h) > 0)
    draws = iter([wrong, true, wrong])
    assert fewest_surprises(lambda: next(draws), replay, draws=3) == true
    # None explained fully: the fewest surprises, the earliest of equals.
    worse = next(h for h in (_shuffled(deal, rng) for _ in range(200))
                 if replay.surprises(h) > replay.surprises(wrong))
    draws = iter([worse, wrong, worse])
    assert fewest_surprises(lambda: next(draws), replay, draws=3) == wrong
    # Nothing drawn: None.
    assert fewest_surprises(lambda: None, replay) is None


@settings(max_examples=12, deadline=None)
@given(game_id=st.sampled_from(["filko6", "filicau", "filko", "sueca"]),
       seed=st.integers(0, 10_000), cards=st.integers(0, 20))
def test_the_inferring_bot_plays_a_legal_card_and_the_same_one_for_the_same_seed(
        game_id: str, seed: int, cards: int) -> None:
    g = get_game(game_id)
    # The last four tricks at most (cheap solves), and at least one card played.
    cards = max(1, g.players * (g.tricks_per_hand - 4)) + cards % (3 * g.players)
    deal = _simple_hand(game_id, seed, cards)
    seat = deal.turn
    hand = deal.hand_of(seat)
    before = deal.snapshot()
    bot = SampledBot("easy", samples=2, infer=True)
    first = bot.play(deal, seat, hand, random.Random(seed))
    assert first in legal_from(deal, seat, hand)
    assert deal.snapshot() == before
    assert bot.play(deal, seat, hand, random.Random(seed)) == first
    found = hint(deal, seat, hand, random.Random(seed), 2, model=SimpleBot())
    if found is not None:
        assert set(found.averages) == set(legal_from(deal, seat, hand))


def test_the_inferring_bot_is_named_so() -> None:
    assert SampledBot("easy", tricks_left=5, samples=4, infer=True).name == \
        "sampled-4-last5-infer"


def test_a_deal_with_hands_unknown_is_read_as_well() -> None:
    """At the table the deal does not know the hands (`hands=None`): the
    replay takes the sampled cards back all the same, and the deal keeps not
    knowing them."""
    g = get_game("filko6")
    explained = surprised = 0
    for seed in range(8):
        rng = random.Random(seed)
        dealt = g.deal(rng, 1)
        assert dealt.trump is not None
        known = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
        blind = g.new_deal(dealt.trump, dealt.leader, None)
        bot = SimpleBot()
        for _ in range(13):
            seat = known.turn
            card = bot.play(known, seat, known.hand_of(seat), rng)
            known.play(seat, card)
            blind.play(seat, card)
        replay = _replay(blind)
        true = [known.hand_of(s) for s in range(g.players)]
        explained += replay.surprises(true) == 0
        surprised += replay.surprises(_shuffled(known, rng)) > 0
        assert blind.hands is None
    assert explained == 8
    assert surprised >= 4


def test_the_reading_level_plays_whole_hands_at_a_table_that_does_not_know_the_hands() -> None:
    for game_id in ("filko6", "filicau"):
        g = get_game(game_id)
        rng = random.Random(3)
        dealt = g.deal(rng, 1)
        assert dealt.trump is not None
        known = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
        blind = g.new_deal(dealt.trump, dealt.leader, None)
        bot = SampledBot("reading")
        while not known.finished:
            seat = known.turn
            card = bot.play(blind, seat, known.hand_of(seat), rng)
            known.play(seat, card)  # raises IllegalPlay on an illegal card
            blind.play(seat, card)
        assert sum(known.team_points()) == g.total_points


def test_the_reading_level_is_a_bot_by_name() -> None:
    from engine.bots import make_bot

    bot = make_bot("sampled-reading")
    assert isinstance(bot, SampledBot)
    assert (bot.name, bot.infer, bot.tricks_left) == ("sampled-reading", True, 5)


def test_cards_the_table_knows_but_the_players_do_not_see_stay_hidden_from_the_bot() -> None:
    """At the table (hands unknown to the deal) `known` holds cards the
    players may not see (a 20-card Filcău binder's hand, tapped face down):
    the hint is the same as without them. With every hand known (the bench)
    `known` holds only cards shown to everybody, and the hint uses them."""
    g = get_game("filicau")
    rng = random.Random(11)
    dealt = g.deal(rng, 1)
    assert dealt.trump is not None
    leader = dealt.leader
    other = (leader + 1) % g.players
    blind = g.new_deal(dealt.trump, leader, None)
    told = g.new_deal(dealt.trump, leader, None, known={other: dealt.hands[other]})
    hand = dealt.hands[leader]
    plain = hint(blind, leader, hand, random.Random(4), 3)
    tapped = hint(told, leader, hand, random.Random(4), 3)
    assert plain is not None and tapped is not None
    assert tapped.averages == plain.averages
    # Hands known, `known` cards shown to everybody: the deals place them.
    open_deal = g.new_deal(dealt.trump, leader, dealt.hands)
    open_deal.known[other] = open_deal.pack.mask(dealt.hands[other])
    shown = hint(open_deal, leader, hand, random.Random(4), 3)
    passed = hint(open_deal, leader, hand, random.Random(4), 3,
                  public={other: dealt.hands[other]})
    assert shown is not None and passed is not None
    assert shown.averages == passed.averages
