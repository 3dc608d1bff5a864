"""What the high-water mark costs each journal append (not part of the test suite).

    python bench/journal_mark_bench.py [--appends 300] [--dir /var/lib/cardtable-bench]

Appends the same entries to two journals in the same folder (so on the same
disk), in turns: one opened as the table opens it (`Journal.open_checked`:
every append also writes and syncs `journal.mark`), one without a mark (the
baseline: SQLite's own sync only). Prints the mean, p50 and p99 of both and
their ratio. Run it on the disk the table uses (`--dir` on the Pi's SD card):
the cost is the second sync.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--appends", type=int, default=300)
    ap.add_argument("--dir", help="a folder on the disk to measure (default: the temp dir)")
    args = ap.parse_args()
    from table.journal import Journal

    with tempfile.TemporaryDirectory(prefix="cardtable-mark-", dir=args.dir) as tmp:
        for sub in ("marked", "plain"):
            (Path(tmp) / sub).mkdir()
        marked = Journal.open_checked(Path(tmp) / "marked" / "journal.sqlite")
        plain = Journal(Path(tmp) / "plain" / "journal.sqlite")
        times: dict[str, list[float]] = {"with mark": [], "without (baseline)": []}
        data = {"seat": 1, "card": "Kb", "uid": "F0CA0100", "place": 1}
        for _ in range(args.appends):
            for name, j in (("with mark", marked), ("without (baseline)", plain)):
                t = time.perf_counter()
                j.append("card", data)
                times[name].append((time.perf_counter() - t) * 1000)
        marked.close()
        plain.close()
    print(f"{args.appends} appends each, in turns, in {args.dir or tempfile.gettempdir()}\n")
    print("| journal append | mean ms | p50 ms | p99 ms |")
    print("|---|---|---|---|")
    for name, ts in times.items():
        ts.sort()
        print(f"| {name} | {statistics.mean(ts):.2f} | {ts[len(ts) // 2]:.2f} | "
              f"{ts[int(len(ts) * 0.99)]:.2f} |")
    ratio = statistics.mean(times["with mark"]) / statistics.mean(times["without (baseline)"])
    print(f"\nratio of the means: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    sys.exit(main())
