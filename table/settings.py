"""What the controller needs to know about its table, independent of hardware.

`table.config` builds these from the TOML configuration file; tests and the
simulator build them directly. New fields must have defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Knowledge = Literal["scan", "dealt", "open"]
Language = Literal["en", "ro", "hu"]
KNOWLEDGE_MODES: tuple[str, ...] = ("scan", "dealt", "open")
LANGUAGES: tuple[str, ...] = ("en", "ro", "hu")


@dataclass(frozen=True)
class TableSettings:
    """The game side of a table.

    * `game`, `options`: the game id and its variant options (validated by the engine).
    * `knowledge`: how the table learns the hands: `scan` (players tap their
      cards before play), `dealt` (the dealer passes every card over the
      dealer's reader while dealing) or `open` (no scan; proven revokes are reported).
    * `language`: of every text on the screen.
    * `debounce_ms`: how long a card must be seen steadily before it counts.
    * `admin_uids`: tags (UIDs, upper-case hex) that open enrollment and match reset.
    * `seat_names`: how the screen names each seat (default "1", "2", ...).
    * `screen`: the display's size in pixels.
    * `has_dealer_reader`: whether the table has the dealer's own reader
      (`table.ports.DEALER`); without it the dealer uses his seat's reader.
    * `notice_s`: how long a passing notice (a trick won) stays on the screen.
    * `error_s`: how long a refusal stays on the screen at most (it also goes
      at the next accepted card or button press).
    """

    game: str = "filicau"
    options: dict[str, Any] = field(default_factory=dict)
    knowledge: Knowledge = "open"
    language: Language = "en"
    debounce_ms: int = 150
    admin_uids: tuple[str, ...] = ()
    seat_names: tuple[str, ...] = ()
    screen: tuple[int, int] = (128, 64)
    has_dealer_reader: bool = True
    notice_s: float = 2.5
    error_s: float = 8.0
