"""`cardtable hub`: the club room's service (docs/club.md)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any


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
    p.add_argument("--mqtt-port", type=int, default=1883,
                   help="the embedded broker's port (default 1883)")
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


def fail(text: str) -> int:
    print(f"cardtable hub: {text}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    import os

    try:
        from table.club.broker import BrokerError, EmbeddedBroker, port_problem
        from table.club.config import ClubConfigError, parse_broker
        from table.club.service import Hub
        from table.club.store import StoreError, open_store
        from table.club.web import Site, WebServer
    except ModuleNotFoundError as exc:
        return fail(f"the club room needs the club extra ({exc.name} is missing): "
                    "pip install 'cardtable[club]'")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    embedded = None
    if args.broker is None:
        embedded = EmbeddedBroker(args.mqtt_host, args.mqtt_port)
        try:
            embedded.start()
        except BrokerError as exc:
            return fail(str(exc))
        url = f"mqtt://127.0.0.1:{args.mqtt_port}"
        print(f"cardtable hub: embedded broker on {args.mqtt_host}:{args.mqtt_port}",
              flush=True)
    else:
        url = args.broker
    password = args.password or os.environ.get("CARDTABLE_HUB_PASSWORD")
    try:
        broker = parse_broker(url, args.username, password, args.ca_file)
        store = open_store(args.db)
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
