"""Packs of cards and the bit-mask card sets the engine computes with.

A pack orders its cards into *slots* 0..n-1; a set of cards is an `int` whose
bit `i` means "slot i". A double pack (Fildinsky) has two slots per card with
the same code; the two copies are interchangeable in play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from engine.cards import (
    CARD_CODES,
    FRENCH_RANKS,
    FRENCH_SUITS,
    GERMAN_RANKS,
    GERMAN_SUITS,
    Card,
)
from engine.errors import UnknownCard


@dataclass(frozen=True)
class Pack:
    """An ordered pack. `cards[i]` is the card in slot `i`."""

    name: str
    family: str  # "german" or "french": decides the names of suits and ranks
    cards: tuple[Card, ...]
    #: The name of a regional pack that differs from the usual one of its size
    #: ("Kelebia"); empty for the usual packs.
    variant: str = ""
    _slots: dict[Card, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _by_index: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        slots: dict[Card, list[int]] = {}
        for i, c in enumerate(self.cards):
            slots.setdefault(c, []).append(i)
        object.__setattr__(self, "_slots", {c: tuple(s) for c, s in slots.items()})
        by_index: list[tuple[int, ...]] = [()] * CARD_CODES
        for c, ss in slots.items():
            by_index[c.index] = tuple(ss)
        object.__setattr__(self, "_by_index", tuple(by_index))

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def full_mask(self) -> int:
        return (1 << len(self.cards)) - 1

    @property
    def copies(self) -> int:
        """How many copies of each card the pack holds (1, or 2 for the double pack)."""
        return max(len(s) for s in self._slots.values())

    @property
    def suits(self) -> tuple[str, ...]:
        return FRENCH_SUITS if self.family == "french" else GERMAN_SUITS

    @property
    def distinct_cards(self) -> tuple[Card, ...]:
        return tuple(self._slots)

    def __contains__(self, c: object) -> bool:
        return isinstance(c, Card) and bool(self._by_index[c.index])

    def parse(self, code: object) -> Card:
        """A card of this pack, or `UnknownCard` naming the pack."""
        try:
            c = Card.parse(code)
        except UnknownCard:
            raise UnknownCard(code, self.name) from None
        if c not in self._slots:
            raise UnknownCard(code, self.name)
        return c

    def slots_of(self, c: Card) -> tuple[int, ...]:
        found = self._by_index[c.index]
        if not found:
            raise UnknownCard(c.code, self.name)
        return found

    def slot(self, c: Card, within: int = -1) -> int:
        """The first slot of card `c` that lies in the set `within` (or -1)."""
        for s in self._by_index[c.index]:
            if within >> s & 1:
                return s
        return -1

    def mask(self, cs: Iterable[Card]) -> int:
        """The set of these cards; a card listed twice takes both copies."""
        m = 0
        for c in cs:
            for s in self.slots_of(c):
                if not m >> s & 1:
                    m |= 1 << s
                    break
            else:
                raise ValueError(f"{c} appears more often than the pack holds it")
        return m

    def cards_of(self, mask: int) -> list[Card]:
        return [self.cards[i] for i in iter_bits(mask)]

    def codes_of(self, mask: int) -> list[str]:
        return [self.cards[i].code for i in iter_bits(mask)]


#: Per byte of slots, the cards of each of its 256 sets (`SlotTables`).
ByteTable = tuple[tuple[Card, ...], ...]


class SlotTables(NamedTuple):
    """A pack's lookup tables for the hot paths (`slot_tables`).

    * `first_slot[card.index]`: the card's first slot, or `pack.size` for a
      card not in the pack (a bit no card set holds, so a bit test fails).
    * `cards_in(mask)`: the cards of the set `mask`, lowest slot first, as a
      tuple joined from ready tuples made once per byte of slots (no `Card`
      is looked up per call). None for a pack with several copies of a card
      (their legal sets name each code once, which joining bytes cannot do).
    * `bytes4`: for a single pack of at most 32 slots, the four byte tables
      `cards_in` joins (empty ones past the pack's end), for callers that
      join them inline: `b0[m & 255] + b1[m >> 8 & 255] + b2[m >> 16 & 255] +
      b3[m >> 24]`. None for other packs.
    """

    first_slot: tuple[int, ...]
    cards_in: Callable[[int], tuple[Card, ...]] | None
    bytes4: tuple[ByteTable, ByteTable, ByteTable, ByteTable] | None


@cache
def slot_tables(pack: Pack) -> SlotTables:
    """`SlotTables` of `pack`, made on its first use (not at import)."""
    first = [pack.size] * CARD_CODES
    for c, slots in pack._slots.items():
        first[c.index] = slots[0]
    if pack.copies > 1:
        return SlotTables(tuple(first), None, None)
    cards = pack.cards
    chunks: list[ByteTable] = []
    for base in range(0, len(cards), 8):
        chunk = cards[base:base + 8]
        chunks.append(tuple(tuple(c for j, c in enumerate(chunk) if b >> j & 1)
                            for b in range(256)))
    if len(chunks) > 4:
        return SlotTables(tuple(first), _joiner(tuple(chunks)), None)
    none: ByteTable = ((),) * 256
    b0, b1, b2, b3 = chunks + [none] * (4 - len(chunks))

    def join4(mask: int) -> tuple[Card, ...]:
        if mask < 256:
            return b0[mask]
        return b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255] + b3[mask >> 24]
    return SlotTables(tuple(first), join4, (b0, b1, b2, b3))


def _joiner(chunks: tuple[ByteTable, ...]) -> Callable[[int], tuple[Card, ...]]:
    """`SlotTables.cards_in` over these byte tables, a loop over the bytes."""
    def join(mask: int) -> tuple[Card, ...]:
        out: tuple[Card, ...] = ()
        for chunk in chunks:
            b = mask & 255
            if b:
                out += chunk[b]
            mask >>= 8
            if not mask:
                break
        return out
    return join


def iter_bits(mask: int) -> Iterator[int]:
    """The slot numbers in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


def _build(name: str, family: str, ranks: Iterable[str], suits: Iterable[str],
           remove: Iterable[str] = (), copies: int = 1, variant: str = "") -> Pack:
    removed = set(remove)
    ranks = tuple(ranks)
    base = [Card(r, s) for s in suits for r in ranks if r + s not in removed]
    return Pack(name, family, tuple(base) * copies, variant)


GERMAN_32 = _build("german32", "german", GERMAN_RANKS, GERMAN_SUITS)
#: The usual 30-card pack of five- and six-player Filkó: no Seven of bells or of leaves.
GERMAN_30 = _build("german30", "german", GERMAN_RANKS, GERMAN_SUITS, remove=("7b", "7l"))
#: Kelebia's 30-card pack: all four Sevens stay, the Eights of leaves and acorns go.
GERMAN_30_KELEBIA = _build("german30_kelebia", "german", GERMAN_RANKS, GERMAN_SUITS,
                           remove=("8l", "8a"), variant="Kelebia")
GERMAN_20 = _build("german20", "german", ("U", "O", "K", "T", "A"), GERMAN_SUITS)
FRENCH_40 = _build("french40", "french", ("2", "3", "4", "5", "6", "7", "J", "Q", "K", "A"),
                   FRENCH_SUITS)
FRENCH_52 = _build("french52", "french", FRENCH_RANKS, FRENCH_SUITS)
#: Fildinsky: two 32-card French packs (7 to Ace), every card twice.
FRENCH_64_DOUBLE = _build("french64double", "french",
                          ("7", "8", "9", "T", "J", "Q", "K", "A"), FRENCH_SUITS, copies=2)

PACKS: dict[str, Pack] = {
    p.name: p
    for p in (GERMAN_32, GERMAN_30, GERMAN_30_KELEBIA, GERMAN_20, FRENCH_40, FRENCH_52,
              FRENCH_64_DOUBLE)
}
