"""The `cardtable` command line.

Each subcommand lives in its own module; `COMMANDS` maps its name to
"module:function", where the function adds its parser to the subparsers and
sets `handler` (a function of the parsed arguments returning an exit status).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, str] = {
    "sim": "table.commands.sim:add_parser",
    "referee": "table.commands.referee:add_parser",
    "config": "table.commands.config:add_parser",
    "doctor": "table.commands.doctor:add_parser",
    "run": "table.commands.run:add_parser",
    "export": "table.commands.export:add_parser",
    "enroll": "table.commands.enroll:add_parser",
    "review": "table.commands.review:add_parser",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="A referee for real card tables (Filicău, Filkó, Filcău, Sueca, Fildinsky).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for target in COMMANDS.values():
        module, func = target.split(":")
        try:
            add = getattr(importlib.import_module(module), func)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    return int(handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
