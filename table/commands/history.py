"""`cardtable history`: the matches played at this table, and one match hand by hand."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

KNOWLEDGE = {"scan": "hands scanned", "dealt": "read while dealing", "open": "open play"}


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "history",
        help="the matches played at this table; with a number, that match hand by hand",
        description="Lists the matches in the table's journal (when, which game, the seats "
                    "and teams, how many hands, the result), newest last; `cardtable history "
                    "N` shows match N hand by hand: the dealer, each team's points and the "
                    "standing after it. Seats are numbered 1 to n. See docs/table.md.",
    )
    p.add_argument("match", nargs="?", type=int, metavar="N",
                   help="the match to show (its number in the list)")
    p.add_argument("--state", type=Path, default=None, metavar="DIR",
                   help="the table's state folder (default: the configuration's state_dir, "
                        "/var/lib/cardtable)")
    p.set_defaults(handler=run)


def _when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if t is not None else "?"


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def _state_dir(args: argparse.Namespace) -> Path:
    if args.state is not None:
        return Path(args.state)
    from table.config import ConfigError, load

    try:
        return Path(load(None, command="history").state_dir)
    except ConfigError:
        from table.config import DEFAULT_STATE_DIR

        return Path(DEFAULT_STATE_DIR)


def run(args: argparse.Namespace) -> int:
    from table.commands.listing import columns
    from table.controller.loop import JOURNAL_FILE
    from table.history import matches
    from table.journal import Journal, JournalError

    state = _state_dir(args)
    path = state / JOURNAL_FILE
    if not path.is_file():
        print(f"cardtable history: there is no journal in {state} (expected {path}); "
              "give the table's state folder with --state DIR", file=sys.stderr)
        return 2
    try:
        found = matches(Journal(path))
    except JournalError as exc:
        print(f"cardtable history: {exc}", file=sys.stderr)
        return 1
    if not found:
        print("no match has been played at this table yet")
        return 0
    numbered = {i: m for i, m in enumerate(found, 1)}
    if args.match is None:
        listed: list[tuple[object, ...]] = [
            (i, _when(m.started), m.title, " v ".join(m.sides), len(m.hands), m.result)
            for i, m in numbered.items()]
        print(columns(("match", "started", "game", "seats", "hands", "result"), listed,
                      right=(0, 4)))
        return 0
    m = numbered.get(args.match)
    if m is None:
        print(f"cardtable history: there is no match {args.match}; the matches are "
              f"1 to {len(found)} (`cardtable history` lists them)", file=sys.stderr)
        return 2
    from engine.games import game_class

    defaults = {spec.name: spec.default for spec in game_class(m.game).option_specs}
    # the options chosen other than their defaults (as the table's ready screen says them)
    options = ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in m.options.items()
                        if k not in defaults or defaults[k] != v)
    print(f"Match {args.match}: {m.title}, started {_when(m.started)}, "
          f"{KNOWLEDGE.get(m.knowledge, m.knowledge)}" + (f", {options}" if options else ""))
    print(f"Seats: {' v '.join(m.sides)}. Result: {m.result}. "
          f"(In the journal: match {m.id}, `cardtable export --match {m.id}`.)")
    if not m.hands:
        print("No hand has been finished yet.")
        return 0
    print()
    names = m.sides if all(len(h.points) == len(m.sides) for h in m.hands) else \
        [f"team {i + 1}" for i in range(max(len(h.points) for h in m.hands))]
    rows: list[tuple[object, ...]] = [
        (h.number, h.dealer + 1 if h.dealer is not None else "?",
         *[h.points[i] if i < len(h.points) else "" for i in range(len(names))],
         h.standing) for h in m.hands]
    print(columns(("hand", "dealer", *names, "after the hand"), rows,
                  right=tuple(range(len(names) + 2))))
    return 0
