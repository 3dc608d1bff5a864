"""`cardtable hub add-table NAME`, `remove-table NAME`, `tables`: the
tables' credentials on the hub (docs/club.md, "Adding a table").

A table's password is made here, printed once (as the lines to paste into
the table's configuration, and as a QR code of the same lines) and kept
only hashed, in the hub's password file: Mosquitto's format, so the same
command serves a club that runs Mosquitto (`--users
/etc/mosquitto/cardtable.passwd`, then reload Mosquitto)."""

from __future__ import annotations

import argparse
import json
import socket
import sys
from pathlib import Path
from typing import Any


def add_parsers(hub: Any) -> None:
    from table.club.credentials import USERS_FILE

    sub = hub.add_subparsers(dest="hub_command", metavar="{add-table,remove-table,tables}")
    users_help = f"the hub's password file (default {USERS_FILE})"
    a = sub.add_parser(
        "add-table", help="give a table its credential (printed once, with a QR code)",
        description="Makes a user and a password for table NAME on the hub's broker and "
                    "prints the lines to paste into the table's configuration "
                    "(/etc/cardtable/config.toml), and the same as a QR code. Run it again "
                    "for a new password: the old one stops working at once.")
    a.add_argument("name", help="the table's name in the room (letters, digits, - and _)")
    a.add_argument("--users", type=Path, default=Path(USERS_FILE), metavar="FILE",
                   help=users_help)
    a.add_argument("--broker", metavar="URL",
                   help="the broker's address as the table reaches it (default "
                        "mqtt://<this computer's name>.local:1883)")
    a.add_argument("--no-qr", action="store_true", help="print the lines only")
    a.set_defaults(handler=add_table)
    r = sub.add_parser("remove-table", help="take a table's credential away",
                       description="The table can no longer connect (nor anyone with its "
                                   "password); what the hub holds of it stays.")
    r.add_argument("name")
    r.add_argument("--users", type=Path, default=Path(USERS_FILE), metavar="FILE",
                   help=users_help)
    r.set_defaults(handler=remove_table)
    t = sub.add_parser("tables", help="the tables that have a credential")
    t.add_argument("--users", type=Path, default=Path(USERS_FILE), metavar="FILE",
                   help=users_help)
    t.set_defaults(handler=list_tables)


def fail(text: str) -> int:
    print(f"cardtable hub: {text}", file=sys.stderr)
    return 2


def default_broker() -> str:
    host = socket.gethostname() or "localhost"
    return f"mqtt://{host if '.' in host else host + '.local'}:1883"


def table_lines(name: str, secret: str, broker: str) -> list[str]:
    """The `[club]` section that puts table `name` in the room."""
    lines = ["[club]", f"broker = {json.dumps(broker)}", f"table = {json.dumps(name)}",
             f"credential = {json.dumps(name + ':' + secret)}"]
    if broker.startswith("mqtts://"):
        lines.append('ca_file = "/etc/cardtable/club-ca.pem"   # when the club\'s '
                     'certificate is its own')
    return lines


def add_table(args: argparse.Namespace) -> int:
    from table.club.config import ClubConfigError, parse_broker
    from table.club.credentials import CredentialError, PasswordFile, check_user

    broker = args.broker or default_broker()
    try:
        check_user(args.name)
        parsed = parse_broker(broker)
        if parsed.username is not None:
            return fail("give --broker without a user or password: the table's own "
                        "credential is made here")
        secret = PasswordFile(args.users).add(args.name)
    except (CredentialError, ClubConfigError) as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"cannot write {args.users}: {exc.strerror or exc}")
    lines = table_lines(args.name, secret, parsed.url)
    print(f"Table {args.name} has a new credential (in {args.users}; any older one no "
          "longer works).\nPaste these lines into the table's /etc/cardtable/config.toml "
          "(replacing any [club] section),\nthen restart it (sudo systemctl restart "
          "cardtable). The password is shown only now.\n")
    print("\n".join(lines))
    if not args.no_qr:
        import segno

        print()
        segno.make("\n".join(lines), error="m").terminal(compact=True)
    return 0


def remove_table(args: argparse.Namespace) -> int:
    from table.club.credentials import CredentialError, PasswordFile

    try:
        removed = PasswordFile(args.users).remove(args.name)
    except CredentialError as exc:
        return fail(str(exc))
    if not removed:
        return fail(f"{args.name} has no credential in {args.users}")
    print(f"Table {args.name} can no longer connect (its entries stay on the hub).")
    return 0


def list_tables(args: argparse.Namespace) -> int:
    from table.club.credentials import HUB_USER, CredentialError, PasswordFile

    try:
        users = PasswordFile(args.users).users()
    except CredentialError as exc:
        return fail(str(exc))
    names = sorted(u for u in users if u != HUB_USER)
    if not names:
        print(f"No table has a credential in {args.users} (cardtable hub add-table NAME).")
    for name in names:
        print(name)
    return 0
