"""The sampled bot against today's best bot (issue 18), duplicate style.

Run with `.venv/bin/python bench/bots_bench.py [--hands N] [--level L] [--games ...]`
(openskill from the test extra rates the bots). Every deal is played twice
with the same cards, the sampled bot's pair sitting once as team 0 and once
as team 1 against `SimpleBot`; a *match* is such a pair of boards, won by
the side with more card points over both. Reports the match win rate with a
95% Wilson confidence interval (ties count half) and an openskill rating of
every bot on one scale.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from typing import Any

from engine import Card, get_game
from engine.analysis.bot import LEVELS, SampledBot
from engine.bots import Bot, RandomBot, SimpleBot

GAMES = ("filicau", "filko", "filko_hats", "filko6")


def play_board(game_id: str, hands: Sequence[Sequence[Card]], trump: str, leader: int,
               bots: Sequence[Bot], rng: random.Random) -> list[int]:
    game = get_game(game_id)
    deal = game.new_deal(trump, leader, hands)
    while not deal.finished:
        seat = deal.turn
        bot = bots[game.team_of(seat)]
        deal.play(seat, bot.play(deal, seat, deal.hand_of(seat), rng))
    return deal.team_points()


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=10_000, help="matches per game")
    ap.add_argument("--level", default="easy", choices=list(LEVELS))
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--seed", type=int, default=18)
    args = ap.parse_args()
    model: Any = None
    try:
        from openskill.models import PlackettLuce

        model = PlackettLuce()
    except ImportError:
        print("openskill is not installed (test extra): no ratings")
    names = (f"sampled-{args.level}", "simple", "random")
    ratings = {n: model.rating(name=n) for n in names} if model else {}
    rng = random.Random(args.seed)
    print(f"| game | matches | sampled-{args.level} wins | ties | win rate | 95% CI | "
          "s/match |")
    print("|---|---|---|---|---|---|---|")
    sampled, simple, rand = SampledBot(args.level), SimpleBot(), RandomBot()
    for gid in args.games:
        game = get_game(gid)
        wins = ties = 0.0
        t0 = time.perf_counter()
        for _ in range(args.hands):
            dealt = game.deal(rng, rng.randrange(game.players))
            assert dealt.trump is not None
            a = play_board(gid, dealt.hands, dealt.trump, dealt.leader, (sampled, simple), rng)
            b = play_board(gid, dealt.hands, dealt.trump, dealt.leader, (simple, sampled), rng)
            mine, theirs = a[0] + b[1], a[1] + b[0]
            if mine > theirs:
                wins += 1
            elif mine == theirs:
                ties += 1
            if model:
                rank = [0.0, 1.0] if mine > theirs else [1.0, 0.0] if mine < theirs else [0.0, 0.0]
                [[r1], [r2]] = model.rate([[ratings[names[0]]], [ratings["simple"]]],
                                          ranks=rank)
                ratings[names[0]], ratings["simple"] = r1, r2
        # A few boards of SimpleBot against RandomBot put the three on one scale.
        if model:
            for _ in range(max(1, args.hands // 4)):
                dealt = game.deal(rng, 0)
                assert dealt.trump is not None
                c = play_board(gid, dealt.hands, dealt.trump, dealt.leader, (simple, rand), rng)
                rank = [0.0, 1.0] if c[0] > c[1] else [1.0, 0.0] if c[0] < c[1] else [0.0, 0.0]
                [[r1], [r2]] = model.rate([[ratings["simple"]], [ratings["random"]]],
                                          ranks=rank)
                ratings["simple"], ratings["random"] = r1, r2
        n = args.hands
        rate = (wins + ties / 2) / n
        lo, hi = wilson(wins + ties / 2, n)
        per = (time.perf_counter() - t0) / n
        print(f"| {gid} | {n} | {int(wins)} | {int(ties)} | {rate:.1%} | "
              f"{lo:.1%}–{hi:.1%} | {per:.1f} |")
    if model:
        print("\nopenskill (Plackett-Luce), ordinal = mu - 3 sigma:")
        for name in names:
            r = ratings[name]
            print(f"  {name}: mu {r.mu:.1f}, sigma {r.sigma:.1f}, ordinal {r.ordinal():.1f}")


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
