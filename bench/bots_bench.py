"""The sampled bot against today's best bot (issue 18), duplicate style.

Run with `.venv/bin/python bench/bots_bench.py [--hands N] [--level L]
[--tricks-left T] [--samples S] [--infer] [--games ...] [--out FILE]` (openskill from
the test extra rates the bots). Every deal is played twice with the same
cards, the sampled bot's side sitting once as team 0 and once as team 1
against `SimpleBot`; a *match* is such a pair of boards (two hands), won by
the side with more points over both (card points; Fildinsky's melds too).
Every game plays through its own hand flow (`play_board`). Reports the match win rate with a
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

from engine import Card, EngineError, Game, MatchState, get_game
from engine.analysis.bot import LEVELS, SampledBot
from engine.analysis.position import teams_of
from engine.bots import Bot, RandomBot, SimpleBot, bot_action
from engine.flow import HandFlow
from engine.match import DealtHands

GAMES = ("filicau", "filko", "filko_hats", "filko5", "filko6", "filcau20", "sueca", "fildinsky")


def hand_flow(game: Game, state: MatchState, dealt: DealtHands) -> HandFlow:
    """The flow of one hand with every hand known (Fildinsky's stock and
    turned-up card too)."""
    if "turn_up" in dealt.extra:
        extra: dict[str, Any] = {"turn_up": dealt.extra["turn_up"],
                                 "stock": dealt.extra["stock"]}
        return game.hand_flow(state, dealt.hands, **extra)
    return game.hand_flow(state, dealt.hands)


def play_board(game: Game, state: MatchState, dealt: DealtHands, bots: Sequence[Bot],
               rng: random.Random, choices: str) -> list[int] | None:
    """One hand through the game's own flow: `bots[team]` plays every card of
    that team's seats (the teams as the cards decide them: five-player
    Filkó's secret partner too); every other step is answered with a
    generator seeded `choices` (a choice such as a trump named, a card
    called, a cut, a meld declared: at random; a card to show: by
    `engine.bots.bot_action`), so both boards of a match make the same calls
    before the first card. Each team's points, or None when the
    hand ended before a card was played (the match deals again)."""
    flow = hand_flow(game, state, dealt)
    chooser, choice_rng = RandomBot(), random.Random(choices)
    teams: tuple[int, ...] | None = None
    while (pending := flow.pending()).kind != "done":
        deal = flow.deal
        if pending.kind == "play" and deal is not None:
            if teams is None:
                teams = teams_of(deal)
                # The cards shown to fix trumps are known to be in their seats'
                # hands, as the table's deal (hands unknown) is made knowing them.
                # Not in Fildinsky: its turned-up card lies in no hand, and its
                # flow, knowing the hands, calls every card known.
                if "turn_up" not in dealt.extra:
                    for s, cards in flow.known_cards().items():
                        deal.known[s] = deal.pack.mask(cards)
            seat = deal.turn
            flow.card(seat, bots[teams[seat]].play(deal, seat, deal.hand_of(seat), rng))
            continue
        answer_step(flow, pending, dealt, chooser, choice_rng)
    if flow.deal is None or teams is None:
        return None  # no card played (20-card Filcău: the cards thrown in)
    out = [0, 0]
    for seat, p in enumerate(flow.deal.points):
        out[teams[seat]] += p
    return out


def answer_step(flow: HandFlow, pending: Any, dealt: DealtHands, chooser: Bot,
                rng: random.Random) -> None:
    """Answer a step of the hand flow that is not a card of the play: a
    choice made at random but the same in both boards (`_choose`), else what
    `bot_action` does (the calls before play, a card dealt or shown)."""
    if pending.kind == "choose" and pending.seat is not None and _choose(
            flow, pending.seat, pending.choices, rng):
        return
    kind, who, what = bot_action(flow, dealt.hands, chooser, rng, dealt.shown)
    assert who is not None and what is not None
    if kind == "card":
        assert isinstance(what, Card)
        flow.card(who, what)
    else:
        flow.choose(who, str(what))


def _choose(flow: HandFlow, seat: int, choices: Sequence[str], rng: random.Random) -> bool:
    """A random choice the hand takes (a refused one changes nothing: the
    next is tried); False if it takes none. Cheaper than `bot_action`'s
    trial on a copy of the flow, which dominated Fildinsky's time."""
    order = list(choices)
    rng.shuffle(order)
    for choice in order:
        try:
            flow.choose(seat, choice)
        except (EngineError, ValueError, LookupError):
            continue
        return True
    return False


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
        while True:
            state = game.new_match(rng)
            dealt = game.deal(rng, state.dealer)
            calls = f"{seed}-{gid}-{i}-calls-{rng.random()}"
            a = play_board(game, state, dealt, (sampled, simple), rng, calls)
            b = play_board(game, state, dealt, (simple, sampled), rng, calls)
            if a is not None and b is not None:
                break
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
                c = play_board(game, state, dealt, (simple, rand), rng, calls) or [0, 0]
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
    ap.add_argument("--infer", action="store_true",
                    help="keep sampled deals the opponents' plays explain (inference)")
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
    sampled = SampledBot(args.level, tricks_left=args.tricks_left, samples=args.samples,
                         infer=True if args.infer else None)
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
          + (f", searching the last {sampled.tricks_left} tricks" if sampled.tricks_left else "")
          + (", reading the opponents' plays" if sampled.infer else "")
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
