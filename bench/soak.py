"""Soak run of the table (not part of the test suite; run by hand).

    python bench/soak.py --minutes 15 [--seed 1] [--matches 40] [--hands 8]

Plays many Filicău matches (4 seats, hands scanned, then played card by card)
with deterministic bots on the fake table, twice:

1. the reference: one uninterrupted process, no disturbance;
2. the soak: the same matches in child processes that the parent kills with
   SIGKILL at random moments (each child resumes from the state folder the
   last one left), while every child also suffers disturbances that must not
   change the match: readers unplugged and plugged back, garbage bytes fed to
   the real hub driver (`HubReaders.feed`: random bytes, bad checksums,
   endless lines), stickers nobody enrolled, cards tapped on the wrong reader.

At the end the export of every match (`table.export`, the referee protocol
lines) must equal the reference's, and both state folders must pass
`cardtable journal check`. Every child must end either killed by the parent
or with status 0: a refusal to start (78), a traceback or any other status
is a finding. Table time runs as the events say (a few seconds a card), so
the run covers many simulated hours; the report gives them.

The child's bots are deterministic given the match and the hand, so a child
that starts on a state folder works out where the match stands (the cards
read, the actions taken) from the resumed session and carries on with the
same moves the uninterrupted run made.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAME = "filicau"
PACK = "german32"
SEATS = 4


# ----- the child: plays the workload from wherever the state folder stands -----------------

def match_seed(seed: int, number: int) -> int:
    return random.Random(f"{seed}:match:{number}").randrange(2**62)


def hand_rng(seed: int, match_number: int, hand: int) -> random.Random:
    return random.Random(f"{seed}:hand:{match_number}:{hand}")


class Disturber:
    """What a club room does to a table that must not change a match."""

    def __init__(self, rig: Any, rng: random.Random, rate: float) -> None:
        from table.drivers.hub_readers import HubReaders

        self.rig = rig
        self.rng = rng
        self.rate = rate
        self.counts: dict[str, int] = {}
        # the real hub driver, posting into the same controller queue
        self.hub = HubReaders({p: p for p in range(SEATS)}, port=None, clock=rig.mock.clock)
        self.hub._post = rig.ctl.post

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1
        print(f"d {what}", flush=True)   # the parent counts these, killed children's too

    def maybe(self) -> None:
        if self.rng.random() >= self.rate:
            return
        kind = self.rng.choice(("unplug", "garbage", "unknown", "wrong_reader"))
        self._count(kind)
        p = self.rig.player
        if kind == "unplug":
            seat = self.rng.randrange(SEATS)
            p.offline(seat, "soak: cable pulled")
            p.pause(self.rng.uniform(0.1, 5.0))
            p.back(seat)
        elif kind == "garbage":
            self.hub.feed(self._garbage())
            self.rig.ctl.pump()
        elif kind == "unknown":
            uid = "04" + "".join(f"{self.rng.randrange(256):02X}" for _ in range(6))
            p.tap(self.rng.randrange(SEATS), uid)
        else:
            # a card already played, on some reader: ignored or refused, never taken
            hand = self.rig.session.match.hand if self.rig.session.match else None
            played = sorted(hand.played_uids()) if hand is not None else []
            if played:
                p.tap(self.rng.randrange(SEATS), self.rng.choice(played))

    def _garbage(self) -> bytes:
        r = self.rng
        choice = r.randrange(4)
        if choice == 0:
            return bytes(r.randrange(256) for _ in range(r.randrange(1, 300)))
        if choice == 1:   # well-formed lines with a wrong checksum
            return b"".join(f"ON {r.randrange(8)} 04{r.randrange(16**12):012X} "
                            f"{r.randrange(10**6)}*{r.randrange(256):02X}\n".encode()
                            for _ in range(r.randrange(1, 5)))
        if choice == 2:   # an endless line
            return b"X" * r.randrange(201, 2000) + b"\n"
        return b"\n".join(bytes(r.randrange(32, 127) for _ in range(r.randrange(40)))
                          for _ in range(r.randrange(1, 6))) + b"\n"


def child(args: argparse.Namespace) -> int:
    from hw_mocks.bot import Bot
    from hw_mocks.rig import Rig
    from table.settings import TableSettings

    state = Path(args.state)
    started = [0]

    def seed_source() -> int:
        return match_seed(args.seed, started[0])

    settings = TableSettings(game=GAME, knowledge="scan", seat_names=(),
                             has_dealer_reader=False, options={"match_length": args.hands})
    rig = Rig(settings, state, seats=SEATS, strict=True, seed_source=seed_source)
    noise = Disturber(rig, random.Random(os.getpid()), args.noise) if args.noise else None
    table_time = 0.0

    def think() -> None:
        nonlocal table_time
        dt = random.Random().uniform(1.0, 4.0)   # a player thinking: table time only
        rig.player.pause(dt)
        table_time += dt
        if noise is not None:
            noise.maybe()

    def matches_started() -> int:
        journal = rig.ctl.journal
        assert journal is not None
        return sum(e.kind == "start" for e in journal.entries())

    while True:
        state_name = rig.state
        match = rig.session.match
        if state_name == "ready":
            n = matches_started()
            if n >= args.matches:
                break
            started[0] = n + 1
            rig.confirm()                     # OK: a new match
            continue
        if state_name == "match_over":
            rig.confirm()
            continue
        if state_name == "match_result":
            think()
            rig.confirm()                     # the next hand
            continue
        assert match is not None and match.hand is not None, state_name
        hand = match.hand
        bot = Bot(match.game, hand_rng(args.seed, match.id, hand.number),
                  rig.uid_of, False)
        bot.new_hand(hand.state, "scan")
        scans = bot.scan_moves()
        for scan in scans[len(hand.reads):]:
            think()
            rig.do(scan)
        for _ in range(len(hand.actions)):    # where the hand stands: skip what was done
            bot.next_move()
        while (m := bot.next_move()) is not None:
            think()
            before = len(rig.session.hand().actions)
            rig.do(m)
            if len(rig.session.hand().actions) != before + 1:
                print(f"FINDING: the table did not take {m} in {rig.state}", flush=True)
                return 3
        print(f"hand done: match {match.id} hand {hand.number}", flush=True)
    print(json.dumps({"done": True, "table_time": table_time,
                      "noise": noise.counts if noise else {}}), flush=True)
    rig.close()
    return 0


# ----- the parent ---------------------------------------------------------------------------

def prepare(state: Path) -> None:
    """A state folder with one enrolled (virtual) pack, as a club would have."""
    from table.registry import CardRegistry

    state.mkdir(parents=True)
    reg = CardRegistry.open_checked(state / "registry.sqlite")
    reg.enroll_virtual(PACK)
    reg.close()


def child_cmd(args: argparse.Namespace, state: Path, noise: float) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--child", "--state", str(state),
            "--seed", str(args.seed), "--matches", str(args.matches), "--hands",
            str(args.hands), "--noise", str(noise)]


def exports(state: Path) -> dict[int, list[Any]]:
    from table.export import export_hands, matches
    from table.journal import Journal

    j = Journal(state / "journal.sqlite", readonly=True)
    try:
        return {m.id: [h.requests for h in export_hands(j, m.id)] for m in matches(j)}
    finally:
        j.close()


def journal_check(state: Path) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, "-m", "table.cli", "journal", "check", "--state",
                           str(state)], capture_output=True, text=True, cwd=ROOT)
    return proc.returncode, proc.stdout + proc.stderr


def parent(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="cardtable-soak-", dir=args.dir))
    ref, soak = work / "reference", work / "soak"
    prepare(ref)
    prepare(soak)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    print(f"soak: {args.matches} matches of {args.hands} hands of {GAME}, seed {args.seed}, "
          f"in {work}", flush=True)

    t0 = time.monotonic()
    done = subprocess.run(child_cmd(args, ref, 0.0), capture_output=True, text=True, env=env)
    if done.returncode != 0:
        print(done.stdout[-2000:], done.stderr[-4000:])
        return 1
    ref_s = time.monotonic() - t0
    ref_info = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"reference: {ref_s:.1f} s, table time {ref_info['table_time'] / 3600:.1f} h",
          flush=True)

    rng = random.Random(args.seed)
    budget = args.minutes * 60 - ref_s
    t1 = time.monotonic()
    kills = starts = 0
    findings: list[str] = []
    info: dict[str, Any] = {}
    noise_total: dict[str, int] = {}

    def count_noise(out: str) -> None:
        for line in out.splitlines():
            if line.startswith("d "):
                noise_total[line[2:]] = noise_total.get(line[2:], 0) + 1

    while True:
        starts += 1
        proc = subprocess.Popen(child_cmd(args, soak, args.noise), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        # kill at a random moment while time remains; afterwards let it finish
        if time.monotonic() - t1 < budget:
            try:
                out, err = proc.communicate(timeout=rng.uniform(0.05, args.max_life))
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                out, err = proc.communicate()
                kills += 1
                count_noise(out)
                continue
        else:
            out, err = proc.communicate()
        count_noise(out)
        if proc.returncode != 0:
            findings.append(f"child {starts} exited {proc.returncode}: "
                            f"{(out[-500:] + err[-1500:]).strip()}")
            if len(findings) >= 5:
                break
            continue
        info = json.loads(out.strip().splitlines()[-1])
        break
    soak_s = time.monotonic() - t1

    same = False
    if not findings:
        a, b = exports(ref), exports(soak)
        same = a == b
        if not same:
            diff = [m for m in sorted(set(a) | set(b)) if a.get(m) != b.get(m)]
            findings.append(f"exports differ in matches {diff}")
        hands = sum(len(v) for v in a.values())
    else:
        hands = 0
    for folder in (ref, soak):
        status, text = journal_check(folder)
        if status != 0:
            findings.append(f"journal check {folder.name}: {text.strip()}")
    entries = 0
    if (soak / "journal.sqlite").exists():
        from table.journal import Journal

        j = Journal(soak / "journal.sqlite", readonly=True)
        entries = j.last_seq()
        j.close()
    report = {
        "matches": args.matches, "hands": hands, "journal_entries": entries,
        "table_hours": round(ref_info["table_time"] / 3600, 1),
        "reference_s": round(ref_s, 1), "soak_s": round(soak_s, 1),
        "child_starts": starts, "kills": kills,
        "disturbances": noise_total, "finished_child": bool(info),
        "exports_equal": same, "findings": findings,
    }
    print(json.dumps(report, indent=1), flush=True)
    if not args.keep and not findings:
        shutil.rmtree(work)
    return 0 if not findings else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=15.0,
                    help="wall-clock budget for killing children (default 15)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--hands", type=int, default=8, help="hands a match (match_length)")
    ap.add_argument("--noise", type=float, default=0.08,
                    help="chance of a disturbance before each move (default 0.08)")
    ap.add_argument("--max-life", type=float, default=2.0,
                    help="a child is killed within this many seconds (default 2)")
    ap.add_argument("--dir", help="where to keep the state folders (default: the temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the state folders")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--state", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    return parent(args)


if __name__ == "__main__":
    from pinning import one_core

    one_core()
    sys.exit(main())
