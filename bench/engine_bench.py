"""Engine benchmark: random legal Filicău hands per second and legal-set questions
per second, through the public API. Run: `python bench/engine_bench.py [--seconds S]`.

Target (issue 2): at least 10,000 full hands per second on one core.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine import get_game


def rate(work: Callable[[], int], seconds: float) -> float:
    """Run `work` (which returns how many units it did) for about `seconds`."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    game = get_game("filicau")
    rng = random.Random(1)
    dealt = [game.deal(rng, i % 4) for i in range(200)]

    def hands_play() -> int:
        for d in dealt:
            deal = game.new_deal(d.trump, d.leader, d.hands)
            while not deal.finished:
                legal = list(deal.legal_cards())
                deal.play(deal.turn, legal[rng.randrange(len(legal))])
        return len(dealt)

    def hands_playout() -> int:
        for d in dealt:
            game.new_deal(d.trump, d.leader, d.hands).playout(rng)
        return len(dealt)

    def hands_with_deal() -> int:
        for i in range(200):
            d = game.deal(rng, i % 4)
            game.new_deal(d.trump, d.leader, d.hands).playout(rng)
        return 200

    def hands_unknown() -> int:
        for d in dealt:
            game.new_deal(d.trump, d.leader).playout(rng)
        return len(dealt)

    # Positions in the middle of hands, to ask legal-set questions about.
    positions = []
    for d in dealt[:50]:
        deal = game.new_deal(d.trump, d.leader, d.hands)
        for _ in range(rng.randrange(31)):
            legal = list(deal.legal_cards())
            deal.play(deal.turn, legal[rng.randrange(len(legal))])
        positions.append(deal)

    def legal_questions() -> int:
        n = 0
        for deal in positions:
            for _ in range(20):
                deal._changed()  # measure the computation, not the per-turn cache
                list(deal.legal_cards())
                n += 1
        return n

    stateless = []
    for d in dealt[:50]:
        hand = list(d.hands[1])
        stateless.append((d.trump, [d.hands[0][0]], hand))

    def stateless_questions() -> int:
        for trump, trick, hand in stateless:
            game.legal_subset(trump, trick, hand)
        return len(stateless)

    rows = [
        ("full hands/s, card by card: legal_cards() + play()", hands_play),
        ("full hands/s, Deal.playout()", hands_playout),
        ("full hands/s, shuffle + deal + playout()", hands_with_deal),
        ("full hands/s, hands unknown, playout()", hands_unknown),
        ("legal-set questions/s, Deal.legal_cards()", legal_questions),
        ("legal-set questions/s, stateless Game.legal_subset()", stateless_questions),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"| {'measure'.ljust(width)} | {'rate':>10} |")
    print(f"|-{'-' * width}-|-{'-' * 10}:|")
    for name, work in rows:
        print(f"| {name.ljust(width)} | {rate(work, args.seconds):>10,.0f} |")


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
