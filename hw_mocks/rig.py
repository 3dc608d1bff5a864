"""A controller on a whole fake table, ready to play: what the tests, the
benchmark and the simulator use.

    rig = Rig(TableSettings(game="filicau", knowledge="scan"))
    rig.press("ok")                      # start a match
    bot = rig.bot(random.Random(1))      # a generic player for the current game
    rig.play_hand(bot)                   # learn the hands (scan) and play them out
    rig.display.image                    # the frame on the OLED (luma dummy)
    rig.mock.indicators.seat_patterns    # the LEDs; rig.mock.factory.pin(n) the pins
    rig = rig.restart()                  # "pull the plug" and start again on the same state

Everything runs on the calling thread in table time (no sleeping): each move
posts the fakes' events and handles them at once.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hw_mocks.bot import Bot, Move
from hw_mocks.table import MockTable
from table.controller.loop import Controller
from table.controller.session import snapshot
from table.events_script import Player
from table.ports import DEALER
from table.settings import TableSettings


class Rig:
    """See the module docstring. `state_dir=None` keeps the journal and the
    registry in a temporary folder (in /dev/shm when there is one) removed by
    `close()`."""

    def __init__(self, settings: TableSettings, state_dir: str | Path | None = None, *,
                 seats: int = 6, seed: int = 0, strict: bool = True,
                 virtual_packs: bool = True, seed_source: Callable[[], int] | None = None
                 ) -> None:
        self._temp = None
        if state_dir is None:
            # memory-backed where there is one: the journal still syncs every
            # entry, the sync just costs nothing
            shm = Path("/dev/shm")
            where = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
            self._temp = tempfile.TemporaryDirectory(prefix="cardtable-rig-", dir=where)
            state_dir = self._temp.name
        self.settings = settings
        self.state_dir = Path(state_dir)
        self.seats = seats
        self.seed = seed
        self.strict = strict
        self.virtual_packs = virtual_packs
        seeds = random.Random(seed)
        self._seed_source = seed_source or (lambda: seeds.randrange(2**62))
        self.mock = MockTable(seats=seats, dealer_reader=settings.has_dealer_reader,
                              screen=settings.screen)
        self.ctl = Controller.open(settings, self.mock.ports, self.state_dir,
                                   seed_source=self._seed_source, strict=strict)
        self.registry = self.ctl.registry
        self.player = Player(self.ctl, self.mock, self.registry, virtual_packs=virtual_packs)

    # ----- what the table shows -----------------------------------------------------------

    @property
    def state(self) -> str:
        return self.ctl.state

    @property
    def display(self) -> Any:
        return self.mock.display

    @property
    def view(self) -> Any:
        return self.ctl.view

    @property
    def session(self) -> Any:
        return self.ctl.session

    def snapshot(self) -> tuple[Any, ...]:
        return snapshot(self.ctl.session)

    # ----- moves ----------------------------------------------------------------------------

    def tap(self, place: int, card_or_uid: str) -> None:
        self.player.tap(place, self.player.uid(card_or_uid))

    def press(self, button: str) -> None:
        self.player.press(button)

    def hold(self, button: str) -> None:
        self.player.hold(button)

    def do(self, move: Move) -> None:
        if move.kind == "tap":
            self.player.tap(move.place, move.uid)
        else:
            if self.ctl.model.overlay is not None and move.button == "ok":
                self.player.press("ok")   # the first OK only takes the message away
            self.player.press(move.button)

    # ----- playing with a bot ------------------------------------------------------------

    def uid_of(self, card: Any, copy: int) -> str:
        """The sticker of a card (copy 1 or 2) in the registry (a virtual pack
        is enrolled when none is)."""
        return self.player.uid(f"{card.code}#{copy}")

    def bot(self, rng: random.Random) -> Bot:
        match = self.ctl.session.match
        if match is None:
            raise RuntimeError("start a match first (press OK)")
        return Bot(match.game, rng, self.uid_of, self.settings.has_dealer_reader)

    def learn_hands(self, bot: Bot) -> None:
        """Deal a hand with the bot and let the table learn it (scan / dealt)."""
        match = self.ctl.session.match
        assert match is not None and match.hand is not None
        knowledge = match.selection.knowledge
        bot.new_hand(match.hand.state, knowledge)
        moves = bot.scan_moves() if knowledge == "scan" else \
            bot.deal_moves() if knowledge == "dealt" else []
        for m in moves:
            self.do(m)

    def play_hand(self, bot: Bot, learn: bool = True,
                  after_move: Callable[[Move], None] | None = None) -> int:
        """Learn the hand (unless already done) and play it to its end with
        the bot; returns the number of moves. Raises if the table refuses a move."""
        if learn:
            self.learn_hands(bot)
        n = 0
        while (move := bot.next_move()) is not None:
            hand = self.ctl.session.hand()
            before = len(hand.actions)
            self.do(move)
            hand = self.ctl.session.hand()
            if len(hand.actions) != before + 1:
                last = list(self.ctl.notices)[-3:]
                raise AssertionError(f"the table did not take {move} in {self.state}: {last}")
            n += 1
            if after_move is not None:
                after_move(move)
        return n

    def confirm(self) -> None:
        """Press OK for what the screen asks (a first OK takes a message away)."""
        if self.ctl.model.overlay is not None:
            self.press("ok")
        self.press("ok")

    def next_hand(self) -> None:
        """From a hand's result, go on to the next hand (or the match's end)."""
        if self.state != "match_result":
            raise AssertionError(f"not at a hand's result but in {self.state}")
        self.confirm()

    # ----- restarting -------------------------------------------------------------------------

    def restart(self, settings: TableSettings | None = None) -> Rig:
        """Drop this controller without any cleanup (as if the power went) and
        start a new one on the same state folder; returns the new rig."""
        new = Rig.__new__(Rig)
        new.__dict__.update(self.__dict__)
        new.settings = settings or self.settings
        self.mock.close()
        new.mock = MockTable(seats=self.seats, dealer_reader=new.settings.has_dealer_reader,
                             screen=new.settings.screen)
        new.ctl = Controller.open(new.settings, new.mock.ports, self.state_dir,
                                  seed_source=self._seed_source, strict=self.strict)
        new.registry = new.ctl.registry
        new.player = Player(new.ctl, new.mock, new.registry, virtual_packs=self.virtual_packs)
        self._temp = None   # the new rig owns the temporary folder now
        return new

    def close(self) -> None:
        self.ctl.close()
        self.mock.close()
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None


def place_name(place: int) -> str:
    return "dealer" if place == DEALER else str(place)
