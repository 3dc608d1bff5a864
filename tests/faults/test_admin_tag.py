"""The admin tag everywhere: in every resting state of the machine it opens
the admin menu (or, in an admin screen, closes it) and it is never enrolled
as a card, not even in the enrollment screen; a sticker already enrolled is
refused naming its card and pack; every admin screen's buttons. A random
walk over every button, card and the tag keeps those promises."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hw_mocks.rig import Rig
from table.controller import machine
from table.ports import DEALER
from table.screens.view import EnrollView, ErrorView, MenuView, TextView
from table.settings import TableSettings
from tests.table.test_controller_machine import ADMIN, reach


def new_uid(n: int) -> str:
    return f"04A0{n:010X}"


@pytest.mark.parametrize("state", [s for s in machine.LEAVES if s != "boot"])
def test_the_tag_opens_or_closes_the_admin_menu_in_every_state(state, tmp_path):
    rig = reach(state, tmp_path)
    cards = len(rig.registry)
    entries = rig.ctl.journal.count()
    rig.tap(0, ADMIN)
    if state.startswith("admin"):
        assert not rig.state.startswith("admin"), state
    else:
        assert rig.state == "admin_menu", state
        assert isinstance(rig.view, MenuView)
        rig.tap(1, ADMIN)                     # and the next tap closes it, on any reader
        assert not rig.state.startswith("admin")
    assert rig.registry.lookup(ADMIN) is None
    assert len(rig.registry) == cards
    assert rig.ctl.journal.count() == entries
    rig.close()


def admin_rig(**kw):
    return Rig(TableSettings(game="filicau", knowledge="open", admin_uids=(ADMIN,),
                             has_dealer_reader=True, **kw), None, seats=4)


def test_the_tag_in_the_enrollment_screen_closes_the_menu_and_is_never_a_card():
    rig = admin_rig()
    rig.tap(0, ADMIN)
    rig.press("ok")                                   # enroll the game's pack
    assert rig.state == "admin_enroll"
    number = rig.ctl.model.enroll_pack
    rig.tap(DEALER, ADMIN)                            # the first card asked for: the tag
    assert rig.state == "ready"
    assert rig.registry.lookup(ADMIN) is None
    assert rig.registry.pack(number).enrolled == 0
    # back in: enrollment carries on at the same card, the tag still refused as a card
    rig.tap(2, ADMIN)
    assert rig.view.items[0].startswith("Continue")
    rig.press("ok")
    rig.tap(0, new_uid(1))
    rig.tap(0, new_uid(2))
    rig.tap(3, ADMIN)
    assert rig.state == "ready"
    assert rig.registry.pack(number).enrolled == 2 and rig.registry.lookup(ADMIN) is None
    # the first real card is the Seven of acorns, as the screen asked
    assert rig.registry.lookup(new_uid(1)).card.code == "7a"
    rig.close()


def test_a_sticker_already_enrolled_is_refused_naming_its_card_and_pack():
    rig = admin_rig()
    rig.tap(0, ADMIN)
    rig.press("ok")
    first = rig.ctl.model.enroll_pack
    for n in range(3):
        rig.tap(0, new_uid(n))
    rig.press("menu")                                  # pause: back to the admin menu
    assert rig.state == "admin_menu"
    kinds = [i.kind for i in rig.ctl.model.admin_items()]
    for _ in range(kinds.index("enroll") + 1):         # a second pack of the same type
        rig.press("menu")
    rig.press("ok")
    second = rig.ctl.model.enroll_pack
    assert second != first
    rig.tap(1, new_uid(2))                             # the 9 of acorns of the first pack
    assert isinstance(rig.view, ErrorView)
    assert rig.view.message == f"This sticker is already the Nine of acorns (9a) of pack {first}."
    assert rig.registry.pack(second).enrolled == 0
    assert rig.mock.indicators.buzzes[-1] == "error"
    rig.close()


def test_every_button_of_the_admin_menu():
    rig = admin_rig()
    rig.press("ok")                                    # a match, so that Reset is offered
    rig.tap(0, ADMIN)
    items = rig.ctl.model.admin_items()
    labels = list(rig.view.items)
    assert [i.kind for i in items][-2:] == ["reset", "back"] and len(labels) == len(items)
    for k in range(len(items)):                         # MENU walks the items and wraps
        assert rig.view.cursor == k
        rig.press("menu")
    assert rig.view.cursor == 0
    rig.press("undo")                                   # UNDO leaves
    assert rig.state.startswith("match_")
    rig.tap(0, ADMIN)
    for _ in range(len(items) - 1):
        rig.press("menu")
    rig.press("ok")                                     # OK on "Back" leaves
    assert rig.state.startswith("match_")
    rig.close()


def test_every_button_of_the_enrollment_screen():
    rig = admin_rig()
    rig.tap(0, ADMIN)
    rig.press("ok")
    number = rig.ctl.model.enroll_pack
    rig.press("undo")                                   # nothing to take back: a refusal
    assert isinstance(rig.view, ErrorView) and rig.state == "admin_enroll"
    rig.press("ok")                                     # OK only takes the message away
    rig.tap(0, new_uid(1))
    rig.tap(0, new_uid(1))                              # the same sticker again: ignored
    assert rig.registry.pack(number).enrolled == 1
    rig.press("ok")                                     # the pack is not complete: stays
    assert rig.state == "admin_enroll"
    rig.press("undo")                                   # takes back the last card
    assert rig.registry.pack(number).enrolled == 0
    assert isinstance(rig.view, EnrollView) and rig.view.position == 0
    rig.press("menu")                                   # pause
    assert rig.state == "admin_menu"
    rig.close()


def test_every_button_of_the_reset_screen():
    rig = admin_rig()
    rig.press("ok")
    match = rig.session.match.id

    def to_reset():
        rig.tap(0, ADMIN)
        kinds = [i.kind for i in rig.ctl.model.admin_items()]
        for _ in range(kinds.index("reset")):
            rig.press("menu")
        rig.press("ok")
        assert rig.state == "admin_reset" and isinstance(rig.view, TextView)

    to_reset()
    rig.press("undo")                                   # no: back to the menu
    assert rig.state == "admin_menu"
    rig.tap(0, ADMIN)
    to_reset()
    rig.press("menu")                                   # no, too
    assert rig.state == "admin_menu" and rig.session.match.id == match
    rig.tap(0, ADMIN)
    to_reset()
    rig.tap(2, ADMIN)                                   # the tag: out, nothing reset
    assert rig.state.startswith("match_") and rig.session.match.id == match
    to_reset()
    rig.press("ok")                                     # yes
    assert rig.state == "ready" and rig.session.match is None
    rig.close()


MOVES = st.one_of(
    st.tuples(st.just("tag"), st.sampled_from([0, 1, 2, 3, DEALER])),
    st.tuples(st.just("card"), st.sampled_from([0, 1, 2, 3, DEALER]),
              st.sampled_from(["7a", "Ka", "9h", "Oa", "Tb", "Al"])),
    st.tuples(st.just("new"), st.sampled_from([0, 1, 2, 3]), st.integers(0, 40)),
    st.tuples(st.just("press"), st.sampled_from(["ok", "undo", "menu"])),
    st.tuples(st.just("hold"), st.just("undo")),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MOVES, max_size=60))
def test_a_random_walk_never_enrolls_the_tag_and_the_tag_always_toggles(moves):
    rig = admin_rig()
    try:
        for move in moves:
            was_admin = rig.state.startswith("admin")
            if move[0] == "tag":
                rig.tap(move[1], ADMIN)
                assert rig.state.startswith("admin") != was_admin, (move, rig.state)
            elif move[0] == "card":
                rig.tap(move[1], move[2])
            elif move[0] == "new":
                rig.tap(move[1], new_uid(move[2]))
            elif move[0] == "press":
                rig.press(move[1])
            else:
                rig.hold(move[1])
            assert rig.registry.lookup(ADMIN) is None
            assert rig.ctl.view == rig.ctl.presenter.view()
    finally:
        rig.close()
