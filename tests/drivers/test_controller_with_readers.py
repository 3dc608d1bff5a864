"""The controller plays a whole Filicău hand from cards moved on and off
emulated MFRC522 readers, through each real readers' driver: the direct-SPI
driver (the real mfrc522 package on the register emulator) and the hub's
host driver (the real firmware on a pty pair), and with the hub unplugged
and plugged back in the middle of the hand. Nothing but the readers is
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
from table.ports import DEALER, CardArrived, CardLeft, Ports, ReaderBack, ReaderOffline
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
    def __init__(self, places=PLACES):
        self.places = list(places)
        self.hub = FakeHub(channels=len(self.places))
        self.hub.plug()
        self.readers = HubReaders({p: i for i, p in enumerate(self.places)},
                                  find_port=self.hub.find_port, poll_rate=100, retry_s=0.1,
                                  silence_s=1.5)

    def place(self, card, place):
        self.hub.place(card, self.places.index(place))

    def remove(self, card):
        self.hub.remove(card)

    def close(self):
        self.readers.stop()
        self.hub.unplug()


@pytest.fixture(autouse=True)
def _no_fakes_left_behind():
    yield
    fake_rpi.uninstall()


class Playing:
    """The controller on `readers` (the rest of the table fake), with a bot
    making the moves: cards go onto the emulated readers through `table`."""

    def __init__(self, table, tmp_path, seats=4):
        self.table = table
        self.mock = MockTable(seats=seats, dealer_reader=True)
        self.settings = TableSettings(game="filicau", knowledge="open")
        ports = Ports(readers=table.readers, display=self.mock.display,
                      indicators=self.mock.indicators, buttons=self.mock.buttons,
                      clock=self.mock.clock)
        seeds = random.Random(3)
        self.ctl = Controller.open(self.settings, ports, tmp_path,
                                   seed_source=lambda: seeds.randrange(2**62), strict=True)
        self.seen = queue.Queue()
        self.stickers = {}
        self.bot = None

    def post(self, event):
        self.seen.put(event)
        self.ctl.post(event)

    def wait_for(self, wanted, what):
        """Wait (on the readers' own thread's time) until `wanted(event)` held
        for an event, then let the controller handle what came."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                event = self.seen.get(timeout=0.05)
            except queue.Empty:
                continue
            if wanted(event):
                self.ctl.pump()
                return event
        raise AssertionError(f"the readers never reported {what}")

    def start_match(self):
        self.table.readers.start(self.post)
        self.mock.buttons.start(self.ctl.post)
        self.mock.press("ok")
        self.ctl.pump()
        match = self.ctl.session.match
        family, pack_type = match.game.pack.family, match.game.pack.name

        def uid_of(card, copy):
            uid = self.ctl.registry.uid_for(card, family, copy)
            if uid is None:
                self.ctl.registry.enroll_virtual(pack_type)
                uid = self.ctl.registry.uid_for(card, family, copy)
            return uid

        self.bot = Bot(match.game, random.Random(1), uid_of, True)
        self.bot.new_hand(match.hand.state)

    def actions(self):
        return list(self.ctl.session.hand().actions)

    def play(self, moves=None):
        """Make the bot's next `moves` moves (all: to the hand's end), each
        taken by the table; returns how many were made."""
        dwell = self.settings.debounce_ms / 1000 + 0.05
        made = 0
        while (moves is None or made < moves) and (move := self.bot.next_move()) is not None:
            before = len(self.actions())
            if move.kind == "tap":
                card = self.stickers.setdefault(move.uid, Ntag213(move.uid))
                self.table.place(card, move.place)
                arrived = CardArrived(move.place, move.uid)
                self.wait_for(lambda e, x=arrived: e == x, arrived)
                self.mock.clock.advance(dwell)
                self.ctl.pump()
                self.table.remove(card)
                left = CardLeft(move.place, move.uid)
                self.wait_for(lambda e, x=left: e == x, left)
            else:
                self.mock.press(move.button)
                self.ctl.pump()
            assert len(self.actions()) == before + 1, (move, self.ctl.state)
            made += 1
        return made

    def close(self):
        self.table.close()
        self.mock.close()
        self.ctl.close()


@pytest.mark.parametrize("kind", ["spi", "hub"])
def test_a_full_filicau_hand_through_the_readers(kind, tmp_path):
    table = SpiTable() if kind == "spi" else HubTable()
    game = Playing(table, tmp_path)
    try:
        game.start_match()
        moves = game.play()
        assert moves >= 30  # the trump card and every card of the hand
        assert game.ctl.session.hand().flow.pending().kind == "done"  # the hand is over
        assert sum(1 for a in game.actions() if a.kind == "card") == moves
    finally:
        game.close()


def test_a_hub_unplugged_in_the_middle_of_a_hand_loses_nothing(tmp_path):
    """Seats 0-3 and the dealer's reader on the hub, and a fifth seat's reader
    that a four-player game leaves dark. The hub is unplugged after a dozen
    moves: every reader in use is shown offline, the table waits; plugged
    back, they are back, the fifth seat is dark again, and the hand goes on
    to its end with nothing lost."""
    table = HubTable(places=[*PLACES, 4])
    game = Playing(table, tmp_path, seats=5)
    ctl = game.ctl
    try:
        game.start_match()
        hub = table.hub
        assert wait_until(lambda: hub.hub.used == [True] * 5 + [False])  # seat 4: USE left it out
        assert game.play(12) == 12
        before = game.actions()
        hub.unplug()
        gone = set()
        while gone != set(PLACES):
            event = game.wait_for(lambda e: isinstance(e, ReaderOffline), "the readers offline")
            gone.add(event.seat)
        assert ctl.model.offline == set(PLACES)  # seat 4 not looked at: not reported
        assert game.mock.indicators.status_pattern == "fast_blink"  # the table shows it
        assert "offline" in ctl.presenter.banner()
        hub.plug()  # the firmware boots with every channel in use
        back = set()
        while back != set(PLACES):
            event = game.wait_for(lambda e: isinstance(e, ReaderBack), "the readers back")
            back.add(event.seat)
        assert ctl.model.offline == set()
        assert wait_until(lambda: hub.hub.used == [True] * 5 + [False])  # told again
        assert not hub.board.readers[5].antenna_on
        assert game.actions() == before  # nothing lost, nothing added
        moves = game.play()
        assert ctl.session.hand().flow.pending().kind == "done"
        assert game.actions()[:len(before)] == before
        assert sum(1 for a in game.actions() if a.kind == "card") == 12 + moves
        assert table.readers.counters["connects"] == 2
    finally:
        game.close()


def wait_until(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.02)
    return predicate()
