"""The view model: everything a screen shows, already in the players'
language, as plain frozen data. `table.screens.render` draws it; the
controller's presenter (`table.controller.present`) builds it. Nothing here
knows the controller, the engine's classes or the display.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardFace:
    """A card as drawn: `rank` text ("10", "O", "A"...), `suit` letter, its family."""

    rank: str
    suit: str
    family: str

    @classmethod
    def of(cls, code: str, family: str) -> CardFace:
        rank = "10" if code[0] == "T" else code[0]
        return cls(rank, code[1], family)


@dataclass(frozen=True)
class Header:
    """The top line: the game's title, the trump suit (drawn as its sign),
    and a short detail on the right (the trick or hand number)."""

    title: str
    trump: str | None = None
    family: str = "german"
    detail: str = ""


@dataclass(frozen=True)
class SeatCell:
    """One seat in the trick: its name, the card it played to this trick,
    whether it is its turn, whether it won the trick just finished."""

    name: str
    card: CardFace | None = None
    turn: bool = False
    winner: bool = False


@dataclass(frozen=True)
class TeamLine:
    """Points so far in the hand per team, the teams' names and the match status."""

    names: tuple[str, ...]
    points: tuple[int, ...]
    status: str = ""


@dataclass(frozen=True)
class PlayView:
    header: Header
    seats: tuple[SeatCell, ...]
    teams: TeamLine | None
    prompt: str
    banner: str = ""


@dataclass(frozen=True)
class ProgressView:
    """Learning the hands: per seat, how many of its cards are known."""

    header: Header
    prompt: str
    seats: tuple[tuple[str, int, int], ...]
    active: int | None = None
    banner: str = ""


@dataclass(frozen=True)
class ChoiceView:
    """A step with choices: the prompt, the choices (the cursor's one
    highlighted), what the highlighted choice does (`help`), the buttons."""

    header: Header
    prompt: str
    choices: tuple[str, ...]
    cursor: int
    hint: str = ""
    help: str = ""


@dataclass(frozen=True)
class TextView:
    """A titled screen of lines (ready, confirmations, results, info).
    `cards` are drawn on their own line under the title."""

    header: Header
    lines: tuple[str, ...]
    hint: str = ""
    cards: tuple[CardFace, ...] = ()
    inverse: bool = False


@dataclass(frozen=True)
class MenuView:
    title: str
    items: tuple[str, ...]
    cursor: int
    hint: str = ""


@dataclass(frozen=True)
class EnrollView:
    title: str
    card: CardFace | None
    card_name: str
    position: int
    total: int
    message: str = ""
    hint: str = ""


@dataclass(frozen=True)
class Sign:
    """A suit's sign inside a line of text (drawn as the suit's icon)."""

    suit: str
    family: str = "german"


@dataclass(frozen=True)
class ErrorView:
    """A refusal, drawn in inverse video: who (`title`), the rule in one
    short line (`rule`: text and suit signs, drawn in a larger font), the
    whole sentence (`message`), and the card refused (`card`, if any)."""

    title: str
    message: str
    rule: tuple[str | Sign, ...] = ()
    card: CardFace | None = None


View = PlayView | ProgressView | ChoiceView | TextView | MenuView | EnrollView | ErrorView
