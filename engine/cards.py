"""Cards as value objects and their two-character codes (see the referee spec).

A card is a rank and a suit. German (William Tell) and French cards share the
same code space; which codes are valid in a game is decided by its pack
(`engine.packs`), so `Th` is the Ten of hearts in either family.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import UnknownCard

GERMAN_RANKS = ("7", "8", "9", "T", "U", "O", "K", "A")
GERMAN_SUITS = ("a", "l", "h", "b")
FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
FRENCH_SUITS = ("c", "d", "h", "s")

ALL_RANKS = frozenset(GERMAN_RANKS) | frozenset(FRENCH_RANKS)
ALL_SUITS = frozenset(GERMAN_SUITS) | frozenset(FRENCH_SUITS)

#: Where this suit index appears in `suit_mask` arrays, it means "trumps".
TRUMP = 4


@dataclass(frozen=True, slots=True)
class Card:
    """One card: `Card("O", "a")` is the Over of acorns, written `Oa`."""

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in ALL_RANKS or self.suit not in ALL_SUITS:
            raise UnknownCard(self.rank + self.suit)

    @property
    def code(self) -> str:
        return self.rank + self.suit

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @classmethod
    def parse(cls, code: object) -> Card:
        """Parse `Oa`, `Th` or `10h`; anything else raises `UnknownCard`."""
        if not isinstance(code, str):
            raise UnknownCard(repr(code))
        text = code.strip()
        if len(text) == 3 and text.startswith("10"):
            text = "T" + text[2]
        if len(text) != 2:
            raise UnknownCard(code)
        try:
            return _INTERNED[text]
        except KeyError:
            raise UnknownCard(code) from None


_INTERNED: dict[str, Card] = {
    r + s: Card(r, s)
    for ranks, suits in ((GERMAN_RANKS, GERMAN_SUITS), (FRENCH_RANKS, FRENCH_SUITS))
    for r in ranks
    for s in suits
}


def card(code: str) -> Card:
    """Shorthand for `Card.parse`."""
    return Card.parse(code)


def cards(codes: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Parse several codes: a list, or one string separated by spaces."""
    if isinstance(codes, str):
        codes = codes.split()
    return [Card.parse(c) for c in codes]
