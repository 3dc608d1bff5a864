"""Binding the trump ("legare") in the 20-card Filcău (RULES.md §1.2, §2.C,
FC-A7 … FC-A14).

For a hand and a suit S the *trumps* are the hand's Overs plus its non-Over
cards of S. A hand may bind S with n trumps when it holds at least one Over
and n is 3 or 4; with 4 the single other card (the *farbă*) must not be an
Ace. With 5 the hand is *closed* (închis) in S and may not bind it.

A binding is called as its count and its lowest trump ("three, the Under";
"four, the bells Over"), written `3:U`, `4:Ob`. Bindings compare by count,
then by the lowest trump in the order U < K < T < A < Ob < Oh < Ol < Oa
(FC-A8). The suit is named only by the winner (FC-A14).

Rule 7 ("a player is obliged to bind the highest trump") decides which of a
hand's bindings it must call: the strongest (FC-A11, default) or, with the
option `rule7` = `highest_card_suit` (FC-A11 option C, "name the suit of his
highest trump"), the binding of the suit, among those the hand may bind, whose
own highest card (A > T > K > U) is the highest; between suits whose highest
cards are equal (or that have none), the stronger binding. The Overs do not
choose the suit: they are trumps whatever suit is named and never count as
cards of their printed suit (RULES §2.0, FC-A3), so a hand's highest trump
that has a suit to name is its highest non-Over card of a suit it may bind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import Card

SUITS = ("a", "l", "h", "b")
#: The Overs, high to low: the permanent top trumps.
OVERS = (Card("O", "a"), Card("O", "l"), Card("O", "h"), Card("O", "b"))
#: Lowest trumps, weakest first (FC-A8): a plain rank, or an Over.
LOW_ORDER = ("U", "K", "T", "A", "Ob", "Oh", "Ol", "Oa")
#: Plain ranks, low to high.
PLAIN_ORDER = ("U", "K", "T", "A")
SMALL = frozenset("UK")
BIG = frozenset("TA")


@dataclass(frozen=True, order=True)
class Binding:
    """A call: `count` trumps, the lowest of which is `LOW_ORDER[low]`."""

    count: int
    low: int

    @property
    def call(self) -> str:
        return f"{self.count}:{LOW_ORDER[self.low]}"

    @property
    def lowest(self) -> str:
        return LOW_ORDER[self.low]


def _possible() -> tuple[Binding, ...]:
    """Every binding some hand can make: 3 or 4 trumps, at least one Over; the
    lowest trump an Over needs that many Overs at or above it."""
    out = []
    for count in (3, 4):
        for low, name in enumerate(LOW_ORDER):
            if name.startswith("O") and OVERS.index(Card("O", name[1])) + 1 < count:
                continue
            out.append(Binding(count, low))
    return tuple(out)


POSSIBLE = _possible()
CALLS = tuple(b.call for b in POSSIBLE)


def parse_call(text: str) -> Binding | None:
    """`"3:U"` -> Binding(3, 0); None when no hand could make that call."""
    for b in POSSIBLE:
        if b.call == text:
            return b
    return None


def is_over(c: Card) -> bool:
    return c.rank == "O"


def trumps_in(hand: Iterable[Card], suit: str) -> list[Card]:
    """The cards of `hand` that are trumps if `suit` is named."""
    return [c for c in hand if is_over(c) or c.suit == suit]


def low_index(c: Card) -> int:
    return LOW_ORDER.index(c.code if is_over(c) else c.rank)


def binding_in(hand: Sequence[Card], suit: str) -> Binding | None:
    """The binding `hand` makes in `suit`, or None when it may not bind it."""
    trumps = trumps_in(hand, suit)
    n = len(trumps)
    if n not in (3, 4) or not any(is_over(c) for c in trumps):
        return None
    if n == 4:
        farba = [c for c in hand if c not in trumps]
        if farba and farba[0].rank == "A":
            return None
    return Binding(n, min(low_index(c) for c in trumps))


def closed_suits(hand: Sequence[Card]) -> list[str]:
    """The suits in which the hand holds five trumps (închis)."""
    return [s for s in SUITS if len(trumps_in(hand, s)) == 5]


def bindings(hand: Sequence[Card]) -> dict[str, Binding]:
    """Every suit the hand may bind, with its binding."""
    out = {}
    for s in SUITS:
        b = binding_in(hand, s)
        if b is not None:
            out[s] = b
    return out


def _top_plain(hand: Sequence[Card], suit: str) -> int:
    """The rank of the hand's highest non-Over card of `suit` (-1: none): the
    highest trump `suit` would add to the hand's Overs."""
    ranks = [PLAIN_ORDER.index(c.rank) for c in hand if c.suit == suit and not is_over(c)]
    return max(ranks, default=-1)


def _rule7_key(hand: Sequence[Card], suit: str, b: Binding, rule7: str) -> tuple[int, ...]:
    if rule7 == "highest_card_suit":
        return (_top_plain(hand, suit), b.count, b.low)
    return (b.count, b.low)


def required(hand: Sequence[Card], rule7: str = "strongest") -> Binding | None:
    """The binding rule 7 makes this hand call (None: it cannot bind)."""
    options = bindings(hand)
    if not options:
        return None
    best = max(options, key=lambda s: _rule7_key(hand, s, options[s], rule7))
    return options[best]


def naming_suits(hand: Sequence[Card], rule7: str = "strongest") -> list[str]:
    """The suits the hand may name after winning with its required binding."""
    options = bindings(hand)
    if not options:
        return []
    keys = {s: _rule7_key(hand, s, b, rule7) for s, b in options.items()}
    top = max(keys.values())
    return [s for s in SUITS if keys.get(s) == top]


def highest_over(hand: Iterable[Card]) -> int:
    """Strength of the highest Over held: 4 for Oa … 1 for Ob, 0 for none."""
    held = [len(OVERS) - OVERS.index(c) for c in hand if c in OVERS]
    return max(held, default=0)


def call_refusal(hand: Sequence[Card], call: str, rule7: str = "strongest",
                 compulsory: bool = False, closed_redeal: bool = False) -> str | None:
    """Why this hand may not make `call` ("pass", "closed" or a binding), as a
    reason code; None when it may."""
    must = required(hand, rule7)
    closed = bool(closed_suits(hand))
    if call == "closed":
        if not closed:
            return "binding_not_closed"
        if must is not None and compulsory and not closed_redeal:
            return "must_bind"
        return None
    if closed and closed_redeal:
        return "binding_closed"
    if call == "pass":
        if must is not None and compulsory:
            return "must_bind"
        if closed:
            return "binding_closed"
        return None
    b = parse_call(call)
    if b is None or b not in bindings(hand).values():
        return "binding_not_eligible"
    if b != must:
        return "binding_rule7"
    return None
