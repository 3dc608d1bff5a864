"""The controller plays a whole Filicău hand from cards moved on and off
emulated MFRC522 readers, through each real readers' driver: the direct-SPI
driver (the real mfrc522 package on the register emulator) and the hub's
host driver (the real firmware on a pty pair). Nothing but the readers is
changed: the controller, the bot and the registry are the table's own."""

from __future__ import annotations

import queue
import random
import time

import pytest

from hw_mocks import fake_rpi
from hw_mocks.bot import Bot
from hw_mocks.fake_hub import FakeHub
from hw_mocks.mfrc522 import Board, Ntag213, VirtualClock
from hw_mocks.table import MockTable
from table.controller import Controller
from table.drivers.hub_readers import HubReaders
from table.drivers.spi_readers import SpiReaders, Wiring
from table.ports import DEALER, CardArrived, CardLeft, Ports
from table.settings import TableSettings

PLACES = [0, 1, 2, 3, DEALER]
SPI_WIRING = [Wiring(0, 0, None, 25), Wiring(0, 1, None, 25), Wiring(1, 0, None, 25),
              Wiring(1, 1, None, 25), Wiring(1, 2, None, 25)]


class SpiTable:
    def __init__(self):
        self.board = Board(clock=VirtualClock(pace=0.3))
        self.chips = {}
        for place, w in zip(PLACES, SPI_WIRING, strict=True):
            self.chips[place] = self.board.add_reader(w.bus, w.device, rst_pin=w.reset_pin)
        fake_rpi.install(self.board)
        self.readers = SpiReaders(dict(zip(PLACES, SPI_WIRING, strict=True)),
                                  clock=self.board.clock, sleep=self.board.clock.sleep)

    def place(self, card, place):
        self.board.place(card, self.chips[place])

    def remove(self, card):
        self.board.remove(card)

    def close(self):
        self.readers.close()


class HubTable:
    def __init__(self):
        self.hub = FakeHub(channels=len(PLACES))
        self.hub.plug()
        self.readers = HubReaders({p: i for i, p in enumerate(PLACES)},
                                  find_port=self.hub.find_port, poll_rate=100, retry_s=0.1)

    def place(self, card, place):
        self.hub.place(card, PLACES.index(place))

    def remove(self, card):
        self.hub.remove(card)

    def close(self):
        self.readers.stop()
        self.hub.unplug()


@pytest.fixture(autouse=True)
def _no_fakes_left_behind():
    yield
    fake_rpi.uninstall()


@pytest.mark.parametrize("kind", ["spi", "hub"])
def test_a_full_filicau_hand_through_the_readers(kind, tmp_path):
    table = SpiTable() if kind == "spi" else HubTable()
    mock = MockTable(seats=4, dealer_reader=True)
    settings = TableSettings(game="filicau", knowledge="open")
    ports = Ports(readers=table.readers, display=mock.display, indicators=mock.indicators,
                  buttons=mock.buttons, clock=mock.clock)
    seeds = random.Random(3)
    ctl = Controller.open(settings, ports, tmp_path, seed_source=lambda: seeds.randrange(2**62),
                          strict=True)
    seen = queue.Queue()

    def post(event):
        seen.put(event)
        ctl.post(event)

    def wait_for(expected):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                event = seen.get(timeout=0.05)
            except queue.Empty:
                continue
            if event == expected:
                ctl.pump()
                return
        raise AssertionError(f"the {kind} readers never reported {expected}")

    stickers = {}
    try:
        table.readers.start(post)
        mock.buttons.start(ctl.post)
        mock.press("ok")
        ctl.pump()
        match = ctl.session.match
        family, pack_type = match.game.pack.family, match.game.pack.name

        def uid_of(card, copy):
            uid = ctl.registry.uid_for(card, family, copy)
            if uid is None:
                ctl.registry.enroll_virtual(pack_type)
                uid = ctl.registry.uid_for(card, family, copy)
            return uid

        bot = Bot(match.game, random.Random(1), uid_of, True)
        bot.new_hand(match.hand.state)
        dwell = settings.debounce_ms / 1000 + 0.05
        moves = 0
        while (move := bot.next_move()) is not None:
            before = len(ctl.session.hand().actions)
            if move.kind == "tap":
                card = stickers.setdefault(move.uid, Ntag213(move.uid))
                table.place(card, move.place)
                wait_for(CardArrived(move.place, move.uid))
                mock.clock.advance(dwell)
                ctl.pump()
                table.remove(card)
                wait_for(CardLeft(move.place, move.uid))
            else:
                mock.press(move.button)
                ctl.pump()
            assert len(ctl.session.hand().actions) == before + 1, (move, ctl.state)
            moves += 1
        assert moves >= 30  # the trump card and every card of the hand
        assert ctl.session.hand().flow.pending().kind == "done"  # the hand is over
        assert sum(1 for a in ctl.session.hand().actions if a.kind == "card") == moves
    finally:
        table.close()
        mock.close()
        ctl.close()
