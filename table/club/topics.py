"""What tables and the hub say to each other over MQTT (docs/club.md).

    cardtable/table/<name>/journal   table -> hub   one journal entry (QoS 1)
    cardtable/table/<name>/ack       hub -> table   the hub's high-water mark (retained)
    cardtable/table/<name>/status    table          "online" / "offline" (retained; the
                                                    broker sends "offline" as the will)

An entry is JSON: {"table", "seq", "kind", "data"}; (table, seq) is its id,
so sending it twice is harmless. The high-water mark is the last sequence
number up to which the hub holds every entry of the table: the table resends
everything after it. Stdlib only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from table.club.config import TABLE_NAME

PREFIX = "cardtable/table"
ENTRIES_FILTER = f"{PREFIX}/+/journal"
STATUS_FILTER = f"{PREFIX}/+/status"
ONLINE = "online"
OFFLINE = "offline"


class BadMessage(ValueError):
    """A message on a club topic that is not what the protocol says."""


def journal_topic(table: str) -> str:
    return f"{PREFIX}/{table}/journal"


def ack_topic(table: str) -> str:
    return f"{PREFIX}/{table}/ack"


def status_topic(table: str) -> str:
    return f"{PREFIX}/{table}/status"


def table_of(topic: str, leaf: str) -> str:
    """The table's name in `cardtable/table/<name>/<leaf>`."""
    parts = topic.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != PREFIX or parts[3] != leaf \
            or not TABLE_NAME.match(parts[2]):
        raise BadMessage(f"not a {leaf} topic: {topic!r}")
    return parts[2]


@dataclass(frozen=True)
class Entry:
    """One journal entry of one table, as published."""

    table: str
    seq: int
    kind: str
    data: Mapping[str, Any]

    def encode(self) -> bytes:
        return json.dumps({"table": self.table, "seq": self.seq, "kind": self.kind,
                           "data": self.data}, ensure_ascii=False, sort_keys=True,
                          separators=(",", ":")).encode("utf-8")

    @classmethod
    def decode(cls, topic: str, payload: bytes) -> Entry:
        """The entry of a journal message; `BadMessage` says what is wrong."""
        table = table_of(topic, "journal")
        try:
            obj = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadMessage(f"{topic}: not JSON ({exc})") from None
        if not isinstance(obj, dict):
            raise BadMessage(f"{topic}: not a JSON object")
        seq, kind, data = obj.get("seq"), obj.get("kind"), obj.get("data")
        if obj.get("table") != table:
            raise BadMessage(f"{topic}: the entry says table {obj.get('table')!r}")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise BadMessage(f"{topic}: seq must be a whole number from 1, not {seq!r}")
        if not isinstance(kind, str) or not isinstance(data, dict):
            raise BadMessage(f"{topic}: kind must be text and data an object")
        return cls(table, seq, kind, data)


def encode_ack(seq: int) -> bytes:
    return str(seq).encode("ascii")


def decode_ack(payload: bytes) -> int:
    try:
        value = int(payload.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        raise BadMessage(f"an ack must be a whole number, not {payload[:40]!r}") from None
    if value < 0:
        raise BadMessage(f"an ack must not be negative ({value})")
    return value
