"""The controller on exactly what `build_ports(config)` returns for the
reference configuration: the real GPIO adapters on gpiozero's MockFactory,
the real OLED adapter on luma's SSD1306 class writing into a model of the
panel, and the real SPI readers' driver on emulated MFRC522s. A card is
refused (the error on the panel, the seat's LED blinking, the buzzer), the
right card is taken, and UNDO takes it back."""

from __future__ import annotations

import queue
import random
import time

import pytest

from hw_mocks import fake_rpi
from hw_mocks.bot import Bot
from hw_mocks.clock import FakeClock
from hw_mocks.mfrc522 import Board, Ntag213, VirtualClock
from table.config import loads
from table.controller import Controller
from table.drivers import build_ports, close_ports, make_pin_factory
from table.drivers.display import open_display
from table.drivers.reader_wiring import spi_places
from table.drivers.spi_readers import SpiReaders
from table.ports import DEALER, CardArrived, CardLeft
from table.screens.view import ErrorView, PlayView, TextView
from tests.drivers.oled_panel import CapturePanel


class BuiltTable:
    def __init__(self, state_dir):
        self.config = config = loads("")
        self.board = Board(VirtualClock(pace=1.0))
        places = spi_places(config)
        self.chips = {place: self.board.add_reader(r.bus, r.device, rst_pin=r.reset_pin)
                      for place, r in places.items()}
        fake_rpi.install(self.board)
        readers = SpiReaders(places, speed_hz=config.readers.spi_speed_hz,
                             clock=self.board.clock, sleep=self.board.clock.sleep)
        self.panel = CapturePanel("ssd1306")
        self.factory = make_pin_factory("mock")
        self.clock = FakeClock()
        self.ports = build_ports(config, pin_factory=self.factory, readers=readers,
                                 display=open_display(config.display, serial=self.panel),
                                 clock=self.clock)
        seeds = random.Random(11)
        self.ctl = Controller.open(config.table, self.ports, state_dir, strict=True,
                                   seed_source=lambda: seeds.randrange(2**62))
        self.seen: queue.Queue = queue.Queue()
        self.stickers: dict[str, Ntag213] = {}
        self.ports.readers.start(self._post)
        self.ports.buttons.start(self.ctl.post)

    def _post(self, event):
        self.seen.put(event)
        self.ctl.post(event)

    def wait_for(self, expected):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self.seen.get(timeout=0.05) == expected:
                    self.ctl.pump()
                    return
            except queue.Empty:
                pass
        raise AssertionError(f"the readers never reported {expected}")

    def tap(self, place, uid):
        card = self.stickers.setdefault(uid, Ntag213(uid))
        self.board.place(card, self.chips[place])
        self.wait_for(CardArrived(place, uid))
        self.clock.advance(self.config.table.debounce_ms / 1000 + 0.05)
        self.ctl.pump()
        self.board.remove(card)
        self.wait_for(CardLeft(place, uid))

    def press(self, name):
        pin = self.factory.pin(getattr(self.config.buttons, name))
        pin.drive_low()
        self.clock.advance(0.1)
        pin.drive_high()
        self.clock.advance(0.1)
        self.ctl.pump()

    def seat_pin(self, seat):
        return self.factory.pin(self.config.seats[seat].led)

    def inverse(self):
        """Whether the panel shows an error: light background, dark letters."""
        rows = self.panel.pixels()
        return sum(map(sum, rows)) > len(rows) * len(rows[0]) // 2

    def close(self):
        self.ctl.close()
        close_ports(self.ports)
        fake_rpi.uninstall()


@pytest.fixture
def table(tmp_path):
    t = BuiltTable(tmp_path)
    yield t
    t.close()


def test_a_refusal_and_an_undo_on_the_built_ports(table):
    ctl = table.ctl
    table.press("ok")                                     # a new match
    match = ctl.session.match
    assert match is not None and ctl.state.startswith("match")
    registry = ctl.registry

    def uid_of(card, copy):
        uid = registry.uid_for(card, match.game.pack.family, copy)
        if uid is None:
            registry.enroll_virtual(match.game.pack.name)
            uid = registry.uid_for(card, match.game.pack.family, copy)
        return uid

    bot = Bot(match.game, random.Random(4), uid_of, True)
    bot.new_hand(match.hand.state, "open")
    while ctl.session.hand().flow.pending().kind != "play":   # the trump shown, on DEALER
        move = bot.next_move()
        assert move.kind == "tap"
        table.tap(move.place, move.uid)
    assert any(a.place == DEALER for a in ctl.session.hand().actions)
    assert isinstance(ctl.view, PlayView) and not table.inverse()

    # the first card of the hand, put down by the wrong seat: refused
    move = bot.next_move()
    turn = ctl.session.hand().flow.pending().seat
    assert move.seat == turn
    wrong = (turn + 2) % 4                                # the partner, not next to play
    actions = list(ctl.session.hand().actions)
    buzzer = table.factory.pin(table.config.buzzer.pin)
    buzzer.clear_states()
    table.tap(wrong, move.uid)
    assert isinstance(ctl.view, ErrorView)
    name_turn, name_wrong = (table.config.seats[s].name for s in (turn, wrong))
    assert ctl.view.message == f"It is seat {name_turn}'s turn, not seat {name_wrong}'s."
    assert table.inverse()                                # on the panel itself
    assert list(ctl.session.hand().actions) == actions    # nothing changed
    time.sleep(0.35)                                      # the LED blinks in real time
    blinks = [s.state for s in table.seat_pin(wrong).states]
    assert blinks.count(True) >= 2 and blinks.count(False) >= 2
    ctl.ports.indicators.wait_buzzer(3.0)
    assert True in [s.state for s in buzzer.states]

    # the right seat plays it: taken, the error goes, the LED stops blinking
    table.tap(turn, move.uid)
    hand = ctl.session.hand()
    assert len(hand.actions) == len(actions) + 1 and hand.actions[-1].card == move.card
    assert isinstance(ctl.view, PlayView) and not table.inverse()
    assert not table.seat_pin(wrong).state
    assert table.seat_pin(hand.flow.pending().seat).state    # the next seat's light

    # UNDO asks first; OK takes the card back
    table.press("undo")
    view = ctl.view
    assert isinstance(view, TextView)
    assert view.header.title == "Take back?" and view.hint == "OK yes · UNDO no"
    (line,) = view.lines
    assert line.startswith(f"Seat {table.config.seats[turn].name}: ")
    assert line.endswith(f"({move.card.code})")
    table.press("ok")
    hand = ctl.session.hand()
    assert list(hand.actions) == actions
    assert hand.flow.pending().seat == turn
    assert table.seat_pin(turn).state and not table.inverse()
    # and the same card can be played again
    table.tap(turn, move.uid)
    assert len(ctl.session.hand().actions) == len(actions) + 1
