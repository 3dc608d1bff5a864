"""`cardtable export --state DIR`: a match from the journal, in the referee protocol."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="print a match from the table's journal as referee requests (JSON lines)",
        description="Reads the journal in the state folder and prints a match as JSON lines "
                    "of the referee protocol, each game's steps (calls, bindings, melds, "
                    "draws...) with its own referee ops: `cardtable referee` replays them to "
                    "the same results. See docs/controller.md.",
    )
    p.add_argument("--state", type=Path, required=True, metavar="DIR",
                   help="the state folder of `cardtable run`")
    p.add_argument("--match", type=int, metavar="ID",
                   help="the match to export (default: the last one); see --list")
    p.add_argument("--list", action="store_true",
                   help="list the matches in the journal (the match column is the ID "
                        "--match takes)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from table.controller.loop import JOURNAL_FILE
    from table.export import export_hands, matches
    from table.journal import Journal, JournalError

    path = args.state / JOURNAL_FILE
    if not path.is_file():
        print(f"cardtable export: there is no journal in {args.state} "
              f"(expected {path})", file=sys.stderr)
        return 2
    try:
        journal = Journal(path)
        if args.list:
            from table.commands.listing import columns

            found = matches(journal)
            if not found:
                print("the journal has no match yet")
                return 0
            print(columns(("match", "game", "knowledge", "hands", "ended"),
                          [(m.id, m.game, m.knowledge, m.hands, m.ended or "running")
                           for m in found], right=(0, 3)))
            return 0
        for hand in export_hands(journal, args.match):
            if hand.note:
                print(f"cardtable export: note: {hand.note}", file=sys.stderr)
            for req in hand.requests:
                print(json.dumps(req, ensure_ascii=False, separators=(", ", ": ")))
    except JournalError as exc:
        print(f"cardtable export: {exc}", file=sys.stderr)
        return 1
    return 0
