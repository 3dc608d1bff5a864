"""`cardtable badges`: the members' badges enrolled at a table (list, name, remove).

Badges are enrolled at the table with the admin tag (Admin → Enroll badges,
docs/table.md); here they get their members' names. They travel with the
packs in `cardtable enroll --export` / `--import`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "badges",
        help="list the members' badges of the table, name or remove them",
        description="A member's badge tapped on a seat's reader between matches sits that "
                    "member there; the club's hub keeps each member's results. Badges are "
                    "enrolled at the table (admin tag, then Enroll badges).",
    )
    p.add_argument("--state", type=Path, required=True, metavar="DIR",
                   help="the table's state folder")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="list the badges (the default)")
    what.add_argument("--name", nargs=2, metavar=("N", "NAME"),
                      help="give member number N the name NAME")
    what.add_argument("--remove", type=int, metavar="N", help="remove member number N's badge")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from table.commands.enroll import open_registry
    from table.registry import RegistryError

    if not args.state.is_dir():
        print(f"cardtable badges: there is no state folder {args.state}", file=sys.stderr)
        return 2
    try:
        reg = open_registry(args.state, changes=args.name is not None or args.remove is not None)
        try:
            if args.name is not None:
                number, name = args.name
                try:
                    n = int(number)
                except ValueError:
                    print(f"cardtable badges: {number!r} is not a member number",
                          file=sys.stderr)
                    return 2
                badge = reg.name_badge(n, name)
                print(f"member {badge.number} is now {badge.name}")
            elif args.remove is not None:
                badge = reg.remove_badge(args.remove)
                print(f"member {badge.number} ({badge.name}) removed")
            else:
                badges = reg.badges()
                if not badges:
                    print("no badge is enrolled yet (admin tag, then Enroll badges)")
                    return 0
                width = max(len(b.name) for b in badges)
                print(f"{'member':>6}  {'name':<{width}}  club id")
                for b in badges:
                    print(f"{b.number:>6}  {b.name:<{width}}  {b.member}")
        finally:
            reg.close()
    except RegistryError as exc:
        print(f"cardtable badges: {exc}", file=sys.stderr)
        return 1
    return 0
