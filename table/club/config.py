"""The `[club]` section of the table's configuration: where the table
publishes its journal.

    [club]
    broker = "mqtts://club.example:8883"   # mqtt:// (1883) or mqtts:// (TLS, 8883)
    table = "table-3"                      # letters, digits, - and _
    credential = "table-3:..."             # what `cardtable hub add-table` printed
    ca_file = "/etc/cardtable/club-ca.pem" # optional: the CA of the broker's certificate

(`username` and `password` may be given apart instead of `credential`; the
table's user on the broker is its name.)

Stdlib only: `table.config` calls `check_club` while it reads the file, and
every mistake is reported with its key, like the rest of the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

TABLE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
SCHEMES = {"mqtt": (1883, False), "mqtts": (8883, True)}
KEYS = ("broker", "table", "credential", "username", "password", "ca_file", "keepalive")


class ClubConfigError(ValueError):
    """A `[club]` section or a broker URL that cannot be used."""


@dataclass(frozen=True)
class Broker:
    """Where an MQTT broker listens: host, port, TLS, credentials."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: Path | None = None

    @property
    def url(self) -> str:
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{self.host}:{self.port}"


@dataclass(frozen=True)
class ClubConfig:
    """A checked `[club]` section."""

    broker: Broker
    table: str
    keepalive: int = 15


def parse_broker(url: str, username: str | None = None, password: str | None = None,
                 ca_file: str | Path | None = None) -> Broker:
    """`mqtt://[user:password@]host[:port]` or `mqtts://...`. Credentials in
    the URL are used unless `username` / `password` are given."""
    if not isinstance(url, str) or "://" not in url:
        raise ClubConfigError(f"the broker must be a URL like mqtt://host:1883 or "
                              f"mqtts://host:8883, not {url!r}")
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise ClubConfigError(f"the broker URL must start with mqtt:// or mqtts://, "
                              f"not {parts.scheme}://")
    if not parts.hostname:
        raise ClubConfigError(f"the broker URL {url!r} has no host")
    if parts.path not in ("", "/"):
        raise ClubConfigError(f"the broker URL {url!r} must not have a path")
    default_port, tls = SCHEMES[parts.scheme]
    try:
        port = parts.port or default_port
    except ValueError:
        raise ClubConfigError(f"the broker URL {url!r} has a port that is not "
                              "a number 1..65535") from None
    user = username if username is not None else (
        unquote(parts.username) if parts.username else None)
    secret = password if password is not None else (
        unquote(parts.password) if parts.password else None)
    ca = Path(ca_file) if ca_file else None
    if ca is not None and not tls:
        raise ClubConfigError("ca_file is for a TLS broker: use an mqtts:// URL")
    return Broker(parts.hostname, port, tls, user, secret, ca)


def check_club(raw: Any, problem: Callable[[str, str], None]) -> ClubConfig | None:
    """The `[club]` section from the parsed TOML (`raw` is absent or a
    table); each mistake goes to `problem(key, message)`. None when there is
    no section or it has a mistake."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        problem("club", "must be a table ([club] with broker and table)")
        return None
    before = [0]

    def bad(key: str, message: str) -> None:
        before[0] += 1
        problem(f"club.{key}", message)

    for key in raw:
        if key not in KEYS:
            bad(key, f"unknown key; the keys here are: {', '.join(KEYS)}")
    texts: dict[str, str | None] = {}
    for key in ("broker", "table", "credential", "username", "password", "ca_file"):
        value = raw.get(key)
        if value is None:
            texts[key] = None
        elif not isinstance(value, str) or not value.strip():
            bad(key, f"must be text in quotes, not {value!r}")
            texts[key] = None
        else:
            texts[key] = value
    credential_of(texts, bad)
    for key in ("broker", "table"):
        if key not in raw and texts.get(key) is None:
            bad(key, "is missing (the club needs the broker's URL and this table's name)")
    name = texts["table"]
    if name is not None and not TABLE_NAME.match(name):
        bad("table", f"must be 1..40 letters, digits, - or _ (it is used in topics and "
                     f"web addresses), not {name!r}")
    keepalive = raw.get("keepalive", 15)
    if isinstance(keepalive, bool) or not isinstance(keepalive, int) or \
            not 5 <= keepalive <= 600:
        bad("keepalive", f"must be a whole number of seconds 5..600, not {keepalive!r}")
    broker = None
    if texts["broker"] is not None:
        try:
            broker = parse_broker(texts["broker"], texts["username"], texts["password"],
                                  texts["ca_file"])
        except ClubConfigError as exc:
            bad("broker" if texts["ca_file"] is None or "ca_file" not in str(exc)
                else "ca_file", str(exc))
    if broker is not None and broker.ca_file is not None and not broker.ca_file.is_file():
        bad("ca_file", f"no such file: {broker.ca_file}")
    if before[0] or broker is None or name is None:
        return None
    return ClubConfig(broker, name, int(keepalive))



def credential_of(texts: dict[str, str | None], bad: Callable[[str, str], None]) -> None:
    """`credential = "NAME:PASSWORD"` (as `cardtable hub add-table` prints it)
    gives the username and the password, and the table's name when `table`
    is not given; a mistake goes to `bad(key, message)`."""
    credential = texts["credential"]
    if credential is None:
        return
    user, sep, secret = credential.partition(":")
    if not sep or not user or not secret:
        bad("credential", "must be NAME:PASSWORD, as `cardtable hub add-table NAME` "
                          "printed it")
        return
    if texts["username"] is not None or texts["password"] is not None:
        bad("credential", "give either credential or username and password, not both")
        return
    if texts["table"] is not None and texts["table"] != user:
        bad("credential", f"is table {user!r}'s, but this table is {texts['table']!r} "
                          "(a table's credential is for its own name only)")
        return
    texts["username"], texts["password"] = user, secret
    if texts["table"] is None:
        texts["table"] = user


def club_toml(club: ClubConfig) -> list[str]:
    """The `[club]` section as TOML lines (`cardtable config dump`)."""
    b = club.broker
    lines = ["[club]", f"broker = {json.dumps(b.url)}", f"table = {json.dumps(club.table)}"]
    if b.username is not None:
        lines.append(f"username = {json.dumps(b.username)}")
    if b.password is not None:
        lines.append(f"password = {json.dumps(b.password)}")
    if b.ca_file is not None:
        lines.append(f"ca_file = {json.dumps(str(b.ca_file))}")
    lines.append(f"keepalive = {club.keepalive}")
    return lines
