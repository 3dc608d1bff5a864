"""Benchmark of the perfect-information solver and the review (issue 18).

Run with `.venv/bin/python bench/solver_bench.py [--deals N]`, on one core.
Per game: the time to solve a whole deal from the opening lead (median, p90,
p99), per card played, nodes per second and the transposition table's hit
rate; the values of every legal card at Filicău's opening lead; the last 4
tricks of every game; a whole hand's double-dummy review. Every time is
CPU time of this process (`time.process_time`), which a machine shared with
other work inflates less than the clock on the wall. The baseline, in the
same run and also in CPU time: random Filicău deals dealt and played out a
second (`baseline`), compared with the same measure on an idle core here
(`IDLE_BASELINE`). The CPU time is the figure: measured idle and under a
load of 10–12 on 2 cores, the baseline ran at about the same rate (within
≈ 5%; ≈ 10% with other work pinned to the same core), so no factor is
applied; a ratio far from 1 says the run was disturbed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine import Game, get_game
from engine.analysis import Position, SearchLimit, SolverCache, analyse
from engine.analysis.position import load
from engine.analysis.review import record_of, review_double_dummy

#: Sueca is also measured from this many tricks before the end (its whole deal
#: often needs more than `LIMIT` nodes).
SUECA_TRICKS = 6
LIMIT = 1_000_000
clock = time.process_time
#: `baseline()` on an idle core here (load ≈ 1, pinned with taskset, CPU time):
#: 6,746 and 6,938 in two runs on 2026-11-25 07:05–07:20 UTC, their mean
#: rounded. The same measure as `baseline()` (deal + new_deal + playout),
#: not the engine table's bare `Deal.playout` (13,384, twice this).
IDLE_BASELINE = 6_850


GAMES = ("filicau", "filko", "filko_hats", "filko5", "filko6", "filcau20", "sueca", "fildinsky")


def _teams(game_id: str, n: int, rng: random.Random) -> tuple[int, ...]:
    if n == 5:
        pair = rng.sample(range(n), 2)
        return tuple(0 if s in pair else 1 for s in range(n))
    return tuple(s % 2 for s in range(n))


#: One game object per game, as at a table (the solver's renumbered rules are
#: built once per game object and trump).
_GAMES: dict[str, Game] = {}


def _position(game_id: str, rng: random.Random, tricks: int | None) -> Position:
    game = _GAMES.get(game_id) or _GAMES.setdefault(game_id, get_game(game_id))
    pack = list(game.pack.cards)
    rng.shuffle(pack)
    n = game.players
    k = tricks or game.tricks_per_hand
    hands = tuple(tuple(pack[i * k:(i + 1) * k]) for i in range(n))
    family = game.legal_family_for(stock_empty=True) if game_id == "fildinsky" else None
    return Position(game, rng.choice(game.pack.suits), hands, (), rng.randrange(n),
                    _teams(game_id, n, rng), (0, 0), family)


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def baseline(seconds: float = 1.0) -> float:
    g = get_game("filicau")
    rng = random.Random(0)
    done = 0
    t0 = clock()
    while clock() - t0 < seconds:
        d = g.deal(rng, 0)
        deal = g.new_deal(d.trump, d.leader, d.hands)
        deal.playout(rng)
        done += 1
    return done / (clock() - t0)


def check(base: float) -> str:
    """The line that compares this run's baseline with an idle core's."""
    return (f"Baseline check: {base:,.0f} playouts per CPU second, {base / IDLE_BASELINE:.2f} "
            f"times an idle core's {IDLE_BASELINE:,} (the same measure): the CPU times above "
            "are the figures, with no factor applied (near 1: an undisturbed run).")


def timed(f: Callable[[], object]) -> float:
    t0 = clock()
    f()
    return clock() - t0


def whole_deals(game_id: str, deals: int, tricks: int | None = None) -> dict[str, float]:
    rng = random.Random(game_id)
    times: list[float] = []
    nodes = probes = hits = 0
    skipped = 0
    cards = 0
    for _ in range(deals):
        p = _position(game_id, rng, tricks)
        solver, _ = load(p)
        solver.stats.limit = LIMIT
        t0 = clock()
        try:
            solver.value()
        except SearchLimit:
            skipped += 1
            continue
        times.append(clock() - t0)
        nodes += solver.stats.nodes
        probes += solver.stats.probes
        hits += solver.stats.hits
        cards = sum(len(h) for h in p.hands)
    total = sum(times)
    if not times:
        times = [float("nan")]
    return {"median_ms": statistics.median(times) * 1e3, "p90_ms": _pct(times, 0.9) * 1e3,
            "p99_ms": _pct(times, 0.99) * 1e3, "per_card_ms": statistics.median(times) * 1e3
            / max(1, cards), "nodes_s": nodes / total if total else 0.0,
            "hit_rate": hits / probes if probes else 0.0, "skipped": float(skipped),
            "cards": float(cards), "nodes": nodes / len(times)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=40, help="deals per game (default 40)")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    args = ap.parse_args()
    base = baseline()
    print(f"baseline: {base:,.0f} random Filicău deals dealt and played out per CPU second, "
          f"this run ({base / IDLE_BASELINE:.2f} × an idle core's {IDLE_BASELINE:,})\n")
    print("| game | cards | whole deal median | p90 | p99 | per card played | "
          "× Filicău per card | nodes a deal (mean) | nodes/s | TT hit rate |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    results: dict[str, dict[str, float]] = {}
    runs: list[tuple[str, int | None]] = [(g, None) for g in args.games]
    if "sueca" in args.games:
        runs.insert(runs.index(("sueca", None)) + 1, ("sueca", SUECA_TRICKS))
    for gid, tricks in runs:
        if gid == "fildinsky":
            r = whole_deals_fildinsky(args.deals)
        else:
            r = whole_deals(gid, args.deals, tricks)
        results.setdefault(gid, r)
        note = f" ({int(r['skipped'])} over {LIMIT:,} nodes)" if r["skipped"] else ""
        ratio = (f"{r['per_card_ms'] / results['filicau']['per_card_ms']:.2f}×"
                 if "filicau" in results else "")
        print(f"| {gid}{f' (last {tricks} tricks)' if tricks else ''}"
              f"{' (end game, 8 tricks)' if gid == 'fildinsky' else ''} | {int(r['cards'])} | "
              f"{r['median_ms']:.1f} ms | {r['p90_ms']:.1f} ms | {r['p99_ms']:.1f} ms{note} | "
              f"{r['per_card_ms']:.2f} ms | {ratio} | {r['nodes']:,.0f} | "
              f"{r['nodes_s']:,.0f} | {r['hit_rate']:.0%} |")
    # Values of every legal card at Filicău's opening lead.
    rng = random.Random(1)
    openings = [_position("filicau", rng, None) for _ in range(args.deals)]
    vt = [timed(lambda p=p: analyse(p)) for p in openings]  # type: ignore[misc]
    print(f"\nFilicău, values of every legal card at the opening lead: median "
          f"{statistics.median(vt) * 1e3:.1f} ms, p90 {_pct(vt, 0.9) * 1e3:.1f} ms")
    results["values"] = {"median_ms": statistics.median(vt) * 1e3}
    print("\nLast 4 tricks, whole position solved (median over 200):")
    for gid in args.games:
        rng = random.Random(gid + "4")
        positions = [_position(gid, rng, 4) for _ in range(200)]
        ts = [timed(lambda p=p: analyse(p, values=False)) for p in positions]  # type: ignore[misc]
        print(f"  {gid}: {statistics.median(ts) * 1e3:.2f} ms")
        results[f"last4 {gid}"] = {"median_ms": statistics.median(ts) * 1e3}
    # A whole hand's double-dummy review.
    g = get_game("filicau")
    rng = random.Random(3)
    rt = []
    for _ in range(max(3, args.deals // 8)):
        d = g.deal(rng, 0)
        deal = g.new_deal(d.trump, d.leader, d.hands)
        deal.playout(rng)
        rec = record_of(deal)
        rt.append(timed(lambda rec=rec: review_double_dummy(rec, SolverCache())))  # type: ignore[misc]
    print(f"\nFilicău, a whole hand's double-dummy review: median "
          f"{statistics.median(rt) * 1e3:.0f} ms, max {max(rt) * 1e3:.0f} ms")
    print(f"\n{check(base)}")
    if "filicau" in results:
        print(f"Zero 2 W estimate (≈ 13× slower than a core here): whole Filicău deal "
              f"{results['filicau']['median_ms'] * 13 / 1e3:.1f} s median, review "
              f"{statistics.median(rt) * 13:.1f} s")


def whole_deals_fildinsky(deals: int) -> dict[str, float]:
    """Fildinsky's end game (the stock empty, 8 tricks, brisques only)."""
    rng = random.Random("fildinsky")
    times: list[float] = []
    nodes = probes = hits = 0
    cards = 0
    for _ in range(deals):
        p = _position("fildinsky", rng, 8)
        solver, _ = load(p)
        t0 = clock()
        solver.value()
        times.append(clock() - t0)
        nodes += solver.stats.nodes
        probes += solver.stats.probes
        hits += solver.stats.hits
        cards = sum(len(h) for h in p.hands)
    total = sum(times)
    return {"median_ms": statistics.median(times) * 1e3, "p90_ms": _pct(times, 0.9) * 1e3,
            "p99_ms": _pct(times, 0.99) * 1e3,
            "per_card_ms": statistics.median(times) * 1e3 / max(1, cards),
            "nodes_s": nodes / total if total else 0.0,
            "hit_rate": hits / probes if probes else 0.0, "skipped": 0.0, "cards": float(cards),
            "nodes": nodes / len(times)}


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
