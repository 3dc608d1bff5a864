"""`cardtable sim`: the table on a PC (see docs/simulator.md).

The command exists only where the fakes are installed: `hw_mocks` registers
it in the entry-point group `cardtable.commands` (see `table.backends`).
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "sim", help="play at a simulated table on this computer (or watch bots: --demo)",
        description="The table on a PC: the real controller with every piece of hardware "
                    "replaced by a fake. See docs/simulator.md.")
    from hw_mocks.simulator.cli import add_arguments

    add_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from hw_mocks.simulator.cli import run as run_sim

    return run_sim(args)
