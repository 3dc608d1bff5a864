"""Fildinsky melds (RULES.md §2.D): the meld table, the melds a won pile
allows, and the best-scoring choice.

Melds are made from cards a player has *won* in tricks, never from his hand.
Each card serves in one meld only, ever; the winner of a trick may declare at
most two melds after it, and (option `meld_needs_current_trick_card`, on by
default) every meld must contain a card of the trick just won.

The two copies of a card are interchangeable, so a pile is a multiset of card
codes (a `Counter`). Which physical copy a meld uses matters only for the
trick-card rule: when two melds are declared after one trick, each needs its
*own* card of that trick. `combination_problem` checks that jointly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from engine.cards import Card

SUITS = ("c", "d", "h", "s")

#: The meld table of the source, as (name stem, points).
SEQUENCE_POINTS = 250
ROYAL_MARRIAGE_POINTS = 40
COMMON_MARRIAGE_POINTS = 20
FOUR_POINTS = {"A": 100, "K": 80, "Q": 60, "J": 40}
FOUR_NAMES = {"A": "four_aces", "K": "four_kings", "Q": "four_queens", "J": "four_jacks"}
BEZIQUE_POINTS = 40
DOUBLE_BEZIQUE_POINTS = 500

#: Meld problems, as reason codes of the referee.
CARDS_MISSING = "meld_cards_missing"
NEEDS_TRICK_CARD = "meld_needs_trick_card"
TOO_MANY = "too_many_melds"


@dataclass(frozen=True)
class MeldKind:
    """One line of the meld table for a given trump suit: a name such as
    `royal_marriage` or `marriage_c`, the cards it takes (a multiset) and its
    points."""

    name: str
    cards: tuple[Card, ...]
    points: int

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.cards]


def bezique_cards(trump: str, bezique_pair: str = "fixed") -> tuple[Card, Card]:
    """Q♠ + J♦; with `classic_switch`, Q♣ + J♥ when spades or diamonds are trumps."""
    if bezique_pair == "classic_switch" and trump in ("s", "d"):
        return Card("Q", "c"), Card("J", "h")
    return Card("Q", "s"), Card("J", "d")


def meld_kinds(trump: str, bezique_pair: str = "fixed") -> tuple[MeldKind, ...]:
    """The meld table for this trump suit, in the order of the source."""
    return _meld_kinds(trump, bezique_pair)


@cache
def _meld_kinds(trump: str, bezique_pair: str) -> tuple[MeldKind, ...]:
    if trump not in SUITS:
        raise ValueError(f"{trump!r} is not a French suit letter")
    kinds = [
        MeldKind("sequence", tuple(Card(r, trump) for r in ("A", "T", "K", "Q", "J")),
                 SEQUENCE_POINTS),
        MeldKind("royal_marriage", (Card("K", trump), Card("Q", trump)), ROYAL_MARRIAGE_POINTS),
    ]
    for s in SUITS:
        if s != trump:
            kinds.append(MeldKind(f"marriage_{s}", (Card("K", s), Card("Q", s)),
                                  COMMON_MARRIAGE_POINTS))
    for rank in ("A", "K", "Q", "J"):
        kinds.append(MeldKind(FOUR_NAMES[rank], tuple(Card(rank, s) for s in SUITS),
                              FOUR_POINTS[rank]))
    pair = bezique_cards(trump, bezique_pair)
    kinds.append(MeldKind("bezique", pair, BEZIQUE_POINTS))
    kinds.append(MeldKind("double_bezique", pair + pair, DOUBLE_BEZIQUE_POINTS))
    return tuple(kinds)


def meld_kind(name: str, trump: str, bezique_pair: str = "fixed") -> MeldKind | None:
    """The meld of that name for this trump suit, or None."""
    for k in meld_kinds(trump, bezique_pair):
        if k.name == name:
            return k
    return None


def _counter(cards: Iterable[Card] | Counter[Card] | None) -> Counter[Card] | None:
    if cards is None:
        return None
    if isinstance(cards, Counter):
        return Counter({c: n for c, n in cards.items() if n > 0})
    return Counter(cards)


def _trick_cards_assignable(melds: Sequence[MeldKind], trick: Counter[Card]) -> bool:
    """Can every meld get a card of the trick of its own (one physical copy each)?"""
    if not melds:
        return True
    first, rest = melds[0], melds[1:]
    for c in set(first.cards):
        if trick[c] > 0:
            trick[c] -= 1
            ok = _trick_cards_assignable(rest, trick)
            trick[c] += 1
            if ok:
                return True
    return False


def combination_problem(melds: Sequence[MeldKind], pile: Iterable[Card] | Counter[Card],
                        trick: Iterable[Card] | Counter[Card] | None = None,
                        max_melds: int = 2) -> str | None:
    """Why these melds cannot all be declared after one trick (a reason code),
    or None when they can.

    `pile` is the declarer's won cards not used in any earlier meld (the
    cards of the trick just won included); `trick` is the trick just won when
    every meld must contain one of its cards, else None.
    """
    if len(melds) > max_melds:
        return TOO_MANY
    have = _counter(pile)
    assert have is not None
    need: Counter[Card] = Counter()
    for m in melds:
        need.update(m.cards)
    if any(n > have[c] for c, n in need.items()):
        return CARDS_MISSING
    tricks = _counter(trick)
    if tricks is not None and not _trick_cards_assignable(melds, tricks):
        return NEEDS_TRICK_CARD
    return None


def legal_melds(pile: Iterable[Card] | Counter[Card], trump: str, *,
                trick: Iterable[Card] | Counter[Card] | None = None,
                declared: Sequence[MeldKind] = (), max_melds: int = 2,
                bezique_pair: str = "fixed") -> list[MeldKind]:
    """The melds that may be declared next, in the order of the meld table.

    `pile`: the won cards not used before this trick's declarations; `trick`:
    the trick just won when a meld must contain one of its cards (None when
    not); `declared`: the melds already declared after this trick.
    """
    have = _counter(pile)
    tricks = _counter(trick)
    assert have is not None
    if len(declared) >= max_melds:
        return []
    return [k for k in meld_kinds(trump, bezique_pair)
            if combination_problem([*declared, k], have, tricks, max_melds) is None]


def best_melds(pile: Iterable[Card] | Counter[Card], trump: str, *,
               trick: Iterable[Card] | Counter[Card] | None = None,
               max_melds: int = 2, bezique_pair: str = "fixed") -> tuple[MeldKind, ...]:
    """The choice of at most `max_melds` melds scoring the most now.

    Every combination is tried, not just the best meld first: a meld may take a
    card two smaller melds together would score more with. Among equal scores
    the choice using fewer cards wins (the rest stay for later melds), then the
    earlier melds in the table.
    """
    have = _counter(pile)
    tricks = _counter(trick)
    assert have is not None
    singles = legal_melds(have, trump, trick=tricks, max_melds=max_melds,
                          bezique_pair=bezique_pair)
    order = {k.name: i for i, k in enumerate(meld_kinds(trump, bezique_pair))}
    best: tuple[MeldKind, ...] = ()
    best_key: tuple[int, int, list[int]] = (0, 0, [])
    for size in range(1, max_melds + 1):
        for combo in combinations_with_replacement(singles, size):
            if combination_problem(combo, have, tricks, max_melds) is not None:
                continue
            key = (sum(k.points for k in combo), -sum(len(k.cards) for k in combo),
                   [-order[k.name] for k in combo])
            if key > best_key:
                best, best_key = combo, key
    return best


def melds_points(melds: Iterable[MeldKind]) -> int:
    return sum(m.points for m in melds)
