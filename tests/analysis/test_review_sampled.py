"""The sampled review asks each deal only the played card's loss
(`engine.analysis.review.played_loss`): the same loss, and so the same flag,
as valuing every legal card (`analyse`), in every game; and the sampled view
of a card whose only deal is the true one is its double-dummy view."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import game_ids, get_game
from engine.analysis import SolverCache, analyse
from engine.analysis.position import legal_now
from engine.analysis.review import (
    FLAG_LOSS,
    CardSampler,
    played_loss,
    record_of,
    review_double_dummy,
)
from engine.bots import SimpleBot
from tests.analysis.helpers import fris_deal, random_ending


def _family(game_id: str) -> str | None:
    return get_game(game_id).legal_family_for(stock_empty=True) if game_id == "fildinsky" \
        else None


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.sampled_from(game_ids()), st.integers(0, 2**32), st.integers(2, 4))
def test_the_played_cards_loss_is_the_full_analysis_loss(game_id: str, seed: int,
                                                         tricks: int) -> None:
    """Every legal card of a random position (mid-trick ones included), asked
    the cheap way on one warm solver cache (as a worker asks it, deal after
    deal), against every card valued on a fresh one."""
    game = get_game(game_id)
    rng = random.Random(seed)
    position = random_ending(game, rng, tricks, _family(game_id))
    full = analyse(position, cache=SolverCache())
    cache = SolverCache(limit=1)
    for c in legal_now(position):
        guess = rng.choice([None, rng.randrange(40), full.values[c]])
        for grouped in (True, False):
            loss, value, a = played_loss(position, c, cache, guess=guess, grouped=grouped)
            assert loss == full.loss(c)
            assert (loss >= FLAG_LOSS) == (full.loss(c) >= FLAG_LOSS)
            if len(full.values) > 1:
                # No question at all only when every card is the played one's like.
                alike = all(v == full.values[c] for v in full.values.values())
                assert value == full.values[c] or (grouped and alike and value == guess)
            if a is None:        # "no other card does better": a best card
                assert c in full.best_cards()
            else:                # every card valued, as the full analysis does
                assert a.values == full.values and a.points == full.points


def test_a_card_with_no_choice_gives_nothing_away_without_a_search() -> None:
    game = get_game("filicau")
    from engine import cards
    from engine.analysis import Position

    position = Position(game, "h", (tuple(cards("Ah")), tuple(cards("7h")),
                                    tuple(cards("9h")), tuple(cards("Th"))),
                        (), 0, (0, 1, 0, 1))
    cache = SolverCache(limit=1)
    assert played_loss(position, cards("Ah")[0], cache, guess=7) == (0, 7, None)
    assert cache.nodes() == 0


def test_cards_the_solver_searches_as_one_are_not_asked() -> None:
    """Seat 0 holds 7h and 8h (touching, no points) and leads: whichever it
    plays, the other is worth the same, and nothing is searched; with each
    other card asked (`grouped=False`), it is."""
    game = get_game("filicau")
    from engine import cards
    from engine.analysis import Position

    position = Position(game, "l", (tuple(cards("7h 8h")), tuple(cards("Ah Th")),
                                    tuple(cards("9h Kh")), tuple(cards("Oa Ob"))),
                        (), 0, (0, 1, 0, 1))
    full = analyse(position)
    assert full.values[cards("7h")[0]] == full.values[cards("8h")[0]]
    cache = SolverCache(limit=1)
    assert played_loss(position, cards("7h")[0], cache, guess=3) == (0, 3, None)
    assert cache.nodes() == 0
    loss, value, _ = played_loss(position, cards("7h")[0], cache, guess=3, grouped=False)
    assert (loss, value) == (0, full.values[cards("7h")[0]]) and cache.nodes() > 0


def _played_hand(game_id: str, seed: int) -> object:
    game = get_game(game_id)
    rng = random.Random(seed)
    bot = SimpleBot()
    dealt = game.deal(rng, 3)
    deal = game.new_deal(dealt.trump, dealt.leader, dealt.hands)
    while not deal.finished:
        deal.play(deal.turn, bot.play(deal, deal.turn, deal.hand_of(deal.turn), rng))
    return record_of(deal)


def test_sampled_with_the_true_deal_is_the_double_dummy_view() -> None:
    """Each card of the second half of a Filicău and a six-player Filkó hand,
    sampled over one deal, the true one: the same loss as with every card
    visible, the played card named best when it was a best card, and else a
    best card of that deal named."""
    for game_id, seed in (("filicau", 3), ("filko6", 4)):
        record = _played_hand(game_id, seed)
        assert hasattr(record, "plays")
        exact = {r.index: r for r in review_double_dummy(record)}  # type: ignore[arg-type]
        half = len(record.plays) // 2  # type: ignore[attr-defined]
        cache = SolverCache(limit=1)
        checked = lost = 0
        for index in range(half, len(record.plays)):  # type: ignore[attr-defined]
            sampler = CardSampler(record, index, cache)  # type: ignore[arg-type]
            assert sampler.solve_hands(sampler.position.hands)
            got = sampler.result
            r = exact[index]
            assert got.deals == 1 and got.loss == r.loss
            assert got.best == r.card if r.loss == 0 else got.best in r.best
            checked += 1
            lost += r.loss > 0
        assert checked >= 8 and lost >= 1   # both answers of the cheap question seen


def test_a_cards_deals_add_up_and_its_fair_best_is_named() -> None:
    record = _played_hand("filicau", 11)
    index = len(record.plays) - 10  # type: ignore[attr-defined]
    sampler = CardSampler(record, index)  # type: ignore[arg-type]
    rng = random.Random(1)
    for _ in range(12):
        assert sampler.solve(rng)
    got = sampler.result
    assert got.deals == 12 and 0 <= got.valued <= 12
    assert got.loss >= 0 and got.best is not None
    assert (got.loss == 0) == (got.valued == 0)
    assert got.best == sampler.card if got.valued == 0 else got.best != sampler.card


def test_the_fris_trick_has_no_sampled_view() -> None:
    """A follower on the fris has seen only his first three cards: no fair
    view of the fris trick; the tricks after it are sampled."""
    game = get_game("filcau20")
    deal = fris_deal(game, random.Random("fris-review"))
    rng = random.Random(1)
    while not deal.finished:
        deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
    record = record_of(deal)
    assert record.first_trick is not None
    fris = CardSampler(record, 2)
    assert not fris.solve(rng)
    assert fris.result.deals == 0 and fris.result.best is None
    later = CardSampler(record, 5)
    assert all(later.solve(rng) for _ in range(3)) and later.result.deals == 3


def test_a_search_past_its_node_limit_ends_the_cards_sampling() -> None:
    record = _played_hand("filicau", 5)
    sampler = CardSampler(record, 0, limit=1)  # type: ignore[arg-type]
    assert not sampler.solve(random.Random(1))
    assert sampler.result.deals == 0
