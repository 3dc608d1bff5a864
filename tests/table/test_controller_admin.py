"""The admin tag: enrolling a pack by tapping its cards in the order the
screen shows (refusing a sticker already enrolled, resumable after a
restart), and resetting a match. Players without the tag can do neither."""

from __future__ import annotations

from engine.packs import PACKS
from hw_mocks.rig import Rig
from table.screens.view import EnrollView, ErrorView, MenuView
from table.settings import TableSettings

ADMIN = "AD000001"


def new_uid(n):
    return f"04A0{n:010X}"


def make_rig(**kw):
    return Rig(TableSettings(game="filicau", knowledge="open", admin_uids=(ADMIN,), **kw),
               None, seats=4)


def test_the_admin_tag_opens_and_closes_the_admin_menu_from_the_game():
    rig = make_rig()
    rig.press("ok")
    rig.tap(3, "9h")                 # the dealer's shown card... or not: anything will do
    state = rig.state
    rig.player.tap(2, ADMIN)
    assert rig.state == "admin_menu"
    assert isinstance(rig.view, MenuView) and rig.view.title == "Admin"
    assert rig.mock.indicators.status_pattern == "blink"
    rig.player.tap(2, ADMIN)
    assert rig.state == state
    rig.player.tap(0, ADMIN)
    rig.press("undo")                # UNDO leaves too
    assert rig.state == state
    rig.close()


def test_enrolling_a_pack_tap_by_tap_in_the_order_shown():
    rig = make_rig(language="ro")
    rig.player.tap(0, ADMIN)
    items = rig.view.items
    assert items[0] == "Înregistrare pachet: Nemțesc 32"      # the game's own pack first
    rig.press("ok")
    assert rig.state == "admin_enroll"
    pack = PACKS["german32"]
    view = rig.view
    assert isinstance(view, EnrollView)
    assert (view.card_name, view.position, view.total) == ("șeptar de ghindă (7a)", 0, 32)
    for n in range(10):
        rig.player.tap(n % 4, new_uid(n))
    # acorns 7 8 9 T U O K A, then leaves: the 11th card is the Nine of leaves
    assert rig.view.card_name == "nouar de verde (9l)"
    number = rig.ctl.model.enroll_pack
    assert [rig.registry.lookup(new_uid(n)).card for n in range(10)] == list(pack.cards[:10])
    # a sticker that is already a card is refused, and nothing moves on
    rig.player.tap(1, new_uid(3))
    assert isinstance(rig.view, ErrorView)
    assert "(Ta)" in rig.view.message and f"pachetul {number}" in rig.view.message
    assert rig.registry.pack(number).enrolled == 10
    # UNDO takes back the last one
    rig.press("undo")
    assert rig.registry.pack(number).enrolled == 9 and rig.registry.lookup(new_uid(9)) is None
    # the power goes: the pack is still there, and enrollment carries on where it was
    rig = rig.restart()
    rig.player.tap(0, ADMIN)
    assert rig.view.items[0] == "Continuă Nemțesc 32 (9/32)"
    rig.press("ok")
    assert rig.view.card_name == "optar de verde (8l)"
    for n in range(9, 32):
        rig.player.tap(0, new_uid(n))
    assert rig.view.message == "Pachet complet"
    rig.press("ok")
    assert rig.state == "admin_menu"
    assert rig.registry.pack(number).complete
    rig.close()


def test_players_cannot_enroll_without_the_tag():
    rig = make_rig()
    rig.player.tap(0, new_uid(1))
    assert rig.view == ErrorView(
        "Not accepted", f"Unknown card {new_uid(1)}. To enroll it: admin tag, then Enroll.",
        ("Unknown card: admin tag, then Enroll",))
    assert rig.registry.lookup(new_uid(1)) is None
    rig.close()


def test_the_admin_can_reset_a_match():
    rig = make_rig()
    rig.press("ok")
    rig.player.tap(0, ADMIN)
    kinds = [i.kind for i in rig.ctl.model.admin_items()]
    for _ in range(kinds.index("reset")):
        rig.press("menu")
    assert rig.view.items[rig.view.cursor] == "Reset the match"
    rig.press("ok")
    assert rig.state == "admin_reset"
    rig.press("ok")
    assert rig.state == "ready" and rig.session.match is None
    ends = [e.data for e in rig.ctl.journal.entries() if e.kind == "end"]
    assert ends[-1]["reason"] == "reset"
    rig.close()


def test_a_known_card_tapped_with_no_match_is_named():
    rig = make_rig(language="hu")
    rig.tap(1, "Oa")
    assert rig.view.lines == ("makk felső (Oa)",)
    rig.close()
