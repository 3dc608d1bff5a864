"""Readers soak: both readers' drivers (direct SPI, and the hub firmware run
under CPython) through thousands of random sequences of cards placed,
lifted, slid to the next seat and left between two seats, on the harsh
MFRC522 emulator, each with its own seed. The same check as the suite's
property test (tests/drivers/test_readers_property.py), many more times:

    python bench/readers_soak.py [--sequences 1000] [--moves 8] [--seed 0]

For each driver: how many polls the report took to match the truth after
a move (median, 99th percentile, worst; the test allows 10), moves that did
not converge within that bound, and polls after it that reported a card
that is not there or missed one that is. Target: none of either.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hw_mocks.mfrc522 import Harsh  # noqa: E402
from tests.drivers.reader_rigs import BOUND, MOVES, RIGS, SEATS, STEADY, UIDS, Table  # noqa: E402


def soak(kind: str, sequences: int, moves: int, seed: int) -> dict[str, float]:
    rnd = random.Random(seed)
    took: list[int] = []
    stuck = wrong = offline = 0
    started = time.perf_counter()
    for _ in range(sequences):
        rig = RIGS[kind](SEATS, Harsh(seed=rnd.getrandbits(32)))
        try:
            table = Table(rig)
            for _ in range(moves):
                move = (rnd.choice(MOVES), rnd.choice(UIDS), rnd.randrange(SEATS),
                        rnd.randrange(5))
                polls = table.play(move)
                took.append(polls)
                stuck += polls > BOUND
                for _ in range(STEADY):
                    table.poll()
                    wrong += not table.matches()
            offline += sum(1 for said in table.said if said[0] == "offline")
        finally:
            rig.close()
    took.sort()
    return {"moves": len(took), "median": statistics.median(took),
            "p99": took[int(0.99 * (len(took) - 1))], "worst": took[-1], "stuck": stuck,
            "wrong": wrong, "offline": offline, "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    print("| driver | sequences | moves | polls to match: median | p99 | worst | "
          "not within 10 | wrong after | offline | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for kind in sorted(RIGS):
        r = soak(kind, args.sequences, args.moves, args.seed)
        print(f"| {kind} | {args.sequences} | {r['moves']:.0f} | {r['median']:g} | {r['p99']:.0f}"
              f" | {r['worst']:.0f} | {r['stuck']:.0f} | {r['wrong']:.0f} | {r['offline']:.0f}"
              f" | {r['seconds']:.0f} |")


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
