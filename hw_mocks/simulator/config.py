"""What the simulator starts with, from the command line or the setup screen."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hw_mocks.simulator.pace import Pace
from table.settings import TableSettings, knowledge_mode, language_code


def new_seed() -> int:
    """A seed for a new random deal (shown on the screen, `--seed` repeats it)."""
    return random.SystemRandom().randrange(1, 1_000_000)


@dataclass
class SimConfig:
    """`bot` names every bot seat's bot, or maps seats to bot names; `seed`
    None draws a new one (`new_seed`) when the table starts."""

    game: str = "filicau"
    options: dict[str, Any] = field(default_factory=dict)
    knowledge: str = "open"
    language: str = "en"
    humans: tuple[int, ...] = (0,)
    bot: str | Mapping[int, str] = "simple"
    seed: int | None = None
    pace: Pace = field(default_factory=Pace.human)
    show_all_hands: bool = False
    state_dir: str | None = None
    #: the table speaks (`--voice`, hw_mocks.simulator.voice)
    voice: bool = False

    def bot_for(self, seat: int) -> str:
        """The bot at `seat` (`-1`: the one most seats have)."""
        if isinstance(self.bot, str):
            return self.bot
        if seat in self.bot:
            return self.bot[seat]
        names = list(self.bot.values())
        return max(names, key=names.count) if names else "simple"

    def settings(self) -> TableSettings:
        from hw_mocks.simulator.headless import demo_settings

        if not self.humans:
            return demo_settings(self.game, self.options, self.knowledge, self.language)
        return TableSettings(game=self.game, options=dict(self.options),
                             knowledge=knowledge_mode(self.knowledge),
                             language=language_code(self.language))
