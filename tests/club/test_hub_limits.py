"""No message can stop the hub: every payload bounded and decoded
defensively, refusals counted and their log lines rate-limited, marks that
say whose journal they count (the protocol, without a network)."""

from __future__ import annotations

import json
import logging

import pytest

from table.club import topics
from table.club.service import Refusals
from table.club.topics import MAX_DEPTH, MAX_ENTRY_BYTES, BadMessage, Entry

TOPIC = "cardtable/table/t1/journal"


def entry_bytes(data: object, **extra: object) -> bytes:
    return json.dumps({"table": "t1", "seq": 1, "kind": "card", "data": data, **extra}).encode()


@pytest.mark.parametrize("payload, reason", [
    (b"[" * 100_000, "too_big"),                         # the attack
    (b"[" * 60_000, "too_deep"),                          # under the size limit: deep
    (b"{\"a\":" * 5_000 + b"1" + b"}" * 5_000, "too_deep"),
    (entry_bytes({"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}), "too_deep"),
    (b"x" * (MAX_ENTRY_BYTES + 1), "too_big"),
    (b"\xff\xfe", "not_json"),
    (entry_bytes({}, journal="not a journal id!"), "not_entry"),
    (entry_bytes({}, journal=["x"]), "not_entry"),
    (json.dumps({"table": "t1", "seq": 10 ** 30, "kind": "x", "data": {}}).encode(),
     "not_entry"),
    (json.dumps({"table": "t1", "seq": 1, "kind": "x" * 100, "data": {}}).encode(),
     "not_entry"),
])
def test_a_hostile_payload_is_refused_with_its_reason_and_nothing_escapes(payload, reason):
    with pytest.raises(BadMessage) as err:
        Entry.decode(TOPIC, payload)
    assert err.value.reason == reason
    assert len(str(err.value)) < 300                      # the log line stays short


def test_a_real_entry_is_far_under_the_limits():
    """A dealt 20-card hand with every reader id, as a table journals it."""
    hands = [[{"card": f"{r}{s}", "uid": "04a1b2c3d4e5f6"} for r in "AKQJT" for s in "SH"]
             for _ in range(4)]
    e = Entry("t1", 12, "deal", {"hands": hands, "dealer": 0}, "a" * 32)
    payload = e.encode()
    assert len(payload) < MAX_ENTRY_BYTES // 8
    assert topics.depth(json.loads(payload)) < MAX_DEPTH // 2
    assert Entry.decode(TOPIC, payload) == e


def test_an_entry_carries_its_journal_and_an_old_one_has_none():
    e = Entry("t1", 3, "card", {"seat": 1}, "f" * 32)
    assert Entry.decode(TOPIC, e.encode()).journal == "f" * 32
    old = b'{"table":"t1","seq":3,"kind":"card","data":{"seat":1}}'
    assert Entry.decode(TOPIC, old) == Entry("t1", 3, "card", {"seat": 1}, "")


def test_a_mark_says_whose_journal_it_counts():
    assert topics.encode_ack(7, "a" * 32) == b"7 " + b"a" * 32
    assert topics.encode_ack(7) == b"7"
    assert topics.decode_mark(b"7 " + b"a" * 32) == (7, "a" * 32)
    assert topics.mark_for(b"7 " + b"a" * 32, "a" * 32) == 7
    assert topics.mark_for(b"7 " + b"a" * 32, "b" * 32) is None     # another journal's
    assert topics.mark_for(b"7", "b" * 32) == 7                      # a hub of before
    for bad in (b"7 not/ok", b"x y", b"-1 aa"):
        with pytest.raises(BadMessage):
            topics.decode_mark(bad)


def test_refusals_are_counted_and_their_lines_rate_limited(caplog):
    caplog.set_level(logging.WARNING, "cardtable.hub")
    r = Refusals()
    for i in range(1000):
        r.add("too_deep", f"message {i}")
    r.add("not_json", "another kind")
    assert r.snapshot() == {"too_deep": 1000, "not_json": 1}
    lines = [rec.getMessage() for rec in caplog.records]
    assert len(lines) == 2                                 # one a reason, not a thousand
    assert "message 0" in lines[0] and "another kind" in lines[1]
    assert not any(rec.exc_info for rec in caplog.records)
