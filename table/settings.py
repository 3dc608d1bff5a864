"""What the controller needs to know about its table, independent of hardware.

`table.config` builds these from the TOML configuration file ([table]); tests
and the simulator build them directly. New fields must have defaults; a field
declared with `table.fields.setting` carries its check (its type and range),
which the configuration file is held to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, cast

from table.choices import DEFAULT_LANGUAGE, DEFAULT_SCREEN
from table.choices import KNOWLEDGE_MODES as KNOWLEDGE_MODES  # the names' one place
from table.choices import LANGUAGES as LANGUAGES
from table.fields import Custom, Derived, Flag, OneOf, Seconds, Whole, kind, setting, show

Knowledge = Literal["scan", "dealt", "open"]
Language = Literal["en", "ro", "hu"]


def knowledge_mode(value: str) -> Knowledge:
    """`value` as a `Knowledge` mode; ValueError naming the modes if it is none."""
    if value not in KNOWLEDGE_MODES:
        raise ValueError(f"knowledge is one of {', '.join(KNOWLEDGE_MODES)}, not {value!r}")
    return cast(Knowledge, value)


def language_code(value: str) -> Language:
    """`value` as a `Language`; ValueError naming the languages if it is none."""
    if value not in LANGUAGES:
        raise ValueError(f"the language is one of {', '.join(LANGUAGES)}, not {value!r}")
    return cast(Language, value)


def _game_problem(value: Any) -> str | None:
    from engine.errors import UnknownGame
    from engine.games import game_class, game_ids

    try:
        game_class(value)
    except UnknownGame:
        return f"unknown game {show(value)}; the games are: {', '.join(game_ids())}"
    return None


def _uids_problem(value: Any) -> str | None:
    if not isinstance(value, list):
        return f'must be a list of card UIDs, like ["04A1B2C3D4E5F6"], not {kind(value)}'
    for uid in value:
        if not isinstance(uid, str):
            return f"every UID must be text in quotes, not {kind(uid)} {show(uid)}"
        if len(uid) not in (8, 14, 20) or any(c not in "0123456789abcdefABCDEF" for c in uid):
            return (f'"{uid}" is not a card UID: 8, 14 or 20 hexadecimal digits '
                    f"(as `cardtable doctor` shows them)")
    return None


def _upper_uids(value: list[str]) -> tuple[str, ...]:
    return tuple(u.upper() for u in value)


@dataclass(frozen=True)
class TableSettings:
    """The game side of a table.

    * `game`, `options`: the game id and its variant options (validated by the engine).
    * `knowledge`: how the table learns the hands: `scan` (players tap their
      cards before play), `dealt` (the dealer passes every card over the
      dealer's reader while dealing) or `open` (no scan; proven revokes are reported).
    * `language`: of every text on the screen.
    * `debounce_ms`: how long a card must be seen steadily before it counts,
      when it is not read at once; a card read at once is taken back if it is
      gone within that time (table.controller.hygiene).
    * `admin_uids`: tags (UIDs, upper-case hex) that open enrollment and match reset.
    * `seat_names`: how the screen names each seat (default "1", "2", ...).
    * `screen`: the display's size in pixels.
    * `has_dealer_reader`: whether the table has the dealer's own reader
      (`table.ports.DEALER`); without it the dealer uses his seat's reader.
    * `notice_s`: how long a passing notice (a trick won) stays on the screen.
    * `error_s`: how long a refusal stays on the screen at most (it also goes
      at the next accepted card or button press).
    * `practice_hint`: practice mode: MENU during play also shows the card
      the sampled analysis suggests to the seat to play (docs/review.md).
    """

    game: str = setting("filicau", Custom(_game_problem))
    #: checked by the game's own option specs (engine)
    options: dict[str, Any] = field(default_factory=dict)
    knowledge: Knowledge = setting("open", OneOf(KNOWLEDGE_MODES))
    language: Language = setting(DEFAULT_LANGUAGE, OneOf(LANGUAGES))
    debounce_ms: int = setting(150, Whole(0, 5000))
    admin_uids: tuple[str, ...] = setting((), Custom(_uids_problem, _upper_uids))
    seat_names: tuple[str, ...] = setting((), Derived("the names in [[seats]]"))
    screen: tuple[int, int] = setting(DEFAULT_SCREEN,
                                      Derived("[display] width, height and rotate"))
    has_dealer_reader: bool = setting(True, Derived("[dealer]"))
    notice_s: float = setting(2.5, Seconds(0.5, 60))
    error_s: float = setting(8.0, Seconds(1, 600))
    practice_hint: bool = setting(False, Flag())
