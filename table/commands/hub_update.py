"""`cardtable hub-update`: stop a running reader hub so that its firmware
can be copied with mpremote (docs/readers.md, "Updating the hub's firmware")."""

from __future__ import annotations

import argparse
import sys
from typing import Any

MPREMOTE_STEPS = """\
The hub on {port} stopped (antennas off) and restarts once in update mode:
no watchdog, MicroPython's REPL free. Now, from a checkout of cardtable:

  mpremote connect {port} cp firmware/*.py :
  mpremote connect {port} reset

After the reset the hub runs the new firmware; start the service again
(sudo systemctl start cardtable). Unplugging the hub also ends update mode."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "hub-update",
        help="stop the reader hub so that its firmware can be updated (mpremote)",
        description="Asks the reader hub (firmware 1.2.0 or later) to stop polling and "
                    "restart once without its watchdog, so that mpremote can copy new "
                    "firmware to it, and prints the mpremote commands. Stop the service "
                    "first: sudo systemctl stop cardtable.",
    )
    p.add_argument("--port", metavar="PATH",
                   help="the hub's serial port (default /dev/cardtable-hub, else the "
                        "first port with the hub's USB id 2e8a:0005)")
    p.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                   help="how long to wait for the hub's answer (default 3)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from table.drivers.hub_update import request_update

    answer = request_update(args.port, timeout_s=args.timeout)
    port = answer.port or args.port
    version = ", firmware " + " ".join(answer.version[:2]) if answer.version else ""
    if answer.outcome == "ok":
        print(MPREMOTE_STEPS.format(port=port))
        return 0
    if answer.outcome == "no-hub" and port:
        print(f"There is no {port}: is the hub plugged in? (ls /dev/ttyACM* "
              "/dev/cardtable-hub)", file=sys.stderr)
    elif answer.outcome == "no-hub":
        print("No reader hub found: no /dev/cardtable-hub and no serial port with the "
              "hub's USB id (2e8a:0005). Is it plugged in? Else give --port.",
              file=sys.stderr)
    elif answer.outcome == "cannot-open":
        print(f"Cannot open {port}: {answer.detail}. Is the service still using it? "
              "sudo systemctl stop cardtable", file=sys.stderr)
    elif answer.outcome == "old":
        print(f"The hub on {port}{version} predates hub-update (firmware 1.2.0). Update "
              "it once by hand: docs/readers.md, \"A hub without UPDATE\".", file=sys.stderr)
    else:
        detail = f" ({answer.detail})" if answer.detail else ""
        print(f"The hub on {port}{version} did not answer UPDATE within "
              f"{args.timeout:g} s{detail}. Is it a cardtable hub?", file=sys.stderr)
    return 1
