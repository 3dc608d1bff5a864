"""A name the command line does not know is answered with the names it does.

`explain(exc)` is the message of an engine error about a name (a game, an
option), followed by the valid names: what `cardtable run --game nosuch`
and `cardtable sim --game nosuch` print."""

from __future__ import annotations

from engine.errors import UnknownGame, UnknownOption


def games_list() -> str:
    """"filicau, filko, ...": every game's id (docs/games.md describes them)."""
    from engine.games import game_ids

    return ", ".join(game_ids())


def options_list(game_id: str) -> str:
    from engine.games import game_class

    specs = game_class(game_id).option_specs
    return ", ".join(s.name for s in specs) if specs else "none"


def explain(exc: BaseException) -> str:
    """`exc`'s message, and for an unknown game or option the valid names."""
    text = str(exc)
    if isinstance(exc, UnknownGame):
        return f"{text} The games are: {games_list()} (docs/games.md)."
    if isinstance(exc, UnknownOption) and exc.params.get("value") is None:
        game = str(exc.params.get("game", ""))
        try:
            return f"{text} Its options are: {options_list(game)}."
        except UnknownGame:
            return text
    return text
