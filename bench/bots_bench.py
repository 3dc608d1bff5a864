"""The sampled bot against today's best bot (issue 18), duplicate style.

Run with `.venv/bin/python bench/bots_bench.py [--hands N] [--level L]
[--tricks-left T] [--samples S] [--games ...] [--out FILE]` (openskill from
the test extra rates the bots). Every deal is played twice with the same
cards, the sampled bot's side sitting once as team 0 and once as team 1
against `SimpleBot`; a *match* is such a pair of boards (two hands), won by
the side with more card points over both. Reports the match win rate with a
95% Wilson confidence interval (ties count half) and an openskill rating of
every bot on one scale (a few boards of `SimpleBot` against `RandomBot` put
the random bot on it too).

`--out FILE` checkpoints every game's tally and ratings to a JSON file every
`--every` matches; run again with the same file and settings and it carries
on where it stopped (every match has its own seed, so a resumed run plays
the same deals). `--quick` is a smoke run of two matches per game.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
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
    """One hand: `bots[team]` plays every seat of that team; each team's points."""
    game = get_game(game_id)
    deal = game.new_deal(trump, leader, hands)
    while not deal.finished:
        seat = deal.turn
        bot = bots[game.team_of(seat)]
        deal.play(seat, bot.play(deal, seat, deal.hand_of(seat), rng))
    return deal.team_points()


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion `wins / n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def _ranks(a: int, b: int) -> list[float]:
    return [0.0, 1.0] if a > b else [1.0, 0.0] if a < b else [0.0, 0.0]


class Tally:
    """One game's results so far (what the checkpoint file keeps)."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        d = data or {}
        self.matches: int = d.get("matches", 0)
        self.wins: int = d.get("wins", 0)
        self.ties: int = d.get("ties", 0)
        self.points_for: int = d.get("points_for", 0)
        self.points_against: int = d.get("points_against", 0)
        self.seconds: float = d.get("seconds", 0.0)
        self.ratings: dict[str, list[float]] = d.get("ratings", {})

    def to_json(self) -> dict[str, Any]:
        return {"matches": self.matches, "wins": self.wins, "ties": self.ties,
                "points_for": self.points_for, "points_against": self.points_against,
                "seconds": round(self.seconds, 1), "ratings": self.ratings}

    @property
    def rate(self) -> float:
        return (self.wins + self.ties / 2) / self.matches if self.matches else 0.0


def run_game(gid: str, matches: int, sampled: SampledBot, seed: int, tally: Tally,
             model: Any, every: int, save: Any) -> Tally:
    """Play `gid` until `tally` holds `matches` matches, checkpointing with `save`."""
    game = get_game(gid)
    simple, rand = SimpleBot(), RandomBot()
    names = (sampled.name, "simple", "random")
    ratings: dict[str, Any] = {}
    if model is not None:
        for name in names:
            mu_sigma = tally.ratings.get(name)
            ratings[name] = (model.rating(name=name, mu=mu_sigma[0], sigma=mu_sigma[1])
                             if mu_sigma else model.rating(name=name))
    while tally.matches < matches:
        t0 = time.process_time()
        i = tally.matches
        rng = random.Random(f"{seed}-{gid}-{i}")
        dealt = game.deal(rng, rng.randrange(game.players))
        assert dealt.trump is not None
        a = play_board(gid, dealt.hands, dealt.trump, dealt.leader, (sampled, simple), rng)
        b = play_board(gid, dealt.hands, dealt.trump, dealt.leader, (simple, sampled), rng)
        mine, theirs = a[0] + b[1], a[1] + b[0]
        tally.matches += 1
        tally.points_for += mine
        tally.points_against += theirs
        tally.wins += mine > theirs
        tally.ties += mine == theirs
        if model is not None:
            [[r1], [r2]] = model.rate([[ratings[names[0]]], [ratings["simple"]]],
                                      ranks=_ranks(mine, theirs))
            ratings[names[0]], ratings["simple"] = r1, r2
            if i % 4 == 0:
                # SimpleBot against RandomBot: the random bot on the same scale.
                c = play_board(gid, dealt.hands, dealt.trump, dealt.leader, (simple, rand), rng)
                [[r1], [r2]] = model.rate([[ratings["simple"]], [ratings["random"]]],
                                          ranks=_ranks(c[0], c[1]))
                ratings["simple"], ratings["random"] = r1, r2
            tally.ratings = {k: [r.mu, r.sigma] for k, r in ratings.items()}
        tally.seconds += time.process_time() - t0
        if tally.matches % every == 0 or tally.matches == matches:
            save()
    return tally


def row(gid: str, tally: Tally) -> str:
    lo, hi = wilson(tally.wins + tally.ties / 2, tally.matches)
    per = tally.seconds / tally.matches if tally.matches else 0.0
    return (f"| {gid} | {tally.matches:,} | {2 * tally.matches:,} | {tally.wins:,} | "
            f"{tally.ties:,} | {tally.rate:.1%} | {lo:.1%}–{hi:.1%} | "
            f"{tally.points_for:,} : {tally.points_against:,} | {per:.2f} |")


def main(argv: Sequence[str] | None = None) -> dict[str, Tally]:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10_000,
                    help="hands per game (two hands make a match; default 10,000)")
    ap.add_argument("--level", default="easy", choices=list(LEVELS))
    ap.add_argument("--tricks-left", type=int, default=None,
                    help="search only in the last T tricks (SimpleBot before)")
    ap.add_argument("--samples", type=int, default=None, help="deals per card (default: level)")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--out", default=None, help="checkpoint file (JSON); resumes from it")
    ap.add_argument("--every", type=int, default=50, help="checkpoint every N matches")
    ap.add_argument("--quick", action="store_true", help="two matches per game (a smoke run)")
    args = ap.parse_args(argv)
    matches = 2 if args.quick else max(1, args.hands // 2)
    model: Any = None
    try:
        from openskill.models import PlackettLuce

        model = PlackettLuce()
    except ImportError:
        print("openskill is not installed (test extra): no ratings")
    sampled = SampledBot(args.level, tricks_left=args.tricks_left, samples=args.samples)
    settings = {"level": args.level, "tricks_left": args.tricks_left,
                "samples": sampled.samples, "seed": args.seed, "bot": sampled.name}
    state: dict[str, Any] = {"settings": settings, "machine": _machine(), "games": {}}
    if args.out and os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            old = json.load(f)
        if old.get("settings") != settings:
            raise SystemExit(f"{args.out} holds a run with other settings: {old.get('settings')}")
        state["games"] = old.get("games", {})
    tallies = {g: Tally(state["games"].get(g)) for g in args.games}

    def save() -> None:
        state["games"].update({g: t.to_json() for g, t in tallies.items()})
        if args.out:
            tmp = args.out + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(state, f, indent=1)
            os.replace(tmp, args.out)

    print(f"bot {sampled.name}: {sampled.samples} deals a card"
          + (f", searching the last {args.tricks_left} tricks" if args.tricks_left else "")
          + f"; seed {args.seed}")
    print(f"| game | matches | hands | {sampled.name} wins | ties | win rate | 95% CI | "
          "points for : against | CPU s/match |")
    print("|---|---|---|---|---|---|---|---|---|")
    for gid in args.games:
        run_game(gid, matches, sampled, args.seed, tallies[gid], model, args.every, save)
        print(row(gid, tallies[gid]), flush=True)
    save()
    if model:
        print("\nopenskill (Plackett-Luce), ordinal = mu - 3 sigma, per game:")
        for gid, t in tallies.items():
            parts = [f"{name} {mu - 3 * sigma:.1f} (mu {mu:.1f}, sigma {sigma:.1f})"
                     for name, (mu, sigma) in t.ratings.items()]
            print(f"  {gid}: " + "; ".join(parts))
    return tallies


def _machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
