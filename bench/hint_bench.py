"""The practice hint's time and deals, every game it is offered in (issue 18:
within 1 s here, within 3 s on a Pi 4; say how many deals fit).

Run with `.venv/bin/python bench/hint_bench.py [--hands N] [--budget NODES ...]
[--games ...]`, on one core (pinned by `pinning.one_core`).

For each game, `N` random hands played by the game's own flow
(`bots_bench.hand_flow`: every choice at random, every card by
`SimpleBot`) up to the opening lead, then after 3 and after 5 tricks where
the hand is that long (Fildinsky: of its end game, the stock empty; 20-card
Filcău: never in a fris trick, which the solver does not search). At each
position the hint for the seat to play is worked out as the table does it
(`engine.analysis.bot.hint` with `table.controller.hint`'s node budget and
deal cap; the simulator's hint key asks the same); each `--budget` is one
run over the same positions. Every time is CPU time of this process
(`time.process_time`) on one core; the baseline in the same run
(`solver_bench.baseline`) is compared with an idle core's as a check: the
CPU time is the figure, with no factor applied.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots_bench import answer_step, hand_flow  # noqa: E402  (bench/ is the script's folder)
from solver_bench import baseline, check  # noqa: E402

from engine import Deal, get_game  # noqa: E402
from engine.analysis.bot import hint, searchable  # noqa: E402
from engine.bots import RandomBot, SimpleBot  # noqa: E402
from table.controller.hint import BUDGET, SAMPLES  # noqa: E402

clock = time.process_time

GAMES = ("filicau", "filko", "filko_hats", "filko5", "filko6", "filcau20", "sueca", "fildinsky")
#: Tricks played before the hint is asked.
STAGES = (0, 3, 5)


def position(game_id: str, tricks: int, rng: random.Random) -> Deal:
    """A random hand of `game_id` played by the game's own flow (every choice
    at random, every card by `SimpleBot`) until `tricks` tricks are played
    (Fildinsky: of its end game) and a lead is awaited that the solver
    searches (not a fris trick)."""
    game = get_game(game_id)
    bot, chooser = SimpleBot(), RandomBot()
    while True:
        state = game.new_match(rng)
        dealt = game.deal(rng, state.dealer)
        flow = hand_flow(game, state, dealt)
        start = game.tricks_per_hand - 8 if game_id == "fildinsky" else 0
        while (pending := flow.pending()).kind != "done":
            deal = flow.deal
            if pending.kind == "play" and deal is not None:
                if (len(deal.tricks) == start + tricks and not deal.current_trick
                        and searchable(deal)):
                    return deal
                seat = deal.turn
                flow.card(seat, bot.play(deal, seat, deal.hand_of(seat), rng))
                continue
            answer_step(flow, pending, dealt, chooser, rng)
        # The hand ended first (thrown in, or the position skipped): another.


def table_hint(deal: Deal, budget: int, rng: random.Random) -> tuple[float, int]:
    """(CPU seconds, deals weighed: 0 for `No hint here`) of the table's hint."""
    seat = deal.turn
    t0 = clock()
    found = hint(deal, seat, deal.hand_of(seat), rng, SAMPLES, budget=budget)
    return clock() - t0, found.samples if found is not None else 0


Ask = Callable[[Deal, random.Random], tuple[float, int]]


def measure(game_id: str, tricks: int, hands: int, ask: Ask) -> tuple[list[float], list[int]]:
    """CPU seconds and deals weighed of the hint at `hands` positions."""
    rng = random.Random(f"hint-{game_id}-{tricks}")
    times: list[float] = []
    deals: list[int] = []
    for _ in range(hands):
        deal = position(game_id, tricks, rng)
        t, n = ask(deal, random.Random(rng.random()))
        times.append(t)
        deals.append(n)
    return times, deals


def row(game_id: str, tricks: int, times: Sequence[float], deals: Sequence[int]) -> str:
    given = sorted(d for d in deals if d)
    fit = f"{given[0]}–{given[-1]}" if given else "–"
    where = f"after {tricks} tricks" if tricks else "opening lead"
    if game_id == "fildinsky":
        where += " of the end game"
    return (f"| {game_id} | {where} | {statistics.median(times):.2f} s | {max(times):.2f} s | "
            f"{fit} | {len(deals) - len(given)} of {len(deals)} |")


def main(argv: Sequence[str] | None = None) -> float:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=5, help="positions per game and stage")
    ap.add_argument("--budget", type=int, nargs="*", default=[BUDGET],
                    help=f"node budgets of the table's hint (default {BUDGET:,}), one run each")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    args = ap.parse_args(argv)
    base = baseline()
    print(f"baseline: {base:,.0f} Filicău deals dealt and played out per CPU second\n")
    dearest = 0.0
    runs: list[tuple[str, Ask]] = [
        (f"the table's hint, {b:,} nodes, at most {SAMPLES} deals",
         lambda d, r, b=b: table_hint(d, b, r)) for b in args.budget]  # type: ignore[misc]
    for name, ask in runs:
        print(f"{name}:\n")
        print("| game | position | CPU s median | max | deals weighed (min–max) | no hint |")
        print("|---|---|---|---|---|---|")
        for gid in args.games:
            last = 8 if gid == "fildinsky" else get_game(gid).tricks_per_hand
            for tricks in (t for t in STAGES if t < last - 1):
                times, deals = measure(gid, tricks, args.hands, ask)
                dearest = max(dearest, max(times))
                print(row(gid, tricks, times, deals), flush=True)
        print()
    print(check(base))
    return dearest


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
