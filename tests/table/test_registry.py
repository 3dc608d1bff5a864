"""The card registry: packs enrolled in their fixed order, a sticker belongs to
one card only, enrollment survives a restart, several packs, and import and
export as a file (all or nothing)."""

from __future__ import annotations

import json

import pytest

from engine.cards import card
from engine.packs import PACKS
from table.registry import (
    AlreadyEnrolled,
    CardRegistry,
    RegistryError,
    normalise_uid,
    virtual_uid,
)


def uid(n):
    return f"04{n:012X}"


def test_a_pack_is_enrolled_in_its_fixed_order(tmp_path):
    reg = CardRegistry(tmp_path / "r.sqlite")
    pack = reg.new_pack("german32")
    assert reg.expected(pack.number) == (0, card("7a"))      # acorns first, Seven up
    e = reg.enroll(pack.number, "04:00:00:00:00:00:01")
    assert (e.card, e.copy, e.uid) == (card("7a"), 1, uid(1))
    assert reg.expected(pack.number) == (1, card("8a"))
    for n in range(2, 33):
        reg.enroll(pack.number, uid(n))
    assert reg.pack(pack.number).complete and reg.expected(pack.number) is None
    assert reg.lookup(uid(32)).card == card("Ab")                # bells last, Ace last
    with pytest.raises(RegistryError, match="complete"):
        reg.enroll(pack.number, uid(99))


def test_a_sticker_already_enrolled_is_refused(tmp_path):
    reg = CardRegistry(tmp_path / "r.sqlite")
    a = reg.new_pack("german32")
    reg.enroll(a.number, uid(1))
    b = reg.new_pack("french52")
    with pytest.raises(AlreadyEnrolled) as err:
        reg.enroll(b.number, uid(1))
    assert err.value.existing.card == card("7a") and err.value.existing.pack == a.number
    assert reg.pack(b.number).enrolled == 0


def test_enrollment_resumes_after_a_restart_and_undo_takes_back_the_last(tmp_path):
    reg = CardRegistry(tmp_path / "r.sqlite")
    p = reg.new_pack("german20")
    for n in range(5):
        reg.enroll(p.number, uid(n))
    reg.close()
    reg = CardRegistry(tmp_path / "r.sqlite")
    assert reg.unfinished().number == p.number
    assert reg.expected(p.number) == (5, PACKS["german20"].cards[5])
    taken = reg.unenroll_last(p.number)
    assert taken.uid == uid(4) and reg.lookup(uid(4)) is None
    assert reg.expected(p.number) == (4, PACKS["german20"].cards[4])


def test_the_double_pack_has_two_copies_of_each_card(tmp_path):
    reg = CardRegistry(tmp_path / "r.sqlite")
    rec = reg.enroll_virtual("french64double")
    assert rec.enrolled == 64 and rec.complete
    firsts = [reg.lookup(u) for u in reg.uids_of(rec.number)]
    assert [e.copy for e in firsts].count(2) == 32
    assert reg.uid_for(card("As"), "french", 2) != reg.uid_for(card("As"), "french", 1)


def test_export_and_import_move_packs_between_tables(tmp_path):
    one = CardRegistry(tmp_path / "one.sqlite")
    one.enroll_virtual("german32")
    p = one.new_pack("french40")
    one.enroll(p.number, uid(7))
    one.export_file(tmp_path / "packs.json")
    data = json.loads((tmp_path / "packs.json").read_text())
    assert data["format"] == "cardtable-registry"
    assert [len(x["cards"]) for x in data["packs"]] == [32, 1]
    other = CardRegistry(tmp_path / "other.sqlite")
    mine = other.new_pack("german20")
    added = other.import_file(tmp_path / "packs.json")
    assert [a.number for a in added] == [mine.number + 1, mine.number + 2]
    assert other.lookup(uid(7)).card == card("2c")
    assert added[1].enrolled == 1 and not added[1].complete


def test_an_import_with_a_conflict_adds_nothing(tmp_path):
    one = CardRegistry(tmp_path / "one.sqlite")
    one.enroll_virtual("german32")
    data = one.export_data()
    other = CardRegistry(tmp_path / "other.sqlite")
    p = other.new_pack("german20")
    clash = data["packs"][0]["cards"][10]["uid"]
    other.enroll(p.number, clash)
    with pytest.raises(RegistryError, match="already enrolled here"):
        other.import_data(data)
    assert [r.number for r in other.packs()] == [p.number] and len(other) == 1


@pytest.mark.parametrize("bad, message", [
    ({"format": "something else"}, "not a registry export"),
    ({"format": "cardtable-registry", "version": 7, "packs": []}, "version 7"),
    ({"format": "cardtable-registry", "version": 1, "packs": [{"type": "tarot"}]},
     "unknown type"),
    ({"format": "cardtable-registry", "version": 1,
      "packs": [{"type": "german20", "cards": [{"uid": "04000000", "card": "Kh"}]}]},
     "should be Ua"),
    ({"format": "cardtable-registry", "version": 1,
      "packs": [{"type": "german20", "cards": [{"uid": "zz", "card": "Ua"}]}]},
     "not a card UID"),
])
def test_a_bad_export_file_is_refused_with_its_mistake(tmp_path, bad, message):
    reg = CardRegistry(tmp_path / "r.sqlite")
    with pytest.raises(RegistryError, match=message):
        reg.import_data(bad)
    assert reg.packs() == []


def test_a_file_that_is_not_json_is_refused(tmp_path):
    (tmp_path / "x.json").write_text("{oops")
    with pytest.raises(RegistryError, match="not JSON"):
        CardRegistry(":memory:").import_file(tmp_path / "x.json")
    with pytest.raises(RegistryError, match="cannot read"):
        CardRegistry(":memory:").import_file(tmp_path / "missing.json")


def test_uids_are_normalised_and_checked():
    assert normalise_uid("04:a1:b2:c3") == "04A1B2C3"
    for bad in ("", "04A", "GG000000", "04" * 11, 1234):
        with pytest.raises(RegistryError):
            normalise_uid(bad)
    assert len(virtual_uid(1, 5, card("Kh"))) == 14


def test_an_unreadable_registry_file_is_reported_and_left_alone(tmp_path):
    path = tmp_path / "r.sqlite"
    path.write_bytes(b"\x00garbage" * 200)
    with pytest.raises(RegistryError, match="cannot be read"):
        CardRegistry(path)
    assert path.read_bytes() == b"\x00garbage" * 200


def test_a_pack_can_be_removed(tmp_path):
    reg = CardRegistry(tmp_path / "r.sqlite")
    a = reg.enroll_virtual("german20")
    reg.remove_pack(a.number)
    assert reg.packs() == [] and len(reg) == 0
    with pytest.raises(RegistryError, match="no pack number"):
        reg.remove_pack(a.number)
