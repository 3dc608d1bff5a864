"""`cardtable config check|show`: validate the configuration file, or print it
with every default filled in."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "config",
        help="check the configuration file, or show it with every default filled in",
        description="The table's configuration file is /etc/cardtable/config.toml unless "
                    "PATH or $CARDTABLE_CONFIG names another. See examples/config.toml "
                    "and docs/hardware.md.",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="list every mistake in the file, each with its key and the problem")
    check.add_argument("path", nargs="?", metavar="PATH", help="the file to check")
    check.set_defaults(handler=run_check)
    show = actions.add_parser(
        "show", help="print the configuration as the table sees it, every default filled in")
    show.add_argument("path", nargs="?", metavar="PATH", help="the file to show")
    show.set_defaults(handler=run_show)


def _load(args: argparse.Namespace) -> Any:
    from table.config import ConfigError, load, resolve_path

    path, _ = resolve_path(args.path)
    command = f"config {args.action}" + (f" {args.path}" if args.path else "")
    try:
        return path, load(path, command=command)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return path, None


def run_check(args: argparse.Namespace) -> int:
    from table.config import summary

    path, config = _load(args)
    if config is None:
        return 1
    print(f"{path}: no mistakes")
    print(summary(config))
    return 0


def run_show(args: argparse.Namespace) -> int:
    from table.config import dump

    _, config = _load(args)
    if config is None:
        return 1
    sys.stdout.write(dump(config))
    return 0
