"""20-card Filcău's fris trick in the solver (`Position.first_trick`): on the
fris Over every other player plays a small card of his first three, or
after his two other cards are turned up a small card of those or a Ten or
an Ace, never an Over (the game's own `Filcau20Deal.fris_legal`). The
solver agrees exactly with a brute force that plays the fris trick out with
the game's own deal, on random fris hands under both readings of the
turned-up cards, and the review judges the fris trick's cards."""

from __future__ import annotations

import os
import random

import pytest

from engine import cards, get_game
from engine.analysis import SolverCache, analyse, position_of
from engine.analysis.position import legal_now
from engine.analysis.review import record_of, review_double_dummy, sampled_losses
from engine.games.filcau20.deal import Filcau20Deal, FrisTrick
from tests.analysis.helpers import brute_force_fris, fris_deal

#: Whole fris hands per reading (a brute force of a whole hand takes about a
#: second); CARDTABLE_SOLVER_ENDINGS=N multiplies them by N for a longer run.
HANDS = 8 * int(os.environ.get("CARDTABLE_SOLVER_ENDINGS", "1"))
TEAMS = (0, 1, 0, 1)


@pytest.mark.parametrize("reading", ["d1", "d2"])
def test_the_solver_agrees_with_the_brute_force_on_the_fris_trick(reading: str) -> None:
    game = get_game("filcau20", {"fris_turned_cards_bind": reading})
    rng = random.Random(f"fris-{reading}")
    cache = SolverCache()
    chose = 0
    for i in range(HANDS):
        deal = fris_deal(game, rng)
        # Somewhere in the fris trick: after 0, 1 or 2 of the followers.
        for _ in range(rng.randrange(3)):
            deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
        points, values = brute_force_fris(deal, TEAMS)
        p = position_of(deal)
        assert p.first_trick is not None
        got = analyse(p, cache=cache if i % 2 else None)
        assert got.points == points, (i, deal.hands)
        assert got.values == values, (i, deal.hands)
        assert set(legal_now(p)) == set(deal.legal_cards())
        chose += len(values) > 1
    assert chose >= HANDS // 3    # followers had a choice in a good share of them


def _turned_up_hand() -> Filcau20Deal:
    """Seat 0 makes fris with Oa (hearts trumps). Seat 1 has no small card in
    his first three (Ah Tl Ol) and his two others are Ab Tb: he must give the
    fris a Ten or an Ace. Seat 2 (seat 0's partner) and seat 3 have small
    cards."""
    game = get_game("filcau20")
    hands = [cards("Oa Uh Ul Th Kl"), cards("Ah Tl Ol Ab Tb"), cards("Ua Ub Oh Ta Al"),
             cards("Kh Ka Ob Aa Kb")]
    first = [game.pack.mask(h[:3]) for h in hands]
    deal = Filcau20Deal(game, "h", 0, hands, fris=FrisTrick(0, cards("Oa")[0], first))
    deal.play(0, "Oa")
    return deal


def test_a_follower_with_only_big_cards_gives_the_fris_player_a_point() -> None:
    deal = _turned_up_hand()
    p = position_of(deal)
    # The Over of leaves is never allowed on the fris; the Ace of trumps and
    # the Ten of leaves (first three) and Ab, Tb (turned up) are.
    assert {c.code for c in legal_now(p)} == {"Ah", "Tl", "Ab", "Tb"}
    a = analyse(p)
    assert a.points == brute_force_fris(deal, TEAMS)[0]
    # Every choice gives seat 0's team the card's point.
    deal.play(1, "Tb")
    after = analyse(position_of(deal))
    assert after.points[0] >= 1


def test_the_review_judges_the_fris_trick_with_the_hands_as_dealt() -> None:
    rng = random.Random("fris-review")
    game = get_game("filcau20")
    judged_fris = 0
    for _ in range(6):
        deal = fris_deal(game, rng)
        start = analyse(position_of(deal), values=False).points
        while not deal.finished:
            deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
        record = record_of(deal)
        assert record.first_trick is not None and not record.skipped
        reviews = review_double_dummy(record)
        # Every card is judged, the fris trick's included (the Over: one choice).
        assert [r.index for r in reviews] == list(range(20))
        assert reviews[0].legal == 1 and reviews[0].loss == 0
        judged_fris += sum(1 for r in reviews[1:4] if r.legal > 1)
        # The fris Over's position is worth what best play from the deal was.
        assert analyse(record.position(1), values=False).points == start
        # No fair view on the fris: a follower has seen only his first three cards.
        assert sampled_losses(record, 2, random.Random(1), 3) == ({}, 0)
        assert sampled_losses(record, 5, random.Random(1), 3)[1] == 3
    assert judged_fris >= 3


def test_with_hands_unknown_the_fris_trick_is_still_not_judged() -> None:
    """The first three cards of each seat are known only when the hands were
    read: without them the fris trick is left out, as before."""
    game = get_game("filcau20")
    deal = Filcau20Deal(game, "h", 0, None,
                        fris=FrisTrick(0, cards("Oa")[0], [0, 0, 0, 0]))
    played = ["Oa", "Uh", "Ul", "Kh", "Ah", "Th", "Kl", "Ka", "Ub", "Ua", "Tl", "Kb",
              "Al", "Ta", "Ab", "Tb", "Ob", "Oh", "Ol", "Aa"]
    for code in played:
        deal.play(deal.turn, code)
    record = record_of(deal)
    assert record.first_trick is None
    assert record.skipped == frozenset(range(4))
