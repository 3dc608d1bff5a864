"""`cardtable referee`: read JSON requests on stdin, answer each on stdout."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "referee",
        help="answer referee protocol requests (JSON lines) from standard input",
        description="The rules engine on a pipe: one JSON request a line on standard "
                    "input, one JSON answer a line on standard output. "
                    "See docs/referee.md.",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from table.referee.cli import main

    return main()
