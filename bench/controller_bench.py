"""Benchmark of the table controller (not part of the test suite).

    python bench/controller_bench.py [--hands 40] [--machine-only] [--against REV]

Measures, on this machine:

* event -> frame: from a card event entering the controller's queue (posted
  by the fake readers, as a driver would) to the frame handed to the display,
  with the controller running on its own thread, the journal on disk (WAL,
  synchronous FULL) and every accepted play journaled (a card's entry is
  written before it is shown and synced to disk just after: docs/controller.md);
  p50 and p99 over every play of many Filicău hands (hands scanned first);
* refused card -> frame: one play in four is first tried with a card the
  table must refuse (not following suit, or out of turn: bench/refusals.py),
  timed the same way up to its error screen;
* the journal's cost per event: one `append` (an fsync) on the same disk;
* peak memory of the whole process (max resident set size);
* start to ready: a new process that imports everything, opens a state
  folder, replays its journal and shows the first frame (an empty journal,
  and one holding a long match);
* the state machine's own cost per trigger (a card read in a hand): the
  table's compiled dispatch (`machine.build`), `transitions`' flat
  `Machine` of the same tables and the nested one (what the table ran
  before), and a flat dispatch written here (a dict of precomputed
  transitions and a loop) as the baseline, in the same run;
* with `--against REV` (a git revision of this repository), instead: the
  controller thread's CPU per play and per refused card of this tree and
  of REV's tree (exported with `git archive` into a temporary folder; each
  plays the same hands with its own bench's `event_to_frame`), in
  alternating runs of the same length, so that both see the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hw_mocks.bot import Bot  # noqa: E402
from hw_mocks.table import MockTable  # noqa: E402
from table.controller import Controller, machine  # noqa: E402
from table.journal import Journal  # noqa: E402
from table.settings import TableSettings  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from refusals import refusal_for  # noqa: E402

ZERO_2W = 13   # single-thread CPython on a Pi Zero 2 W against one core here


def percentile(values, p):
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


class FrameProbe:
    """Records when the display is handed a frame."""

    def __init__(self, display):
        self.event = threading.Event()
        self.at = 0.0
        self.cpu_at = 0.0       # the controller thread's CPU time at the frame
        self.cpu_from = 0.0     # ... and when it took the event (see `watch`)
        display.on_frame(self._frame)

    def _frame(self, image):
        self.at = time.perf_counter()
        self.cpu_at = time.thread_time()
        self.event.set()

    def watch(self, ctl):
        """Note the controller thread's CPU time as it starts on each event,
        so that the CPU an event costs is known whatever the machine's load."""
        handle = ctl.handle

        def timed(event):
            self.cpu_from = time.thread_time()
            return handle(event)

        ctl.handle = timed


def event_to_frame(hands, state_dir):
    settings = TableSettings(game="filicau", knowledge="scan", debounce_ms=0)
    mock = MockTable(seats=4)
    seeds = random.Random(1)
    ctl = Controller.open(settings, mock.ports, state_dir,
                          seed_source=lambda: seeds.randrange(2**62))
    ctl.registry.enroll_virtual("german32")
    probe = FrameProbe(mock.display)
    probe.watch(ctl)
    ctl.start()
    mock.press("ok")
    ctl.wait_idle()
    game = ctl.session.match.game
    bot = Bot(game, random.Random(2),
              lambda c, k: ctl.registry.uid_for(c, game.pack.family, k))
    latencies = []
    refusals = []
    cpu = {"play": [], "refusal": []}
    rng = random.Random(3)
    refused = [0]   # counted as they come: the notices' deque keeps the last 200
    ctl.on_notice(lambda n: refused.__setitem__(0, refused[0] + (n.kind == "refused")))

    def tap(move, into):
        probe.event.clear()
        t0 = time.perf_counter()
        mock.readers.arrive(move.place, move.uid)
        if into is not None:
            if not probe.event.wait(5):
                raise RuntimeError(f"no frame after {move}")
            into.append(probe.at - t0)
            cpu["refusal" if into is refusals else "play"].append(probe.cpu_at - probe.cpu_from)
        mock.readers.leave(move.place, move.uid)
        ctl.wait_idle()

    for _ in range(hands):
        bot.new_hand(ctl.session.match.hand.state, "scan")
        for m in bot.scan_moves():
            tap(m, None)
        while True:
            # one play in four is first tried with a card the table must refuse
            wrong = refusal_for(bot, rng) if rng.random() < 0.25 else None
            if wrong is not None:
                before = refused[0]
                tap(wrong, refusals)
                if refused[0] != before + 1:
                    raise RuntimeError(f"the table did not refuse {wrong}")
            m = bot.next_move()
            if m is None:
                break
            tap(m, latencies)
        if ctl.model.overlay is not None:   # a message first: OK takes it away
            mock.press("ok")
            ctl.wait_idle()
        mock.press("ok")
        ctl.wait_idle()
    entries = ctl.journal.count()
    ctl.close()
    mock.close()
    return latencies, refusals, cpu, entries


def journal_cost(state_dir, n=300):
    """Wall and CPU time of each append (the difference: the fsync's wait)."""
    j = Journal(Path(state_dir) / "cost.sqlite")
    times, cpu = [], []
    for i in range(n):
        t0, c0 = time.perf_counter(), time.thread_time()
        j.append("card", {"seat": i % 4, "card": "Kh", "uid": "F0CA0101526801", "place": i % 4})
        times.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    j.close()
    return times, cpu


READY_SCRIPT = """
import sys, time
t0 = float(sys.argv[2])
from hw_mocks.table import MockTable
from table.controller import Controller
from table.settings import TableSettings
mock = MockTable(seats=4)
ctl = Controller.open(TableSettings(game="filicau", knowledge="scan"), mock.ports, sys.argv[1])
assert mock.display.image is not None
print("READY", time.time() - t0, ctl.state, ctl.session.seq, flush=True)
"""


def start_to_ready(state_dir, runs=5):
    times = []
    for _ in range(runs):
        t0 = time.time()
        out = subprocess.run([sys.executable, "-c", READY_SCRIPT, str(state_dir), str(t0)],
                             capture_output=True, text=True, cwd=ROOT, check=True)
        line = next(ln for ln in out.stdout.splitlines() if ln.startswith("READY"))
        times.append(float(line.split()[1]))
    return times


class _Bare:
    """A model with the table's guards (all answering False, so that a card
    read in a hand goes past the admin tag check to `take_card`) and actions
    that do nothing: the state machine's own cost, without the table's."""


for _name in {n for t in machine.TRANSITIONS for k in ("conditions", "after")
              for n in ([t[k]] if isinstance(t.get(k), str) else t.get(k) or [])}:
    setattr(_Bare, _name, lambda self, *args: False)


def flat_dispatch(model, trigger, *args):
    """The baseline: a dict from (state, trigger) to the transitions to try,
    precomputed from the same tables, and a loop over them."""
    for conditions, after, dest in FLAT[(model.state, trigger)]:
        if all(getattr(model, c)(*args) for c in conditions):
            if dest is not None:
                model.state = dest
            for a in after:
                getattr(model, a)(*args)
            return True
    return False


def _listed(value):
    return [value] if isinstance(value, str) else list(value or [])


FLAT = {}


def trigger_costs(n=20000):
    """Microseconds per `read` of a card in a hand (the hottest trigger): the
    table's machine (the compiled dispatch), `transitions`' flat `Machine`
    and nested `HierarchicalMachine` of the same tables, and the flat
    dispatch baseline."""
    for t in machine.flat_transitions():
        FLAT.setdefault((t["source"], t["trigger"]), []).append(
            (_listed(t.get("conditions")), _listed(t.get("after")), t["dest"]))
    fires = {}
    for name, build in (("compiled", machine.build), ("flat", machine.reference),
                        ("nested", machine.nested), ("dict", None)):
        model = _Bare()
        if build is not None:
            build(model)
            fire = model.read
        else:
            def fire(place, uid, model=model):
                return flat_dispatch(model, "read", place, uid)
        model.state = "match_hand_play"
        fires[name] = fire
    # the machines take turns, best of 5 each: a change in the machine's load
    # during the run falls on all of them alike
    out = dict.fromkeys(fires, float("inf"))
    for _ in range(5):
        for name, fire in fires.items():
            t0 = time.perf_counter()
            for _ in range(n):
                fire(2, "04A1B2C3")
            out[name] = min(out[name], (time.perf_counter() - t0) / n * 1e6)
    return out


CPU_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1] + "/bench")
import controller_bench as bench   # that tree's bench: it puts its own tree first on sys.path
import table
if not table.__file__.startswith(sys.argv[1]):
    raise SystemExit(f"imported {table.__file__}, not the tree in {sys.argv[1]}")
_, _, cpu, _ = bench.event_to_frame(int(sys.argv[2]), sys.argv[3])
print("CPU " + json.dumps(cpu))
"""


def cpu_run(tree, hands, state_dir):
    out = subprocess.run([sys.executable, "-c", CPU_SCRIPT, str(tree), str(hands),
                          str(state_dir)], capture_output=True, text=True, cwd=tree)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("CPU ")]
    if out.returncode != 0 or not line:
        raise SystemExit(f"the run in {tree} failed:\n{out.stdout}{out.stderr}")
    return json.loads(line[-1][4:])


def compare(rev, hands, rounds):
    """This tree against `rev`'s, alternating (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="cardtable-against-") as tmp:
        old = Path(tmp) / "tree"
        old.mkdir()
        commit = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout.strip()
        archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        trees = {f"{commit} (before)": old, "this tree": ROOT}
        cpu = {name: {"play": [], "refusal": []} for name in trees}
        for r in range(rounds):
            for name, tree in trees.items():
                got = cpu_run(tree, hands, Path(tmp) / f"state-{r}-{len(cpu[name]['play'])}"
                              f"-{tree is ROOT}")
                for kind in ("play", "refusal"):
                    cpu[name][kind].extend(got[kind])
    print(f"Controller thread CPU per event, {rounds} alternating runs of {hands} Filicău "
          f"hands each (the same hands), this tree against {commit}; load average "
          f"{os.getloadavg()[0]:.1f}:")
    print()
    print(f"| tree | play p50 / p99 | refused card p50 / p99 | Zero 2 W x{ZERO_2W}: "
          "play p50 / p99 |")
    print("|---|---|---|---|")
    for name in trees:
        play, refusal = cpu[name]["play"], cpu[name]["refusal"]
        print(f"| {name} | {ms(percentile(play, 50))} / {ms(percentile(play, 99))} | "
              f"{ms(percentile(refusal, 50))} / {ms(percentile(refusal, 99))} | "
              f"{ms(percentile(play, 50) * ZERO_2W)} / {ms(percentile(play, 99) * ZERO_2W)} |")
    before, after = (cpu[name] for name in trees)
    ratios = ", ".join(
        f"{kind} p{p} {percentile(after[kind], p) / percentile(before[kind], p):.2f}"
        for kind in ("play", "refusal") for p in (50, 99))
    print()
    print(f"this tree / before: {ratios}; samples: {len(after['play'])} plays, "
          f"{len(after['refusal'])} refusals each")


def ms(x):
    return f"{x * 1000:.2f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40, help="hands to play (default 40)")
    parser.add_argument("--dir", default=None,
                        help="folder for the journals (default: a temporary folder on /tmp's disk)")
    parser.add_argument("--machine-only", action="store_true",
                        help="time only the state machine's triggers (a few seconds)")
    parser.add_argument("--against", metavar="REV",
                        help="compare the controller's CPU per play and per refusal with "
                             "git revision REV's, in alternating runs (--hands hands each)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --against: runs of each tree (default 3)")
    args = parser.parse_args()
    if args.against:
        compare(args.against, args.hands, args.rounds)
        return
    if not args.machine_only:
        table_figures(args)
    machine_figures()


def table_figures(args):
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-", dir=args.dir) as tmp:
        tmp = Path(tmp)
        latencies, refusals, cpu, entries = event_to_frame(args.hands, tmp / "match")
        cost, cost_cpu = journal_cost(tmp)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        empty = start_to_ready(tmp / "empty")
        full = start_to_ready(tmp / "match")
    print(f"cardtable controller benchmark ({args.hands} Filicău hands, hands scanned, "
          f"journal on disk with synchronous FULL; Python {sys.version.split()[0]})")
    print()
    print("| measure | value |")
    print("|---|---|")
    print(f"| event -> frame, p50 (incl. journal write) | {ms(percentile(latencies, 50))} |")
    print(f"| event -> frame, p99 (incl. journal write) | {ms(percentile(latencies, 99))} |")
    print(f"| event -> frame, max | {ms(max(latencies))} |")
    print(f"| refused card -> error frame, p50 / p99 (nothing journaled; a whole frame) | "
          f"{ms(percentile(refusals, 50))} / {ms(percentile(refusals, 99))} |")
    sync = percentile(cost, 50) - percentile(cost_cpu, 50)
    for name, label in (("play", "play"), ("refusal", "refused card")):
        c = cpu[name]
        print(f"| controller thread CPU per {label} (thread time), p50 / p99 | "
              f"{ms(percentile(c, 50))} / {ms(percentile(c, 99))} |")
    print(f"| Zero 2 W estimate, CPU x {ZERO_2W} (+ the journal's fsync wait here, p50, for "
          f"plays): play p50 / p99; refusal p50 / p99 | "
          f"{ms(percentile(cpu['play'], 50) * ZERO_2W + sync)} / "
          f"{ms(percentile(cpu['play'], 99) * ZERO_2W + sync)}; "
          f"{ms(percentile(cpu['refusal'], 50) * ZERO_2W)} / "
          f"{ms(percentile(cpu['refusal'], 99) * ZERO_2W)} |")
    print(f"| journal append, mean / p50 / p99 | {ms(statistics.mean(cost))} / "
          f"{ms(percentile(cost, 50))} / {ms(percentile(cost, 99))} |")
    print(f"| peak memory (max RSS of the benchmark process) | {peak_mb:.1f} MB |")
    print(f"| start to ready, empty journal (median of 5) | "
          f"{ms(statistics.median(empty))} |")
    print(f"| start to ready, {entries}-entry journal (median of 5) | "
          f"{ms(statistics.median(full))} |")
    print()
    print(f"plays measured: {len(latencies)}; refusals measured: {len(refusals)}; "
          f"journal entries written: {entries}")
    print(f"Zero 2 W estimate: the controller thread's CPU per event x {ZERO_2W} "
          "(single-thread CPython there is 12-15 times slower), plus for plays the journal's "
          "fsync wait as measured here (append wall minus CPU, p50); wall-clock figures "
          f"depend on this machine's load (load average now {os.getloadavg()[0]:.1f})")
    print()


def machine_figures():
    costs = trigger_costs()
    print("The state machine alone, a card read in a hand (best of 5 x 20,000, the "
          "machines taking turns; guards and actions doing nothing):")
    print()
    print("| machine | per trigger | ratio to the flat dispatch | Zero 2 W estimate x13 |")
    print("|---|---|---|---|")
    for name, label in (("compiled", "the table's: the compiled dispatch (`machine.build`)"),
                        ("flat", "flat `transitions.Machine` over the leaves (before)"),
                        ("nested", "nested `HierarchicalMachine` (before that)"),
                        ("dict", "baseline: a dict of precomputed transitions and a loop")):
        print(f"| {label} | {costs[name]:.2f} µs | {costs[name] / costs['dict']:.2f}x | "
              f"{costs[name] * 13 / 1000:.2f} ms |")


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    main()
