"""The sampled review's time per hand (issue 18: within 10 s here, every core).

Run with `.venv/bin/python bench/review_bench.py [--hands N] [--jobs J]
[--samples S ...] [--budget B] [--how each fast full]`. Filicău hands played by `SimpleBot` are
reviewed as `cardtable review` does it (`table.commands.review.review_hand`,
double dummy then the sampled view over `J` worker processes):

* with a fixed number of deals a card (`--samples`, no time limit): the wall
  time a hand takes, and the CPU seconds of all processes;
* with the default budget (`--budget`, seconds a hand): the wall time a
  hand really takes and the deals each card got;

each run once for every way of asking a deal (`--how`, in one process;
`table.commands.review.HOWS`): `each`, the played card's exact value, then
"does it do better?" for every other legal card (the review's way until
2026-11-25); `fast`, the review's way now: the same questions, one for each
class of cards the solver searches as one (touching, worth the same), none
for the played card's own class, the played card's search started from its
value in the real deal; `full`, every legal card of every deal valued (the
review's first way, slowest).

Not pinned by itself: the review spreads over the cores (pin it with
`taskset -c N` to measure CPU time beside other work: the workers then
share that core, so the budgeted runs get fewer deals than on free cores).
The baselines, random Filicău deals dealt and played out per wall-clock
second and per CPU second on one core, measured before and after, say how
loaded the machine was (an idle core here: `IDLE_BASELINE`, the same
measure). The CPU seconds are the figure (the baseline's CPU rate is about
the same idle and under load, within ≈ 10%); the idle estimate divides the CPU seconds a hand
by the workers only: what the hand would take on idle cores if the work
spread evenly (roughly: the last plays of the queue leave a core idle).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine import get_game
from engine.analysis.review import HandRecord, record_of
from engine.bots import SimpleBot
from table.commands.review import DEFAULT_BUDGET, HOWS, review_hand

#: Random Filicău deals dealt and played out a CPU second on an idle core
#: here: `bench/solver_bench.py`'s `IDLE_BASELINE` (2026-11-25, the mean of
#: two idle runs), the same measure as `_playouts_per_second`.
IDLE_BASELINE = 6_850


#: The ways each deal is asked (`table.commands.review.HOWS`), as the table names them.
HOW_NAMES = {"full": "every card valued", "each": "before: every other card asked",
             "fast": "now: a question a class of cards, from the real deal's value"}


def hands(n: int, seed: int) -> list[HandRecord]:
    """`n` Filicău hands played by `SimpleBot`, as the review reads them."""
    g = get_game("filicau")
    rng = random.Random(seed)
    bot = SimpleBot()
    out = []
    for _ in range(n):
        dealt = g.deal(rng, 3)
        deal = g.new_deal(dealt.trump, dealt.leader, dealt.hands)
        while not deal.finished:
            seat = deal.turn
            deal.play(seat, bot.play(deal, seat, deal.hand_of(seat), rng))
        out.append(record_of(deal))
    return out


def _playouts_per_second(clock: Callable[[], float], seconds: float) -> float:
    """Random Filicău playouts per second of `clock`."""
    g = get_game("filicau")
    rng = random.Random(0)
    done = 0
    t0 = clock()
    while clock() - t0 < seconds:
        d = g.deal(rng, 0)
        g.new_deal(d.trump, d.leader, d.hands).playout(rng)
        done += 1
    return done / (clock() - t0)


def wall_baseline(seconds: float = 1.0) -> float:
    """Random Filicău playouts per wall-clock second (one core)."""
    return _playouts_per_second(time.monotonic, seconds)


def cpu_baseline(seconds: float = 1.0) -> float:
    """Random Filicău playouts per CPU second of this process: a loaded
    machine slows its CPU seconds too (shared caches), by this factor."""
    return _playouts_per_second(time.process_time, seconds)


def cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def review_all(records: list[HandRecord], budget: float, samples: int, jobs: int,
               how: str = "fast") -> dict[str, Any]:
    """Review every hand with a fresh pool of `jobs` workers (started before
    the clock runs, as `cardtable review` starts it once for a file)."""
    ctx = multiprocessing.get_context("spawn")
    walls: list[float] = []
    deals: list[int] = []
    first: list[int] = []
    c0 = cpu()
    pool = ProcessPoolExecutor(jobs, mp_context=ctx) if jobs > 1 else None
    try:
        if pool is not None:
            list(pool.map(abs, range(jobs)))  # the workers started and imported
        for r in records:
            t0 = time.monotonic()
            reviews = review_hand(r, budget, samples, jobs, 18, pool, how)
            walls.append(time.monotonic() - t0)
            n = r.game.players
            deals += [x.samples for x in reviews if x.samples]
            first += [x.samples for x in reviews if x.samples and x.index < 2 * n]
    finally:
        if pool is not None:
            pool.shutdown()
    return {"walls": walls, "cpu": cpu() - c0, "deals": deals, "first": first}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--samples", type=int, nargs="*", default=[20],
                    help="deals a card, no time limit (one run each)")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET,
                    help="seconds a hand for the budgeted run (0: skip it)")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--how", nargs="*", choices=HOWS, default=["each", "fast"],
                    help="the ways of asking each deal to compare, in this order "
                         "(default: each fast)")
    args = ap.parse_args(argv)
    records = hands(args.hands, args.seed)
    b0, c0 = wall_baseline(), cpu_baseline()
    load0 = os.getloadavg()[0]
    print(f"{args.hands} Filicău hands, {args.jobs} worker(s); baseline before: "
          f"{b0:,.0f} playouts per wall second ({IDLE_BASELINE / b0:.1f} times slower "
          f"than an idle core's {IDLE_BASELINE:,}), {c0:,.0f} per CPU second "
          f"({IDLE_BASELINE / c0:.2f} times), load average {load0:.1f}")
    print("| run | wall s a hand (each) | median | CPU s a hand | idle estimate: CPU s a "
          f"hand / {args.jobs} workers | deals a card: median (min–max) | "
          "first two tricks |")
    print("|---|---|---|---|---|---|---|")
    runs = []
    for how in args.how:
        runs += [(f"{HOW_NAMES[how]}, {s} deals a card", 1e9, s, how) for s in args.samples]
        if args.budget > 0:
            runs.append((f"{HOW_NAMES[how]}, budget {args.budget:g} s (at most 300 deals)",
                         args.budget, 300, how))
    for name, budget, samples, how in runs:
        res = review_all(records, budget, samples, args.jobs, how)
        walls, d = res["walls"], res["deals"]
        print(f"| {name} | {', '.join(f'{w:.1f}' for w in walls)} | "
              f"{statistics.median(walls):.1f} | {res['cpu'] / len(records):.1f} | "
              f"≈ {res['cpu'] / len(records) / args.jobs:.1f} s | "
              f"{statistics.median(d):.0f} ({min(d)}–{max(d)}) | "
              f"{statistics.median(res['first']):.0f} |", flush=True)
    b1, c1 = wall_baseline(), cpu_baseline()
    print(f"baseline after: {b1:,.0f} playouts per wall second "
          f"({IDLE_BASELINE / b1:.1f} times slower), {c1:,.0f} per CPU second "
          f"({IDLE_BASELINE / c1:.2f} times), load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
