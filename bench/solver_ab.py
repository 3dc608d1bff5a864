"""The solver against an earlier version of itself, on the same deals.

Run with `.venv/bin/python bench/solver_ab.py REV [GAME:DEALS[:values][:tN] ...]`
(default `filicau:20 filicau:20:values filko:20 filko_hats:10`), on one core;
`:tN` deals only the last N tricks (`sueca:200:t4`: endings of 4 tricks).
`REV` is a git revision whose `engine/analysis/solver.py` (and its
generated search, `searchcode.py`, where it has one) is loaded beside the
current one (`git show`); both solve every deal, in turns (the order
swaps each deal), in one process, and must give the same values. Printed per
case: CPU seconds and nodes of each, and the ratios. On a shared machine this
is the reliable comparison: both versions meet the same load. The garbage
collector runs before each timed solve, outside the timing: a dropped
solver's tables sit in reference cycles, and collecting one version's
inside the other's timing skewed the ratios (1.05-1.09 times on whole deals
of Filicău and Filkó on 2026-11-25). Some changes still measure otherwise
here than in a process of their own (a node counter removed: 1.28 times
here, 1.03 times one version a process): confirm a gain with
`bench/solver_bench.py` run for each version.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from solver_bench import _position

from engine.analysis.position import hand_masks
from engine.analysis.rules import solver_rules
from engine.analysis.solver import Solver

clock = time.process_time
ROOT = Path(__file__).resolve().parent.parent


def previous_solver(rev: str) -> ModuleType:
    """`engine/analysis/solver.py` at `rev`, loaded as its own module, with
    the generated search (`engine/analysis/searchcode.py`) of the same `rev`
    where it has one."""
    saved = sys.modules.get("engine.analysis.searchcode")
    try:
        code = _load(rev, "searchcode")
        if code is not None:
            sys.modules["engine.analysis.searchcode"] = code
        module = _load(rev, "solver")
        assert module is not None, f"no engine/analysis/solver.py at {rev}"
        return module
    finally:
        if saved is not None:
            sys.modules["engine.analysis.searchcode"] = saved


def _load(rev: str, name: str) -> ModuleType | None:
    """`engine/analysis/{name}.py` at `rev` as the module `previous_{name}`
    (None where `rev` has no such file)."""
    got = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:engine/analysis/{name}.py"],
                         capture_output=True, text=True)
    if got.returncode:
        return None
    path = Path(tempfile.mkdtemp()) / f"previous_{name}.py"
    path.write_text(got.stdout)
    spec = importlib.util.spec_from_file_location(f"previous_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"previous_{name}"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def compare(old: ModuleType, game_id: str, deals: int, values: bool,
            tricks: int | None = None) -> None:
    rng = random.Random(game_id + "ab" + (f"t{tricks}" if tricks else ""))
    times: dict[str, list[float]] = {"old": [], "new": []}
    nodes = {"old": 0, "new": 0}
    for i in range(deals):
        p = _position(game_id, rng, tricks)
        rules = solver_rules(p.game, p.trump, p.family)
        hands, _ = hand_masks(p, rules)
        order: list[tuple[str, type]] = [("old", old.Solver), ("new", Solver)]
        if i % 2:
            order.reverse()
        got = {}
        for name, cls in order:
            s = cls(rules, p.teams)
            s.load(hands, [], p.leader)
            # The other version's dropped solvers are garbage in reference
            # cycles (big tables): collected here, not inside the next timing.
            gc.collect()
            t0 = clock()
            got[name] = s.card_values() if values else s.value()
            times[name].append(clock() - t0)
            nodes[name] += s.stats.nodes
        if got["old"] != got["new"]:
            sys.exit(f"{game_id} deal {i}: the versions disagree: {got}")
    t_old, t_new = sum(times["old"]), sum(times["new"])
    print(f"{game_id}{' (values of every card)' if values else ''}"
          f"{f' (last {tricks} tricks)' if tricks else ''}, {deals} deals: "
          f"previous {t_old:.2f} CPU s (median {statistics.median(times['old']) * 1e3:.0f} ms, "
          f"{nodes['old']:,} nodes), now {t_new:.2f} CPU s (median "
          f"{statistics.median(times['new']) * 1e3:.0f} ms, {nodes['new']:,} nodes): "
          f"{t_old / t_new:.2f}× fewer CPU seconds, {nodes['old'] / nodes['new']:.2f}× fewer nodes",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("rev", help="the git revision to compare with")
    ap.add_argument("cases", nargs="*",
                    default=["filicau:20", "filicau:20:values", "filko:20", "filko_hats:10"])
    args = ap.parse_args()
    old = previous_solver(args.rev)
    for case in args.cases:
        game_id, deals, *rest = case.split(":")
        tricks = [int(r[1:]) for r in rest if r.startswith("t")]
        compare(old, game_id, int(deals), "values" in rest, tricks[0] if tricks else None)


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
