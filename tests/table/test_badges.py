"""Members' badges: enrolled at the table like a pack (admin menu), named
with `cardtable badges`, tapped at a seat between matches to sit there; the
seating is journaled (a power cut keeps it) and goes with the match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hw_mocks.rig import Rig
from table.cli import main
from table.controller.loop import REGISTRY_FILE
from table.journal import Journal
from table.registry import (
    AlreadyEnrolled,
    BadgeInUse,
    CardRegistry,
    RegistryError,
    member_id,
)
from table.screens.view import ErrorView, TextView
from table.settings import TableSettings

ADMIN = "AD000001"
ANA, ION, EVA = "B0000001", "B0000002", "B0000003"


def make_rig(state_dir: Path | None = None, **kw: object) -> Rig:
    return Rig(TableSettings(game="filicau", knowledge="open", admin_uids=(ADMIN,), **kw),
               state_dir, seats=4)


def enroll_badges(rig: Rig, *uids: str) -> None:
    rig.player.tap(0, ADMIN)
    kinds = [i.kind for i in rig.ctl.model.admin_items()]
    for _ in range(kinds.index("badges")):
        rig.press("menu")
    rig.press("ok")
    assert rig.state == "admin_badges"
    for n, uid in enumerate(uids):
        rig.player.tap(n % 4, uid)
    rig.player.tap(0, ADMIN)          # the tag closes the admin menu
    rig.player.pause(10)


def text_of(view: object) -> str:
    assert isinstance(view, (TextView, ErrorView))
    if isinstance(view, TextView):
        return " ".join((view.header.title, *view.lines))
    return f"{view.title} {view.message}"


# ----- the registry -----------------------------------------------------------------------

def test_a_badge_is_never_a_card_and_a_card_never_a_badge():
    reg = CardRegistry()
    rec = reg.new_pack("german32")
    reg.enroll(rec.number, "04A0000000000001")
    with pytest.raises(AlreadyEnrolled):
        reg.enroll_badge("04A0000000000001")
    badge = reg.enroll_badge(ANA)
    assert (badge.number, badge.name) == (1, "#1")
    with pytest.raises(BadgeInUse, match="already the badge of member 1"):
        reg.enroll(rec.number, ANA)
    with pytest.raises(BadgeInUse):
        reg.enroll_badge(ANA.lower())                     # the same UID, however written
    assert reg.enroll_badge(ION, "Ion").number == 2
    assert reg.name_badge(1, "  Ana   Pop ").name == "Ana Pop"
    with pytest.raises(RegistryError, match="at most 40"):
        reg.name_badge(1, "x" * 41)
    with pytest.raises(RegistryError, match="no member number 9"):
        reg.name_badge(9, "Nobody")
    reg.remove_badge(2)
    assert [b.name for b in reg.badges()] == ["Ana Pop"]
    assert reg.badge(ION) is None


def test_the_member_id_is_the_same_for_the_same_badge_at_every_table_and_hides_the_uid():
    a, b = CardRegistry(), CardRegistry()
    assert a.enroll_badge(ANA).member == b.enroll_badge(ANA).member == member_id(ANA)
    assert member_id(ANA) != member_id(ION)
    assert ANA.lower() not in member_id(ANA).lower() and len(member_id(ANA)) == 12


def test_badges_travel_with_the_packs_in_an_export(tmp_path: Path):
    reg = CardRegistry()
    reg.enroll_badge(ANA, "Ana")
    reg.enroll_badge(ION, "Ion")
    reg.export_file(tmp_path / "reg.json")
    other = CardRegistry()
    other.enroll_badge(EVA, "Eva")
    other.import_file(tmp_path / "reg.json")
    assert [(b.number, b.name) for b in other.badges()] == [(1, "Eva"), (2, "Ana"), (3, "Ion")]
    # a second import finds the badges there already: nothing is imported
    with pytest.raises(RegistryError, match="already enrolled here; nothing was imported"):
        other.import_file(tmp_path / "reg.json")
    assert len(other.badges()) == 3
    data = json.loads((tmp_path / "reg.json").read_text())
    data["badges"].append({"uid": "nonsense", "name": "X"})
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(RegistryError, match="badge 3 of the file"):
        CardRegistry().import_file(tmp_path / "bad.json")


# ----- at the table -----------------------------------------------------------------------

def test_enrolling_badges_at_the_table_and_taking_one_back():
    rig = make_rig()
    rig.player.tap(0, ADMIN)
    kinds = [i.kind for i in rig.ctl.model.admin_items()]
    assert "badges" in kinds
    for _ in range(kinds.index("badges")):
        rig.press("menu")
    assert rig.view.items[rig.view.cursor] == "Enroll members' badges"
    rig.press("ok")
    rig.player.tap(1, ANA)
    rig.player.tap(2, ION)
    assert "Enrolled: member 2" in text_of(rig.view)
    rig.player.tap(3, ANA)                              # already a badge: refused
    assert isinstance(rig.view, ErrorView) and "already member 1" in rig.view.message
    rig.press("ok")
    rig.player.tap(3, rig.player.uid("Kb"))              # a card's sticker: refused
    assert isinstance(rig.view, ErrorView) and "already the" in rig.view.message
    rig.press("ok")
    rig.press("undo")                                   # takes back Ion's badge
    assert [b.uid for b in rig.registry.badges()] == [ANA]
    rig.press("ok")
    assert rig.state == "admin_menu"
    rig.close()


def test_a_badge_sits_a_member_moves_them_and_the_same_seat_again_frees_it():
    rig = make_rig()
    enroll_badges(rig, ANA, ION)
    assert rig.state == "ready"
    rig.player.tap(1, ANA)
    assert "#1 sits at seat 2" in text_of(rig.view)
    rig.player.pause(10)
    rig.player.tap(3, ION)
    rig.player.pause(10)
    assert "Players: 2 #1, 4 #2" in text_of(rig.view)
    rig.player.tap(2, ANA)                               # Ana moves to seat 3
    rig.player.pause(10)
    assert rig.session.players[2].name == "#1" and 1 not in rig.session.players
    rig.player.tap(2, ANA)                               # and stands up
    assert "#1 left seat 3" in text_of(rig.view)
    assert set(rig.session.players) == {3}
    rig.close()


def test_the_seating_goes_with_the_match_and_survives_a_power_cut(tmp_path: Path):
    rig = make_rig(tmp_path)
    enroll_badges(rig, ANA, ION)
    rig.registry.name_badge(1, "Ana")
    rig.player.tap(0, ANA)
    rig.player.tap(2, ION)
    rig.player.pause(10)
    rig.close()
    rig = make_rig(tmp_path)                             # the plug was pulled before OK
    assert {s: p.name for s, p in rig.session.players.items()} == {0: "Ana", 2: "#2"}
    rig.press("ok")
    match = rig.session.match
    assert {s: p.member for s, p in match.players.items()} == {0: member_id(ANA),
                                                                 2: member_id(ION)}
    rig.tap(3, "9h")
    rig.close()
    journal = Journal(tmp_path / "journal.sqlite")
    start = [e for e in journal.entries() if e.kind == "start"][-1]
    assert start.data["players"] == {"0": {"member": member_id(ANA), "name": "Ana"},
                                     "2": {"member": member_id(ION), "name": "#2"}}
    journal.close()
    rig = make_rig(tmp_path)                             # the hand in play resumes
    assert {s: p.name for s, p in rig.session.match.players.items()} == {0: "Ana", 2: "#2"}
    # and after the match they still sit there for the next one
    rig.player.tap(0, ADMIN)                             # the admin resets the match
    kinds = [i.kind for i in rig.ctl.model.admin_items()]
    for _ in range(kinds.index("reset")):
        rig.press("menu")
    rig.press("ok")
    rig.press("ok")
    assert rig.state == "ready" and rig.session.match is None
    assert {s: p.name for s, p in rig.session.players.items()} == {0: "Ana", 2: "#2"}
    rig.close()


def test_a_badge_during_a_match_is_refused_and_changes_nothing():
    rig = make_rig()
    enroll_badges(rig, ANA)
    rig.press("ok")
    rig.tap(3, "9h")
    before = rig.snapshot()
    rig.player.tap(1, ANA)
    assert isinstance(rig.view, ErrorView)
    assert "players sit down between matches" in rig.view.message
    assert rig.snapshot() == before and rig.session.players == {}
    rig.close()


def test_a_badge_on_the_dealers_reader_asks_for_a_seat():
    from table.ports import DEALER

    rig = make_rig()
    enroll_badges(rig, ANA)
    rig.player.tap(DEALER, ANA)
    assert isinstance(rig.view, ErrorView) and "reader of a seat" in rig.view.message
    assert rig.session.players == {}
    rig.close()


# ----- the command --------------------------------------------------------------------------

def test_cardtable_badges_lists_names_and_removes(tmp_path: Path, capsys):
    reg = CardRegistry.open_checked(tmp_path / REGISTRY_FILE)
    reg.enroll_badge(ANA)
    reg.enroll_badge(ION)
    reg.close()
    assert main(["badges", "--state", str(tmp_path), "--name", "1", "Ana Pop"]) == 0
    assert "member 1 is now Ana Pop" in capsys.readouterr().out
    assert main(["badges", "--state", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["member", "name", "club", "id"]
    assert lines[1].split() == ["1", "Ana", "Pop", member_id(ANA)]
    assert lines[2].split() == ["2", "#2", member_id(ION)]
    assert main(["badges", "--state", str(tmp_path), "--remove", "2"]) == 0
    assert "member 2 (#2) removed" in capsys.readouterr().out
    assert main(["badges", "--state", str(tmp_path), "--name", "7", "X"]) == 1
    assert "there is no member number 7" in capsys.readouterr().err
    assert main(["badges", "--state", str(tmp_path), "--name", "one", "X"]) == 2
    assert "'one' is not a member number" in capsys.readouterr().err
    assert main(["badges", "--state", str(tmp_path / "nope")]) == 2
    assert "there is no state folder" in capsys.readouterr().err


def test_the_listing_in_the_docs_is_what_the_command_prints(tmp_path: Path, capsys):
    """docs/table.md shows two badges (UIDs 04A1B2C3 and 04D5E6F7), the first named."""
    docs = (Path(__file__).parents[2] / "docs" / "table.md").read_text(encoding="utf-8")
    block = docs.split("```text\nmember  name")[1].split("```")[0]
    shown = ("member  name" + block).rstrip("\n")
    reg = CardRegistry.open_checked(tmp_path / REGISTRY_FILE)
    reg.enroll_badge("04A1B2C3")
    reg.enroll_badge("04D5E6F7")
    reg.close()
    assert main(["badges", "--state", str(tmp_path), "--name", "1", "Ana Pop"]) == 0
    capsys.readouterr()
    assert main(["badges", "--state", str(tmp_path)]) == 0
    assert capsys.readouterr().out.rstrip("\n") == shown
