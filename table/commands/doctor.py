"""`cardtable doctor`: check the wiring, permissions, readers, LEDs, buzzer and
display of a built table, and say what to fix."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "doctor",
        help="check the table's hardware and say what to fix",
        description="Checks the configuration, the SPI/I2C/GPIO/hub device nodes and their "
                    "permissions, the readers' power budget, each reader's version register "
                    "and whether it lets go of MISO, plays the LED, buzzer "
                    "and display test patterns, and (with --live, the default at a "
                    "terminal) asks for a card on every seat to test reading and crosstalk. "
                    "Stop the service first: sudo systemctl stop cardtable.",
    )
    p.add_argument("--config", metavar="PATH",
                   help="configuration file (default $CARDTABLE_CONFIG or "
                        "/etc/cardtable/config.toml)")
    p.add_argument("--hardware", default="pi", metavar="{pi,mock}",
                   help="pi: the real table (default); mock: the fakes, to see what the "
                        "doctor does (a backend by name, see table.backends)")
    live = p.add_mutually_exclusive_group()
    live.add_argument("--live", dest="live", action="store_true", default=None,
                      help="run the read test: put a card on each seat when asked")
    live.add_argument("--no-live", dest="live", action="store_false",
                      help="skip the read test")
    p.add_argument("--wait", type=float, default=20.0, metavar="SECONDS",
                   help="how long to wait for a card on each seat (default 20)")
    p.add_argument("--supply", choices=("pi", "ldo", "buck"), default=None,
                   help="how the directly wired readers get 3.3 V, for the power budget: pi "
                        "(the Pi's 3V3 pin), ldo (an AMS1117-3.3 on 5 V), buck (a 3.3 V buck "
                        "converter); without it the doctor says what the readers need")
    p.add_argument("--quick", action="store_true",
                   help="play the LED, buzzer and display patterns ten times faster")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from table.backends import BackendError, BackendNotInstalled, load_backend
    from table.config import ConfigError, load
    from table.doctor import Doctor, summary

    try:
        backend = load_backend(args.hardware)
    except BackendNotInstalled as exc:
        print(f"cardtable doctor: {exc}", file=sys.stderr)
        return 2

    command = "doctor" + (f" --config {args.config}" if args.config else "")
    try:
        config = load(args.config, command=command)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        print("\nFix the configuration first (cardtable config check).", file=sys.stderr)
        return 1
    live = sys.stdin.isatty() if args.live is None else args.live
    print(f"cardtable doctor: {config.source or 'built-in defaults'}")
    try:
        parts = backend.doctor_parts(config)
    except BackendError as exc:
        print(f"cardtable doctor: {exc}", file=sys.stderr)
        return 2
    pace = 0.1 if args.quick else 1.0
    if parts.indicators is not None:
        parts.indicators.time_scale = pace
    try:
        findings = Doctor(config, parts, live=live, wait_s=args.wait,
                          check_nodes=args.hardware == "pi", pace=pace,
                          supply=args.supply).run()
    finally:
        parts.close()
    print()
    print(summary(findings))
    return 1 if any(f.status == "fail" for f in findings) else 0
