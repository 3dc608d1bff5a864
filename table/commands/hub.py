"""`cardtable hub`: the club room's service (docs/club.md)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from table.club.credentials import USERS_FILE
from table.club.gate import Limits


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "hub", help="the club room: store every table's journal, show the room live",
        description="Subscribes to the tables' journals on an MQTT broker, stores every "
                    "entry once, rebuilds the matches with the rules and serves the TV "
                    "scoreboard (/) and a phone page per table. Without --broker it starts "
                    "a broker of its own. See docs/club.md.")
    p.add_argument("--broker", metavar="URL",
                   help="the club's broker, mqtt://host:1883 or mqtts://host:8883 "
                        "(default: start an embedded broker)")
    p.add_argument("--username", help="the hub's user on the broker")
    p.add_argument("--password", help="its password (or $CARDTABLE_HUB_PASSWORD)")
    p.add_argument("--ca-file", type=Path, metavar="PEM",
                   help="the CA of the broker's TLS certificate (mqtts://)")
    p.add_argument("--mqtt-host", default="0.0.0.0",
                   help="where the embedded broker listens (default 0.0.0.0)")
    p.add_argument("--mqtt-port", type=int,
                   help="the embedded broker's port (default 1883, 8883 with TLS)")
    p.add_argument("--users", type=Path, default=Path(USERS_FILE), metavar="FILE",
                   help="the tables' credentials, hashed, for the embedded broker "
                        f"(default {USERS_FILE}; add a table with: cardtable hub add-table NAME)")
    p.add_argument("--open", action="store_true",
                   help="let any client into the embedded broker, without credentials "
                        "(only to try things on one computer: anyone on the network could "
                        "then write any table's results)")
    p.add_argument("--tls-cert", type=Path, metavar="PEM",
                   help="the embedded broker speaks TLS with this certificate (and --tls-key)")
    p.add_argument("--tls-key", type=Path, metavar="PEM", help="the certificate's private key")
    p.add_argument("--max-connections", type=int, default=Limits.total, metavar="N",
                   help=f"the embedded broker's connections at most (default {Limits.total})")
    p.add_argument("--max-per-address", type=int, default=Limits.per_address, metavar="N",
                   help="its connections from one address at most "
                        f"(default {Limits.per_address})")
    p.add_argument("--db", default="hub.sqlite", metavar="PATH|URL",
                   help="where entries are kept: an SQLite file (default hub.sqlite) or "
                        "postgresql://user:password@host/dbname")
    p.add_argument("--host", default="0.0.0.0", help="web pages: address (default 0.0.0.0)")
    p.add_argument("--port", type=int, default=8080, help="web pages: port (default 8080)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address phones use to reach the hub, for the QR codes "
                        "(default: the address the TV page was opened with)")
    p.add_argument("--room-name", default="Club room", help="the title of the TV page")
    p.add_argument("--hide-rankings", action="store_true",
                   help="do not show the standings (the last rounds of a tournament)")
    p.add_argument("--standings", choices=("partnership", "player", "table"),
                   default="partnership",
                   help="the TV page's standings: by partnership (the default: members "
                        "known by their badges, else a table's seats), by player, or by table")
    p.set_defaults(handler=run)
    from table.commands import hub_tables

    hub_tables.add_parsers(p)


def fail(text: str) -> int:
    print(f"cardtable hub: {text}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    import os

    try:
        from table.club.broker import BrokerError, port_problem
        from table.club.config import ClubConfigError, parse_broker
        from table.club.service import Hub
        from table.club.store import StoreError, open_store
        from table.club.web import Site, WebServer
    except ModuleNotFoundError as exc:
        return fail(f"the club room needs the club extra ({exc.name} is missing): "
                    "pip install 'cardtable[club]'")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    embedded = None
    password = args.password or os.environ.get("CARDTABLE_HUB_PASSWORD")
    try:
        if args.broker is None:
            embedded = embedded_broker(args)
            embedded.start()
            broker = embedded.hub_broker
            scheme = "mqtts" if embedded.tls else "mqtt"
            users = "open to anyone (--open)" if embedded.users is None else \
                f"{len(embedded.users.users())} tables in {embedded.users.path}"
            print(f"cardtable hub: embedded broker on {scheme}://{args.mqtt_host}:"
                  f"{embedded.port}, {users}", flush=True)
        else:
            broker = parse_broker(args.broker, args.username, password, args.ca_file)
        store = open_store(args.db)
    except BrokerError as exc:
        return fail(str(exc))
    except (ClubConfigError, StoreError) as exc:
        if embedded is not None:
            embedded.stop()
        return fail(str(exc))
    problem = port_problem(args.host, args.port)
    if problem is not None:
        store.close()
        if embedded is not None:
            embedded.stop()
        return fail(f"the web pages cannot listen on {args.host}:{args.port}: {problem}; "
                    "choose another with --port")
    hub = Hub(store, broker)
    site = Site(hub, room_name=args.room_name, hide_rankings=args.hide_rankings,
                public_url=args.public_url, standings_by=args.standings)
    web = WebServer(site, args.host, args.port)
    try:
        web.start()
    except RuntimeError as exc:
        store.close()
        if embedded is not None:
            embedded.stop()
        return fail(f"{exc} (is the port taken? choose another with --port)")
    hub.start()
    print(f"cardtable hub: the room at http://{args.host}:{args.port}/ "
          f"({store.count()} entries in {args.db})", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    hub.stop()
    web.stop()
    store.close()
    if embedded is not None:
        embedded.stop()
    return 0


def embedded_broker(args: argparse.Namespace) -> Any:
    """The embedded broker the options ask for (`BrokerError`: why not)."""
    from table.club.broker import BrokerError, EmbeddedBroker, Tls
    from table.club.credentials import PasswordFile

    if (args.tls_cert is None) != (args.tls_key is None):
        raise BrokerError("TLS needs both --tls-cert and --tls-key")
    if args.max_connections < 1 or args.max_per_address < 1:
        raise BrokerError("--max-connections and --max-per-address must be 1 or more")
    tls = Tls(args.tls_cert, args.tls_key) if args.tls_cert is not None else None
    port = args.mqtt_port if args.mqtt_port is not None else (8883 if tls else 1883)
    users = None if args.open else PasswordFile(args.users)
    return EmbeddedBroker(args.mqtt_host, port, users=users, tls=tls,
                          limits=Limits(args.max_connections, args.max_per_address))
