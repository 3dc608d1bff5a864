"""The controller tells the readers which places a match uses when the match
starts or resumes (`use_places`): the seats in play, and the dealer's reader
when the table has one. The others' antennas go off (no crosstalk from the
empty seats) and they report nothing."""

from __future__ import annotations

from hw_mocks.rig import Rig
from hw_mocks.table import MockTable
from table.controller import Controller
from table.controller.session import Selection
from table.ports import DEALER, CardArrived
from table.settings import TableSettings

FOUR_AND_DEALER = frozenset({0, 1, 2, 3, DEALER})


def test_a_match_start_leaves_out_the_seats_not_in_play():
    rig = Rig(TableSettings(game="filicau"), seats=6)
    try:
        assert rig.mock.readers.use_calls == []  # no match yet: every reader reads
        rig.press("ok")
        assert rig.session.match is not None and rig.session.match.game.players == 4
        assert rig.mock.readers.use_calls == [FOUR_AND_DEALER]
        posted = []
        rig.mock.readers.start(posted.append)
        rig.mock.readers.arrive(5, "04A1B2C3D4E5F6")  # an empty seat's reader is dark
        rig.mock.readers.arrive(2, "04A1B2C3D4E5F7")
        assert posted == [CardArrived(2, "04A1B2C3D4E5F7")]
        rig.press("menu")
        rig.press("ok")
        assert rig.mock.readers.use_calls == [FOUR_AND_DEALER]  # once per match
    finally:
        rig.close()


def test_a_match_resumed_from_the_journal_leaves_them_out_again():
    rig = Rig(TableSettings(game="filicau"), seats=6)
    rig.press("ok")
    rig = rig.restart()  # the power goes; the table starts again
    try:
        assert rig.session.match is not None
        assert rig.mock.readers.use_calls == [FOUR_AND_DEALER]  # before any event
    finally:
        rig.close()


def test_without_a_dealer_reader_only_the_seats_in_play_read():
    rig = Rig(TableSettings(game="filicau", has_dealer_reader=False), seats=6)
    try:
        rig.press("ok")
        assert rig.mock.readers.use_calls == [frozenset({0, 1, 2, 3})]
    finally:
        rig.close()


def test_the_next_match_gives_its_own_places():
    rig = Rig(TableSettings(game="filicau"), seats=6)
    try:
        rig.press("ok")
        rig.session.end_match("players")
        rig.session.select(Selection("filko6", {}, "open", "en"))
        rig.ctl.model.step()
        rig.press("ok")
        assert rig.session.match.game.players == 6
        assert rig.mock.readers.use_calls == [FOUR_AND_DEALER,
                                              frozenset({0, 1, 2, 3, 4, 5, DEALER})]
    finally:
        rig.close()


def test_readers_without_the_option_are_left_alone(tmp_path):
    class PlainReaders:
        def start(self, post):
            pass

        def stop(self):
            pass

    mock = MockTable(seats=4)
    mock.ports.readers = PlainReaders()
    ctl = Controller.open(TableSettings(game="filicau"), mock.ports, tmp_path, strict=True)
    try:
        mock.buttons.start(ctl.post)
        mock.press("ok")
        ctl.pump()
        assert ctl.session.match is not None  # the match runs all the same
    finally:
        ctl.close()
        mock.close()
