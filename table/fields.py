"""Configuration fields declared once.

A setting is a dataclass field whose metadata carries its check; its default
is the field's default. `table.config` reads every such field the same way,
so a key's type, range and default are written in exactly one place:

    @dataclass(frozen=True)
    class ButtonsConfig:
        hold_s: float = setting(1.0, Seconds(0.2, 10))
        bounce_ms: int = setting(30, Whole(0, 500))

Every numeric setting has a range (a test walks them): a number out of it,
`inf` or `nan` is a mistake named with the key and the range.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Sequence
from dataclasses import field
from typing import Any

#: The key of a field's metadata that holds its `Check`.
CHECK = "cardtable.check"


def setting(default: Any, check: Check) -> Any:
    """A dataclass field with its default and its check (see module docstring)."""
    return field(default=default, metadata={CHECK: check})


def check_of(f: Any) -> Check | None:
    """The `Check` of a dataclass field, None for a field declared without one."""
    found = f.metadata.get(CHECK)
    return found if isinstance(found, Check) else None


# ----- how values are named in messages ----------------------------------------------------

def kind(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a decimal point"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


_short = reprlib.Repr()
_short.maxlevel = 3
_short.maxlist = 8
_short.maxstring = 60
_short.maxother = 60


def show(value: object) -> str:
    """A value as the person wrote it (shortened: a mistake may be huge)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{_short.repr(value)[1:-1]}"' if len(value) > 60 else f'"{value}"'
    if isinstance(value, dict):
        return "a table"
    return _short.repr(value)


def one_of(choices: Sequence[object]) -> str:
    return "one of " + ", ".join(show(c) for c in choices)


# ----- the checks ----------------------------------------------------------------------------

class Check:
    """What a setting accepts: `problem(value)` says what is wrong (None: nothing);
    `convert(value)` gives the value the program keeps.

    A check is a value, as a frozen dataclass would be: immutable, equal and
    hashed by its class and fields (`__slots__`), shown as `Whole(lo=0, hi=9)`.
    The checks are plain classes because `@dataclass` compiles each method it
    writes when the module is imported (≈ 1 ms a class here, ≈ 13 ms on a Pi
    Zero 2 W), and the table checks its configuration before it is ready."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Check)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__, self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a check does not change")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a check does not change")

    def _set(self, **values: Any) -> None:
        """Set the fields, once (in `__init__`)."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def problem(self, value: Any) -> str | None:
        raise NotImplementedError

    def convert(self, value: Any) -> Any:
        return value


class Whole(Check):
    """A whole number lo..hi."""

    __slots__ = ("lo", "hi")
    lo: int
    hi: int

    def __init__(self, lo: int, hi: int) -> None:
        self._set(lo=lo, hi=hi)

    def problem(self, value: Any) -> str | None:
        return whole_problem(value, self.lo, self.hi)


def whole_problem(value: Any, lo: int, hi: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be a whole number {lo}..{hi}, not {kind(value)} {show(value)}"
    if not lo <= value <= hi:
        return f"must be {lo}..{hi}, not {value}"
    return None


class Seconds(Check):
    """A duration lo..hi seconds (whole or decimal; never inf or nan)."""

    __slots__ = ("lo", "hi")
    lo: float
    hi: float

    def __init__(self, lo: float, hi: float) -> None:
        self._set(lo=lo, hi=hi)

    def problem(self, value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return (f"must be seconds (a number {self.lo:g}..{self.hi:g}), "
                    f"not {kind(value)} {show(value)}")
        if not self.lo <= value <= self.hi:   # also refuses nan
            return f"must be {self.lo:g}..{self.hi:g} seconds, not {show(value)}"
        return None

    def convert(self, value: Any) -> float:
        return float(value)


class OneOf(Check):
    """One of a few values (of the same type: 1 is not true)."""

    __slots__ = ("choices",)
    choices: tuple[Any, ...]

    def __init__(self, choices: tuple[Any, ...]) -> None:
        self._set(choices=choices)

    def problem(self, value: Any) -> str | None:
        if any(value == c and type(value) is type(c) for c in self.choices):
            return None
        return f"must be {one_of(self.choices)}, not {show(value)}"


class Flag(Check):
    """true or false."""

    __slots__ = ()

    def problem(self, value: Any) -> str | None:
        if isinstance(value, bool):
            return None
        return f"must be true or false, not {kind(value)} {show(value)}"


class Text(Check):
    """Text that is not blank, at most `max_len` characters."""

    __slots__ = ("max_len",)
    max_len: int

    def __init__(self, max_len: int = 200) -> None:
        self._set(max_len=max_len)

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, str):
            return f"must be text in quotes, not {kind(value)} {show(value)}"
        if not value.strip():
            return "must not be empty"
        if len(value) > self.max_len:
            return f"is too long ({len(value)} characters; at most {self.max_len})"
        return None


#: BCM numbers on the 40-pin header that a program may drive (0 and 1 belong
#: to the HAT EEPROM).
USABLE_PINS = range(2, 28)


class Pin(Check):
    """A BCM pin; `optional`: `false` means not wired (kept as None)."""

    __slots__ = ("optional",)
    optional: bool

    def __init__(self, optional: bool = True) -> None:
        self._set(optional=optional)

    def problem(self, value: Any) -> str | None:
        if value is False and self.optional:
            return None
        return pin_problem(value, self.optional)

    def convert(self, value: Any) -> int | None:
        return None if value is False else int(value)


def pin_problem(value: Any, optional: bool) -> str | None:
    wired = " (or false if not wired)" if optional else ""
    if isinstance(value, bool) or not isinstance(value, int):
        return (f"must be a GPIO number (BCM) 2..27{wired}, "
                f"not {kind(value)} {show(value)}")
    if value in (0, 1):
        return f"GPIO {value} is reserved for the HAT EEPROM (ID_SD/ID_SC); use 2..27"
    if value not in USABLE_PINS:
        return (f"must be a GPIO number (BCM) 2..27, not {value} "
                "(use BCM numbers, not physical pins)")
    return None


class Custom(Check):
    """A check of its own (`test` returns the problem), and a conversion."""

    __slots__ = ("test", "to")
    test: Callable[[Any], str | None]
    to: Callable[[Any], Any] | None

    def __init__(self, test: Callable[[Any], str | None],
                 to: Callable[[Any], Any] | None = None) -> None:
        self._set(test=test, to=to)

    def problem(self, value: Any) -> str | None:
        return self.test(value)

    def convert(self, value: Any) -> Any:
        return self.to(value) if self.to is not None else value


class Derived(Check):
    """Not set in its section: it comes from elsewhere (`where`)."""

    __slots__ = ("where",)
    where: str

    def __init__(self, where: str) -> None:
        self._set(where=where)

    def problem(self, value: Any) -> str | None:
        return f"is not set here: it comes from {self.where}"


def like(default: Any) -> Callable[[Any], str | None]:
    """A check for a field declared without one: same type as its default."""
    def check(value: Any) -> str | None:
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(default, float):
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        elif isinstance(default, tuple | list):
            ok = isinstance(value, list)
        else:
            ok = isinstance(value, type(default))
        return None if ok else f"must be {kind(default)}, not {kind(value)} {show(value)}"
    return check
