"""What tables and the hub say to each other over MQTT (docs/club.md).

    cardtable/table/<name>/journal   table -> hub   one journal entry (QoS 1)
    cardtable/table/<name>/ack       hub -> table   the hub's high-water mark (retained)
    cardtable/table/<name>/status    table          "online" / "offline" (retained; the
                                                    broker sends "offline" as the will)

An entry is JSON: {"table", "journal", "seq", "kind", "data"}; (table,
journal, seq) is its id, so sending it twice is harmless. `journal` is the id
the table's journal got when it was made (its meta table): a rebuilt Pi with
the same name, or a second simulated room, starts a new journal and is never
taken for the old one. Entries without it (tables of older versions) belong
to the table's "old journal", "". The high-water mark is the last sequence
number up to which the hub holds every entry of the journal: the table resends
everything after it. The mark says whose journal it counts: "<seq> <journal>"
(just "<seq>" for the old journal).

Nothing on the network is trusted: a message is refused, with its reason,
when it is larger than `MAX_ENTRY_BYTES`, nested deeper than `MAX_DEPTH`, not
JSON, or not an entry. Stdlib only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from table.club.config import TABLE_NAME

#: The largest journal message the hub takes (bytes). A real entry is well under
#: 2 KiB (a dealt hand of 20 cards with its reader ids is about 1 KiB).
MAX_ENTRY_BYTES = 64 * 1024
#: The deepest nesting of arrays and objects in an entry (a real one has 4).
MAX_DEPTH = 16
#: A journal's id: what `table.journal.Journal` makes (32 hex digits), or
#: letters, digits, - and _ from other tools.
JOURNAL_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

PREFIX = "cardtable/table"
ENTRIES_FILTER = f"{PREFIX}/+/journal"
STATUS_FILTER = f"{PREFIX}/+/status"
ONLINE = "online"
OFFLINE = "offline"


class BadMessage(ValueError):
    """A message on a club topic that is not what the protocol says.
    `reason` is its kind, for the hub's counts: too_big, too_deep, not_json,
    not_entry, bad_topic."""

    def __init__(self, text: str, reason: str = "not_entry") -> None:
        super().__init__(text)
        self.reason = reason


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
        raise BadMessage(f"not a {leaf} topic: {topic[:80]!r}", "bad_topic")
    return parts[2]


@dataclass(frozen=True)
class Entry:
    """One journal entry of one table, as published."""

    table: str
    seq: int
    kind: str
    data: Mapping[str, Any]
    #: The id of the journal it belongs to ("": a table of an older version).
    journal: str = ""

    def encode(self) -> bytes:
        obj: dict[str, Any] = {"table": self.table, "seq": self.seq, "kind": self.kind,
                               "data": self.data}
        if self.journal:
            obj["journal"] = self.journal
        return json.dumps(obj, ensure_ascii=False, sort_keys=True,
                          separators=(",", ":")).encode("utf-8")

    @classmethod
    def decode(cls, topic: str, payload: bytes) -> Entry:
        """The entry of a journal message; `BadMessage` says what is wrong."""
        table = table_of(topic, "journal")
        if len(payload) > MAX_ENTRY_BYTES:
            raise BadMessage(f"{topic}: {len(payload):,} bytes, more than an entry may have "
                             f"({MAX_ENTRY_BYTES:,})", "too_big")
        try:
            obj = json.loads(payload.decode("utf-8"))
        except RecursionError:
            raise BadMessage(f"{topic}: nested deeper than {MAX_DEPTH}", "too_deep") from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadMessage(f"{topic}: not JSON ({str(exc)[:80]})", "not_json") from None
        if depth(obj) > MAX_DEPTH:
            raise BadMessage(f"{topic}: nested deeper than {MAX_DEPTH}", "too_deep")
        if not isinstance(obj, dict):
            raise BadMessage(f"{topic}: not a JSON object")
        seq, kind, data = obj.get("seq"), obj.get("kind"), obj.get("data")
        journal = obj.get("journal", "")
        if obj.get("table") != table:
            raise BadMessage(f"{topic}: the entry says table {str(obj.get('table'))[:40]!r}")
        if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq < 2 ** 62:
            raise BadMessage(f"{topic}: seq must be a whole number from 1, not "
                             f"{str(seq)[:40]}")
        if not isinstance(kind, str) or not isinstance(data, dict) or len(kind) > 40:
            raise BadMessage(f"{topic}: kind must be text and data an object")
        if journal != "" and (not isinstance(journal, str) or not JOURNAL_ID.match(journal)):
            raise BadMessage(f"{topic}: journal must be 1..64 letters, digits, - or _")
        return cls(table, seq, kind, data, journal)


def depth(obj: Any) -> int:
    """How deep arrays and objects nest in `obj` (0 for a number or text),
    without recursion."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(obj, 0)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        if level > deepest:
            deepest = level
            if deepest > MAX_DEPTH:
                return deepest
        todo.extend((c, level) for c in children)
    return deepest


def encode_ack(seq: int, journal: str = "") -> bytes:
    """A mark: "<seq> <journal>", or "<seq>" for the old journal ("")."""
    return (f"{seq} {journal}" if journal else str(seq)).encode("ascii")


def decode_mark(payload: bytes) -> tuple[int, str]:
    """(seq, journal) of a mark ("" for a mark without a journal)."""
    try:
        text = payload.decode("ascii").strip()
    except UnicodeDecodeError:
        raise BadMessage(f"a mark must be a whole number, not {payload[:40]!r}") from None
    seq, _, journal = text.partition(" ")
    journal = journal.strip()
    if journal and not JOURNAL_ID.match(journal):
        raise BadMessage(f"a mark's journal must be letters, digits, - or _, not "
                         f"{journal[:40]!r}")
    return decode_ack(seq.encode("ascii")), journal


def mark_for(payload: bytes, journal: str | None) -> int | None:
    """The mark for the table's journal `journal`: its seq, or None when the
    mark counts another journal's entries (a mark without a journal, from a
    hub of an older version, counts every journal's)."""
    seq, whose = decode_mark(payload)
    if whose and whose != (journal or ""):
        return None
    return seq


def decode_ack(payload: bytes) -> int:
    try:
        value = int(payload.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        raise BadMessage(f"an ack must be a whole number, not {payload[:40]!r}") from None
    if value < 0:
        raise BadMessage(f"an ack must not be negative ({value})")
    return value
