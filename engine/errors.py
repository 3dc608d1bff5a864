"""Errors the engine raises. Each carries a reason code of the referee spec.

They subclass builtins (`ValueError`, `LookupError`) so callers that do not
know the engine can still catch them sensibly. `message(lang)` renders the
sentence for a person in English, Romanian or Hungarian from the error's
catalogue: the engine's own (`engine.messages.CORE`), or a game's, for the
errors a game raises (each game's `messages` module subclasses these).
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.messages import CORE, Catalogue


class EngineError(Exception):
    """Base of every engine error: a spec reason code plus message parameters."""

    reason: str = "bad_request"
    #: Where `message` finds the sentence for `reason`.
    catalogue: ClassVar[Catalogue] = CORE

    def __init__(self, reason: str | None = None, **params: Any) -> None:
        if reason is not None:
            self.reason = reason
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        return self.catalogue.render(self.reason, lang, **self.params)


class BadRequest(EngineError, ValueError):
    """Input that does not make sense: wrong number of cards, a bad seat, and so on.

    `detail` is a plain English explanation; it is shown as is in every language.
    """

    reason = "bad_request"

    def __init__(self, detail: str, reason: str | None = None, **params: Any) -> None:
        super().__init__(reason, detail=detail, **params)


class UnknownCard(EngineError, ValueError):
    """A code that is not a card, or not a card of this game's pack."""

    reason = "unknown_card"

    def __init__(self, code: object, pack: str | None = None) -> None:
        super().__init__(None, code=str(code), pack=pack or "")


class UnknownGame(EngineError, LookupError):
    reason = "unknown_game"

    def __init__(self, game: object) -> None:
        super().__init__(None, game=str(game))


class UnknownOption(EngineError, ValueError):
    """An option name the game does not have, or a value it does not allow."""

    reason = "unknown_option"

    def __init__(self, game: str, option: str, value: object = None, allowed: str = "") -> None:
        super().__init__(None, game=game, option=option, value=value, allowed=allowed)


class IllegalPlay(EngineError, ValueError):
    """A play the rules refuse. Nothing changed; the same seat may play again.

    Reasons: `not_your_turn`, `not_in_hand`, `already_played`, `unknown_card`,
    `must_follow`, `must_trump`, `must_beat`, `hand_over`, and game codes.
    """

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason, **params)
