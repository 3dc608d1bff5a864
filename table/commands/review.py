"""`cardtable review EXPORT`: every card of every hand against best play.

Reads a match written by `cardtable export` (referee requests, JSON lines),
replays it through the referee, and for each hand prints a report card by
card: the points each card gave away with every card visible (double dummy)
and, fair to what the player could know, on average over deals consistent
with what they had seen (sampled; `--budget` seconds per hand, spread over
every core). See docs/review.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Seconds of sampled analysis per hand by default.
DEFAULT_BUDGET = 8.0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="after the hand: the cards that lost it (double dummy and sampled analysis)",
        description="Replays a match exported by `cardtable export` and reports, for every "
                    "card played, the points it gave away against best play: with every "
                    "card visible, and on average over deals consistent with what the "
                    "player had seen. See docs/review.md.")
    p.add_argument("export", type=Path, help="a match from `cardtable export` (JSON lines)")
    p.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                   help=f"seconds of sampled analysis per hand (default {DEFAULT_BUDGET:g}); "
                        "0: double dummy only")
    p.add_argument("--samples", type=int, default=300, metavar="N",
                   help="at most this many sampled deals per card (default 300)")
    p.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="worker processes for the sampled analysis (default: every core)")
    p.add_argument("--seed", type=int, default=18, help="seed of the sampled deals")
    p.add_argument("--hand", type=int, metavar="N", help="review only hand N (from 1)")
    p.set_defaults(handler=run)


@dataclass
class ReplayedHand:
    number: int
    record: Any  # engine.analysis.review.HandRecord
    points: list[int] | None


def replay(lines: Sequence[str]) -> Iterator[ReplayedHand | str]:
    """The hands of an export, replayed through the referee; a string is a
    problem with one line (reported, and the replay goes on)."""
    from engine import EngineError
    from engine.analysis.review import record_of
    from table.referee.session import Referee

    ref = Referee()
    deal: Any = None
    state: Any = None
    public: dict[int, list[Any]] = {}
    number = 0

    def finish(points: list[int] | None) -> Iterator[ReplayedHand | str]:
        nonlocal deal
        if deal is None:
            return
        d, deal = deal, None
        try:
            record = record_of(d, state, public)
        except EngineError as err:
            yield f"hand {number}: not reviewed: {err.message('en')}"
            return
        if not record.plays:
            return
        yield ReplayedHand(number, record, points)

    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            yield f"line {lineno}: not JSON; skipped"
            continue
        if not isinstance(obj, dict):
            yield f"line {lineno}: not a JSON object; skipped"
            continue
        answer = ref.answer(obj)
        if not answer.get("ok"):
            yield f"line {lineno}: {answer.get('message', 'refused')}"
            continue
        hand = ref.hand
        if hand is None:
            continue
        if hand.deal is not deal and obj.get("op") != "play":
            yield from finish(None)
            number += 1
            deal = hand.deal
            state = hand.state
            public = {}
            shown = obj.get("shown")
            dealer = getattr(state, "dealer", None)
            if isinstance(shown, list) and dealer is not None and "used" in answer:
                public = {dealer: [hand.game.pack.parse(c) for c in shown[:answer["used"]]]}
        elif hand.deal is not deal:
            deal = hand.deal
        if "hand" in answer:
            yield from finish(list(answer["hand"].get("points", [])) or None)
    yield from finish(None)


# ----- the sampled analysis, spread over processes ------------------------------------


#: The solvers of this worker process, kept warm from one card to the next
#: (their transposition tables serve every deal of the same trumps and teams).
_CACHE: Any = None


#: How each deal of the sampled view is asked (`review_hand`'s `how`): "fast"
#: (the review's way, `CardSampler`: the played card's value, its search
#: started from its value in the real deal, then one question for each
#: class of interchangeable other cards), "each" (the same with every other
#: card asked and no start from the real deal, as the review asked until
#: 2026-11-25) and "full" (every legal card of every deal valued, as at
#: first); the last two are kept for `bench/review_bench.py` to compare.
HOWS = ("fast", "each", "full")


def _sample_task(args: tuple[Any, int, int, int, float, int, int, str, int | None]
                 ) -> tuple[int, float, int, str | None]:
    """Worker: the sampled view of one play, at most `max_samples` deals, one
    at least: (index, average loss, deals, the fair best card's code). Its
    time is its share of what is left of the hand's budget (`hand_deadline`,
    `time.monotonic()`: one clock for every process): the time left times
    the workers over the plays still to come (`left`, this one included),
    never past the deadline. The plays come latest first: their deals are
    solved in a millisecond and reach `max_samples` early, and the time they
    leave goes to the first tricks, where a deal costs the most.

    Each deal is asked only what the review needs (`CardSampler`), its
    search started from `guess` (the card's value in the real deal); see
    `HOWS` for the other ways, kept for the benchmark."""
    global _CACHE
    from engine.analysis import SolverCache
    from engine.analysis.review import CardSampler, sampled_losses

    record, index, seed, max_samples, hand_deadline, left, jobs, how, guess = args
    now = time.monotonic()
    deadline = min(now + max(0.0, hand_deadline - now) * max(1, jobs) / max(1, left),
                   hand_deadline)
    rng = random.Random(seed)
    card = record.plays[index][1]
    if how == "full":
        cache = SolverCache(limit=1)
        totals: dict[str, float] = {}
        solved = 0
        while solved < max_samples and (solved == 0 or time.monotonic() < deadline):
            losses, k = sampled_losses(record, index, rng, 1, cache)
            if not k:
                break
            for c, v in losses.items():
                totals[c.code] = totals.get(c.code, 0.0) + v
            solved += k
        if not solved or card.code not in totals:
            return index, 0.0, 0, None
        fair = min(totals, key=lambda c: (totals[c], c))
        return index, totals[card.code] / solved, solved, fair
    if _CACHE is None:
        _CACHE = SolverCache(limit=2)
    if how == "each":
        sampler = CardSampler(record, index, _CACHE, grouped=False)
    else:
        sampler = CardSampler(record, index, _CACHE, guess=guess)
    while sampler.result.deals < max_samples and (
            sampler.result.deals == 0 or time.monotonic() < deadline):
        if not sampler.solve(rng):
            break
    got = sampler.result
    best = got.best
    return index, got.loss, got.deals, best.code if best is not None else None


def review_hand(record: Any, budget: float, max_samples: int, jobs: int, seed: int,
                pool: ProcessPoolExecutor | None, how: str = "fast") -> list[Any]:
    """Double dummy for every card, then (with a budget) the sampled view
    (`how`: see `HOWS`; the slower ways are kept for the benchmark)."""
    from engine.analysis import SolverCache
    from engine.analysis.review import review_double_dummy

    reviews = review_double_dummy(record, SolverCache())
    hand_deadline = time.monotonic() + budget * 0.95
    if budget <= 0 or not reviews:
        return reviews
    # Cards with one legal choice need no sampling.
    todo = [r for r in reviews if r.legal > 1]
    if not todo:
        return reviews
    todo.reverse()  # the last plays first (see `_sample_task`)
    tasks = [(record, r.index, seed * 1_000 + r.index, max_samples, hand_deadline,
              len(todo) - k, jobs, how, r.value) for k, r in enumerate(todo)]
    results = (pool.map(_sample_task, tasks) if pool is not None
               else map(_sample_task, tasks))
    by_index = {i: (loss, n, best) for i, loss, n, best in results}
    pack = record.game.pack
    out = []
    for r in reviews:
        if r.index in by_index:
            loss, n, best = by_index[r.index]
            if n and best is not None:
                r = dataclasses.replace(r, sampled_loss=loss, sampled_best=pack.parse(best),
                                        samples=n)
        out.append(r)
    return out


# ----- the report ----------------------------------------------------------------------


def report(hand: ReplayedHand, reviews: Sequence[Any], seconds: float) -> str:
    from engine.analysis import analyse

    rec = hand.record
    game = rec.game
    teams = rec.teams
    names = {0: [], 1: []}  # type: dict[int, list[str]]
    for s, t in enumerate(teams):
        names[t].append(str(s + 1))       # seats as people count them, from 1
    lines = [f"Hand {hand.number} · {game.title or game.id} · trumps: {rec.trump or 'none'}"
             f" · teams {'+'.join(names[0])} and {'+'.join(names[1])}"]
    start = rec.position(rec.first)
    if not start.trick and all(start.hands):
        best = analyse(start, values=False).points
        lines.append(f"Best play with every card visible from the first card judged: "
                     f"{best[0]}–{best[1]}")
    if hand.points is not None:
        lines.append(f"Played: {hand.points[0]}–{hand.points[1]}")
    lines += _calls_lines(rec)
    lines.append(f"{'#':>3} {'trick':>5} {'seat':>4} {'card':>4} {'loss':>4}  "
                 f"{'best (all cards seen)':<22} {'avg loss':>8} {'deals':>5}  "
                 f"{'best (fair)':<11} flag")
    for r in reviews:
        best_cards = " ".join(c.code for c in r.best[:6]) + (" …" if len(r.best) > 6 else "")
        avg = f"{r.sampled_loss:.2f}" if r.sampled_loss is not None else "–"
        fair = r.sampled_best.code if r.sampled_best is not None else "–"
        flag = ""
        if r.flagged:
            flag = "<<" + (" result" if r.result_changed else "")
        lines.append(f"{r.index + 1:>3} {r.trick:>5} {r.seat + 1:>4} {r.card.code:>4} "
                     f"{r.loss:>4}  {best_cards:<22} {avg:>8} {r.samples or '':>5}  "
                     f"{fair:<11} {flag}")
    flagged = [r for r in reviews if r.flagged]
    if flagged:
        lines.append("Cards that cost the hand:")
        for r in flagged:
            what = [f"{r.loss} point(s) with every card visible"]
            if r.sampled_loss is not None:
                what.append(f"{r.sampled_loss:.2f} on average over {r.samples} deals "
                            f"the player could not tell apart")
            if r.result_changed:
                what.append("it changed the hand's result (who became masters, or the "
                            "game points)")
            lines.append(f"  trick {r.trick}, seat {r.seat + 1}, {r.card.code}: " + "; ".join(what)
                         + f" (best: {' '.join(c.code for c in r.best[:4])})")
    else:
        lines.append("No card cost a point.")
    skipped = sorted(rec.skipped)
    if skipped:
        lines.append(f"Not judged: plays {', '.join(str(i + 1) for i in skipped)} follow "
                     "special rules of the hand (the fris trick) the solver does not search.")
    judged = {r.index for r in reviews}
    deep = [i for i in range(rec.first, len(rec.plays)) if i not in judged and i not in skipped]
    if deep:
        lines.append(f"Not judged: plays {', '.join(str(i + 1) for i in deep)}: the search "
                     "would take too long from there (the first tricks of a Sueca hand).")
    lines.append(f"({seconds:.1f} s)")
    return "\n".join(lines)


def _calls_lines(rec: Any) -> list[str]:
    """What the fair view knew of the calls before play (20-card Filcău)."""
    if rec.calls:
        heard = ", ".join(
            f"seat {s + 1} {call}" + (" (won the binding)" if s == rec.binder else "")
            for s, call in sorted(rec.calls.items()))
        return [f"Calls heard before play: {heard}; the fair view's deals fit them."]
    if rec.calls_unknown:
        return ["The binding calls of this hand are not in the export (its trumps were "
                "given): the fair view's deals follow the cards seen only."]
    return []


def run(args: argparse.Namespace) -> int:
    try:
        text = args.export.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"cardtable review: cannot read {args.export}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"cardtable review: {args.export} is not UTF-8 text", file=sys.stderr)
        return 2
    if args.budget < 0 or args.samples < 1 or args.jobs < 0:
        print("cardtable review: --budget must be ≥ 0, --samples ≥ 1, --jobs ≥ 0",
              file=sys.stderr)
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    pool = None
    if args.budget > 0 and jobs > 1:
        pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
    reviewed = 0
    try:
        for item in replay(text.splitlines()):
            if isinstance(item, str):
                print(f"cardtable review: {item}", file=sys.stderr)
                continue
            if args.hand is not None and item.number != args.hand:
                continue
            t0 = time.monotonic()
            reviews = review_hand(item.record, args.budget, args.samples, jobs, args.seed, pool)
            print(report(item, reviews, time.monotonic() - t0))
            print()
            reviewed += 1
    finally:
        if pool is not None:
            pool.shutdown()
    if not reviewed:
        print("cardtable review: no hand to review in this file (an export of "
              "`cardtable export` has a new_hand line and its plays)", file=sys.stderr)
        return 1
    return 0
