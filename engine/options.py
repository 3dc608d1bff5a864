"""Variant options: declared per game, validated strictly (unknown = error)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import BadRequest, UnknownOption


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    `choices` lists the allowed values of a choice option (strings, bools or
    ints). An integer option instead gives `minimum` and `maximum`.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    doc: str = ""

    def allowed(self) -> str:
        if self.choices:
            return ", ".join(_show(c) for c in self.choices)
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        return f"an integer {lo}..{hi}"

    def check(self, game: str, value: Any) -> Any:
        if self.choices:
            # bool is an int subclass: compare types too, so 1 is not True.
            for c in self.choices:
                if value == c and type(value) is type(c):
                    return c
            raise UnknownOption(game, self.name, value, self.allowed())
        if isinstance(value, bool) or not isinstance(value, int):
            raise UnknownOption(game, self.name, value, self.allowed())
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise UnknownOption(game, self.name, value, self.allowed())
        return value


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def validate(game: str, specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None
             ) -> dict[str, Any]:
    """Defaults overlaid with `given`; any unknown name or value raises `UnknownOption`."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise BadRequest("options must be an object")
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            raise UnknownOption(game, str(name))
        out[name] = spec.check(game, value)
    return out
