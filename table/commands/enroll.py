"""`cardtable enroll`: the card registry of a table (list, export, import).

Packs are enrolled at the table itself, with the admin tag (docs/table.md);
this command lists them and moves them between tables as a file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from table.registry import CardRegistry


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "enroll",
        help="list, export or import the table's enrolled packs (card stickers)",
        description="The card registry lives in the state folder. Packs are enrolled at "
                    "the table with the admin tag (docs/table.md); here they can be "
                    "listed, exported to a file and imported from one.",
    )
    p.add_argument("--state", type=Path, required=True, metavar="DIR",
                   help="the table's state folder")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="list the packs (the default)")
    what.add_argument("--export", type=Path, metavar="FILE", help="write every pack to FILE")
    what.add_argument("--import", dest="import_", type=Path, metavar="FILE",
                      help="add the packs of FILE (an export); nothing is added on a mistake")
    what.add_argument("--remove", type=int, metavar="N", help="remove pack number N")
    p.set_defaults(handler=run)


def open_registry(state: Path, *, changes: bool) -> CardRegistry:
    """The card registry of the state folder `state`. A change is made only to
    a registry that is not behind its mark (and then keeps the mark up to
    date); listing and exporting only read."""
    from table.controller.loop import REGISTRY_FILE
    from table.registry import CardRegistry

    path = state / REGISTRY_FILE
    return CardRegistry.open_checked(path) if changes else CardRegistry(path)


def run(args: argparse.Namespace) -> int:
    from table.registry import RegistryError

    if not args.state.is_dir():
        print(f"cardtable enroll: there is no state folder {args.state}", file=sys.stderr)
        return 2
    try:
        reg = open_registry(args.state,
                            changes=args.import_ is not None or args.remove is not None)
        if args.export is not None:
            reg.export_file(args.export)
            print(f"{len(reg.packs())} packs ({len(reg)} cards) written to {args.export}")
        elif args.import_ is not None:
            badges_before = len(reg.badges())
            added = reg.import_file(args.import_)
            for rec in added:
                print(f"imported pack {rec.number}: {rec.name} ({rec.enrolled}/{rec.size})")
            new_badges = len(reg.badges()) - badges_before
            if new_badges:
                print(f"imported {new_badges} members' badges (`cardtable badges` lists them)")
        elif args.remove is not None:
            reg.remove_pack(args.remove)
            print(f"pack {args.remove} removed")
        else:
            from table.commands.listing import columns

            packs = reg.packs()
            if not packs:
                print("no pack is enrolled yet")
            else:
                print(columns(("pack", "type", "cards", "state", "name"),
                              [(rec.number, rec.type, f"{rec.enrolled}/{rec.size}",
                                "complete" if rec.complete else "unfinished", rec.name)
                               for rec in packs], right=(0, 2)))
    except RegistryError as exc:
        print(f"cardtable enroll: {exc}", file=sys.stderr)
        return 1
    return 0
