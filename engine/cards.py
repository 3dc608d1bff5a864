"""Cards as value objects and their two-character codes (see the referee spec).

A card is a rank and a suit. German (William Tell) and French cards share the
same code space; which codes are valid in a game is decided by its pack
(`engine.packs`), so `Th` is the Ten of hearts in either family.
"""

from __future__ import annotations

from engine.errors import UnknownCard

GERMAN_RANKS = ("7", "8", "9", "T", "U", "O", "K", "A")
GERMAN_SUITS = ("a", "l", "h", "b")
FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
FRENCH_SUITS = ("c", "d", "h", "s")

ALL_RANKS = frozenset(GERMAN_RANKS) | frozenset(FRENCH_RANKS)
ALL_SUITS = frozenset(GERMAN_SUITS) | frozenset(FRENCH_SUITS)

_INTERNED: dict[str, Card] = {}

#: Where this suit index appears in `suit_mask` arrays, it means "trumps".
TRUMP = 4


class Card:
    """One card: `Card("O", "a")` is the Over of acorns, written `Oa`.

    Cards are immutable and interned: `Card("O", "a") is Card.parse("Oa")`.
    Each has a small integer `index`, unique across all card codes, which
    packs use to find a card's slots without hashing.
    """

    __slots__ = ("rank", "suit", "code", "index", "_hash")
    rank: str
    suit: str
    code: str
    index: int
    _hash: int

    def __new__(cls, rank: str, suit: str) -> Card:
        found = _INTERNED.get(rank + suit) if isinstance(rank, str) and isinstance(
            suit, str) else None
        if found is not None:
            return found
        if rank not in ALL_RANKS or suit not in ALL_SUITS:
            raise UnknownCard(f"{rank}{suit}")
        self = object.__new__(cls)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "code", rank + suit)
        object.__setattr__(self, "index", len(_INTERNED))
        object.__setattr__(self, "_hash", hash(rank + suit))
        _INTERNED[rank + suit] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.code == other.code
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        return (Card, (self.rank, self.suit))

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


for _ranks, _suits in ((GERMAN_RANKS, GERMAN_SUITS), (FRENCH_RANKS, FRENCH_SUITS)):
    for _s in _suits:
        for _r in _ranks:
            Card(_r, _s)
#: The number of distinct card codes; `Card.index` is below it.
CARD_CODES = len(_INTERNED)


def card(code: str) -> Card:
    """Shorthand for `Card.parse`."""
    return Card.parse(code)


def cards(codes: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Parse several codes: a list, or one string separated by spaces."""
    if isinstance(codes, str):
        codes = codes.split()
    return [Card.parse(c) for c in codes]
