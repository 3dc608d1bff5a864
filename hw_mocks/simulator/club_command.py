"""`cardtable club-sim`: bot tables playing against a hub (docs/club.md).

Registered from hw_mocks (entry-point group `cardtable.commands`): it plays
fake tables, so it exists only where the fakes are installed."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "club-sim", help="simulated bot tables publishing to a club hub (demos, load tests)",
        description="Plays N simulated tables (bots at fake tables, the real controller "
                    "and publisher) against a hub's broker, until stopped or --moves "
                    "are made. See docs/club.md.")
    p.add_argument("--tables", type=int, default=8, help="how many tables (default 8)")
    p.add_argument("--club", default="mqtt://127.0.0.1:1883", metavar="URL",
                   help="the broker (default mqtt://127.0.0.1:1883, the hub's own)")
    p.add_argument("--username", help="user on the broker")
    p.add_argument("--password", help="password on the broker")
    p.add_argument("--pace", type=float, default=0.3, metavar="SECONDS",
                   help="seconds between moves in the room (default 0.3; 0: flat out)")
    p.add_argument("--moves", type=int, default=0,
                   help="stop after this many moves (default: play until Ctrl-C)")
    p.add_argument("--members", type=int, default=0, metavar="N",
                   help="N club members with badges take the seats before each match "
                        "(standings by player and partnership; default 0: no badges)")
    p.add_argument("--seed", type=int, default=1, help="shuffle seed (default 1)")
    p.add_argument("--state", type=Path, metavar="DIR",
                   help="keep the tables' journals under DIR (one folder per table)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        from hw_mocks.simulator.club import make_tables, play, wait_confirmed
        from table.club.config import ClubConfigError, parse_broker
    except ModuleNotFoundError as exc:
        print(f"cardtable club-sim: needs the club extra ({exc.name} is missing): "
              "pip install 'cardtable[club]'", file=sys.stderr)
        return 2
    if not 1 <= args.tables <= 256:
        print("cardtable club-sim: --tables must be 1..256", file=sys.stderr)
        return 2
    try:
        broker = parse_broker(args.club, args.username, args.password)
    except ClubConfigError as exc:
        print(f"cardtable club-sim: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.members <= 10000:
        print("cardtable club-sim: --members must be 0..10000", file=sys.stderr)
        return 2
    tables = make_tables(broker, args.tables, seed=args.seed, state_root=args.state,
                         members=args.members)
    print(f"cardtable club-sim: {args.tables} tables playing to {broker.url} "
          "(Ctrl-C to stop)", flush=True)
    made = 0
    try:
        while args.moves == 0 or made < args.moves:
            made += play(tables, 1 if args.moves == 0 else args.moves - made, pace=args.pace)
    except KeyboardInterrupt:
        pass
    start = time.monotonic()
    synced = wait_confirmed(tables, 10.0)
    total = sum(t.seq for t in tables)
    print(f"cardtable club-sim: {made} moves, {total} journal entries; "
          + ("the hub holds them all" if synced else
             f"the hub did not confirm them all within {time.monotonic() - start:.0f} s"))
    for t in tables:
        t.close()
    return 0 if synced else 1
