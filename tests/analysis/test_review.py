"""The review of a hand: double dummy, what a player could know, sampled deals."""

from __future__ import annotations

import random

from engine import cards, get_game
from engine.analysis import analyse
from engine.analysis.review import (
    HandRecord,
    knowledge,
    record_of,
    review_double_dummy,
    sampled_losses,
)
from engine.analysis.sampling import sample_hands

FILICAU = get_game("filicau")


def _two_card_ending(second: str) -> HandRecord:
    """Hearts trumps, seat 0 leads Ah; seat 2 (seat 0's partner) holds Oa and
    9h. Seat 1 holds the Over of leaves and 7h, seat 3 the Th and 8l.
    The cards are shown to the test as (seat, card) plays."""
    hands = (tuple(cards("Ah 7l")), tuple(cards("Ol 7h")), tuple(cards("Oa 9h")),
             tuple(cards("Th 8l")))
    plays = tuple(zip((0, 1, 2, 3), cards(f"Ah Ol {second} Th"), strict=True))
    return HandRecord(FILICAU, "h", 0, hands, plays, (0, 1, 0, 1), state=None)


def test_a_card_that_gives_the_trick_away_is_flagged_with_its_loss() -> None:
    # Seat 2 ducks with 9h under the Over of leaves: seat 1's side takes the
    # Ace and the Ten (2 points); Oa would have taken both for seat 2's side.
    reviews = review_double_dummy(_two_card_ending("9h"))
    by_card = {r.card.code: r for r in reviews}
    assert by_card["9h"].loss == 2
    assert by_card["9h"].flagged
    assert [c.code for c in by_card["9h"].best] == ["Oa"]
    assert by_card["Oa" if "Oa" in by_card else "Ah"].loss == 0


def test_the_best_card_costs_nothing() -> None:
    reviews = review_double_dummy(_two_card_ending("Oa"))
    assert all(r.loss == 0 for r in reviews)
    assert not any(r.flagged for r in reviews)


def test_playing_the_best_card_every_time_reaches_the_solved_value() -> None:
    rng = random.Random(5)
    for game_id in ("filicau", "filcau20", "filko6"):
        game = get_game(game_id)
        dealt = game.deal(rng, 0)
        deal = game.new_deal(dealt.trump, dealt.leader, dealt.hands)
        from engine.analysis import position_of

        start = analyse(position_of(deal), values=False).points
        while not deal.finished:
            a = analyse(position_of(deal))
            deal.play(deal.turn, min(a.best_cards(), key=lambda c: c.code))
        assert tuple(deal.team_points()) == start
        record = record_of(deal)
        assert all(r.loss == 0 for r in review_double_dummy(record))


def _played_hand(seed: int) -> HandRecord:
    rng = random.Random(seed)
    dealt = FILICAU.deal(rng, 3)
    deal = FILICAU.new_deal(dealt.trump, dealt.leader, dealt.hands)
    deal.playout(rng)
    return record_of(deal, public={3: dealt.shown})


def test_what_a_player_knew_and_deals_consistent_with_it() -> None:
    record = _played_hand(7)
    rng = random.Random(1)
    for index in (5, 13, 22):
        k = knowledge(record, index)
        seat = record.plays[index][0]
        pos = record.position(index)
        assert k.own == pos.hands[seat]
        for _ in range(20):
            hands = sample_hands(k, rng)
            assert hands is not None
            assert sorted(c.code for c in hands[seat]) == sorted(c.code for c in k.own)
            assert [len(h) for h in hands] == [len(h) for h in pos.hands]
            for s in range(4):
                # Nobody holds a card its earlier plays showed it lacks, and
                # the dealer's shown trump card stays his until played.
                assert not set(hands[s]) & set(k.excluded[s])
                assert set(k.known[s]) <= set(hands[s])
            # The real deal is one of the deals the player could not rule out.
        for s in range(4):
            assert not set(pos.hands[s]) & set(k.excluded[s])


def test_a_seat_that_did_not_follow_hearts_gets_no_heart_in_any_sample() -> None:
    hands = (tuple(cards("Ah 7l 8l")), tuple(cards("9l Ul Kl")), tuple(cards("7h 8h 9h")),
             tuple(cards("Th Uh Kh")))
    plays = tuple(zip((0, 1, 2, 3, 0), cards("Ah 9l 7h Th 7l"), strict=True))
    record = HandRecord(FILICAU, "b", 0, hands, plays, (0, 1, 0, 1))
    k = knowledge(record, 4)  # seat 0 (the Ace won trick 1) leads trick 2
    hearts = [c for c in FILICAU.pack.cards if c.suit == "h" and c.rank not in "OA"]
    assert set(hearts) <= set(k.excluded[1])
    rng = random.Random(2)
    for _ in range(30):
        sample = sample_hands(k, rng)
        assert sample is not None
        assert not any(c.suit == "h" and c.rank != "O" for c in sample[1])


def test_sampled_losses_average_over_the_deals_solved() -> None:
    record = _played_hand(11)
    losses, solved = sampled_losses(record, 28, random.Random(3), 10)
    assert solved == 10
    assert min(losses.values()) >= 0
    assert set(losses) == set(analyse(record.position(28)).values)
