"""`cardtable sim --club URL`: the simulator's window with its table in a
club room (its journal published to the hub)."""

from __future__ import annotations

from hw_mocks.simulator.app import SimApp, SimConfig
from hw_mocks.simulator.club import ClubSimTable
from hw_mocks.simulator.config import new_seed
from hw_mocks.simulator.driver import SimTable
from table.club.config import ClubConfig


class ClubSimApp(SimApp):
    """`cardtable sim --club URL`: the simulator's window, its table in the room."""

    def __init__(self, config: SimConfig, club: ClubConfig, ask_setup: bool = False) -> None:
        super().__init__(config, ask_setup=ask_setup)
        self.club = club

    def make_table(self, config: SimConfig) -> SimTable:
        return ClubSimTable(config.settings(), self.club, humans=config.humans,
                            bot=config.bot,
                            seed=config.seed if config.seed is not None else new_seed(),
                            state_dir=config.state_dir, pace=config.pace)
