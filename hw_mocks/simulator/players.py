"""Who can sit at a simulated seat: the engine's bots by name.

`simple` and `random` are `engine.bots`; `easy`, `good` and `strong` are the
levels of the sampled bot (`engine.analysis.bot.SampledBot`: deals solved a
card, `LEVELS`). A sampled bot thinks for a while, so the window lets it
think off the screen's thread (`slow`).
"""

from __future__ import annotations

from engine.analysis.bot import LEVELS, SampledBot
from engine.bots import BOTS, Bot, make_bot

_SIMPLE = {
    "simple": "keeps its Aces and Tens safe and plays to its partner",
    "random": "plays any legal card",
}


def bot_names() -> list[str]:
    """Every bot a seat can have, the default first."""
    return ["simple", *[n for n in BOTS if n != "simple"], *LEVELS]


def describe(name: str) -> str:
    """One line about a bot, for the setup screen and `--help`."""
    if name in LEVELS:
        return f"the sampled analysis, {LEVELS[name]} deals solved a card (slower, stronger)"
    return _SIMPLE.get(name, name)


def make_player(name: str) -> Bot:
    """The bot called `name` (a clear error naming the choices otherwise)."""
    if name in LEVELS:
        return SampledBot(name)
    if name in BOTS:
        return make_bot(name)
    raise ValueError(f"no bot called {name!r}; there are: {', '.join(bot_names())}")


def slow(name: str) -> bool:
    """Does this bot think long enough to need a worker thread?"""
    return name in LEVELS
