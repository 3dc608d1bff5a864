"""Reading the fields of one referee request, with a clear error for each mistake."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import BadRequest, Card, Game, get_game
from engine.games.base import check_seat
from engine.messages import LANGS


class Request:
    """One decoded JSON request. Accessors raise `BadRequest` naming the field."""

    def __init__(self, obj: Mapping[str, Any]) -> None:
        self.obj = obj

    def __contains__(self, name: str) -> bool:
        return name in self.obj

    def get(self, name: str, default: Any = None) -> Any:
        return self.obj.get(name, default)

    @property
    def op(self) -> str:
        op = self.obj.get("op")
        if not isinstance(op, str):
            raise BadRequest('every request needs "op", a string')
        return op

    @property
    def lang(self) -> str:
        lang = self.obj.get("lang", "en")
        if lang not in LANGS:
            raise BadRequest(f'"lang" must be one of {", ".join(LANGS)}')
        return str(lang)

    def game(self) -> Game:
        if "game" not in self.obj:
            raise BadRequest('this request needs "game"')
        return get_game(self.obj["game"], self.obj.get("options"))

    def require(self, name: str) -> Any:
        if name not in self.obj:
            raise BadRequest(f'this request needs "{name}"')
        return self.obj[name]

    def card(self, game: Game, name: str) -> Card:
        return game.pack.parse(self.require(name))

    def cards(self, game: Game, name: str, default: list[Any] | None = None) -> list[Card]:
        value = self.obj.get(name, default)
        if value is None:
            raise BadRequest(f'this request needs "{name}"')
        if not isinstance(value, list):
            raise BadRequest(f'"{name}" must be a list of card codes')
        return [game.pack.parse(c) for c in value]

    def seat(self, game: Game, name: str = "seat") -> int:
        return check_seat(game, self.require(name), name)

    def suit(self, game: Game, name: str) -> str:
        value = self.require(name)
        if value not in game.pack.suits:
            raise BadRequest(f'"{name}" must be a suit letter: {" ".join(game.pack.suits)}')
        return str(value)

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self.obj.get(name, default)
        if not isinstance(value, bool):
            raise BadRequest(f'"{name}" must be true or false')
        return value

    def int_list(self, name: str, length: int) -> list[int]:
        value = self.require(name)
        if (not isinstance(value, list) or len(value) != length
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise BadRequest(f'"{name}" must be a list of {length} integers')
        return list(value)
