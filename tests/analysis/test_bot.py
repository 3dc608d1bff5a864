"""The sampled bot and the hint: legal cards, fair knowledge, its levels."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.analysis.bot import LEVELS, SampledBot, hint
from engine.bots import SimpleBot
from tests.analysis.helpers import fris_deal


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
    assert list(LEVELS) == ["easy", "good", "strong", "reading", "careful"]
    assert LEVELS["easy"] < LEVELS["good"] < LEVELS["strong"]
    reading = SampledBot("reading")
    assert (reading.name, reading.samples, reading.tricks_left, reading.infer) == \
        ("sampled-reading", 4, 5, True)
    careful = SampledBot("careful")
    assert (careful.samples, careful.tricks_left, careful.infer) == (8, 5, True)
    assert not SampledBot("easy").infer and SampledBot("easy").tricks_left is None
    with pytest.raises(ValueError, match="no level"):
        SampledBot("grandmaster")


def _mid_hand(game_id: str, seed: int, cards: int):  # type: ignore[no-untyped-def]
    g = get_game(game_id)
    rng = random.Random(seed)
    dealt = g.deal(rng, 1)
    deal = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
    for _ in range(cards):
        deal.play(deal.turn, next(iter(deal.legal_cards())))
    return deal


def test_among_equally_valued_cards_the_bot_keeps_simplebots_card_or_the_cheapest() -> None:
    from engine.analysis.bot import Hint
    from engine.bots import SimpleBot

    bot = SampledBot("easy")
    checked = 0
    for seed in range(40):
        deal = _mid_hand("filicau", seed, 9)  # mid-trick: the seat follows or throws
        seat = deal.turn
        hand = deal.hand_of(seat)
        legal = list(deal.legal_cards(seat))
        if len(legal) < 3:
            continue
        simple = SimpleBot().play(deal, seat, hand, random.Random(0))
        # Every card valued alike: SimpleBot's card.
        alike = Hint(legal[0], 4.0, {c: 4.0 for c in legal}, 4)
        assert bot.among_best(deal, seat, hand, random.Random(0), alike, legal) == simple
        # SimpleBot's card worse than the others: the cheapest of the others.
        rest = [c for c in legal if c != simple]
        worse = Hint(rest[0], 4.0, {c: (3.0 if c == simple else 4.0) for c in legal}, 4)
        chosen = bot.among_best(deal, seat, hand, random.Random(0), worse, legal)
        t, pack = deal.tables, deal.pack
        costs = {c: (t.points[pack.slot(c)], t.power[pack.slot(c)]) for c in rest}
        assert chosen in rest
        assert costs[chosen] == min(costs.values())
        # One card clearly best: that card, whatever SimpleBot thinks.
        best = rest[-1]
        clear = Hint(best, 5.0, {c: (5.0 if c == best else 4.0) for c in legal}, 4)
        assert bot.among_best(deal, seat, hand, random.Random(0), clear, legal) == best
        checked += 1
    assert checked >= 5


def test_the_hint_counts_fildinskys_exchanged_seven_once() -> None:
    """A Seven of trumps played, then exchanged for the turned-up card, goes
    under the stock and comes back into a hand: the hint still samples
    (it once counted the card twice and failed)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from bench.bots_bench import play_board
    from engine.bots import SimpleBot
    from engine.games.fildinsky.deal import Exchanged

    class Watching(SampledBot):
        """The sampled bot, keeping the deal it plays in."""

        def play(self, deal, seat, hand, rng):  # type: ignore[no-untyped-def]
            self.deal = deal
            return super().play(deal, seat, hand, rng)

    game = get_game("fildinsky")
    bot = Watching("easy", tricks_left=8, samples=2)
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_match(rng)
        dealt = game.deal(rng, state.dealer)
        points = play_board(game, state, dealt, (bot, SimpleBot()), rng, f"calls-{seed}")
        assert points is not None and min(points) >= 0
        if any(isinstance(e, Exchanged) for e in bot.deal.events):
            break
    else:
        pytest.fail("no exchange of the Seven in 40 hands")


def test_the_fris_trick_shows_no_void_to_the_hint() -> None:
    """In the fris trick the followers play small cards of any suit (rules of
    its own): a card off the suit led there is no void. The hint's deals
    must still hold every card a seat may really hold, so after the fris
    trick a hint is found in every hand (before, half of such hands got
    none: their sampled deals contradicted the real one)."""
    game = get_game("filcau20")
    rng = random.Random("fris-hint")
    for _ in range(12):
        deal = fris_deal(game, rng)
        bot = SimpleBot()
        while deal.in_fris_trick:  # type: ignore[attr-defined]  # a Filcau20Deal
            seat = deal.turn
            deal.play(seat, bot.play(deal, seat, deal.hand_of(seat), rng))
        seat = deal.turn
        found = hint(deal, seat, deal.hand_of(seat), random.Random(1), 8)
        assert found is not None, "no deal agreed with what the seat has seen"
        assert found.card in deal.legal_cards()
